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
#include <linux/delay.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include "io.h"

#ifdef CONFIG_FAULT_INJECTION
/*
 * Fault suite only: a completion waits this long after it took its bio
 * out of the count and before it wakes the waiter, which widens the window
 * in which a waiter that does not hand off with the completion would see
 * the count reach zero, return and free what the completion still uses.
 */
static unsigned int io_end_delay_us;
module_param(io_end_delay_us, uint, 0600);
MODULE_PARM_DESC(io_end_delay_us, "debug: delay in each I/O completion (microseconds, at most 10000)");

static void s2_io_end_delay(void)
{
	unsigned int us = min(READ_ONCE(io_end_delay_us), 10000U);

	if (us)
		udelay(us);
}
#else
static void s2_io_end_delay(void) { }
#endif

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
	io->inflight = 0;
	io->error = BLK_STS_OK;
	io->wait_us = 0;
	/*
	 * Up to 1024 buffers of about 100 bytes, allocated after the copy:
	 * kvcalloc, not an order-5 allocation that fragmentation fails.
	 */
	io->bufs = kvcalloc(depth, sizeof(*io->bufs), GFP_KERNEL);
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
	s2_io_drain(io);
	for (i = 0; i < io->depth; i++)
		free_page((unsigned long)io->bufs[i].addr);
	kvfree(io->bufs);
	io->bufs = NULL;
}

/*
 * The end of a bio, under io->lock: its error kept, the count of bios in
 * flight decreased and the waiters woken in one step.  A waiter sees the
 * count only under the same lock (s2_io_drain()), so once it sees zero
 * the last completion has left @io for good, and the waiter may free it:
 * nothing of @io is touched after the unlock.
 */
static void s2_io_end(struct s2_io *io, blk_status_t status,
		      struct s2_io_buf *to_free)
{
	unsigned long flags;

	spin_lock_irqsave(&io->lock, flags);
	if (status && !io->error)
		io->error = status;
	if (to_free)
		list_add_tail(&to_free->node, &io->free);
	io->inflight--;
	s2_io_end_delay();
	wake_up(&io->wait);
	spin_unlock_irqrestore(&io->lock, flags);
}

static void s2_write_end_io(struct bio *bio)
{
	struct s2_io_buf *buf = bio->bi_private;

	s2_io_end(buf->io, bio->bi_status, buf);
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
	spin_lock_irq(&io->lock);
	io->inflight++;
	spin_unlock_irq(&io->lock);
	submit_bio(bio);
}

void s2_io_write(struct s2_io *io, struct s2_io_buf *buf, u64 page)
{
	s2_io_submit(io, buf, REQ_OP_WRITE | REQ_SYNC, page, s2_write_end_io);
}

int s2_io_drain(struct s2_io *io)
{
	blk_status_t error;

	spin_lock_irq(&io->lock);
	wait_event_lock_irq(io->wait, !io->inflight, io->lock);
	error = io->error;
	spin_unlock_irq(&io->lock);
	return blk_status_to_errno(error);
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

/*
 * The reader waits on the buffer's completion, and s2_reader_stop() on
 * the count: the buffer is completed before the count lets go of @io.
 */
static void s2_read_end_io(struct bio *bio)
{
	struct s2_io_buf *buf = bio->bi_private;
	struct s2_io *io = buf->io;
	blk_status_t status = bio->bi_status;

	bio_put(bio);
	buf->status = status;
	complete(&buf->done);
	s2_io_end(io, status, NULL);
}

/*
 * The buffer of the @n'th page read.  div_u64_rem(): a 32-bit kernel has
 * no 64-bit division of its own (no __umoddi3).
 */
static struct s2_io_buf *s2_reader_buf(struct s2_reader *r, u64 n)
{
	u32 i;

	div_u64_rem(n, r->io->depth, &i);
	return &r->io->bufs[i];
}

static void s2_reader_submit(struct s2_reader *r, u64 n)
{
	struct s2_io_buf *buf = s2_reader_buf(r, n);

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
	buf = s2_reader_buf(r, r->consumed);
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
