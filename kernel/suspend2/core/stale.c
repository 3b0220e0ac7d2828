// SPDX-License-Identifier: GPL-2.0
/*
 * An image refused at resume because its anchor could not be cleared is
 * still on its target, and the next boot would restore it over whatever
 * this boot changes.  Its anchor is tried again while this boot runs: a
 * device that failed early in the boot may be back (a path failover, a
 * bus or USB reset, a cable).  The first retry comes after
 * S2_STALE_RETRY_SEC, each later one after twice the wait, at most
 * S2_STALE_RETRY_MAX_SEC: a device that never comes back is not hammered
 * for the whole uptime.  The work is freezable, so it never runs while
 * tasks are frozen.
 *
 * A retry runs as an invalidate action, with the cycle mutex, but it is
 * no user's: a user's action waits for a retry in progress instead of
 * failing busy (s2_stale_hold()), and profile edits go on meanwhile
 * (s2_stale_retrying(); the retry has its own copy of the settings).
 */
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include "../internal.h"
#include "stale.h"

#define S2_STALE_RETRY_SEC	5
#define S2_STALE_RETRY_MAX_SEC	300

static DEFINE_MUTEX(s2_stale_lock);
/* Under s2_stale_lock: the profile of the image, while one waits. */
static struct s2_settings s2_stale_set;
static bool s2_stale_pending;
static unsigned int s2_stale_wait_sec;
/* Under s2_stale_lock: the module is going, no more retries. */
static bool s2_stale_closed;
/* A retry holds the cycle mutex: not a user's cycle. */
static bool s2_stale_running;

static void s2_stale_retry(struct work_struct *work);
static DECLARE_DELAYED_WORK(s2_stale_work, s2_stale_retry);

/* Under s2_stale_lock. */
static void s2_stale_again(void)
{
	if (!s2_stale_closed)
		queue_delayed_work(system_freezable_wq, &s2_stale_work,
				   s2_stale_wait_sec * HZ);
}

static void s2_stale_retry(struct work_struct *work)
{
	int error;

	mutex_lock(&s2_stale_lock);
	if (!s2_stale_pending) {
		mutex_unlock(&s2_stale_lock);
		return;
	}
	WRITE_ONCE(s2_stale_running, true);
	error = s2_action_run(S2_ACT_INVALIDATE, &s2_stale_set, NULL);
	WRITE_ONCE(s2_stale_running, false);
	if (!error) {
		pr_info("the refused image on %s is invalidated now: no boot can restore it\n",
			s2_stale_set.target);
		s2_stale_pending = false;
	} else {
		s2_stale_wait_sec = min(2 * s2_stale_wait_sec,
					S2_STALE_RETRY_MAX_SEC);
		pr_info("the refused image on %s is still there (%pe): next try in %u s\n",
			s2_stale_set.target, ERR_PTR(error),
			s2_stale_wait_sec);
		s2_stale_again();
	}
	mutex_unlock(&s2_stale_lock);
}

void s2_stale_watch(const struct s2_settings *set)
{
	mutex_lock(&s2_stale_lock);
	if (s2_stale_pending && strcmp(s2_stale_set.target, set->target))
		pr_warn("no longer trying the refused image on %s: run hibernate --invalidate for it\n",
			s2_stale_set.target);
	s2_stale_set = *set;
	s2_stale_pending = true;
	s2_stale_wait_sec = S2_STALE_RETRY_SEC;
	s2_stale_again();
	mutex_unlock(&s2_stale_lock);
	pr_warn("trying the anchor on %s again while this boot runs\n",
		set->target);
}

bool s2_stale_retrying(void)
{
	return READ_ONCE(s2_stale_running);
}

void s2_stale_hold(void)
{
	cancel_delayed_work_sync(&s2_stale_work);
}

void s2_stale_release(enum s2_action action, const struct s2_settings *set,
		      int error)
{
	mutex_lock(&s2_stale_lock);
	/*
	 * The user's own invalidate, or a cycle that wrote (and consumed)
	 * a new image over the old one's anchor, leaves nothing to retry.
	 */
	if (s2_stale_pending && !error &&
	    (action == S2_ACT_INVALIDATE || action == S2_ACT_HIBERNATE) &&
	    !strcmp(s2_stale_set.target, set->target)) {
		pr_info("the refused image on %s is gone: no boot can restore it\n",
			s2_stale_set.target);
		s2_stale_pending = false;
	}
	if (s2_stale_pending)
		s2_stale_again();
	mutex_unlock(&s2_stale_lock);
}

void s2_stale_exit(void)
{
	mutex_lock(&s2_stale_lock);
	s2_stale_closed = true;
	mutex_unlock(&s2_stale_lock);
	cancel_delayed_work_sync(&s2_stale_work);
	if (s2_stale_pending)
		pr_warn("unloaded with the refused image on %s still valid: run hibernate --invalidate\n",
			s2_stale_set.target);
}
