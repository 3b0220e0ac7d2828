// SPDX-License-Identifier: GPL-2.0
/*
 * An image refused at resume because its anchor could not be cleared is
 * still on its target, and the next boot would restore it over whatever
 * this boot changes.  Its anchor is tried again while this boot runs: a
 * device that failed early in the boot may be back (a path failover, a
 * bus or USB reset, a cable).  Each try is an invalidate action, so it
 * waits for no cycle and is skipped while one runs; the work is
 * freezable, so it never runs while tasks are frozen.
 */
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include "../internal.h"
#include "stale.h"

#define S2_STALE_RETRY_SEC	5

static DEFINE_MUTEX(s2_stale_lock);
/* Under s2_stale_lock: the profile of the image, while one waits. */
static struct s2_settings s2_stale_set;
static bool s2_stale_pending;

static void s2_stale_retry(struct work_struct *work);
static DECLARE_DELAYED_WORK(s2_stale_work, s2_stale_retry);

static void s2_stale_again(void)
{
	queue_delayed_work(system_freezable_wq, &s2_stale_work,
			   S2_STALE_RETRY_SEC * HZ);
}

static void s2_stale_retry(struct work_struct *work)
{
	int error;

	mutex_lock(&s2_stale_lock);
	if (!s2_stale_pending) {
		mutex_unlock(&s2_stale_lock);
		return;
	}
	error = s2_action_run(S2_ACT_INVALIDATE, &s2_stale_set, NULL);
	if (!error) {
		pr_info("the refused image on %s is invalidated now: no boot can restore it\n",
			s2_stale_set.target);
		s2_stale_pending = false;
	}
	mutex_unlock(&s2_stale_lock);
	if (error)
		s2_stale_again();
}

void s2_stale_watch(const struct s2_settings *set)
{
	mutex_lock(&s2_stale_lock);
	s2_stale_set = *set;
	s2_stale_pending = true;
	mutex_unlock(&s2_stale_lock);
	pr_warn("trying the anchor on %s again every %d s while this boot runs\n",
		set->target, S2_STALE_RETRY_SEC);
	s2_stale_again();
}

void s2_stale_exit(void)
{
	cancel_delayed_work_sync(&s2_stale_work);
	if (s2_stale_pending)
		pr_warn("unloaded with the refused image on %s still valid: run hibernate --invalidate\n",
			s2_stale_set.target);
}
