// SPDX-License-Identifier: GPL-2.0
/*
 * The block device writer: a dedicated partition or whole disk that is
 * neither swap nor a mounted filesystem.  The anchor is page 0, the image
 * takes pages from 1 on, in order.  The device is held exclusively during
 * the cycle; one that is mounted, active swap or claimed by anyone else is
 * refused unless the profile sets force.
 */
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/sysfs.h>
#include "writer.h"

static const char *bdev_busy_reason(struct block_device *bdev)
{
	if (swap_type_of(bdev->bd_dev, 0) >= 0)
		return "is an active swap area";
	if (bdev->bd_holder_ops == &fs_holder_ops)
		return "is mounted";
	return "is in use by another holder";
}

static int bdev_open(struct s2_writer *w, const char *target, bool for_image)
{
	u64 pages;
	int error;

	w->anchor_page = 0;
	if (!for_image)
		return s2_writer_open_bdev(w, target, false);
	error = s2_writer_open_bdev(w, target, true);
	if (error == -EBUSY) {
		const char *why;

		error = s2_writer_open_bdev(w, target, false);
		if (error)
			return error;
		why = bdev_busy_reason(w->bdev);
		if (!w->force) {
			pr_err("suspend2: %s %s: refusing it (the profile's force=1 overrides)\n",
			       target, why);
			return -EBUSY;
		}
		pr_warn("suspend2: %s %s: writing the image there anyway (force=1)\n",
			target, why);
	} else if (error) {
		return error;
	}
	pages = bdev_nr_bytes(w->bdev) >> PAGE_SHIFT;
	if (pages < 2)
		return -ENOSPC;
	w->ext = kvmalloc(sizeof(*w->ext), GFP_KERNEL);
	if (!w->ext)
		return -ENOMEM;
	w->ext[0] = (struct s2_extent){
		.file_page = 1, .dev_page = 1, .len = pages - 1,
	};
	w->nr_ext = 1;
	w->usable = pages - 1;
	return 0;
}

static u64 bdev_free_bytes(struct s2_writer *w)
{
	return (w->usable - w->reserved) << PAGE_SHIFT;
}

static void bdev_free_pages(struct s2_writer *w)
{
	w->cur_ext = 0;
	w->cur_off = 0;
	w->reserved = 0;
}

static ssize_t bdev_locate(const char *target, char *buf)
{
	return sysfs_emit(buf, "%s:0\n", target);
}

const struct s2_writer_ops s2_bdev_writer = {
	.name = "bdev",
	.validate = s2_writer_validate_bdev,
	.open = bdev_open,
	.free_bytes = bdev_free_bytes,
	.reserve_page = s2_extents_reserve,
	.free_pages = bdev_free_pages,
	.locate = bdev_locate,
};
