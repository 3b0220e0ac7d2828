// SPDX-License-Identifier: GPL-2.0
/*
 * s2_nofreeze: a kernel thread that is freezable but never freezes, for
 * the fault scenario f-nofreeze.  It marks itself freezable (so the
 * freezer waits for it) and then sleeps in a loop that never calls
 * try_to_freeze(), the way a buggy driver thread would.  The freezer
 * gives up after its timeout and names "s2_nofreeze" as the task that
 * refused.  rmmod stops the thread.
 */
#include <linux/err.h>
#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>

static struct task_struct *s2_nofreeze_task;

static int s2_nofreeze_fn(void *unused)
{
	set_freezable();
	while (!kthread_should_stop()) {
		/* Interruptible but not TASK_FREEZABLE: never frozen asleep. */
		schedule_timeout_interruptible(HZ / 20);
	}
	return 0;
}

static int __init s2_nofreeze_init(void)
{
	s2_nofreeze_task = kthread_run(s2_nofreeze_fn, NULL, "s2_nofreeze");
	if (IS_ERR(s2_nofreeze_task))
		return PTR_ERR(s2_nofreeze_task);
	pr_info("s2_nofreeze: thread %d ignores the freezer\n",
		task_pid_nr(s2_nofreeze_task));
	return 0;
}

static void __exit s2_nofreeze_exit(void)
{
	kthread_stop(s2_nofreeze_task);
	pr_info("s2_nofreeze: thread stopped\n");
}

module_init(s2_nofreeze_init);
module_exit(s2_nofreeze_exit);
MODULE_DESCRIPTION("suspend2 fault suite: a kernel thread that refuses to freeze");
MODULE_LICENSE("GPL");
