/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Image writers.  The cycle only sees this interface: open the target,
 * reserve pages for the image one at a time, give them back, close.  The
 * I/O itself goes through io.h on the writer's block device, and every
 * location is a page number on that device, whatever the writer.
 *
 * A target names what the writer works on (a swap partition, a swap file,
 * a plain file, a block device).  For reading an image back, any target
 * may also be given as a resume location "DEVICE:PAGE" (the device and the
 * page of the anchor): that is all resume needs, and it is what the
 * initramfs has when the filesystem holding a file is not mounted.
 */
#ifndef _SUSPEND2_WRITER_H
#define _SUSPEND2_WRITER_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include <linux/types.h>

struct block_device;
struct file;
struct s2_settings;
struct s2_writer;

/*
 * s2_writer_ops.flags.  FILE: the target is a file, its resume location
 * that of its first page.  WRITES_TO_LOCATION: the resume location does
 * for writing an image too (the swap area that starts there has the rest).
 */
#define S2_WRITER_FILE			BIT(0)
#define S2_WRITER_WRITES_TO_LOCATION	BIT(1)

struct s2_writer_ops {
	const char *name;
	unsigned int flags;		/* S2_WRITER_* */
	size_t priv_size;		/* of w->priv, zeroed at open */
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
	/* Optional: true when what open found is no longer there. */
	bool (*gone)(struct s2_writer *w);
	/* Optional: releases what open took besides the device and w->priv. */
	void (*close)(struct s2_writer *w);
};

/* A run of pages of a file that are contiguous on the device. */
struct s2_extent {
	u64 file_page;
	u64 dev_page;
	u64 len;
};

/*
 * The pages an image may use, as extents, and how far reservation got:
 * the file and bdev writers hand out pages from such a list, in order.
 */
struct s2_extents {
	struct s2_extent *ext;
	u32 nr;
	u32 cap;
	u32 cur;		/* extent the next page comes from */
	u64 off;		/* and its page there */
	u64 usable;		/* pages in all extents */
	u64 reserved;
};

/* An open target; what only one writer needs is in its w->priv. */
struct s2_writer {
	const struct s2_writer_ops *ops;
	struct file *bdev_file;		/* the device, when opened by us */
	struct block_device *bdev;
	u64 anchor_page;	/* where struct s2_anchor lives */
	bool force;		/* bdev: accept a device in use */
	void *priv;
};

extern const struct s2_writer_ops s2_swap_writer;
extern const struct s2_writer_ops s2_swapfile_writer;
extern const struct s2_writer_ops s2_file_writer;
extern const struct s2_writer_ops s2_bdev_writer;

/* What configfs asks of the writers, by name or by the handle found. */
const char *s2_writer_name(unsigned int i);
const struct s2_writer_ops *s2_writer_find(const char *name);
int s2_writer_validate(const struct s2_writer_ops *ops, const char *target);
int s2_writer_locate(const struct s2_writer_ops *ops, const char *target,
		     char *dev, size_t size, u64 *page);

/* What the cycle asks of an open target. */
int s2_writer_open(struct s2_writer *w, const struct s2_settings *set,
		   bool for_image);
bool s2_writer_gone(struct s2_writer *w);
void s2_writer_close(struct s2_writer *w);

/*
 * The syntax of a resume location, "DEVICE:PAGE" (e.g. /dev/vdb:34816):
 * the part after the last colon must be a decimal number and hold no
 * slash, so a plain path is never taken for a location.  A device name
 * that itself ends in ":N" (/dev/disk/by-id/usb-Foo_0:0) matches too:
 * s2_location_parse() settles that by looking the whole name up first.
 * Pure, for the KUnit suite.
 */
static inline bool s2_location_split(const char *target, char *dev,
				     size_t size, u64 *page)
{
	const char *colon = strrchr(target, ':');
	size_t len;

	if (!colon || colon == target || !colon[1] || strchr(colon, '/'))
		return false;
	if (kstrtou64(colon + 1, 10, page))
		return false;
	len = colon - target;
	if (len >= size)
		return false;
	memcpy(dev, target, len);
	dev[len] = '\0';
	return true;
}

/*
 * log2 of the filesystem blocks in a page of 1 << @page_shift bytes, for
 * blocks of 1 << @blkbits bytes; -EOPNOTSUPP when a block is bigger than
 * a page (xfs allows that since 6.12), where a page is a part of a block
 * and PAGE_SHIFT - i_blkbits would wrap around.  Pure, for KUnit.
 */
static inline int s2_blocks_per_page_shift(unsigned int blkbits,
					   unsigned int page_shift)
{
	if (!blkbits || blkbits > page_shift)
		return -EOPNOTSUPP;
	return page_shift - blkbits;
}

/* Helpers shared by the writers. */
bool s2_location_parse(const char *target, char *dev, size_t size,
		       u64 *page);
int s2_writer_open_bdev(struct s2_writer *w, const char *path,
			bool exclusive);
int s2_writer_validate_bdev(const char *target);

/*
 * extent.c: a list of extents and the pages reserved from it.  The ones
 * that take @w are ops of writers whose w->priv starts with the list.
 */
int s2_extents_add(struct s2_extents *x, u64 file_page, u64 dev_page,
		   u64 len);
int s2_extents_reserve(struct s2_writer *w, u64 *page);
u64 s2_extents_free_bytes(struct s2_writer *w);
void s2_extents_rewind(struct s2_writer *w);
void s2_extents_free(struct s2_extents *x);

/* extent.c: one extent of ->fiemap, as the file writer maps it. */
struct s2_fiemap_step {
	u64 gap_end;		/* pages before the extent's: bmap() */
	u64 end;		/* the extent's whole pages end here */
	u64 dev_page;		/* of page gap_end, when plain */
	bool plain;		/* written, page-aligned: no bmap() needed */
};

void s2_fiemap_step(u64 next, u64 pages, u64 logical, u64 phys, u64 len,
		    u32 flags, struct s2_fiemap_step *s);

/* filemap.c: a file's pages mapped to device pages, pinned for a cycle. */
struct s2_file_target {
	struct file *file;
	struct block_device *bdev;	/* under the file's filesystem */
	bool pinned;			/* S_SWAPFILE set by us */
};

int s2_file_open(struct s2_file_target *ft, const char *target);
int s2_file_page(struct s2_file_target *ft, u64 file_page, u64 *dev_page,
		 const char *target);
int s2_file_map(struct s2_file_target *ft, struct s2_extents *x,
		u64 *anchor_page, const char *target, bool pin);
void s2_file_close(struct s2_file_target *ft);
int s2_file_locate(const char *target, char *dev, size_t size, u64 *page);

#endif /* _SUSPEND2_WRITER_H */
