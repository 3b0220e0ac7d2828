/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page I/O for image writers: asynchronous writes from a bounded pool of
 * buffers, and in-order reads that keep the device busy ahead of the
 * reader.  Locations are page numbers on the block device.
 */
#ifndef _SUSPEND2_IO_H
#define _SUSPEND2_IO_H

#include <linux/blk_types.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

struct block_device;

struct s2_io_buf {
	struct list_head node;
	struct s2_io *io;
	void *addr;
	struct completion done;
	blk_status_t status;
};

struct s2_io {
	struct block_device *bdev;
	unsigned int depth;
	struct s2_io_buf *bufs;
	/*
	 * Guards @free, @inflight and @error, which bio completions change
	 * from interrupt context, and is held while they wake @wait, so a
	 * waiter that saw the last one end may free this structure.
	 */
	spinlock_t lock;
	struct list_head free;		/* buffers no bio holds */
	wait_queue_head_t wait;
	unsigned int inflight;		/* bios submitted and not ended */
	blk_status_t error;		/* the first one */
	u64 wait_us;			/* time callers waited for the device */
};

int s2_io_init(struct s2_io *io, struct block_device *bdev,
	       unsigned int depth);
void s2_io_exit(struct s2_io *io);

/* Writing: take a buffer, fill it, submit it; it comes back when done. */
struct s2_io_buf *s2_io_get(struct s2_io *io);
void s2_io_put(struct s2_io *io, struct s2_io_buf *buf);
void s2_io_write(struct s2_io *io, struct s2_io_buf *buf, u64 page);
int s2_io_drain(struct s2_io *io);

/* One page, synchronously (anchor and header). */
int s2_io_sync(struct block_device *bdev, blk_opf_t op, u64 page, void *addr);

/* Reading @nr pages in order, @locate giving the location of page n. */
struct s2_reader {
	struct s2_io *io;
	u64 nr;
	u64 consumed;		/* pages handed out; the last one is in use */
	u64 next_submit;
	u64 (*locate)(void *ctx, u64 n);
	void *ctx;
};

void s2_reader_start(struct s2_reader *r, struct s2_io *io, u64 nr,
		     u64 (*locate)(void *ctx, u64 n), void *ctx);
void *s2_reader_next(struct s2_reader *r, int *error);
void s2_reader_stop(struct s2_reader *r);

#endif /* _SUSPEND2_IO_H */
