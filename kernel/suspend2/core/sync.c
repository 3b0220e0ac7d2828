// SPDX-License-Identifier: GPL-2.0
/*
 * The sync after the freeze, which must never wait forever.
 *
 * suspend2 promises that nothing written with write(2) before the freeze
 * is lost, even when the image is never resumed, so it syncs after user
 * space is frozen.  Such a sync can wait on a frozen task: dirty pages and
 * inode times on a FUSE mount are written through its daemon, ext4 on NBD
 * or on a loop device whose file is on FUSE through a server in user
 * space.  ksys_sync() waits for those forever, with the system half
 * frozen.
 *
 * The cycle therefore syncs twice:
 *  - before the freeze, everything, as mainline does (cycle.c): every
 *    server still runs, so what is dirty then reaches its filesystem and
 *    what is left for the second sync is what was written in between;
 *  - after the freeze, here: in a kernel thread, FUSE superblocks first
 *    (so that a stall there can be named), then everything.  The caller
 *    waits as long as writeback makes progress (pages written back,
 *    sectors written to a disk); after S2_SYNC_STALL_MS without any, or
 *    S2_SYNC_MAX_MS in all, the cycle fails with ETIMEDOUT and a message
 *    naming the FUSE mount it waited on, the caller thaws, and the
 *    thread's sync completes once the servers run again.
 *
 * Why not skip, after the freeze, what depends on user space?  Which
 * filesystems do cannot be told in general: a FUSE superblock is easy to
 * recognise, but ext4 on a loop device over a FUSE file, on NBD, ublk or
 * tcmu-runner's iSCSI, or device-mapper over any of these is not, and
 * skipping even FUSE would silently drop the guarantee for it (iterating
 * all superblocks is not even possible here: iterate_supers() is not
 * exported).  A bounded wait catches every such stack, keeps the guarantee
 * whenever the cycle goes on, and otherwise fails in words.  A stall
 * rather than a total time is the bound because how long a legitimate
 * sync takes depends on the disk; S2_SYNC_MAX_MS only stops a sync that
 * stays stuck while unrelated kernel I/O keeps the counters moving.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/part_stat.h>
#include <linux/refcount.h>
#include <linux/sched/debug.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/suspend.h>
#include <linux/vmstat.h>
#include "../internal.h"
#include "sync.h"

#define S2_SYNC_POLL_MS	1000

/* Filesystems whose every write goes through a user-space server. */
static const char * const s2_user_fs[] = { "fuse", "fuseblk" };

/* Shared by the waiter and the thread; the last of the two frees it. */
struct s2_sync_job {
	refcount_t ref;
	struct completion done;
	spinlock_t lock;	/* protects where */
	char where[40];		/* the FUSE superblock being synced, or "" */
};

static void s2_sync_put(struct s2_sync_job *job)
{
	if (refcount_dec_and_test(&job->ref))
		kfree(job);
}

/* "fuse.sshfs 0:42": the type, and the device as in /proc/self/mountinfo. */
static void s2_sync_where(struct s2_sync_job *job, struct super_block *sb)
{
	spin_lock(&job->lock);
	if (sb)
		scnprintf(job->where, sizeof(job->where), "%s%s%s %u:%u",
			  sb->s_type->name, sb->s_subtype ? "." : "",
			  sb->s_subtype ?: "", MAJOR(sb->s_dev),
			  MINOR(sb->s_dev));
	else
		job->where[0] = '\0';
	spin_unlock(&job->lock);
}

static void s2_sync_user_sb(struct super_block *sb, void *arg)
{
	s2_sync_where(arg, sb);
	sync_filesystem(sb);
}

static int s2_sync_thread(void *arg)
{
	struct s2_sync_job *job = arg;
	struct file_system_type *type;
	size_t i;

	/*
	 * With user space frozen, get_fs_type() of a filesystem that is not
	 * registered fails at once (no usermode helper): then none is mounted.
	 */
	for (i = 0; i < ARRAY_SIZE(s2_user_fs); i++) {
		type = get_fs_type(s2_user_fs[i]);
		if (!type)
			continue;
		iterate_supers_type(type, s2_sync_user_sb, job);
		module_put(type->owner);
	}
	s2_sync_where(job, NULL);
	ksys_sync_helper();
	complete(&job->done);
	s2_sync_put(job);
	/* This code is the module's: it stays loaded until we are gone. */
	module_put_and_kthread_exit(0);
}

/*
 * What moves while writeback does: pages written back, and sectors written
 * and flushes completed on every block device (a journal commit writes no
 * page cache page; VM event counters may be configured out).
 */
static unsigned long s2_sync_progress(void)
{
	struct super_block *sb = blockdev_superblock;
	unsigned long n = global_node_page_state(NR_WRITTEN);
	struct block_device *bdev;
	struct inode *inode;

	/*
	 * As sync_bdevs() walks them.  bdev_alloc() puts the inode on the
	 * list before it allocates the statistics: skip it until it has.
	 */
	spin_lock(&sb->s_inode_list_lock);
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		spin_lock(&inode->i_lock);
		bdev = I_BDEV(inode);
		if (S_ISBLK(inode->i_mode) && READ_ONCE(bdev->bd_stats) &&
		    !(inode->i_state & (I_FREEING | I_WILL_FREE | I_NEW)))
			n += part_stat_read(bdev, sectors[STAT_WRITE]) +
			     part_stat_read(bdev, ios[STAT_FLUSH]);
		spin_unlock(&inode->i_lock);
	}
	spin_unlock(&sb->s_inode_list_lock);
	return n;
}

static void s2_sync_give_up(struct s2_sync_job *job, struct task_struct *task,
			    unsigned long stalled, unsigned long total)
{
	unsigned int secs = jiffies_to_msecs(stalled) / 1000;
	char where[sizeof(job->where)];

	spin_lock(&job->lock);
	strscpy(where, job->where, sizeof(where));
	spin_unlock(&job->lock);

	pr_warn("the sync after the freeze is stuck; where it waits:\n");
	sched_show_task(task);
	if (time_after_eq(total, msecs_to_jiffies(S2_SYNC_MAX_MS)))
		s2_results_set_error(-ETIMEDOUT,
				     "sync after the freeze took over %u s%s%s",
				     S2_SYNC_MAX_MS / 1000,
				     where[0] ? ", on " : "", where);
	else if (where[0])
		s2_results_set_error(-ETIMEDOUT,
				     "sync stalled %u s after the freeze on %s, served by a frozen task",
				     secs, where);
	else
		s2_results_set_error(-ETIMEDOUT,
				     "sync stalled %u s after the freeze: a disk or filesystem waits on a frozen task",
				     secs);
}

/*
 * Syncs with user space frozen.  Returns 0 once everything is written, or
 * -ETIMEDOUT (recorded) when the sync stopped making progress: the caller
 * must then thaw, which lets the sync finish in the background.
 */
int s2_sync_after_freeze(void)
{
	unsigned long start, moved, now, progress, last;
	struct task_struct *task;
	struct s2_sync_job *job;
	int error = 0;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		s2_results_set_error(-ENOMEM, "no memory for the sync after the freeze");
		return -ENOMEM;
	}
	refcount_set(&job->ref, 2);
	init_completion(&job->done);
	spin_lock_init(&job->lock);

	task = kthread_create(s2_sync_thread, job, "s2_sync");
	if (IS_ERR(task)) {
		kfree(job);
		s2_results_set_error(PTR_ERR(task), "cannot start the sync after the freeze");
		return PTR_ERR(task);
	}
	/* The thread may outlive this call: it holds the module until it ends. */
	__module_get(THIS_MODULE);
	get_task_struct(task);
	wake_up_process(task);

	start = jiffies;
	moved = start;
	last = s2_sync_progress();
	while (!wait_for_completion_timeout(&job->done,
					    msecs_to_jiffies(S2_SYNC_POLL_MS))) {
		now = jiffies;
		progress = s2_sync_progress();
		if (progress != last) {
			last = progress;
			moved = now;
		}
		if (time_before(now, moved + msecs_to_jiffies(S2_SYNC_STALL_MS)) &&
		    time_before(now, start + msecs_to_jiffies(S2_SYNC_MAX_MS)))
			continue;
		s2_sync_give_up(job, task, now - moved, now - start);
		error = -ETIMEDOUT;
		break;
	}
	put_task_struct(task);
	s2_sync_put(job);
	return error;
}
