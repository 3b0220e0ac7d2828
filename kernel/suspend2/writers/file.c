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
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include "writer.h"

/* w->priv; the extents first, as extent.c's ops want them. */
struct s2_file_state {
	struct s2_extents x;
	struct s2_file_target ft;
};

/*
 * The image goes to the device blocks bmap() gave, behind the
 * filesystem's back, so the filesystem must never move the file's blocks
 * while the image is there.  S_SWAPFILE (set for the cycle) keeps writes,
 * truncation, reflinks and the move ioctls away (ext4's MOVE_EXT, xfs's
 * extent swaps refuse a swap file), and ext2/3/4 and xfs move a file's
 * blocks in no other way.  Any other filesystem is refused, above all
 * f2fs, whose garbage collector moves every block of a file that is not
 * pinned, S_SWAPFILE or not (only its own swapon pins a file): the image
 * would land on blocks it then thinks free.
 */
static int s2_file_fs_stable(struct s2_file_target *ft, const char *target)
{
	struct super_block *sb = file_inode(ft->file)->i_sb;

	if (sb->s_magic == EXT4_SUPER_MAGIC || sb->s_magic == XFS_SUPER_MAGIC)
		return 0;
	if (sb->s_magic == F2FS_SUPER_MAGIC)
		pr_err("%s is on f2fs, whose garbage collector moves the blocks of a file that is not pinned: an image written there could be overwritten; use a swap file there with the swapfile writer (f2fs pins an active swap file), or a partition (bdev or swap writer)\n",
		       target);
	else
		pr_err("%s is on %s, which the file writer does not trust to keep a file's blocks in place (it takes ext2, ext3, ext4 and xfs): use a swap file with the swapfile writer, or a partition (bdev or swap writer)\n",
		       target, sb->s_type->name);
	return -EOPNOTSUPP;
}

static int s2_file_validate(const char *target)
{
	struct s2_file_state f = {};
	int error = s2_file_open(&f.ft, target);
	u64 anchor;

	if (!error)
		error = s2_file_fs_stable(&f.ft, target);
	if (!error)
		error = s2_file_map(&f.ft, &f.x, &anchor, target, false);
	s2_extents_free(&f.x);
	s2_file_close(&f.ft);
	return error;
}

static int s2_file_writer_open(struct s2_writer *w, const char *target,
			       bool for_image)
{
	struct s2_file_state *f = w->priv;
	int error = s2_file_open(&f->ft, target);

	if (error)
		return error;
	w->bdev = f->ft.bdev;
	if (!for_image)
		return s2_file_page(&f->ft, 0, &w->anchor_page, target);
	error = s2_file_fs_stable(&f->ft, target);
	if (error)
		return error;
	return s2_file_map(&f->ft, &f->x, &w->anchor_page, target, true);
}

static void s2_file_writer_close(struct s2_writer *w)
{
	struct s2_file_state *f = w->priv;

	s2_file_close(&f->ft);
	s2_extents_free(&f->x);
}

const struct s2_writer_ops s2_file_writer = {
	.name = "file",
	.flags = S2_WRITER_FILE,
	.priv_size = sizeof(struct s2_file_state),
	.validate = s2_file_validate,
	.open = s2_file_writer_open,
	.free_bytes = s2_extents_free_bytes,
	.reserve_page = s2_extents_reserve,
	.free_pages = s2_extents_rewind,
	.close = s2_file_writer_close,
};
