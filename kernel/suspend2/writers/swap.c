// SPDX-License-Identifier: GPL-2.0
/*
 * The swap writers: the image goes into free slots of an active swap
 * area, reserved through the kernel's own allocator so swapped-out data is
 * never overwritten, and the anchor replaces mkswap's signature in the
 * area's first page, as swsusp does.  "swap" is a swap partition (anchor at
 * page 0), "swapfile" a swap file (anchor at the device page holding the
 * file's first page, which the swap area's first extent starts at).
 */
#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hibernation_core.h>
#include <linux/swap.h>
#include <linux/sysfs.h>
#include "../internal.h"
#include "writer.h"

static int swap_open(struct s2_writer *w, const char *target, bool for_image)
{
	int error = s2_writer_open_bdev(w, target, false);

	if (error)
		return error;
	w->anchor_page = 0;
	if (for_image) {
		w->swap_type = swap_type_of(w->bdev->bd_dev, 0);
		if (w->swap_type < 0) {
			pr_err("suspend2: %s is not an active swap area\n",
			       target);
			return -ENODEV;
		}
	}
	return 0;
}

static u64 swap_free_bytes(struct s2_writer *w)
{
	return (u64)count_swap_pages(w->swap_type, 1) << PAGE_SHIFT;
}

static int swap_reserve_page(struct s2_writer *w, u64 *page)
{
	sector_t block = alloc_swapdev_block(w->swap_type);

	if (!block)
		return -ENOSPC;
	*page = block;
	return 0;
}

static void swap_free_pages(struct s2_writer *w)
{
	if (w->swap_type >= 0)
		free_all_swap_pages(w->swap_type);
}

static ssize_t swap_locate(const char *target, char *buf)
{
	return sysfs_emit(buf, "%s:0\n", target);
}

static int swapfile_validate(const char *target)
{
	struct s2_writer w = {};
	int error = s2_file_open(&w, target);

	if (w.file)
		fput(w.file);
	return error;
}

/* @target is the swap file, or (for_image only) its resume location. */
static int swapfile_open(struct s2_writer *w, const char *target,
			 bool for_image)
{
	char dev[S2_TARGET_MAX];
	int error;

	if (s2_location_parse(target, dev, sizeof(dev), &w->anchor_page)) {
		error = s2_writer_open_bdev(w, dev, false);
	} else {
		error = s2_file_open(w, target);
		if (!error)
			error = s2_file_page(w, 0, &w->anchor_page, target);
		if (!error && for_image && !IS_SWAPFILE(file_inode(w->file))) {
			pr_err("suspend2: %s is not an active swap file\n",
			       target);
			error = -ENODEV;
		}
	}
	if (error || !for_image)
		return error;
	w->swap_type = swap_type_of(w->bdev->bd_dev, w->anchor_page);
	if (w->swap_type < 0) {
		pr_err("suspend2: %s: no active swap area starts at page %llu of %pg\n",
		       target, w->anchor_page, w->bdev);
		return -ENODEV;
	}
	w->anchor_page = swapdev_block(w->swap_type, 0);
	pr_info("suspend2: %s: resume location /dev/%pg:%llu\n", target,
		w->bdev, w->anchor_page);
	return 0;
}

static ssize_t swapfile_locate(const char *target, char *buf)
{
	return s2_file_locate(target, buf);
}

const struct s2_writer_ops s2_swapfile_writer = {
	.name = "swapfile",
	.validate = swapfile_validate,
	.open = swapfile_open,
	.free_bytes = swap_free_bytes,
	.reserve_page = swap_reserve_page,
	.free_pages = swap_free_pages,
	.locate = swapfile_locate,
};

const struct s2_writer_ops s2_swap_writer = {
	.name = "swap",
	.validate = s2_writer_validate_bdev,
	.open = swap_open,
	.free_bytes = swap_free_bytes,
	.reserve_page = swap_reserve_page,
	.free_pages = swap_free_pages,
	.locate = swap_locate,
};
