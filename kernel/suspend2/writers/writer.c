// SPDX-License-Identifier: GPL-2.0
/*
 * Registry of image writers, and what they share: opening a target (or a
 * resume location), closing it, handing out pages from a list of extents.
 */
#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "../internal.h"
#include "writer.h"

const struct s2_writer_ops * const s2_writers[] = {
	&s2_swap_writer,
	&s2_swapfile_writer,
	&s2_file_writer,
	&s2_bdev_writer,
	NULL
};

const struct s2_writer_ops *s2_writer_find(const char *name)
{
	const struct s2_writer_ops * const *ops;

	for (ops = s2_writers; *ops; ops++)
		if (!strcmp((*ops)->name, name))
			return *ops;
	return NULL;
}

/*
 * A resume location "DEVICE:PAGE" (see s2_location_split()), unless
 * @target names something that exists as a whole: a whole-disk name may
 * end in ":N" itself (/dev/disk/by-id/usb-Foo_0:0), and that disk is
 * meant, not page 0 of a "usb-Foo_0".  Page N of such a device is then
 * written with one more colon, DEVICE:N:PAGE.
 */
bool s2_location_parse(const char *target, char *dev, size_t size, u64 *page)
{
	struct path path;

	if (!s2_location_split(target, dev, size, page))
		return false;
	if (!kern_path(target, LOOKUP_FOLLOW, &path)) {
		path_put(&path);
		return false;
	}
	return true;
}

int s2_writer_open_bdev(struct s2_writer *w, const char *path, bool exclusive)
{
	blk_mode_t mode = BLK_OPEN_READ | BLK_OPEN_WRITE;

	if (exclusive)
		mode |= BLK_OPEN_EXCL;
	w->bdev_file = bdev_file_open_by_path(path, mode,
					      exclusive ? w : NULL, NULL);
	if (IS_ERR(w->bdev_file)) {
		int error = PTR_ERR(w->bdev_file);

		w->bdev_file = NULL;
		return error;
	}
	w->bdev = file_bdev(w->bdev_file);
	return 0;
}

/* Reading an image back from a resume location: any writer does this. */
static int s2_writer_open_location(struct s2_writer *w, const char *dev,
				   u64 page)
{
	int error = s2_writer_open_bdev(w, dev, false);

	if (error) {
		pr_err("suspend2: cannot open %s: %d\n", dev, error);
		return error;
	}
	if (page >= bdev_nr_bytes(w->bdev) >> PAGE_SHIFT) {
		pr_err("suspend2: page %llu is beyond the end of %s\n", page,
		       dev);
		return -EINVAL;
	}
	w->anchor_page = page;
	return 0;
}

int s2_writer_open(struct s2_writer *w, const struct s2_settings *set,
		   bool for_image)
{
	char dev[S2_TARGET_MAX];
	u64 page;
	int error;

	memset(w, 0, sizeof(*w));
	w->swap_type = -1;
	w->ops = s2_writer_find(set->writer);
	if (!w->ops)
		return -EINVAL;
	w->force = set->force;
	if (!s2_location_parse(set->target, dev, sizeof(dev), &page)) {
		error = w->ops->open(w, set->target, for_image);
	} else if (!for_image) {
		error = s2_writer_open_location(w, dev, page);
	} else if (w->ops == &s2_swapfile_writer) {
		error = w->ops->open(w, set->target, for_image);
	} else {
		pr_err("suspend2: %s is a resume location: the %s writer needs the %s itself to write an image\n",
		       set->target, w->ops->name,
		       w->ops == &s2_file_writer ? "file" : "device");
		error = -EINVAL;
	}
	if (error)
		s2_writer_close(w);
	return error;
}

void s2_writer_close(struct s2_writer *w)
{
	if (w->ops && w->ops->close)
		w->ops->close(w);
	if (w->bdev_file)
		fput(w->bdev_file);
	if (w->file)
		fput(w->file);
	kvfree(w->ext);
	w->ext = NULL;
	w->bdev_file = NULL;
	w->file = NULL;
	w->bdev = NULL;
	w->ops = NULL;
}

/* The next page of the extent list, in order. */
int s2_extents_reserve(struct s2_writer *w, u64 *page)
{
	struct s2_extent *e;

	while (w->cur_ext < w->nr_ext &&
	       w->cur_off >= w->ext[w->cur_ext].len) {
		w->cur_ext++;
		w->cur_off = 0;
	}
	if (w->cur_ext >= w->nr_ext)
		return -ENOSPC;
	e = &w->ext[w->cur_ext];
	*page = e->dev_page + w->cur_off++;
	w->reserved++;
	return 0;
}

/* For writers whose target is a block device: it must exist and be one. */
int s2_writer_validate_bdev(const char *target)
{
	dev_t dev;
	int error;

	error = lookup_bdev(target, &dev);
	if (error == -ENOTBLK || error == -ENOENT)
		return error;
	return error ? -EINVAL : 0;
}
