// SPDX-License-Identifier: GPL-2.0
/*
 * Files as image targets: open one, map its pages to pages of the device
 * under its filesystem, pin the mapping for the cycle.  The image is then
 * written with bios straight to those device pages, never through the
 * filesystem, so the file must be fully allocated and written and its
 * filesystem must keep the mapping stable.  The mapping is bmap()'s: the
 * file's extents (->fiemap) give it in one walk, and bmap() has the last
 * word on every page no plain extent covers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/fiemap.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "writer.h"

/* How s2_file_map() maps a file: the module parameter file_map. */
enum {
	S2_FILE_MAP_EXTENTS,	/* ->fiemap, bmap() where that is not enough */
	S2_FILE_MAP_BMAP,	/* bmap() for every page, as before extents */
	S2_FILE_MAP_CHECK,	/* both, refusing the file on any difference */
};

static unsigned int file_map;
module_param(file_map, uint, 0600);
MODULE_PARM_DESC(file_map, "debug: how the file writer maps its target: 0 by its extents (default), 1 bmap() per page, 2 both, refusing any difference");

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
 * refuses blocks bigger than a page (a negative @shift).  With @target
 * NULL it says nothing: a quiet check, whose caller asks again aloud.
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
			if (target)
				pr_err("%s: bmap failed: %pe\n", target,
				       ERR_PTR(error));
			return error;
		}
		if (!block) {
			if (target)
				pr_err("%s: page %llu is a hole, an unwritten (preallocated, never written) or a shared extent; write the whole file first (e.g. with dd)\n",
				       target, file_page);
			return -EINVAL;
		}
		if (!i)
			base = block;
		if ((!i && (block & ((1U << shift) - 1))) ||
		    (i && block != base + i)) {
			if (target)
				pr_err("%s: page %llu is not one aligned page on the device\n",
				       target, file_page);
			return -EINVAL;
		}
	}
	*dev_page = base >> shift;
	return 0;
}

/* One mapping of a file under way: where its pages go, and its bounds. */
struct s2_file_mapper {
	struct s2_file_target *ft;
	struct s2_extents *x;
	u64 *anchor_page;
	const char *target;
	u64 pages;		/* of the file */
	u64 dev_pages;		/* of the device under it */
};

/*
 * Takes @len pages of the file from @file_page on, at device pages
 * @dev_page on: page 0 becomes the anchor, the others the pages the
 * image may use.
 */
static int s2_file_add(struct s2_file_mapper *m, u64 file_page, u64 dev_page,
		       u64 len)
{
	if (dev_page >= m->dev_pages || len > m->dev_pages - dev_page)
		return -EINVAL;
	if (!file_page) {
		*m->anchor_page = dev_page;
		file_page++;
		dev_page++;
		len--;
	}
	return len ? s2_extents_add(m->x, file_page, dev_page, len) : 0;
}

/* Pages @from to @to - 1 of the file, with one bmap() each. */
static int s2_file_map_pages(struct s2_file_mapper *m, u64 from, u64 to)
{
	u64 n, dev_page;
	int error;

	for (n = from; n < to; n++) {
		error = s2_file_page(m->ft, n, &dev_page, m->target);
		if (!error)
			error = s2_file_add(m, n, dev_page, 1);
		if (error)
			return error;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/*
 * Pages @from to @to - 1, a plain extent at device pages @dev_page on:
 * taken whole when bmap() agrees on its first and last page, else
 * mapped page by page with bmap(), which then says what is wrong (xfs's
 * bmap() refuses a file that may share blocks, or whose blocks are on
 * its realtime device, whatever ->fiemap reports).
 */
static int s2_file_map_run(struct s2_file_mapper *m, u64 from, u64 to,
			   u64 dev_page)
{
	u64 first, last;

	if (!s2_file_page(m->ft, from, &first, NULL) &&
	    !s2_file_page(m->ft, to - 1, &last, NULL) &&
	    first == dev_page && last == dev_page + (to - 1 - from))
		return s2_file_add(m, from, dev_page, to - from);
	return s2_file_map_pages(m, from, to);
}

/*
 * ->fiemap hands its extents out with copy_to_user() only
 * (fiemap_fill_next_extent()), and the kernel exports neither an
 * in-kernel fiemap nor iomap_iter() or the filesystems' iomap ops.  So
 * the extents go to a small anonymous mapping made for the moment in
 * the task that writes the target or starts the cycle (as root), each
 * copied back at once and checked against bmap() at its first and last
 * page.  A task without user memory, a filesystem without ->fiemap, or
 * a walk that fails maps the pages left with bmap().
 */
#define S2_FIEMAP_BYTES		(4 * PAGE_SIZE)

static int s2_file_map_extents(struct s2_file_mapper *m)
{
	struct inode *inode = file_inode(m->ft->file);
	const u32 max = S2_FIEMAP_BYTES / sizeof(struct fiemap_extent);
	u64 size = m->pages << PAGE_SHIFT;
	struct fiemap_extent __user *ubuf;
	u64 next = 0, pos = 0;
	unsigned long addr;
	int error = 0;

	if (!inode->i_op->fiemap || !current->mm ||
	    (current->flags & PF_KTHREAD))
		return s2_file_map_pages(m, 0, m->pages);
	addr = vm_mmap(NULL, 0, S2_FIEMAP_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, 0);
	if (IS_ERR_VALUE(addr))
		return s2_file_map_pages(m, 0, m->pages);
	ubuf = (struct fiemap_extent __user *)addr;

	while (next < m->pages && pos < size) {
		struct fiemap_extent_info fi = {
			.fi_extents_max = max,
			.fi_extents_start = ubuf,
		};
		u64 was = pos;
		u32 i, got;

		if (inode->i_op->fiemap(inode, &fi, pos, size - pos))
			break;
		got = min(fi.fi_extents_mapped, max);
		for (i = 0; i < got && next < m->pages; i++) {
			struct s2_fiemap_step s;
			struct fiemap_extent fe;

			if (copy_from_user(&fe, ubuf + i, sizeof(fe)))
				goto out;
			s2_fiemap_step(next, m->pages, fe.fe_logical,
				       fe.fe_physical, fe.fe_length,
				       fe.fe_flags, &s);
			error = s2_file_map_pages(m, next, s.gap_end);
			if (!error && s.plain)
				error = s2_file_map_run(m, s.gap_end, s.end,
							s.dev_page);
			else if (!error)
				error = s2_file_map_pages(m, s.gap_end, s.end);
			if (!error && fatal_signal_pending(current))
				error = -EINTR;
			if (error)
				goto out;
			next = s.end;
			if (fe.fe_length <= U64_MAX - fe.fe_logical)
				pos = max(pos, fe.fe_logical + fe.fe_length);
			cond_resched();
		}
		/* Room left in the array: the walk reached the end. */
		if (fi.fi_extents_mapped < max || pos == was)
			break;
	}
out:
	vm_munmap(addr, S2_FIEMAP_BYTES);
	if (!error)
		error = s2_file_map_pages(m, next, m->pages);
	return error;
}

/*
 * file_map 2: maps the file again with bmap() for every page, and
 * refuses it unless both mappings are the same, extent for extent.
 */
static int s2_file_map_check(struct s2_file_mapper *m, ktime_t walk)
{
	struct s2_extents y = {};
	struct s2_file_mapper b = *m;
	u64 anchor = 0;
	ktime_t start;
	int error;
	u32 i;

	b.x = &y;
	b.anchor_page = &anchor;
	start = ktime_get();
	error = s2_file_map_pages(&b, 0, b.pages);
	if (error)
		goto out;
	start = ktime_sub(ktime_get(), start);
	error = -EIO;
	if (anchor != *m->anchor_page) {
		pr_err("%s: page 0: the extent walk found device page %llu, bmap() %llu\n",
		       m->target, *m->anchor_page, anchor);
		goto out;
	}
	for (i = 0; i < max(m->x->nr, y.nr); i++) {
		struct s2_extent none = {}, *e = &none, *f = &none;

		if (i < m->x->nr)
			e = &m->x->ext[i];
		if (i < y.nr)
			f = &y.ext[i];
		if (memcmp(e, f, sizeof(*e))) {
			pr_err("%s: extent %u: the extent walk found pages %llu-%llu at device page %llu, bmap() %llu-%llu at %llu\n",
			       m->target, i, e->file_page,
			       e->file_page + e->len - 1, e->dev_page,
			       f->file_page, f->file_page + f->len - 1,
			       f->dev_page);
			goto out;
		}
	}
	error = 0;
	pr_info("%s: extent walk and bmap() agree on all %llu pages (%u extents): walk %lld us, bmap() per page %lld us\n",
		m->target, m->pages, y.nr, ktime_to_us(walk),
		ktime_to_us(start));
out:
	s2_extents_free(&y);
	return error;
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
	struct s2_file_mapper m = {
		.ft = ft,
		.x = x,
		.anchor_page = anchor_page,
		.target = target,
		.pages = i_size_read(inode) >> PAGE_SHIFT,
		.dev_pages = bdev_nr_bytes(ft->bdev) >> PAGE_SHIFT,
	};
	unsigned int how = READ_ONCE(file_map);
	ktime_t start;
	int error;

	if (m.pages < 2) {
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
	if (how == S2_FILE_MAP_BMAP)
		return s2_file_map_pages(&m, 0, m.pages);
	start = ktime_get();
	error = s2_file_map_extents(&m);
	if (error || how != S2_FILE_MAP_CHECK)
		return error;
	return s2_file_map_check(&m, ktime_sub(ktime_get(), start));
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
