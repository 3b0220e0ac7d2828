// SPDX-License-Identifier: GPL-2.0
/*
 * The phased freezer, seed 003's idea in today's kernel: user space is
 * frozen first, then the caller syncs (so that nothing written before the
 * freeze can be lost, even if the image is never resumed), and the
 * freezable kernel threads are frozen last, by hibernation_snapshot().
 * The caller also syncs before the freeze, as mainline does, and its sync
 * after the freeze is bounded: core/sync.c says why.
 *
 * The freezer's notifier tells us which tasks refused and how long the
 * kernel-thread phase took; both are recorded in the results.
 */
#include <linux/freezer.h>
#include <linux/ktime.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "../internal.h"
#include "freezer.h"

static struct s2_freezer *s2_current_freezer;

#define S2_WAKEUP_ABORTED \
	"a wakeup event (key, button, device) aborted the freeze"

/* Called in atomic context: no sleeping, no results mutex. */
static char s2_refused[S2_REFUSED_MAX];
static size_t s2_refused_len;

static int s2_freezer_event(struct notifier_block *nb, unsigned long event,
			    void *data)
{
	struct task_struct *p = data;

	switch (event) {
	case FREEZER_TASK_REFUSED:
		s2_refused_len += scnprintf(s2_refused + s2_refused_len,
					    sizeof(s2_refused) - s2_refused_len,
					    "%d %s\n", task_pid_nr(p), p->comm);
		break;
	case FREEZER_WAKEUP_ABORTED:
		if (s2_current_freezer)
			s2_current_freezer->wakeup_aborted = true;
		break;
	case FREEZER_USER_FROZEN:
		if (s2_current_freezer)
			s2_current_freezer->user_frozen = true;
		break;
	case FREEZER_KERNEL_FROZEN:
		if (s2_current_freezer)
			s2_current_freezer->kernel_freeze_us =
				ktime_to_us(*(ktime_t *)data);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block s2_freezer_nb = {
	.notifier_call = s2_freezer_event,
};

static unsigned int s2_refused_count(void)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < s2_refused_len; i++)
		n += s2_refused[i] == '\n';
	return n;
}

static void s2_refused_to_results(void)
{
	struct s2_results *r = s2_results_lock();

	strscpy(r->refused_tasks, s2_refused, sizeof(r->refused_tasks));
	s2_results_unlock();
}

/*
 * Freezes user space with the profile's timeout.  The timeout stays in
 * force for the kernel-thread phase too; s2_freezer_done() puts the
 * kernel's own value back.
 */
int s2_freeze_user(struct s2_freezer *fz, unsigned int timeout_ms)
{
	unsigned int n;
	int error;

	fz->kernel_freeze_us = 0;
	fz->user_frozen = false;
	fz->wakeup_aborted = false;
	fz->timeout_ms = timeout_ms;
	fz->saved_timeout_ms = freeze_timeout_msecs;
	freeze_timeout_msecs = timeout_ms;
	s2_refused_len = 0;
	s2_refused[0] = '\0';
	s2_current_freezer = fz;
	register_freezer_notifier(&s2_freezer_nb);

	error = freeze_processes();
	if (!error)
		return 0;
	/*
	 * A freeze that fails with no task refusing ended otherwise: say
	 * how, rather than "0 tasks refused".
	 */
	n = s2_refused_count();
	if (fz->wakeup_aborted) {
		s2_results_set_error(error, S2_WAKEUP_ABORTED);
	} else if (fz->user_frozen) {
		s2_results_set_error(error,
				     "user space froze, but the OOM killer stayed on past %u ms",
				     timeout_ms);
	} else if (!n) {
		s2_results_set_error(error,
				     "the freeze failed with no task left running (a usermode helper?)");
	} else {
		s2_refused_to_results();
		s2_results_set_error(error, "%u task%s refused to freeze within %u ms",
				     n, n == 1 ? "" : "s", timeout_ms);
	}
	return error;
}

/*
 * hibernation_snapshot() failed: if it was because kernel threads refused
 * to freeze (its first step), record that, as for user space, before the
 * caller records a vaguer error (the first error recorded wins).
 */
void s2_freezer_snapshot_failed(struct s2_freezer *fz, int error)
{
	unsigned int n = s2_refused_count();

	if (fz->wakeup_aborted) {
		s2_results_set_error(error, S2_WAKEUP_ABORTED);
		return;
	}
	if (!n)
		return;
	s2_refused_to_results();
	s2_results_set_error(error, "%u kernel thread%s refused to freeze within %u ms",
			     n, n == 1 ? "" : "s", fz->timeout_ms);
}

void s2_freezer_done(struct s2_freezer *fz)
{
	if (s2_refused_len)
		s2_refused_to_results();
	unregister_freezer_notifier(&s2_freezer_nb);
	s2_current_freezer = NULL;
	freeze_timeout_msecs = fz->saved_timeout_ms;
}
