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

#define S2_RESULT_ATTR(_name, _fmt, ...)				\
static ssize_t format_##_name(const struct s2_results *r, char *page)	\
{									\
	return sysfs_emit(page, _fmt "\n", __VA_ARGS__);		\
}									\
static ssize_t s2_results_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return s2_results_show(page, format_##_name);			\
}									\
CONFIGFS_ATTR_RO(s2_results_, _name)

#define S2_PHASE_ATTR(_phase, _index)					\
	S2_RESULT_ATTR(time_##_phase##_us, "%llu", r->time_us[_index])

S2_RESULT_ATTR(status, "%s", s2_status_names[r->status]);
S2_RESULT_ATTR(profile, "%s", r->profile);
S2_RESULT_ATTR(writer, "%s", r->writer);
S2_RESULT_ATTR(compressor, "%s", r->compressor);
S2_RESULT_ATTR(checksum, "%s", s2_checksum_names[r->checksum]);
S2_PHASE_ATTR(freeze_user, S2_PH_FREEZE_USER);
S2_PHASE_ATTR(sync, S2_PH_SYNC);
S2_PHASE_ATTR(freeze_kernel, S2_PH_FREEZE_KERNEL);
S2_PHASE_ATTR(snapshot, S2_PH_SNAPSHOT);
S2_PHASE_ATTR(write, S2_PH_WRITE);
S2_PHASE_ATTR(read, S2_PH_READ);
S2_PHASE_ATTR(restore, S2_PH_RESTORE);
S2_PHASE_ATTR(thaw, S2_PH_THAW);
S2_RESULT_ATTR(offline_ms, "%llu", r->offline_ms);
S2_RESULT_ATTR(image_pages, "%llu", r->image_pages);
S2_RESULT_ATTR(bytes_raw, "%llu", r->bytes_raw);
S2_RESULT_ATTR(bytes_written, "%llu", r->bytes_written);
S2_RESULT_ATTR(write_kbps, "%llu", r->write_kbps);
S2_RESULT_ATTR(read_kbps, "%llu", r->read_kbps);
S2_RESULT_ATTR(verified, "%s", r->verified ? "yes" : "no");
S2_RESULT_ATTR(threads, "%u", r->threads);
S2_RESULT_ATTR(pipeline_bytes, "%llu", r->pipeline_bytes);
S2_RESULT_ATTR(write_cpu_wait_us, "%llu", r->write_cpu_wait_us);
S2_RESULT_ATTR(write_io_wait_us, "%llu", r->write_io_wait_us);
S2_RESULT_ATTR(read_cpu_wait_us, "%llu", r->read_cpu_wait_us);
S2_RESULT_ATTR(read_io_wait_us, "%llu", r->read_io_wait_us);

static ssize_t format_error(const struct s2_results *r, char *page)
{
	/* A cycle that passed may still say where pm_test stopped it. */
	if (!r->error)
		return sysfs_emit(page, "%s\n", r->error_msg);
	return sysfs_emit(page, "%pe: %s\n", ERR_PTR(r->error), r->error_msg);
}

static ssize_t s2_results_error_show(struct config_item *item, char *page)
{
	return s2_results_show(page, format_error);
}
CONFIGFS_ATTR_RO(s2_results_, error);

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

#define S2_LOADS_ATTR(_name)						\
static ssize_t format_##_name(const struct s2_results *r, char *page)	\
{									\
	return format_loads(r->_name, page);				\
}									\
static ssize_t s2_results_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return s2_results_show(page, format_##_name);			\
}									\
CONFIGFS_ATTR_RO(s2_results_, _name)

S2_LOADS_ATTR(avenrun_saved);
S2_LOADS_ATTR(avenrun_thaw);
S2_LOADS_ATTR(avenrun_restored);

/* One "PID COMM" line per task; an empty file when none refused. */
static ssize_t format_refused_tasks(const struct s2_results *r, char *page)
{
	int len = strlen(r->refused_tasks);

	if (!len)
		return 0;
	return sysfs_emit(page, "%.*s\n", len - 1, r->refused_tasks);
}

static ssize_t s2_results_refused_tasks_show(struct config_item *item,
					     char *page)
{
	return s2_results_show(page, format_refused_tasks);
}
CONFIGFS_ATTR_RO(s2_results_, refused_tasks);

static struct configfs_attribute *s2_results_attrs[] = {
	&s2_results_attr_status,
	&s2_results_attr_error,
	&s2_results_attr_profile,
	&s2_results_attr_writer,
	&s2_results_attr_compressor,
	&s2_results_attr_checksum,
	&s2_results_attr_time_freeze_user_us,
	&s2_results_attr_time_sync_us,
	&s2_results_attr_time_freeze_kernel_us,
	&s2_results_attr_time_snapshot_us,
	&s2_results_attr_time_write_us,
	&s2_results_attr_time_read_us,
	&s2_results_attr_time_restore_us,
	&s2_results_attr_time_thaw_us,
	&s2_results_attr_offline_ms,
	&s2_results_attr_image_pages,
	&s2_results_attr_bytes_raw,
	&s2_results_attr_bytes_written,
	&s2_results_attr_write_kbps,
	&s2_results_attr_read_kbps,
	&s2_results_attr_verified,
	&s2_results_attr_threads,
	&s2_results_attr_pipeline_bytes,
	&s2_results_attr_write_cpu_wait_us,
	&s2_results_attr_write_io_wait_us,
	&s2_results_attr_read_cpu_wait_us,
	&s2_results_attr_read_io_wait_us,
	&s2_results_attr_avenrun_saved,
	&s2_results_attr_avenrun_thaw,
	&s2_results_attr_avenrun_restored,
	&s2_results_attr_refused_tasks,
	NULL,
};

const struct config_item_type s2_results_type = {
	.ct_attrs = s2_results_attrs,
	.ct_owner = THIS_MODULE,
};
