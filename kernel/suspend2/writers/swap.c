// SPDX-License-Identifier: GPL-2.0
/*
 * The swap-partition writer: the image goes into free slots of an active
 * swap area, reserved through the kernel's own allocator so swapped-out
 * data is never overwritten, and the anchor replaces mkswap's signature in
 * the area's first page, as swsusp does.
 */
#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hibernation_core.h>
#include <linux/swap.h>
#include "writer.h"

static int swap_validate(const char *target)
{
	dev_t dev;
	int error;

	error = lookup_bdev(target, &dev);
	if (error == -ENOTBLK || error == -ENOENT)
		return error;
	return error ? -EINVAL : 0;
}

static int swap_open(struct s2_writer *w, const char *target, bool for_image)
{
	w->bdev_file = bdev_file_open_by_path(target,
					      BLK_OPEN_READ | BLK_OPEN_WRITE,
					      NULL, NULL);
	if (IS_ERR(w->bdev_file)) {
		int error = PTR_ERR(w->bdev_file);

		w->bdev_file = NULL;
		return error;
	}
	w->bdev = file_bdev(w->bdev_file);
	w->anchor_page = 0;
	w->swap_type = -1;
	if (for_image) {
		w->swap_type = swap_type_of(w->bdev->bd_dev, 0);
		if (w->swap_type < 0) {
			pr_err("suspend2: %s is not an active swap area\n",
			       target);
			fput(w->bdev_file);
			w->bdev_file = NULL;
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

static void swap_close(struct s2_writer *w)
{
	if (w->bdev_file)
		fput(w->bdev_file);
	w->bdev_file = NULL;
	w->bdev = NULL;
}

const struct s2_writer_ops s2_swap_writer = {
	.name = "swap",
	.validate = swap_validate,
	.open = swap_open,
	.free_bytes = swap_free_bytes,
	.reserve_page = swap_reserve_page,
	.free_pages = swap_free_pages,
	.close = swap_close,
};
