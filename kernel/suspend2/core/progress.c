// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line (see progress.h).  printk cannot rewrite a line: each
 * record ends with a newline on every console.  So the line goes to
 * /dev/console itself, as init's messages do, with a carriage return
 * before each update.
 *
 * A write to /dev/console can block however it is opened: while user
 * space has redirected the console (TIOCCONS, as plymouth does) it goes
 * to the redirect's own file, and a frozen reader never drains it.  So a
 * thread of its own opens the console and writes the line, and the cycle
 * only hands it the counts: the cycle waits for it a bounded time at the
 * end and never longer.  A thread stuck in a write holds a reference to
 * the module and its own state, and ends when the reader drains it after
 * the thaw (or with the kernel, at power off or restore).
 */
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/kthread.h>
#include <linux/major.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/refcount.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stat.h>
#include <linux/tty.h>
#include <linux/wait.h>
#include "progress.h"

/* Often enough to look live, seldom enough to cost nothing on a serial line. */
#define S2_PROGRESS_EVERY_NS	(250 * NSEC_PER_MSEC)
#define S2_PROGRESS_LINE	128
/* How long the cycle waits for the console: to open it, for the last line. */
#define S2_PROGRESS_WAIT	(HZ / 2)

/*
 * Counts past any real memory (a hostile header's image_pages) are shown
 * as this many, so that no product below can wrap.
 */
#define S2_PROGRESS_MAX_PAGES	BIT_ULL(40)

static const char s2_bar[] = "##########..........";

/* What the cycle and the console thread share; the last put frees it. */
struct s2_progress_line {
	refcount_t ref;
	spinlock_t lock;		/* done, total, gen, end, error */
	wait_queue_head_t wait;
	struct completion opened;	/* the thread knows if it has a console */
	struct completion ended;	/* the last line is out */
	bool console;			/* valid once opened completed */
	const char *what;
	ktime_t start;
	u64 done, total;
	unsigned int gen;		/* bumped by each update */
	bool end;
	int error;
};

static u64 s2_mib(u64 pages)
{
	return div_u64(min(pages, S2_PROGRESS_MAX_PAGES) * PAGE_SIZE, SZ_1M);
}

int s2_progress_format(char *buf, size_t len, const char *what, u64 done,
		       u64 total, u64 elapsed_ns)
{
	u64 bytes, mbps = 0, left;
	int pct, n;

	total = min(total, S2_PROGRESS_MAX_PAGES);
	done = min(done, total);
	pct = total ? div64_u64(done * 100, total) : 100;
	bytes = done * PAGE_SIZE;
	n = scnprintf(buf, len, "suspend2: %s [%.10s] %3d%%  %llu/%llu MiB",
		      what, s2_bar + 10 - pct / 10, pct, s2_mib(done),
		      s2_mib(total));
	/* No speed before a tenth of a second: it would be noise. */
	if (elapsed_ns >= NSEC_PER_SEC / 10 && bytes)
		mbps = div_u64(mul_u64_u64_div_u64(bytes, NSEC_PER_SEC,
						   elapsed_ns), 1000000);
	if (mbps && done < total) {
		/* Rounded up: "0 s left" only when nothing is. */
		left = div64_u64((total - done) * PAGE_SIZE + mbps * 1000000 - 1,
				 mbps * 1000000);
		n += scnprintf(buf + n, len - n, "  %llu MB/s  %llu s left",
			       mbps, left);
	} else if (mbps) {
		n += scnprintf(buf + n, len - n, "  %llu MB/s", mbps);
	}
	return n;
}

static void s2_progress_log_tenth(struct s2_progress *p, u64 done)
{
	u64 total = min(p->total, S2_PROGRESS_MAX_PAGES);
	int pct = div64_u64(min(done, total) * 100, total);

	if (pct < p->shown + 10)
		return;
	p->shown = pct - pct % 10;
	pr_info("suspend2: %s [%.10s] %3d%%\n", p->what,
		s2_bar + 10 - p->shown / 10, p->shown);
}

static void s2_line_put(struct s2_progress_line *l)
{
	if (refcount_dec_and_test(&l->ref))
		kfree(l);
}

/*
 * The console device itself (5:1), looked up from init's root by this
 * kernel thread: not a node of the caller's root or mount namespace.
 */
static struct file *s2_console_open(void)
{
	struct file *f;
	struct inode *inode;

	f = filp_open("/dev/console", O_WRONLY | O_NOCTTY | O_NONBLOCK, 0);
	if (IS_ERR(f))
		return NULL;
	inode = file_inode(f);
	if (!S_ISCHR(inode->i_mode) ||
	    inode->i_rdev != MKDEV(TTYAUX_MAJOR, 1)) {
		filp_close(f, NULL);
		return NULL;
	}
	return f;
}

/* One update: CR, the line, spaces over what a longer one left, @end. */
static size_t s2_line_put_text(struct file *f, struct s2_progress_line *l,
			       size_t last, const char *end)
{
	char text[S2_PROGRESS_LINE + 64];
	size_t n, len;
	loff_t pos = 0;
	u64 done, total;
	ktime_t start;

	spin_lock(&l->lock);
	done = l->done;
	total = l->total;
	start = l->start;
	spin_unlock(&l->lock);
	text[0] = '\r';
	len = s2_progress_format(text + 1, S2_PROGRESS_LINE, l->what, done,
				 total,
				 ktime_to_ns(ktime_sub(ktime_get(), start)));
	n = 1 + len;
	while (n < sizeof(text) - 8 && n - 1 < last)
		text[n++] = ' ';
	n += scnprintf(text + n, sizeof(text) - n, "%s", end);
	kernel_write(f, text, n, &pos);
	return len;
}

static int s2_progress_thread(void *data)
{
	struct s2_progress_line *l = data;
	struct file *f = s2_console_open();
	unsigned int seen = 0, gen;
	size_t last = 0;
	bool end;
	int error;

	l->console = f;
	complete(&l->opened);
	while (f) {
		wait_event_interruptible(l->wait, READ_ONCE(l->gen) != seen ||
					 READ_ONCE(l->end));
		spin_lock(&l->lock);
		gen = l->gen;
		end = l->end;
		error = l->error;
		spin_unlock(&l->lock);
		if (end) {
			s2_line_put_text(f, l, last, error ? "  stopped\n" : "\n");
			/* Out before the summary printk, not mixed into it. */
			tty_wait_until_sent(((struct tty_file_private *)
					     f->private_data)->tty,
					    S2_PROGRESS_WAIT);
			filp_close(f, NULL);
			complete(&l->ended);
			break;
		}
		if (gen != seen) {
			seen = gen;
			last = s2_line_put_text(f, l, last, "");
		}
	}
	s2_line_put(l);
	module_put_and_kthread_exit(0);
}

static struct s2_progress_line *s2_line_start(const char *what, u64 total,
					      ktime_t start)
{
	struct s2_progress_line *l = kzalloc(sizeof(*l), GFP_KERNEL);
	struct task_struct *t;

	if (!l)
		return NULL;
	refcount_set(&l->ref, 2);	/* the cycle's and the thread's */
	spin_lock_init(&l->lock);
	init_waitqueue_head(&l->wait);
	init_completion(&l->opened);
	init_completion(&l->ended);
	l->what = what;
	l->total = total;
	l->start = start;
	l->gen = 1;			/* the first line, at 0 */
	__module_get(THIS_MODULE);
	t = kthread_run(s2_progress_thread, l, "suspend2/progress");
	if (IS_ERR(t)) {
		module_put(THIS_MODULE);
		kfree(l);
		return NULL;
	}
	/* An open stuck on the way (a FUSE root): the log will do. */
	if (!wait_for_completion_timeout(&l->opened, S2_PROGRESS_WAIT) ||
	    !l->console) {
		spin_lock(&l->lock);
		l->end = true;
		spin_unlock(&l->lock);
		wake_up(&l->wait);
		s2_line_put(l);
		return NULL;
	}
	return l;
}

void s2_progress_start(struct s2_progress *p, const char *what, u64 total)
{
	p->what = what;
	p->total = total ? total : 1;
	p->done = 0;
	p->shown = -10;
	p->start = ktime_get();
	p->shown_at = p->start;
	/* Before the line starts, so that the line does not run into it. */
	pr_info("suspend2: %s: %llu MiB\n", what, s2_mib(total));
	p->line = s2_line_start(what, p->total, p->start);
	if (!p->line)
		s2_progress_log_tenth(p, 0);
}

void s2_progress_update(struct s2_progress *p, u64 done)
{
	ktime_t now;

	p->done = done;
	if (!p->line) {
		s2_progress_log_tenth(p, done);
		return;
	}
	now = ktime_get();
	if (ktime_to_ns(ktime_sub(now, p->shown_at)) < S2_PROGRESS_EVERY_NS)
		return;
	p->shown_at = now;
	spin_lock(&p->line->lock);
	p->line->done = done;
	p->line->gen++;
	spin_unlock(&p->line->lock);
	wake_up(&p->line->wait);
}

void s2_progress_end(struct s2_progress *p, int error)
{
	u64 ms = ktime_ms_delta(ktime_get(), p->start);
	u64 mbps = ms ? div64_u64(min(p->done, S2_PROGRESS_MAX_PAGES) *
				  PAGE_SIZE, ms * 1000) : 0;
	u32 ms_rem;
	u64 s = div_u64_rem(ms, 1000, &ms_rem);

	if (p->line) {
		struct s2_progress_line *l = p->line;

		spin_lock(&l->lock);
		l->done = p->done;
		l->error = error;
		l->end = true;
		spin_unlock(&l->lock);
		wake_up(&l->wait);
		/* Not longer: a console that does not drain is not waited for. */
		wait_for_completion_timeout(&l->ended, 2 * S2_PROGRESS_WAIT);
		s2_line_put(l);
		p->line = NULL;
	} else if (!error) {
		s2_progress_log_tenth(p, p->total);
	}
	if (error)
		pr_info("suspend2: %s stopped after %llu of %llu pages (%pe)\n",
			p->what, p->done, p->total, ERR_PTR(error));
	else
		pr_info("suspend2: %s done: %llu MiB in %llu.%03u s (%llu MB/s)\n",
			p->what, s2_mib(p->done), s, ms_rem, mbps);
}
