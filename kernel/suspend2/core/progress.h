/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress on the console: one line that grows by a step every 10%,
 * "suspend2: Writing image: 0%..10%..20%.. ..100% done".
 */
#ifndef _SUSPEND2_PROGRESS_H
#define _SUSPEND2_PROGRESS_H

#include <linux/math64.h>
#include <linux/printk.h>

struct s2_progress {
	u64 total;
	unsigned int shown;	/* last percentage printed */
};

static inline void s2_progress_start(struct s2_progress *p, const char *what,
				     u64 total)
{
	p->total = total ? total : 1;
	p->shown = 0;
	pr_info("suspend2: %s: 0%%", what);
}

static inline void s2_progress_update(struct s2_progress *p, u64 done)
{
	unsigned int pct = div64_u64(done * 100, p->total);

	while (p->shown + 10 <= pct && p->shown < 100) {
		p->shown += 10;
		pr_cont("..%u%%", p->shown);
	}
}

static inline void s2_progress_end(struct s2_progress *p)
{
	s2_progress_update(p, p->total);
	pr_cont(" done\n");
}

#endif /* _SUSPEND2_PROGRESS_H */
