// SPDX-License-Identifier: GPL-2.0
/*
 * Registry of image writers, and what they share: opening a target (or a
 * resume location), closing it, and the face configfs sees of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

static const struct s2_writer_ops * const s2_writers[] = {
	&s2_swap_writer,
	&s2_swapfile_writer,
	&s2_file_writer,
	&s2_bdev_writer,
};

/* The name of the @i'th writer, NULL past the last one. */
const char *s2_writer_name(unsigned int i)
{
	return i < ARRAY_SIZE(s2_writers) ? s2_writers[i]->name : NULL;
}

const struct s2_writer_ops *s2_writer_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(s2_writers); i++)
		if (!strcmp(s2_writers[i]->name, name))
			return s2_writers[i];
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

/* A resume location needs only its device; anything else, the writer. */
int s2_writer_validate(const struct s2_writer_ops *ops, const char *target)
{
	char *dev __free(kfree) = kmalloc(S2_TARGET_MAX, GFP_KERNEL);
	u64 page;

	if (!dev)
		return -ENOMEM;
	if (s2_location_parse(target, dev, S2_TARGET_MAX, &page))
		return s2_writer_validate_bdev(dev);
	return ops->validate(target);
}

/*
 * Where resume finds an image written to @target: the device (as a path)
 * and the page of the anchor.  A device target's anchor is its first page.
 * A resume location is its own answer, whatever the writer (@ops may be
 * NULL then).
 */
int s2_writer_locate(const struct s2_writer_ops *ops, const char *target,
		     char *dev, size_t size, u64 *page)
{
	if (s2_location_parse(target, dev, size, page))
		return 0;
	if (!ops)
		return -EINVAL;
	if (ops->flags & S2_WRITER_FILE)
		return s2_file_locate(target, dev, size, page);
	*page = 0;
	return strscpy(dev, target, size) < 0 ? -ENAMETOOLONG : 0;
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
		pr_err("cannot open %s: %pe\n", dev, ERR_PTR(error));
		return error;
	}
	if (page >= bdev_nr_bytes(w->bdev) >> PAGE_SHIFT) {
		pr_err("page %llu is beyond the end of %s\n", page, dev);
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
	w->ops = s2_writer_find(set->writer);
	if (!w->ops)
		return -EINVAL;
	w->force = set->force;
	w->priv = kzalloc(w->ops->priv_size, GFP_KERNEL);
	if (!w->priv) {
		w->ops = NULL;
		return -ENOMEM;
	}
	if (!s2_location_parse(set->target, dev, sizeof(dev), &page)) {
		error = w->ops->open(w, set->target, for_image);
	} else if (!for_image) {
		error = s2_writer_open_location(w, dev, page);
	} else if (w->ops->flags & S2_WRITER_WRITES_TO_LOCATION) {
		error = w->ops->open(w, set->target, for_image);
	} else {
		pr_err("%s is a resume location: the %s writer needs the %s itself to write an image\n",
		       set->target, w->ops->name,
		       w->ops->flags & S2_WRITER_FILE ? "file" : "device");
		error = -EINVAL;
	}
	if (error)
		s2_writer_close(w);
	return error;
}

/* Has what the writer found at open gone away since (swapoff)? */
bool s2_writer_gone(struct s2_writer *w)
{
	return w->ops->gone && w->ops->gone(w);
}

void s2_writer_close(struct s2_writer *w)
{
	if (w->ops && w->ops->close)
		w->ops->close(w);
	if (w->bdev_file)
		fput(w->bdev_file);
	kfree(w->priv);
	w->priv = NULL;
	w->bdev_file = NULL;
	w->bdev = NULL;
	w->ops = NULL;
}
