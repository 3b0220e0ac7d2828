// SPDX-License-Identifier: GPL-2.0
/*
 * The swap writers: the image goes into free slots of an active swap
 * area, reserved through the kernel's own allocator so swapped-out data is
 * never overwritten, and the anchor replaces mkswap's signature in the
 * area's first page, as swsusp does.  "swap" is a swap partition (anchor at
 * page 0), "swapfile" a swap file (anchor at the device page holding the
 * file's first page, which the swap area's first extent starts at).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hibernation_core.h>
#include <linux/swap.h>
#include "../internal.h"
#include "writer.h"

/*
 * w->priv of both.  @area is the swap type + 1 of an open for an image,
 * the only kind the ops below run on, and 0 otherwise: the zeroed state
 * of a resume location opened for reading, which no open op sees, names
 * no area (type 0 is the first swap area, not "none").
 */
struct s2_swap_state {
	int area;
	struct s2_file_target ft;	/* swapfile: the swap file */
};

static int s2_swap_type(const struct s2_swap_state *s)
{
	return s->area - 1;
}

/* The area that starts at the writer's anchor page, if there is one. */
static bool s2_swap_find_area(struct s2_writer *w)
{
	struct s2_swap_state *s = w->priv;
	int type = swap_type_of(w->bdev->bd_dev, w->anchor_page);

	s->area = type < 0 ? 0 : type + 1;
	return s->area;
}

static int s2_swap_open(struct s2_writer *w, const char *target,
			bool for_image)
{
	int error = s2_writer_open_bdev(w, target, false);

	if (error)
		return error;
	w->anchor_page = 0;
	if (for_image && !s2_swap_find_area(w)) {
		pr_err("%s is not an active swap area\n", target);
		return -ENODEV;
	}
	return 0;
}

static u64 s2_swap_free_bytes(struct s2_writer *w)
{
	struct s2_swap_state *s = w->priv;

	return (u64)count_swap_pages(s2_swap_type(s), 1) << PAGE_SHIFT;
}

static int s2_swap_reserve_page(struct s2_writer *w, u64 *page)
{
	struct s2_swap_state *s = w->priv;
	sector_t block = alloc_swapdev_block(s2_swap_type(s));

	if (!block)
		return -ENOSPC;
	*page = block;
	return 0;
}

static void s2_swap_free_pages(struct s2_writer *w)
{
	struct s2_swap_state *s = w->priv;

	if (s->area)
		free_all_swap_pages(s2_swap_type(s));
}

/*
 * The swap area was looked up at open; swapoff could have run since, and
 * writing into slots of an area that is gone, or another one now, would
 * corrupt it.
 */
static bool s2_swap_gone(struct s2_writer *w)
{
	struct s2_swap_state *s = w->priv;

	return s->area &&
	       swap_type_of(w->bdev->bd_dev, w->anchor_page) != s2_swap_type(s);
}

static void s2_swap_close(struct s2_writer *w)
{
	struct s2_swap_state *s = w->priv;

	s2_file_close(&s->ft);
}

static int s2_swapfile_validate(const char *target)
{
	struct s2_file_target ft = {};
	int error = s2_file_open(&ft, target);

	s2_file_close(&ft);
	return error;
}

/* @target is the swap file, or (for_image only) its resume location. */
static int s2_swapfile_open(struct s2_writer *w, const char *target,
			    bool for_image)
{
	struct s2_swap_state *s = w->priv;
	char dev[S2_TARGET_MAX];
	int error;

	if (s2_location_parse(target, dev, sizeof(dev), &w->anchor_page)) {
		error = s2_writer_open_bdev(w, dev, false);
	} else {
		error = s2_file_open(&s->ft, target);
		w->bdev = s->ft.bdev;
		if (!error)
			error = s2_file_page(&s->ft, 0, &w->anchor_page, target);
		if (!error && for_image && !IS_SWAPFILE(file_inode(s->ft.file))) {
			pr_err("%s is not an active swap file\n", target);
			error = -ENODEV;
		}
	}
	if (error || !for_image)
		return error;
	if (!s2_swap_find_area(w)) {
		pr_err("%s: no active swap area starts at page %llu of %pg\n",
		       target, w->anchor_page, w->bdev);
		return -ENODEV;
	}
	w->anchor_page = swapdev_block(s2_swap_type(s), 0);
	pr_info("%s: resume location /dev/%pg:%llu\n", target, w->bdev,
		w->anchor_page);
	return 0;
}

const struct s2_writer_ops s2_swapfile_writer = {
	.name = "swapfile",
	.flags = S2_WRITER_FILE | S2_WRITER_WRITES_TO_LOCATION,
	.priv_size = sizeof(struct s2_swap_state),
	.validate = s2_swapfile_validate,
	.open = s2_swapfile_open,
	.free_bytes = s2_swap_free_bytes,
	.reserve_page = s2_swap_reserve_page,
	.free_pages = s2_swap_free_pages,
	.gone = s2_swap_gone,
	.close = s2_swap_close,
};

const struct s2_writer_ops s2_swap_writer = {
	.name = "swap",
	.priv_size = sizeof(struct s2_swap_state),
	.validate = s2_writer_validate_bdev,
	.open = s2_swap_open,
	.free_bytes = s2_swap_free_bytes,
	.reserve_page = s2_swap_reserve_page,
	.free_pages = s2_swap_free_pages,
	.gone = s2_swap_gone,
	.close = s2_swap_close,
};
