// SPDX-License-Identifier: GPL-2.0
/*
 * The pages of a target as a list of extents, handed out in order: the
 * file writer's as bmap() found them, the bdev writer's whole device.
 * Pure, so the KUnit suite compiles it in.  Its users keep the list first
 * in w->priv, so the functions that take a writer are their ops.
 */
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
