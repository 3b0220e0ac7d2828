// SPDX-License-Identifier: GPL-2.0
/*
 * results/: the last cycle, one read-only value per attribute.
 */
#include <linux/err.h>
#include <linux/sched/loadavg.h>
#include <linux/slab.h>
#include "configfs.h"

/* Formats from a consistent copy of the results. */
static ssize_t s2_results_show(char *page,
			       ssize_t (*show)(const struct s2_results *r,
					       char *page))
{
	struct s2_results *r = kmalloc(sizeof(*r), GFP_KERNEL);
	ssize_t ret;

	if (!r)
		return -ENOMEM;
	s2_results_get(r);
	ret = show(r, page);
	kfree(r);
	return ret;
}

static ssize_t format_error(const struct s2_results *r, char *page)
{
	/* A cycle that passed may still say where pm_test stopped it. */
	if (!r->error)
		return sysfs_emit(page, "%s\n", r->error_msg);
	return sysfs_emit(page, "%pe: %s\n", ERR_PTR(r->error), r->error_msg);
}

/* The /proc/loadavg format, rounded the same way. */
static ssize_t format_loads(const unsigned long loads[3], char *page)
{
	unsigned long a = loads[0] + FIXED_1 / 200;
	unsigned long b = loads[1] + FIXED_1 / 200;
	unsigned long c = loads[2] + FIXED_1 / 200;

	return sysfs_emit(page, "%lu.%02lu %lu.%02lu %lu.%02lu\n",
			  LOAD_INT(a), LOAD_FRAC(a), LOAD_INT(b), LOAD_FRAC(b),
			  LOAD_INT(c), LOAD_FRAC(c));
}

/* One "PID COMM" line per task; an empty file when none refused. */
static ssize_t format_refused_tasks(const struct s2_results *r, char *page)
{
	int len = strlen(r->refused_tasks);

	if (!len)
		return 0;
	return sysfs_emit(page, "%.*s\n", len - 1, r->refused_tasks);
}

/* The attributes of names.h's table, formatted by their kind. */
#define S2_FORMAT_name(name)	"%s\n", s2_##name##_names[r->name]
#define S2_FORMAT_text(name)	"%s\n", r->name
#define S2_FORMAT_u32(name)	"%u\n", r->name
#define S2_FORMAT_u64(name)	"%llu\n", r->name
#define S2_FORMAT_yesno(name)	"%s\n", r->name ? "yes" : "no"

#define S2_FORMATTER(name, kind)					\
static ssize_t format_##name(const struct s2_results *r, char *page)	\
{									\
	return sysfs_emit(page, S2_FORMAT_##kind(name));		\
}

#define S2_FORMATTER_own(...)

#define S2_FORMATTER_loads(name, ...)					\
static ssize_t format_##name(const struct s2_results *r, char *page)	\
{									\
	return format_loads(r->name, page);				\
}

#define S2_FORMATTER_name	S2_FORMATTER
#define S2_FORMATTER_text	S2_FORMATTER
#define S2_FORMATTER_u32	S2_FORMATTER
#define S2_FORMATTER_u64	S2_FORMATTER
#define S2_FORMATTER_yesno	S2_FORMATTER

#define S2_RESULT_ATTR(name, kind)					\
S2_FORMATTER_##kind(name, kind)						\
static ssize_t s2_results_##name##_show(struct config_item *item,	\
					char *page)			\
{									\
	return s2_results_show(page, format_##name);			\
}									\
CONFIGFS_ATTR_RO(s2_results_, name);

/* time_<phase>_us, one per row of S2_PHASES. */
#define S2_PHASE_ATTR(id, name, ...)					\
static ssize_t format_time_##name##_us(const struct s2_results *r,	\
				       char *page)			\
{									\
	return sysfs_emit(page, "%llu\n", r->time_us[S2_PH_##id]);	\
}									\
static ssize_t s2_results_time_##name##_us_show(struct config_item *item, \
						char *page)		\
{									\
	return s2_results_show(page, format_time_##name##_us);		\
}									\
CONFIGFS_ATTR_RO(s2_results_, time_##name##_us);

S2_RESULTS_HEAD(S2_RESULT_ATTR)
S2_PHASES(S2_PHASE_ATTR)
S2_RESULTS_TAIL(S2_RESULT_ATTR)

#define S2_RESULT_PTR(name, ...)	&s2_results_attr_##name,
#define S2_PHASE_PTR(id, name, ...)	&s2_results_attr_time_##name##_us,
static struct configfs_attribute *s2_results_attrs[] = {
	S2_RESULTS_HEAD(S2_RESULT_PTR)
	S2_PHASES(S2_PHASE_PTR)
	S2_RESULTS_TAIL(S2_RESULT_PTR)
	NULL,
};

const struct config_item_type s2_results_type = {
	.ct_attrs = s2_results_attrs,
	.ct_owner = THIS_MODULE,
};
