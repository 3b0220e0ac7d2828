/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chunk pipeline: worker threads compress and encrypt (or verify,
 * decrypt and decompress) image chunks while the cycle's own thread feeds them in order and takes
 * them back in the same order.  A fixed ring of slots bounds the memory:
 * 2 * S2_CHUNK_PAGES pages per slot, two slots per worker.
 */
#ifndef _SUSPEND2_PIPELINE_H
#define _SUSPEND2_PIPELINE_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include "../image/format.h"

struct s2_aead;
struct s2_compressor;
struct s2_crypt;
struct task_struct;

enum s2_slot_state {
	S2_SLOT_FREE,
	S2_SLOT_READY,		/* filled, waiting for a worker */
	S2_SLOT_BUSY,		/* a worker has it */
	S2_SLOT_DONE,		/* processed, waiting to be drained */
};

struct s2_slot {
	u8 *raw;		/* S2_CHUNK_PAGES pages of image */
	u8 *stored;		/* the same chunk as stored on disk */
	u32 raw_len;
	u32 stored_len;
	u32 crc;		/* computed (write) or expected (read) */
	u32 seq;		/* the chunk's place in the stream */
	u8 tag[S2_TAG_LEN];	/* AEAD tag: computed or expected */
	u64 crypt_ns;		/* the worker's time in the AEAD */
	int error;
	const char *why;
	enum s2_slot_state state;
};

struct s2_pipeline {
	bool compress;		/* writing: compress; reading: verify+expand */
	bool checksum;
	unsigned int nr_threads;
	unsigned int nr_slots;
	struct task_struct **threads;
	struct s2_compressor *comps;	/* one per thread */
	const struct s2_crypt *crypt;	/* NULL: the image is not encrypted */
	struct s2_aead **aeads;		/* one per thread, with crypt */
	struct s2_slot *slots;
	spinlock_t lock;		/* protects the counters and states */
	u64 next_fill;
	u64 next_work;
	u64 next_drain;
	wait_queue_head_t work_wait;
	wait_queue_head_t done_wait;
	u64 drain_wait_us;	/* time the feeder waited for workers */
	u64 crypt_ns;		/* the workers' AEAD time, drained slots */
};

int s2_pipeline_start(struct s2_pipeline *p, bool compress, bool checksum,
		      unsigned int threads, const char *compressor,
		      const struct s2_crypt *crypt);
void s2_pipeline_stop(struct s2_pipeline *p);
u64 s2_pipeline_bytes_for(unsigned int threads, unsigned int io_depth);

/*
 * Slack for what the write allocates besides its pipeline, the workspaces
 * and the block index: bios, and a debug kernel's own bookkeeping of each
 * allocation.
 */
#define S2_WRITE_SLACK_BYTES	(16 << 20)

/*
 * The memory a write with @threads workers (s2_pipeline_threads()) takes
 * after the copy, but for its block index: the pipeline's buffers, each
 * worker's compressor (its workspace, which zstd's high levels make a few
 * MiB) and AEAD, and the slack.  What the copy must leave free.
 */
u64 s2_write_reserve_bytes(unsigned int threads, unsigned int io_depth,
			   const char *compressor, enum s2_encryption enc);

/* The next slot to fill, or NULL when all are in flight: drain first. */
struct s2_slot *s2_pipeline_fill(struct s2_pipeline *p);
void s2_pipeline_submit(struct s2_pipeline *p);
/* The oldest slot in flight once it is processed, NULL if none is. */
struct s2_slot *s2_pipeline_drain(struct s2_pipeline *p);
void s2_pipeline_release(struct s2_pipeline *p);

unsigned int s2_pipeline_threads(unsigned int wanted);

#endif /* _SUSPEND2_PIPELINE_H */
