/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Image writers.  The cycle only sees this interface: open the target,
 * reserve pages for the image one at a time, give them back, close.  The
 * I/O itself goes through io.h on the writer's block device.
 */
#ifndef _SUSPEND2_WRITER_H
#define _SUSPEND2_WRITER_H

#include <linux/types.h>

struct block_device;
struct file;
struct s2_writer;

struct s2_writer_ops {
	const char *name;
	/* Checks that @target suits this writer, when a profile names it. */
	int (*validate)(const char *target);
	/* Opens the target for writing an image (@for_image) or reading one. */
	int (*open)(struct s2_writer *w, const char *target, bool for_image);
	/* Bytes that can still be reserved for an image. */
	u64 (*free_bytes)(struct s2_writer *w);
	/* Reserves one page of the target for the image. */
	int (*reserve_page)(struct s2_writer *w, u64 *page);
	/* Gives back every page reserved since open. */
	void (*free_pages)(struct s2_writer *w);
	void (*close)(struct s2_writer *w);
};

struct s2_writer {
	const struct s2_writer_ops *ops;
	struct file *bdev_file;
	struct block_device *bdev;
	u64 anchor_page;	/* where struct s2_anchor lives */
	int swap_type;		/* swap writers: the swap area */
};

extern const struct s2_writer_ops s2_swap_writer;

const struct s2_writer_ops *s2_writer_find(const char *name);
extern const struct s2_writer_ops * const s2_writers[];	/* NULL-ended */

int s2_writer_open(struct s2_writer *w, const char *name, const char *target,
		   bool for_image);
void s2_writer_close(struct s2_writer *w);

#endif /* _SUSPEND2_WRITER_H */
