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

#include <linux/errno.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include <linux/types.h>

struct block_device;
struct file;
struct s2_settings;
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
	/* Optional: releases what open took besides the files below. */
	void (*close)(struct s2_writer *w);
	/* Writes the resume location of @target, "DEVICE:PAGE\n", to @buf. */
	ssize_t (*locate)(const char *target, char *buf);
};

/* A run of pages of a file that are contiguous on the device. */
struct s2_extent {
	u64 file_page;
	u64 dev_page;
	u64 len;
};

struct s2_writer {
	const struct s2_writer_ops *ops;
	struct file *bdev_file;		/* the device, when opened by us */
	struct block_device *bdev;
	u64 anchor_page;	/* where struct s2_anchor lives */
	int swap_type;		/* swap writers: the swap area */
	bool force;		/* bdev: accept a device in use */
	bool pinned;		/* file: S_SWAPFILE set by us */
	struct file *file;	/* swapfile, file: the target file */
	/* file, bdev: the usable pages and how far reservation got */
	struct s2_extent *ext;
	u32 nr_ext;
	u32 cur_ext;
	u64 cur_off;
	u64 usable;
	u64 reserved;
};

extern const struct s2_writer_ops s2_swap_writer;
extern const struct s2_writer_ops s2_swapfile_writer;
extern const struct s2_writer_ops s2_file_writer;
extern const struct s2_writer_ops s2_bdev_writer;

const struct s2_writer_ops *s2_writer_find(const char *name);
int s2_writer_validate_bdev(const char *target);
extern const struct s2_writer_ops * const s2_writers[];	/* NULL-ended */

int s2_writer_open(struct s2_writer *w, const struct s2_settings *set,
		   bool for_image);
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

/* Helpers shared by the writers (writer.c, filemap.c). */
bool s2_location_parse(const char *target, char *dev, size_t size,
		       u64 *page);
int s2_writer_open_bdev(struct s2_writer *w, const char *path,
			bool exclusive);
int s2_extents_reserve(struct s2_writer *w, u64 *page);
int s2_file_open(struct s2_writer *w, const char *target);
int s2_file_page(struct s2_writer *w, u64 file_page, u64 *dev_page,
		 const char *target);
int s2_file_map(struct s2_writer *w, const char *target, bool pin);
void s2_file_unpin(struct s2_writer *w);
ssize_t s2_file_locate(const char *target, char *buf);

#endif /* _SUSPEND2_WRITER_H */
