// SPDX-License-Identifier: GPL-2.0
/*
 * The file writer: a regular, fully written file that is not swap (the
 * filewriter of TuxOnIce).  Its pages are mapped to device pages when the
 * target is set (to refuse a bad file early) and again when a cycle
 * starts; the image goes to those device pages with bios, the anchor to
 * the file's first page.  Every other location is listed in the image's
 * block index, so resume needs only the device and the anchor page and
 * never mounts the filesystem.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include "writer.h"

static int file_validate(const char *target)
{
	struct s2_writer w = {};
	int error = s2_file_open(&w, target);

	if (!error)
		error = s2_file_map(&w, target, false);
	kvfree(w.ext);
	if (w.file)
		fput(w.file);
	return error;
}

static int file_open(struct s2_writer *w, const char *target, bool for_image)
{
	int error = s2_file_open(w, target);

	if (error)
		return error;
	if (!for_image)
		return s2_file_page(w, 0, &w->anchor_page, target);
	return s2_file_map(w, target, true);
}

static u64 file_free_bytes(struct s2_writer *w)
{
	return (w->usable - w->reserved) << PAGE_SHIFT;
}

static void file_free_pages(struct s2_writer *w)
{
	w->cur_ext = 0;
	w->cur_off = 0;
	w->reserved = 0;
}

static void file_close(struct s2_writer *w)
{
	s2_file_unpin(w);
}

const struct s2_writer_ops s2_file_writer = {
	.name = "file",
	.validate = file_validate,
	.open = file_open,
	.free_bytes = file_free_bytes,
	.reserve_page = s2_extents_reserve,
	.free_pages = file_free_pages,
	.close = file_close,
	.locate = s2_file_locate,
};
