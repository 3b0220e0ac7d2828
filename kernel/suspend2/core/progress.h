/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress on the console: a bar at every tenth of the way,
 * "suspend2: Writing image [#####.....]  50%", eleven lines in all.
 */
#ifndef _SUSPEND2_PROGRESS_H
#define _SUSPEND2_PROGRESS_H

#include <linux/math64.h>
#include <linux/printk.h>

struct s2_progress {
	const char *what;
	u64 total;
	int shown;		/* last percentage printed, -10 before any */
};

static inline void s2_progress_update(struct s2_progress *p, u64 done)
{
	static const char bar[] = "##########..........";
	int pct = div64_u64(done * 100, p->total);

	if (pct < p->shown + 10)
		return;
	p->shown = pct - pct % 10;
	pr_info("suspend2: %s [%.10s] %3d%%\n", p->what,
		bar + 10 - p->shown / 10, p->shown);
}

static inline void s2_progress_start(struct s2_progress *p, const char *what,
				     u64 total)
{
	p->what = what;
	p->total = total ? total : 1;
	p->shown = -10;
	s2_progress_update(p, 0);
}

static inline void s2_progress_end(struct s2_progress *p)
{
	s2_progress_update(p, p->total);
}

#endif /* _SUSPEND2_PROGRESS_H */
