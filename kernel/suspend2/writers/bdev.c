// SPDX-License-Identifier: GPL-2.0
/*
 * The block device writer: a dedicated partition or whole disk that is
 * neither swap nor a mounted filesystem.  The anchor is page 0, the image
 * takes pages from 1 on, in order.  The device is held exclusively during
 * the cycle; one that is mounted, active swap or claimed by anyone else is
 * refused unless the profile sets force.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/swap.h>
#include "writer.h"

static const char *s2_bdev_busy_reason(struct block_device *bdev)
{
	if (swap_type_of(bdev->bd_dev, 0) >= 0)
		return "is an active swap area";
	if (bdev->bd_holder_ops == &fs_holder_ops)
		return "is mounted";
	return "is in use by another holder";
}

/* w->priv is a struct s2_extents: the pages after the anchor. */
static int s2_bdev_open(struct s2_writer *w, const char *target,
			bool for_image)
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
		why = s2_bdev_busy_reason(w->bdev);
		if (!w->force) {
			pr_err("%s %s: refusing it (the profile's force=1 overrides)\n",
			       target, why);
			return -EBUSY;
		}
		pr_warn("%s %s: writing the image there anyway (force=1)\n",
			target, why);
	} else if (error) {
		return error;
	}
	pages = bdev_nr_bytes(w->bdev) >> PAGE_SHIFT;
	if (pages < 2)
		return -ENOSPC;
	return s2_extents_add(w->priv, 1, 1, pages - 1);
}

static void s2_bdev_close(struct s2_writer *w)
{
	s2_extents_free(w->priv);
}

const struct s2_writer_ops s2_bdev_writer = {
	.name = "bdev",
	.priv_size = sizeof(struct s2_extents),
	.validate = s2_writer_validate_bdev,
	.open = s2_bdev_open,
	.free_bytes = s2_extents_free_bytes,
	.reserve_page = s2_extents_reserve,
	.free_pages = s2_extents_rewind,
	.close = s2_bdev_close,
};
