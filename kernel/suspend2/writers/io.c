// SPDX-License-Identifier: GPL-2.0
/*
 * Page I/O engine (see io.h).  Like hib_bio_batch in kernel/power/swap.c
 * it keeps the first error and lets the caller wait for all bios, but the
 * number of bios in flight is bounded by the buffer pool instead of by
 * free memory, which is scarce while the image is written.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "io.h"

static sector_t s2_page_to_sector(u64 page)
{
	return page << (PAGE_SHIFT - SECTOR_SHIFT);
}

int s2_io_init(struct s2_io *io, struct block_device *bdev,
	       unsigned int depth)
{
	unsigned int i;

	io->bdev = bdev;
	io->depth = depth;
	spin_lock_init(&io->lock);
	INIT_LIST_HEAD(&io->free);
	init_waitqueue_head(&io->wait);
	atomic_set(&io->inflight, 0);
	io->error = BLK_STS_OK;
	io->wait_us = 0;
	io->bufs = kcalloc(depth, sizeof(*io->bufs), GFP_KERNEL);
	if (!io->bufs)
		return -ENOMEM;
	for (i = 0; i < depth; i++) {
		struct s2_io_buf *buf = &io->bufs[i];

		buf->io = io;
		init_completion(&buf->done);
		buf->addr = (void *)__get_free_page(GFP_KERNEL);
		if (!buf->addr) {
			io->depth = i;
			s2_io_exit(io);
			return -ENOMEM;
		}
		list_add_tail(&buf->node, &io->free);
	}
	return 0;
}

void s2_io_exit(struct s2_io *io)
{
	unsigned int i;

	if (!io->bufs)
		return;
	wait_event(io->wait, !atomic_read(&io->inflight));
	for (i = 0; i < io->depth; i++)
		free_page((unsigned long)io->bufs[i].addr);
	kfree(io->bufs);
	io->bufs = NULL;
}

static void s2_io_account(struct s2_io *io, blk_status_t status)
{
	if (status && !io->error)
		io->error = status;
}

static void s2_write_end_io(struct bio *bio)
{
	struct s2_io_buf *buf = bio->bi_private;
	struct s2_io *io = buf->io;
	unsigned long flags;

	spin_lock_irqsave(&io->lock, flags);
	s2_io_account(io, bio->bi_status);
	list_add_tail(&buf->node, &io->free);
	spin_unlock_irqrestore(&io->lock, flags);
	atomic_dec(&io->inflight);
	wake_up(&io->wait);
	bio_put(bio);
}

static struct s2_io_buf *s2_io_take_free(struct s2_io *io)
{
	struct s2_io_buf *buf;

	spin_lock_irq(&io->lock);
	buf = list_first_entry_or_null(&io->free, struct s2_io_buf, node);
	if (buf)
		list_del(&buf->node);
	spin_unlock_irq(&io->lock);
	return buf;
}

struct s2_io_buf *s2_io_get(struct s2_io *io)
{
	struct s2_io_buf *buf = s2_io_take_free(io);
	ktime_t start;

	if (buf)
		return buf;
	start = ktime_get();
	wait_event(io->wait, (buf = s2_io_take_free(io)) != NULL);
	io->wait_us += ktime_us_delta(ktime_get(), start);
	return buf;
}

/* Gives back a buffer taken with s2_io_get() but never submitted. */
void s2_io_put(struct s2_io *io, struct s2_io_buf *buf)
{
	spin_lock_irq(&io->lock);
	list_add_tail(&buf->node, &io->free);
	spin_unlock_irq(&io->lock);
	wake_up(&io->wait);
}

static void s2_io_submit(struct s2_io *io, struct s2_io_buf *buf,
			 blk_opf_t op, u64 page, bio_end_io_t *end_io)
{
	struct bio *bio;

	/* Cannot fail: bio_alloc with a mask that may sleep uses a mempool. */
	bio = bio_alloc(io->bdev, 1, op, GFP_NOIO | __GFP_HIGH);
	bio->bi_iter.bi_sector = s2_page_to_sector(page);
	__bio_add_page(bio, virt_to_page(buf->addr), PAGE_SIZE, 0);
	bio->bi_end_io = end_io;
	bio->bi_private = buf;
	atomic_inc(&io->inflight);
	submit_bio(bio);
}

void s2_io_write(struct s2_io *io, struct s2_io_buf *buf, u64 page)
{
	s2_io_submit(io, buf, REQ_OP_WRITE | REQ_SYNC, page, s2_write_end_io);
}

int s2_io_drain(struct s2_io *io)
{
	wait_event(io->wait, !atomic_read(&io->inflight));
	return blk_status_to_errno(io->error);
}

int s2_io_sync(struct block_device *bdev, blk_opf_t op, u64 page, void *addr)
{
	struct bio *bio;
	int error;

	bio = bio_alloc(bdev, 1, op | REQ_SYNC, GFP_NOIO | __GFP_HIGH);
	bio->bi_iter.bi_sector = s2_page_to_sector(page);
	__bio_add_page(bio, virt_to_page(addr), PAGE_SIZE, 0);
	error = submit_bio_wait(bio);
	bio_put(bio);
	return error;
}

static void s2_read_end_io(struct bio *bio)
{
	struct s2_io_buf *buf = bio->bi_private;
	struct s2_io *io = buf->io;
	unsigned long flags;

	spin_lock_irqsave(&io->lock, flags);
	s2_io_account(io, bio->bi_status);
	spin_unlock_irqrestore(&io->lock, flags);
	buf->status = bio->bi_status;
	complete(&buf->done);
	atomic_dec(&io->inflight);
	wake_up(&io->wait);
	bio_put(bio);
}

static void s2_reader_submit(struct s2_reader *r, u64 n)
{
	struct s2_io_buf *buf = &r->io->bufs[n % r->io->depth];

	reinit_completion(&buf->done);
	buf->status = BLK_STS_OK;
	s2_io_submit(r->io, buf, REQ_OP_READ, r->locate(r->ctx, n),
		     s2_read_end_io);
}

/* Submits reads for the free slots, in one plug so neighbours merge. */
static void s2_reader_refill(struct s2_reader *r, u64 released)
{
	struct blk_plug plug;

	blk_start_plug(&plug);
	while (r->next_submit < r->nr &&
	       r->next_submit - released < r->io->depth)
		s2_reader_submit(r, r->next_submit++);
	blk_finish_plug(&plug);
}

/* Fills the whole ring: reading runs ahead by io->depth pages. */
void s2_reader_start(struct s2_reader *r, struct s2_io *io, u64 nr,
		     u64 (*locate)(void *ctx, u64 n), void *ctx)
{
	r->io = io;
	r->nr = nr;
	r->consumed = 0;
	r->next_submit = 0;
	r->locate = locate;
	r->ctx = ctx;
	s2_reader_refill(r, 0);
}

/*
 * Returns the next page in order, valid until the following call.  Free
 * slots are refilled a quarter of the ring at a time, so that reads go
 * out in batches the block layer can merge.
 */
void *s2_reader_next(struct s2_reader *r, int *error)
{
	unsigned int batch = max(1U, r->io->depth / 4);
	struct s2_io_buf *buf;

	if (r->io->depth - (r->next_submit - r->consumed) >= batch)
		s2_reader_refill(r, r->consumed);
	if (r->consumed >= r->nr) {
		*error = -ENODATA;
		return NULL;
	}
	buf = &r->io->bufs[r->consumed % r->io->depth];
	if (!try_wait_for_completion(&buf->done)) {
		ktime_t start = ktime_get();

		wait_for_completion(&buf->done);
		r->io->wait_us += ktime_us_delta(ktime_get(), start);
	}
	if (buf->status) {
		*error = blk_status_to_errno(buf->status);
		return NULL;
	}
	r->consumed++;
	*error = 0;
	return buf->addr;
}

void s2_reader_stop(struct s2_reader *r)
{
	s2_io_drain(r->io);
}
