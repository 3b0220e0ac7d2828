// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line (see progress.h).  printk cannot rewrite a line: each
 * record ends with a newline on every console.  So the line goes to
 * /dev/console itself, as init's messages do, with a carriage return
 * before each update.  Opened non-blocking: a console stopped by flow
 * control, or redirected to a pty whose reader is frozen, returns EAGAIN
 * and costs an update, never a hang of the cycle.
 */
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/sizes.h>
#include <linux/stat.h>
#include "progress.h"

/* Often enough to look live, seldom enough to cost nothing on a serial line. */
#define S2_PROGRESS_EVERY_NS	(250 * NSEC_PER_MSEC)
#define S2_PROGRESS_LINE	128

static const char s2_bar[] = "##########..........";

/*
 * Counts past any real memory (a hostile header's image_pages) are shown
 * as this many, so that no product below can wrap.
 */
#define S2_PROGRESS_MAX_PAGES	(1ULL << 40)

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
		left = div64_u64((total - done) * PAGE_SIZE, mbps * 1000000);
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

static void s2_progress_put(struct s2_progress *p, const char *end)
{
	char line[S2_PROGRESS_LINE + 4];
	loff_t pos = 0;
	int n;

	line[0] = '\r';
	n = 1 + s2_progress_format(line + 1, S2_PROGRESS_LINE, p->what,
				   p->done, p->total,
				   ktime_to_ns(ktime_sub(ktime_get(),
							 p->start)));
	/* Spaces over what a longer line before left, then @end. */
	n += scnprintf(line + n, sizeof(line) - n, "  %s", end);
	kernel_write(p->tty, line, n, &pos);
}

static struct file *s2_console_open(void)
{
	struct file *f;

	/* No file system context (a kernel thread): the log must do. */
	if (!current->fs)
		return NULL;
	f = filp_open("/dev/console", O_WRONLY | O_NOCTTY | O_NONBLOCK, 0);
	if (IS_ERR(f))
		return NULL;
	if (!S_ISCHR(file_inode(f)->i_mode)) {
		filp_close(f, NULL);
		return NULL;
	}
	return f;
}

void s2_progress_start(struct s2_progress *p, const char *what, u64 total)
{
	p->what = what;
	p->total = total ? total : 1;
	p->done = 0;
	p->shown = -10;
	p->start = ktime_get();
	p->shown_at = p->start;
	p->tty = s2_console_open();
	pr_info("suspend2: %s: %llu pages (%llu MiB)%s\n", what, total,
		s2_mib(total), p->tty ? "" : ", progress in this log");
	if (p->tty)
		s2_progress_put(p, "");
	else
		s2_progress_log_tenth(p, 0);
}

void s2_progress_update(struct s2_progress *p, u64 done)
{
	ktime_t now;

	p->done = done;
	if (!p->tty) {
		s2_progress_log_tenth(p, done);
		return;
	}
	now = ktime_get();
	if (ktime_to_ns(ktime_sub(now, p->shown_at)) < S2_PROGRESS_EVERY_NS)
		return;
	p->shown_at = now;
	s2_progress_put(p, "");
}

void s2_progress_end(struct s2_progress *p, int error)
{
	u64 ms = ktime_ms_delta(ktime_get(), p->start);
	u64 mbps = ms ? div64_u64(p->done * PAGE_SIZE, ms * 1000) : 0;
	u32 ms_rem;
	u64 s = div_u64_rem(ms, 1000, &ms_rem);

	if (p->tty) {
		s2_progress_put(p, error ? "stopped\n" : "\n");
		filp_close(p->tty, NULL);
		p->tty = NULL;
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
