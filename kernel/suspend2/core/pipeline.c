// SPDX-License-Identifier: GPL-2.0
/*
 * The chunk pipeline (see pipeline.h).  Like the compression threads of
 * kernel/power/swap.c, but the hand-off is a ring of slots under one
 * spinlock: a slot's data is only touched by whoever owns its state, and
 * the lock orders the state change after the data (the missing barrier
 * behind commit 71cd7e80cfde cannot happen here).
 */
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "../compress/compress.h"
#include "../crypt/crypt.h"
#include "../image/format.h"
#include "pipeline.h"

#define S2_CHUNK_NOT_AUTHENTIC \
	"chunk fails authentication (tampered, moved, or from another image)"

unsigned int s2_pipeline_threads(unsigned int wanted)
{
	unsigned int n = wanted ? wanted : num_online_cpus();

	return clamp(n, 1U, (unsigned int)S2_MAX_THREADS);
}

/*
 * Writing: compress, encrypt, then checksum what goes to disk.  Reading
 * undoes it in reverse, so damage is told apart from tampering: damage
 * fails the checksum first, an edit that kept the checksum right fails
 * the tag.
 */
static void s2_slot_process(struct s2_pipeline *p, struct s2_slot *s,
			    struct s2_compressor *comp, struct s2_aead *aead)
{
	ktime_t start;

	s->error = 0;
	s->crypt_ns = 0;
	if (p->compress) {
		s->stored_len = s2_compress(comp, s->raw, s->raw_len,
					    s->stored, S2_CHUNK_BYTES);
		if (p->crypt) {
			start = ktime_get();
			s->error = s2_aead_seal(aead, p->crypt, s->seq, s->stored,
						s->stored_len, s->raw_len, s->tag);
			s->crypt_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
			if (s->error) {
				s->why = "chunk encryption failed";
				return;
			}
		}
		s->crc = p->checksum ? s2_crc32c(s->stored, s->stored_len) : 0;
		return;
	}
	if (p->checksum && s2_crc32c(s->stored, s->stored_len) != s->crc) {
		s->error = -EBADMSG;
		s->why = "chunk checksum mismatch (corrupt data block)";
		return;
	}
	if (p->crypt) {
		start = ktime_get();
		s->error = s2_aead_open(aead, p->crypt, s->seq, s->stored,
					s->stored_len, s->raw_len, s->tag);
		s->crypt_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
		if (s->error == -EBADMSG)
			s->why = S2_CHUNK_NOT_AUTHENTIC;
		else if (s->error)
			s->why = "chunk decryption failed (crypto API error)";
		if (s->error)
			return;
	}
	if (s2_decompress(comp, s->stored, s->stored_len, s->raw, s->raw_len)) {
		s->error = -EBADMSG;
		s->why = "chunk does not decompress (corrupt data block)";
	}
}

/*
 * The slot of the @seq'th chunk.  div_u64_rem(): a 32-bit kernel has no
 * 64-bit division of its own (no __umoddi3 for u64 % unsigned int).
 */
static struct s2_slot *s2_slot_of(struct s2_pipeline *p, u64 seq)
{
	u32 i;

	div_u64_rem(seq, p->nr_slots, &i);
	return &p->slots[i];
}

static bool s2_work_available(struct s2_pipeline *p)
{
	bool ret;

	spin_lock(&p->lock);
	ret = p->next_work < p->next_fill;
	spin_unlock(&p->lock);
	return ret;
}

static int s2_worker_fn(void *data)
{
	struct s2_pipeline *p = data;
	unsigned int id;
	struct s2_slot *s;
	u64 seq;

	/* Our index among the threads picks our own crypto transform. */
	for (id = 0; id < p->nr_threads && p->threads[id] != current; id++)
		;
	/*
	 * Only kthread_stop() ends a worker: a worker that returned on its
	 * own could be gone before kthread_stop() looks at it.
	 */
	for (;;) {
		/*
		 * Idle, not uninterruptible: a worker waiting for work is not
		 * load, and D state would raise the load average that the
		 * cycle puts back afterwards.
		 */
		wait_event_idle(p->work_wait,
				kthread_should_stop() || s2_work_available(p));
		if (kthread_should_stop())
			break;
		spin_lock(&p->lock);
		/* Another worker may have taken the slot we were woken for. */
		if (p->next_work >= p->next_fill) {
			spin_unlock(&p->lock);
			continue;
		}
		seq = p->next_work++;
		s = s2_slot_of(p, seq);
		s->state = S2_SLOT_BUSY;
		spin_unlock(&p->lock);

		s2_slot_process(p, s, &p->comps[id],
				p->aeads ? p->aeads[id] : NULL);

		spin_lock(&p->lock);
		s->state = S2_SLOT_DONE;
		spin_unlock(&p->lock);
		wake_up(&p->done_wait);
	}
	return 0;
}

/* All the memory a cycle's pipeline and I/O buffers take, for results. */
u64 s2_pipeline_bytes_for(unsigned int threads, unsigned int io_depth)
{
	return (u64)threads * 2 * 2 * S2_CHUNK_BYTES + (u64)io_depth * PAGE_SIZE;
}

u64 s2_write_reserve_bytes(unsigned int threads, unsigned int io_depth,
			   const char *compressor, enum s2_encryption enc)
{
	u64 per_thread = s2_compressor_workspace_bytes(compressor) +
			 s2_aead_workspace_bytes(enc);

	return s2_pipeline_bytes_for(threads, io_depth) + threads * per_thread +
	       S2_WRITE_SLACK_BYTES;
}

int s2_pipeline_start(struct s2_pipeline *p, bool compress, bool checksum,
		      unsigned int threads, const char *compressor,
		      const struct s2_crypt *crypt)
{
	unsigned int i;
	int error;

	memset(p, 0, sizeof(*p));
	p->compress = compress;
	p->checksum = checksum;
	p->nr_threads = s2_pipeline_threads(threads);
	p->nr_slots = 2 * p->nr_threads;
	spin_lock_init(&p->lock);
	init_waitqueue_head(&p->work_wait);
	init_waitqueue_head(&p->done_wait);

	p->slots = kcalloc(p->nr_slots, sizeof(*p->slots), GFP_KERNEL);
	p->comps = kcalloc(p->nr_threads, sizeof(*p->comps), GFP_KERNEL);
	p->threads = kcalloc(p->nr_threads, sizeof(*p->threads), GFP_KERNEL);
	if (!p->slots || !p->comps || !p->threads)
		goto nomem;
	for (i = 0; i < p->nr_slots; i++) {
		p->slots[i].raw = vmalloc(S2_CHUNK_BYTES);
		p->slots[i].stored = vmalloc(S2_CHUNK_BYTES);
		if (!p->slots[i].raw || !p->slots[i].stored)
			goto nomem;
	}
	for (i = 0; i < p->nr_threads; i++) {
		error = s2_compressor_init(&p->comps[i], compressor);
		if (error)
			goto fail;
	}
	if (crypt && crypt->enc != S2_ENC_NONE) {
		p->crypt = crypt;
		p->aeads = kcalloc(p->nr_threads, sizeof(*p->aeads),
				   GFP_KERNEL);
		if (!p->aeads)
			goto nomem;
		for (i = 0; i < p->nr_threads; i++) {
			struct s2_aead *a = s2_aead_new(crypt);

			if (IS_ERR(a)) {
				error = PTR_ERR(a);
				goto fail;
			}
			p->aeads[i] = a;
		}
	}
	for (i = 0; i < p->nr_threads; i++) {
		struct task_struct *t;

		t = kthread_create(s2_worker_fn, p, "suspend2/%u", i);
		if (IS_ERR(t)) {
			error = PTR_ERR(t);
			goto fail;
		}
		p->threads[i] = t;
	}
	/* Started only now, so every worker finds itself in threads[]. */
	for (i = 0; i < p->nr_threads; i++)
		wake_up_process(p->threads[i]);
	return 0;
nomem:
	error = -ENOMEM;
fail:
	s2_pipeline_stop(p);
	return error;
}

void s2_pipeline_stop(struct s2_pipeline *p)
{
	unsigned int i;

	/* kthread_stop() wakes each worker and waits for it to return. */
	for (i = 0; p->threads && i < p->nr_threads; i++) {
		if (p->threads[i])
			kthread_stop(p->threads[i]);
	}
	for (i = 0; p->comps && i < p->nr_threads; i++)
		s2_compressor_exit(&p->comps[i]);
	for (i = 0; p->aeads && i < p->nr_threads; i++)
		s2_aead_free(p->aeads[i]);
	kfree(p->aeads);
	p->aeads = NULL;
	for (i = 0; p->slots && i < p->nr_slots; i++) {
		vfree(p->slots[i].raw);
		vfree(p->slots[i].stored);
	}
	kfree(p->threads);
	kfree(p->comps);
	kfree(p->slots);
	p->threads = NULL;
	p->comps = NULL;
	p->slots = NULL;
}

struct s2_slot *s2_pipeline_fill(struct s2_pipeline *p)
{
	struct s2_slot *s = NULL;

	spin_lock(&p->lock);
	if (p->next_fill - p->next_drain < p->nr_slots)
		s = s2_slot_of(p, p->next_fill);
	spin_unlock(&p->lock);
	return s;
}

void s2_pipeline_submit(struct s2_pipeline *p)
{
	spin_lock(&p->lock);
	s2_slot_of(p, p->next_fill)->state = S2_SLOT_READY;
	p->next_fill++;
	spin_unlock(&p->lock);
	wake_up(&p->work_wait);
}

static bool s2_oldest_done(struct s2_pipeline *p)
{
	bool ret;

	spin_lock(&p->lock);
	ret = s2_slot_of(p, p->next_drain)->state == S2_SLOT_DONE;
	spin_unlock(&p->lock);
	return ret;
}

struct s2_slot *s2_pipeline_drain(struct s2_pipeline *p)
{
	struct s2_slot *s;
	ktime_t start;

	spin_lock(&p->lock);
	if (p->next_drain == p->next_fill) {
		spin_unlock(&p->lock);
		return NULL;
	}
	spin_unlock(&p->lock);
	start = ktime_get();
	/* The busy workers count as load already; their feeder does not. */
	wait_event_idle(p->done_wait, s2_oldest_done(p));
	p->drain_wait_us += ktime_us_delta(ktime_get(), start);
	s = s2_slot_of(p, p->next_drain);
	/* Done: the worker let go of the slot under the lock we took. */
	p->crypt_ns += s->crypt_ns;
	return s;
}

void s2_pipeline_release(struct s2_pipeline *p)
{
	spin_lock(&p->lock);
	s2_slot_of(p, p->next_drain)->state = S2_SLOT_FREE;
	p->next_drain++;
	spin_unlock(&p->lock);
}
