// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the snapshot out: chunks of S2_CHUNK_PAGES pages are compressed
 * and appended to the data stream, whose pages are reserved one by one
 * from the writer and listed in the block index.  The index, the header
 * and, last of all, the anchor follow, so an image whose writing was cut
 * short is never found.  Why writing failed goes back to the caller in
 * words, as reading's reasons do; the cycle records it.
 */
#include <crypto/sha2.h>
#include <linux/blkdev.h>
#include <linux/hibernation_core.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include "../compress/compress.h"
#include "../crypt/crypt.h"
#include "../tpm/tpm.h"
#include "../internal.h"
#include "../writers/io.h"
#include "../writers/writer.h"
#include "image.h"
#include "pipeline.h"
#include "progress.h"

struct s2_stream_out {
	struct s2_writer *w;
	struct s2_io io;
	struct s2_io_buf *cur;
	size_t fill;
	u64 bytes;
	u64 pages;
	struct s2_index_page **index;
	u64 *where;		/* where each index page goes, max_index */
	u32 nr_index;
	u32 max_index;
	struct sha256_state *digest;	/* of the index, when encrypted */
	struct s2_header_tpm *tpm;	/* the sealed image key, key = tpm */
	char *why;		/* S2_WHY_MAX bytes: why writing failed */
};

static __printf(3, 4) int write_why(struct s2_stream_out *so, int error,
				    const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(so->why, S2_WHY_MAX, fmt, args);
	va_end(args);
	return error;
}

/*
 * Says why writing stopped, in words, and returns @error: running out of
 * target pages is the common case and names how far the write got.
 */
static int write_failed(struct s2_stream_out *so, int error, const char *what,
			u64 done, u64 total)
{
	if (error == -ENOSPC)
		return write_why(so, error, "target full after %llu of %llu pages (%s)",
				 done, total, what);
	if (error == -ENOMEM)
		return write_why(so, error, "out of memory for %s", what);
	return write_why(so, error, "cannot write %s", what);
}

static int stream_record_page(struct s2_stream_out *so, u64 page)
{
	u32 entry, slot = div_u64_rem(so->pages, S2_INDEX_ENTRIES, &entry);

	if (slot >= so->max_index)
		return -ENOSPC;
	if (slot == so->nr_index) {
		so->index[slot] = (void *)get_zeroed_page(GFP_KERNEL);
		if (!so->index[slot])
			return -ENOMEM;
		so->nr_index++;
	}
	so->index[slot]->entry[entry] = cpu_to_le64(page);
	so->pages++;
	return 0;
}

static int stream_flush_page(struct s2_stream_out *so)
{
	u64 page;
	int error;

	memset(so->cur->addr + so->fill, 0, PAGE_SIZE - so->fill);
	error = so->w->ops->reserve_page(so->w, &page);
	if (!error)
		error = stream_record_page(so, page);
	if (error) {
		s2_io_put(&so->io, so->cur);
		so->cur = NULL;
		return error;
	}
	s2_io_write(&so->io, so->cur, page);
	so->cur = NULL;
	return 0;
}

static int stream_put(struct s2_stream_out *so, const void *data, size_t len)
{
	int error;

	while (len) {
		size_t n;

		if (!so->cur) {
			so->cur = s2_io_get(&so->io);
			so->fill = 0;
		}
		n = min(len, PAGE_SIZE - so->fill);
		memcpy(so->cur->addr + so->fill, data, n);
		so->fill += n;
		so->bytes += n;
		data += n;
		len -= n;
		if (so->fill == PAGE_SIZE) {
			error = stream_flush_page(so);
			if (error)
				return error;
		}
	}
	return 0;
}

/*
 * Reserves the index pages, links them and writes them out.  The array of
 * their locations was allocated with the index, before the data: nothing
 * here allocates, so the end of a long write cannot fail for memory.
 */
static int stream_write_index(struct s2_stream_out *so, u64 *first)
{
	u64 *where = so->where;
	u32 i;
	int error = 0;

	for (i = 0; i < so->nr_index && !error; i++)
		error = so->w->ops->reserve_page(so->w, &where[i]);
	for (i = 0; i < so->nr_index && !error; i++) {
		struct s2_io_buf *buf = s2_io_get(&so->io);
		u32 count = min_t(u64, S2_INDEX_ENTRIES,
				  so->pages - (u64)i * S2_INDEX_ENTRIES);

		s2_index_seal(so->index[i],
			      i + 1 < so->nr_index ? where[i + 1] : 0, count);
		if (so->digest)
			sha256_update(so->digest, (u8 *)so->index[i], PAGE_SIZE);
		memcpy(buf->addr, so->index[i], PAGE_SIZE);
		s2_io_write(&so->io, buf, where[i]);
	}
	*first = where[0];
	return error;
}

/* Snapshot pages into the raw buffer of @s, up to a chunk. */
static int fill_chunk(struct snapshot_handle *handle, struct s2_slot *s,
		      u64 *done, u64 total)
{
	s->raw_len = 0;
	while (s->raw_len < S2_CHUNK_BYTES && *done < total) {
		int ret = snapshot_read_next(handle);

		if (ret <= 0)
			return ret ? ret : -ENODATA;
		memcpy(s->raw + s->raw_len, data_of(*handle), PAGE_SIZE);
		s->raw_len += PAGE_SIZE;
		(*done)++;
	}
	return 0;
}

/*
 * This thread reads the snapshot and writes the stream, in order; the
 * pipeline's workers compress and checksum in between.
 */
static int write_chunks(struct s2_stream_out *so, const struct s2_settings *set,
			const struct s2_crypt *crypt, u64 total,
			struct s2_write_stats *st)
{
	struct snapshot_handle handle = {};
	struct s2_progress progress;
	struct s2_pipeline pipe;
	u64 done = 0, written = 0;
	u32 seq = 0, filled = 0;
	int error;

	error = s2_pipeline_start(&pipe, true,
				  set->checksum == S2_CHECKSUM_CRC32C,
				  set->compress_threads, set->compressor, crypt);
	if (error && crypt)
		return write_why(so, error,
				 "cannot start %s compression and %s encryption threads (%pe)",
				 set->compressor,
				 s2_encryption_names[crypt->enc], ERR_PTR(error));
	if (error)
		return write_why(so, error, "cannot start %s compression threads",
				 set->compressor);
	st->threads = pipe.nr_threads;
	st->pipeline_bytes = s2_pipeline_bytes_for(pipe.nr_threads,
						   set->io_depth);

	s2_progress_start(&progress, "Writing image", total);
	for (;;) {
		struct s2_chunk_header ch;
		struct s2_slot *s;

		if (s2_abort_requested()) {
			error = write_why(so, -ECANCELED,
					  "aborted: %s after %llu of %llu pages",
					  s2_abort_why(), written, total);
			break;
		}
		s = done < total ? s2_pipeline_fill(&pipe) : NULL;

		if (s) {
			error = fill_chunk(&handle, s, &done, total);
			if (error) {
				write_why(so, error, "snapshot ended early");
				break;
			}
			s->seq = filled++;
			s2_pipeline_submit(&pipe);
			continue;
		}
		s = s2_pipeline_drain(&pipe);
		if (!s)
			break;
		if (s->error) {
			error = write_why(so, s->error, "%s", s->why);
			s2_pipeline_release(&pipe);
			break;
		}
		s2_chunk_seal(&ch, seq++, s->raw_len, s->stored_len, s->crc,
			      crypt ? s->tag : NULL);
		error = stream_put(so, &ch, sizeof(ch));
		if (!error)
			error = stream_put(so, s->stored, s->stored_len);
		written += s->raw_len / PAGE_SIZE;
		s2_pipeline_release(&pipe);
		if (error) {
			write_failed(so, error, "image data", written, total);
			break;
		}
		s2_progress_update(&progress, written);
	}
	st->compress_wait_us = pipe.drain_wait_us;
	st->crypt_us = div_u64(pipe.crypt_ns, NSEC_PER_USEC);
	s2_pipeline_stop(&pipe);
	s2_progress_end(&progress, error);
	st->nr_chunks = seq;
	return error;
}

static int write_header_and_anchor(struct s2_writer *w,
				   const struct s2_image_info *info,
				   const struct s2_crypt *crypt,
				   bool *anchor_sent)
{
	struct s2_anchor *anchor, written;
	void *page;
	u64 where;
	u32 crc;
	int error;

	BUILD_BUG_ON(sizeof(struct s2_image_header) > PAGE_SIZE);
	page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	error = w->ops->reserve_page(w, &where);
	if (error)
		goto out;
	s2_header_seal(page, info);
	BUILD_BUG_ON(sizeof(struct s2_image_header) > S2_HEADER_TPM_OFFSET ||
		     S2_HEADER_TPM_OFFSET + sizeof(*info->tpm) > PAGE_SIZE);
	if (info->tpm)
		memcpy(page + S2_HEADER_TPM_OFFSET, info->tpm,
		       sizeof(*info->tpm));
	if (crypt) {
		error = s2_crypt_header_seal(crypt, page);
		if (error) {
			/* Not a write error: say so, the caller's words would. */
			pr_err("cannot authenticate the image header: %pe\n",
			       ERR_PTR(error));
			goto out;
		}
		s2_header_reseal_crc(page);
	}
	crc = le32_to_cpu(((struct s2_image_header *)page)->header_crc);
	/* Everything before the anchor must be on the medium first. */
	error = s2_io_sync(w->bdev, REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA,
			   where, page);
	if (error)
		goto out;
	error = s2_io_sync(w->bdev, REQ_OP_READ, w->anchor_page, page);
	if (error)
		goto out;
	anchor = page + PAGE_SIZE - sizeof(*anchor);
	s2_anchor_set(anchor, where, crc);
	written = *anchor;
	*anchor_sent = true;
	error = s2_io_sync(w->bdev, REQ_OP_WRITE | REQ_FUA, w->anchor_page,
			   page);
	if (error)
		goto out;
	/*
	 * Read back: a device that drops writes reports them done, and the
	 * system would power off with no image to resume from.
	 */
	error = s2_io_sync(w->bdev, REQ_OP_READ, w->anchor_page, page);
	if (!error && memcmp(anchor, &written, sizeof(written)))
		error = -EIO;
out:
	free_page((unsigned long)page);
	return error;
}

/*
 * The image key is made here, after the atomic copy, so it is never part
 * of the image; @crypt keeps it until the cycle wipes it.
 */
static int start_encryption(struct s2_stream_out *so,
			    const struct s2_settings *set,
			    struct s2_crypt *crypt,
			    const struct s2_owner_key *owner, u64 total,
			    struct s2_image_info *info)
{
	const char *sealing;
	int error;

	if (s2_key_is_tpm(set)) {
		so->tpm = kzalloc(sizeof(*so->tpm), GFP_KERNEL);
		if (!so->tpm)
			return write_failed(so, -ENOMEM, "the sealed image key",
					    0, total);
		error = s2_crypt_new_sealed_image(crypt, set->encryption,
						  S2_TPM_BOOT_PCRS,
						  &info->crypt, so->tpm,
						  &sealing);
		if (error)
			return write_why(so, error,
					 "cannot seal the image key to the TPM: %s",
					 sealing);
		info->tpm = so->tpm;
	} else {
		error = s2_crypt_new_image(crypt, set->encryption, owner,
					   &info->crypt);
		if (error)
			return write_why(so, error,
					 "cannot make the %s image key (%pe)",
					 s2_encryption_names[set->encryption],
					 ERR_PTR(error));
	}
	crypt->nr_chunks = s2_max_chunks_for(total);
	so->digest = kmalloc(sizeof(*so->digest), GFP_KERNEL);
	if (!so->digest)
		return write_failed(so, -ENOMEM, "the index digest", 0, total);
	sha256_init(so->digest);
	return 0;
}

int s2_image_write(struct s2_writer *w, const struct s2_settings *set,
		   struct s2_crypt *crypt, const struct s2_owner_key *owner,
		   const struct s2_image_times *times,
		   struct s2_write_stats *st, char *why)
{
	struct s2_stream_out so = { .w = w, .why = why };
	bool encrypted = set->encryption != S2_ENC_NONE;
	struct blk_plug plug;
	struct s2_image_info info = {};
	ktime_t start = ktime_get();
	u64 total = snapshot_get_image_size();
	u64 max_pages, nr_chunks = 0;
	int error;
	u32 i;

	why[0] = '\0';
	st->image_pages = total;
	if (set->image_size_limit && total * PAGE_SIZE > set->image_size_limit)
		return write_why(&so, -EFBIG, "image of %llu bytes exceeds image_size_limit %llu",
				 total * PAGE_SIZE, set->image_size_limit);

	/* Stored chunks are never larger than raw ones, plus their headers. */
	max_pages = total + DIV_ROUND_UP(s2_max_chunks_for(total) *
		    sizeof(struct s2_chunk_header), PAGE_SIZE) + 1;
	so.max_index = s2_index_pages_for(max_pages);
	/*
	 * Both grow with the image (a 64 GiB one has about 33000 index
	 * pages): kvcalloc, so that neither needs contiguous pages, which
	 * are scarce after the copy.
	 */
	so.index = kvcalloc(so.max_index, sizeof(*so.index), GFP_KERNEL);
	so.where = kvcalloc(so.max_index, sizeof(*so.where), GFP_KERNEL);
	if (!so.index || !so.where) {
		error = write_failed(&so, -ENOMEM, "the block index", 0, total);
		goto out_index;
	}
	error = s2_io_init(&so.io, w->bdev, set->io_depth);
	if (error) {
		write_failed(&so, error, "the I/O buffers", 0, total);
		goto out_index;
	}
	/*
	 * An image already on the target (never resumed, or its resume
	 * failed) has its anchor there, and its pages may be the ones about
	 * to be overwritten: lose power halfway and the old anchor would lead
	 * to a mix of two images, which nothing catches without checksums.
	 * s2_image_invalidate() writes with FUA, so the anchor is gone from
	 * the medium before any new data goes out.
	 */
	error = s2_image_invalidate(w, false);
	if (error) {
		write_why(&so, error, "cannot invalidate the old image on the target");
		goto out_io;
	}
	if (encrypted) {
		error = start_encryption(&so, set, crypt, owner, total, &info);
		if (error)
			goto out_io;
	}

	blk_start_plug(&plug);
	error = write_chunks(&so, set, encrypted ? crypt : NULL, total, st);
	nr_chunks = st->nr_chunks;
	if (!error && so.cur) {
		error = stream_flush_page(&so);
		if (error)
			write_failed(&so, error, "the last data page", total,
				     total);
	}
	info.first_index_page = 0;
	if (!error) {
		error = stream_write_index(&so, &info.first_index_page);
		if (error)
			write_failed(&so, error, "the block index", total,
				     total);
	}
	if (!error) {
		error = s2_io_drain(&so.io);
		if (error)
			write_why(&so, error, "I/O error writing the image");
	} else {
		s2_io_drain(&so.io);
	}
	blk_finish_plug(&plug);
	st->io_wait_us = so.io.wait_us;
out_io:
	s2_io_exit(&so.io);
	if (error)
		goto out_index;
	/* The anchor completes the image: a press now or later is too late. */
	if (s2_abort_close()) {
		error = write_why(&so, -ECANCELED,
				  "aborted: %s after all %llu pages, before the image was complete",
				  s2_abort_why(), total);
		goto out_index;
	}

	info.release = init_utsname()->release;
	info.version = init_utsname()->version;
	info.machine = init_utsname()->machine;
	/* The header names the decompressor; the level was the writer's. */
	info.compressor = s2_compressor_base(set->compressor);
	info.checksum = set->checksum;
	info.image_pages = total;
	info.data_bytes = so.bytes;
	info.data_pages = so.pages;
	info.nr_chunks = nr_chunks;
	info.created_sec = times->created_sec;
	info.snapshot_us = times->snapshot_us;
	info.write_us = ktime_us_delta(ktime_get(), start);
	info.write_cpu_wait_us = st->compress_wait_us;
	info.write_io_wait_us = st->io_wait_us;
	info.write_crypt_us = st->crypt_us;
	info.threads = st->threads;
	info.flags = set->powerdown == S2_PD_PLATFORM ? S2_FLAG_PLATFORM : 0;
	if (so.digest)
		sha256_final(so.digest, info.crypt.index_digest);
	error = write_header_and_anchor(w, &info, encrypted ? crypt : NULL,
					&st->anchor_sent);
	if (error) {
		write_failed(&so, error, st->anchor_sent ?
			     "the anchor (it may have reached the target)" :
			     "the image header", total, total);
		goto out_index;
	}
	st->write_us = ktime_us_delta(ktime_get(), start);
	st->bytes_written = (so.pages + so.nr_index + 1) * PAGE_SIZE;
out_index:
	for (i = 0; i < so.nr_index; i++)
		free_page((unsigned long)so.index[i]);
	kvfree(so.index);
	kvfree(so.where);
	kfree(so.digest);
	kfree(so.tpm);
	return error;
}
