// SPDX-License-Identifier: GPL-2.0
/*
 * Results of the last cycle.  The cycle writes them, configfs reads them;
 * one mutex keeps a reader from seeing half of an update.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include "../internal.h"

static DEFINE_MUTEX(s2_results_mutex);
static struct s2_results s2_results;

#define S2_STATUS_NAME(id, name)	#name,
const char * const s2_status_names[S2_NR_STATUS] = {
	S2_STATUSES(S2_STATUS_NAME)
};

struct s2_results *s2_results_lock(void)
{
	mutex_lock(&s2_results_mutex);
	return &s2_results;
}

void s2_results_unlock(void)
{
	mutex_unlock(&s2_results_mutex);
}

void s2_results_get(struct s2_results *out)
{
	mutex_lock(&s2_results_mutex);
	*out = s2_results;
	mutex_unlock(&s2_results_mutex);
}

void s2_results_begin(const struct s2_settings *set, const char *profile)
{
	struct s2_results *r = s2_results_lock();

	memset(r, 0, sizeof(*r));
	r->status = S2_ST_RUNNING;
	strscpy(r->profile, profile, sizeof(r->profile));
	strscpy(r->writer, set->writer, sizeof(r->writer));
	strscpy(r->compressor, set->compressor, sizeof(r->compressor));
	r->checksum = set->checksum;
	r->encryption = set->encryption;
	s2_results_unlock();
}

/* Records the first error of a cycle, in words, and logs it. */
void s2_results_set_error(int error, const char *fmt, ...)
{
	struct s2_results *r = s2_results_lock();
	va_list args;

	if (!r->error) {
		r->error = error;
		va_start(args, fmt);
		vscnprintf(r->error_msg, sizeof(r->error_msg), fmt, args);
		va_end(args);
		pr_err("%s (%pe)\n", r->error_msg, ERR_PTR(error));
	}
	s2_results_unlock();
}

/*
 * Says, in results/error, how a cycle that did not fail ended early on
 * purpose (a pm_test level): no errno, so the cycle still counts as passed.
 */
void s2_results_note(const char *fmt, ...)
{
	struct s2_results *r = s2_results_lock();
	va_list args;

	if (!r->error && !r->error_msg[0]) {
		va_start(args, fmt);
		vscnprintf(r->error_msg, sizeof(r->error_msg), fmt, args);
		va_end(args);
	}
	s2_results_unlock();
}
