// SPDX-License-Identifier: GPL-2.0
/*
 * Files as image targets: open one, map its pages to pages of the device
 * under its filesystem with bmap(), pin the mapping for the cycle.  The
 * image is then written with bios straight to those device pages, never
 * through the filesystem, so the file must be fully allocated and written
 * and its filesystem must keep the mapping stable.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "writer.h"

/* Opens @target and checks that its blocks can be mapped at all. */
int s2_file_open(struct s2_file_target *ft, const char *target)
{
	struct super_block *sb;
	struct inode *inode;
	struct file *file;
	struct path path;
	umode_t mode;
	int error;

	/*
	 * Only a regular file is ever opened: opening a FIFO would block
	 * the configfs write, opening a device can have side effects (a
	 * watchdog starts).  O_NONBLOCK covers a FIFO swapped in between.
	 */
	error = kern_path(target, LOOKUP_FOLLOW, &path);
	if (error) {
		pr_err("cannot open %s: %pe\n", target, ERR_PTR(error));
		return error;
	}
	mode = d_backing_inode(path.dentry)->i_mode;
	path_put(&path);
	if (!S_ISREG(mode)) {
		pr_err("%s is not a regular file\n", target);
		return -EINVAL;
	}
	file = filp_open(target, O_RDONLY | O_LARGEFILE | O_NONBLOCK | O_NOCTTY, 0);
	if (IS_ERR(file)) {
		pr_err("cannot open %s: %pe\n", target, file);
		return PTR_ERR(file);
	}
	ft->file = file;
	inode = file_inode(file);
	sb = inode->i_sb;
	if (!S_ISREG(inode->i_mode)) {
		pr_err("%s is not a regular file\n", target);
		return -EINVAL;
	}
	if (!sb->s_bdev) {
		pr_err("%s is on %s, which has no block device: its blocks cannot be mapped\n",
		       target, sb->s_type->name);
		return -EOPNOTSUPP;
	}
	if (!inode->i_mapping->a_ops->bmap || IS_DAX(inode)) {
		pr_err("%s is on %s, whose block mapping is not stable (no bmap): an image cannot be written behind it\n",
		       target, sb->s_type->name);
		return -EOPNOTSUPP;
	}
	if (s2_blocks_per_page_shift(inode->i_blkbits, PAGE_SHIFT) < 0) {
		pr_err("%s is on %s with %u-byte blocks, bigger than a page (%lu bytes): a page would be part of a block, which cannot be mapped on its own; use a filesystem with blocks of at most %lu bytes, or a partition\n",
		       target, sb->s_type->name, i_blocksize(inode), PAGE_SIZE,
		       PAGE_SIZE);
		return -EOPNOTSUPP;
	}
	ft->bdev = sb->s_bdev;
	return 0;
}

/*
 * The device page holding page @file_page of the file.  s2_file_open()
 * refuses blocks bigger than a page (a negative @shift).
 */
int s2_file_page(struct s2_file_target *ft, u64 file_page, u64 *dev_page,
		 const char *target)
{
	struct inode *inode = file_inode(ft->file);
	int shift = s2_blocks_per_page_shift(inode->i_blkbits, PAGE_SHIFT);
	sector_t first, base = 0;
	unsigned int i;

	if (shift < 0)
		return shift;
	first = (sector_t)file_page << shift;
	for (i = 0; i < 1U << shift; i++) {
		sector_t block = first + i;
		int error = bmap(inode, &block);

		if (error) {
			pr_err("%s: bmap failed: %pe\n", target, ERR_PTR(error));
			return error;
		}
		if (!block) {
			pr_err("%s: page %llu is a hole, an unwritten (preallocated, never written) or a shared extent; write the whole file first (e.g. with dd)\n",
			       target, file_page);
			return -EINVAL;
		}
		if (!i)
			base = block;
		if ((!i && (block & ((1U << shift) - 1))) ||
		    (i && block != base + i)) {
			pr_err("%s: page %llu is not one aligned page on the device\n",
			       target, file_page);
			return -EINVAL;
		}
	}
	*dev_page = base >> shift;
	return 0;
}

/*
 * Maps every page of the file: page 0 becomes the anchor, the others the
 * pages the image may use.  With @pin, the file is marked S_SWAPFILE like
 * an active swap file, so nobody can write, truncate or move it until
 * s2_file_close().
 */
int s2_file_map(struct s2_file_target *ft, struct s2_extents *x,
		u64 *anchor_page, const char *target, bool pin)
{
	struct inode *inode = file_inode(ft->file);
	u64 pages = i_size_read(inode) >> PAGE_SHIFT;
	u64 dev_pages = bdev_nr_bytes(ft->bdev) >> PAGE_SHIFT;
	u64 n, dev_page;
	int error;

	if (pages < 2) {
		pr_err("%s: a file of %lld bytes cannot hold an image\n",
		       target, i_size_read(inode));
		return -ENOSPC;
	}
	if (pin) {
		inode_lock(inode);
		if (IS_SWAPFILE(inode)) {
			inode_unlock(inode);
			pr_err("%s is an active swap file: use the swapfile writer\n",
			       target);
			return -EBUSY;
		}
		inode->i_flags |= S_SWAPFILE;
		ft->pinned = true;
		inode_unlock(inode);
	}
	/* Delayed allocation gets its blocks now. */
	error = filemap_write_and_wait(inode->i_mapping);
	if (error)
		return error;
	for (n = 0; n < pages; n++) {
		error = s2_file_page(ft, n, &dev_page, target);
		if (!error && dev_page >= dev_pages)
			error = -EINVAL;
		if (!error && !n)
			*anchor_page = dev_page;
		else if (!error)
			error = s2_extents_add(x, n, dev_page, 1);
		if (error)
			return error;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/* Unpins the file if s2_file_map() pinned it, and lets it go. */
void s2_file_close(struct s2_file_target *ft)
{
	struct inode *inode;

	if (!ft->file)
		return;
	if (ft->pinned) {
		inode = file_inode(ft->file);
		inode_lock(inode);
		inode->i_flags &= ~S_SWAPFILE;
		inode_unlock(inode);
		ft->pinned = false;
	}
	fput(ft->file);
	ft->file = NULL;
}

/* The device and page of the file's first page, where the anchor goes. */
int s2_file_locate(const char *target, char *dev, size_t size, u64 *page)
{
	struct s2_file_target ft = {};
	int error;

	error = s2_file_open(&ft, target);
	if (!error)
		error = s2_file_page(&ft, 0, page, target);
	if (!error)
		snprintf(dev, size, "/dev/%pg", ft.bdev);
	s2_file_close(&ft);
	return error;
}
