// SPDX-License-Identifier: GPL-2.0
/*
 * The pages of a target as a list of extents, handed out in order: the
 * file writer's as its extent walk and bmap() found them, the bdev
 * writer's whole device.  Pure, so the KUnit suite compiles it in.  Its
 * users keep the list first in w->priv, so the functions that take a
 * writer are their ops.
 */
#include <linux/fiemap.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "writer.h"

/*
 * Appends @len pages at @dev_page, which hold the file's pages from
 * @file_page on; a run that continues the last extent on the device
 * grows it instead.  The array doubles when full.
 */
int s2_extents_add(struct s2_extents *x, u64 file_page, u64 dev_page, u64 len)
{
	struct s2_extent *e = x->nr ? &x->ext[x->nr - 1] : NULL;

	if (e && e->dev_page + e->len == dev_page) {
		e->len += len;
		x->usable += len;
		return 0;
	}
	if (x->nr == x->cap) {
		u32 cap = x->cap ? x->cap * 2 : 64;
		struct s2_extent *n;

		if (x->cap > U32_MAX / 2)
			return -E2BIG;

		n = kvrealloc(x->ext, array_size(cap, sizeof(*n)), GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		x->ext = n;
		x->cap = cap;
	}
	x->ext[x->nr++] = (struct s2_extent){
		.file_page = file_page, .dev_page = dev_page, .len = len,
	};
	x->usable += len;
	return 0;
}

/* The next page of the extent list, in order. */
int s2_extents_reserve(struct s2_writer *w, u64 *page)
{
	struct s2_extents *x = w->priv;

	while (x->cur < x->nr && x->off >= x->ext[x->cur].len) {
		x->cur++;
		x->off = 0;
	}
	if (x->cur >= x->nr)
		return -ENOSPC;
	*page = x->ext[x->cur].dev_page + x->off++;
	x->reserved++;
	return 0;
}

u64 s2_extents_free_bytes(struct s2_writer *w)
{
	struct s2_extents *x = w->priv;

	return (x->usable - x->reserved) << PAGE_SHIFT;
}

/* Gives back every page reserved: the next image starts over. */
void s2_extents_rewind(struct s2_writer *w)
{
	struct s2_extents *x = w->priv;

	x->cur = 0;
	x->off = 0;
	x->reserved = 0;
}

void s2_extents_free(struct s2_extents *x)
{
	kvfree(x->ext);
	*x = (struct s2_extents){};
}

/*
 * What the file writer makes of one extent ->fiemap reported (@logical,
 * @phys and @len in bytes, @flags FIEMAP_EXTENT_*), going on from file
 * page @next of a file of @pages pages.  Pages @next to s->gap_end - 1
 * come before the extent's first whole page: a hole, or a page the
 * extent shares with the one before (blocks smaller than a page).  Pages
 * s->gap_end to s->end - 1 are the extent's whole pages; when s->plain
 * they are written data at device pages s->dev_page on, else (unwritten,
 * delayed, inline, shared, or not page-aligned on the device) they are
 * not.  The caller maps every page that is not plain with bmap(), which
 * has the last word, and refuses what bmap() refuses.  An extent that
 * ends inside a page leaves that page to the next one's gap.
 */
void s2_fiemap_step(u64 next, u64 pages, u64 logical, u64 phys, u64 len,
		    u32 flags, struct s2_fiemap_step *s)
{
	u64 first, end;

	len = min(len, U64_MAX - logical);
	first = (logical >> PAGE_SHIFT) + !!(logical & ~PAGE_MASK);
	first = min(max(first, next), pages);
	end = (logical + len) >> PAGE_SHIFT;
	end = min(max(end, first), pages);
	s->gap_end = first;
	s->end = end;
	s->plain = !(flags & ~(FIEMAP_EXTENT_LAST | FIEMAP_EXTENT_MERGED)) &&
		   !((phys ^ logical) & ~PAGE_MASK) && end > first;
	s->dev_page = 0;
	if (s->plain) {
		u64 at = (first << PAGE_SHIFT) - logical;

		if (phys > U64_MAX - at)
			s->plain = false;
		else
			s->dev_page = (phys + at) >> PAGE_SHIFT;
	}
}
