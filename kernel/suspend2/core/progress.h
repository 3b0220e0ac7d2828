/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress of the image write and read.  On the console one line that
 * updates in place, with the bar, the bytes, the speed and the time left:
 * "suspend2: Writing image [#####.....]  50%  120/240 MiB  60 MB/s  2 s
 * left".  The kernel log keeps only the start and the outcome, unless the
 * console cannot be opened: then it gets a bar at each tenth instead.
 */
#ifndef _SUSPEND2_PROGRESS_H
#define _SUSPEND2_PROGRESS_H

#include <linux/ktime.h>
#include <linux/types.h>

struct s2_progress_line;

struct s2_progress {
	const char *what;
	u64 total;		/* pages */
	u64 done;
	ktime_t start;
	ktime_t shown_at;	/* last console update */
	int shown;		/* last percentage logged, -10 before any */
	struct s2_progress_line *line;	/* NULL: log lines */
};

void s2_progress_start(struct s2_progress *p, const char *what, u64 total);
void s2_progress_update(struct s2_progress *p, u64 done);
/* Ends the line and logs the outcome; @error 0 when all was done. */
void s2_progress_end(struct s2_progress *p, int error);

/* The console line for @done of @total pages after @elapsed_ns, for KUnit. */
int s2_progress_format(char *buf, size_t len, const char *what, u64 done,
		       u64 total, u64 elapsed_ns);

#endif /* _SUSPEND2_PROGRESS_H */
