// SPDX-License-Identifier: GPL-2.0
/*
 * Finding an image on a target, reading it back and verifying it, and
 * erasing its anchor.  Nothing found on disk is trusted before it has been
 * checked: the anchor against the header's checksum, the header against
 * this kernel, every index page and every chunk against its own checksum,
 * and in an encrypted image the header, the index and every chunk against
 * the image key.
 */
#include <crypto/algapi.h>
#include <crypto/sha2.h>
#include <linux/bitops.h>
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

static int read_anchor(struct s2_writer *w, void *page, struct s2_anchor **a)
{
	int error = s2_io_sync(w->bdev, REQ_OP_READ, w->anchor_page, page);

	*a = page + PAGE_SIZE - sizeof(**a);
	return error;
}

void s2_image_put(struct s2_image *img)
{
	u32 i;

	for (i = 0; i < img->nr_index; i++)
		free_page((unsigned long)img->index[i]);
	kvfree(img->index);
	img->index = NULL;
	img->nr_index = 0;
	kfree(img->tpm);
	img->tpm = NULL;
}

/*
 * The index pages of an encrypted image, as a whole, against the digest
 * in its authenticated header: an index page edited with its crc made
 * right again would otherwise pass.
 */
static int check_index_digest(const struct s2_image *img, const char **why)
{
	struct sha256_state *sha;
	u8 digest[S2_DIGEST_LEN];
	u32 i;

	sha = kmalloc(sizeof(*sha), GFP_KERNEL);
	if (!sha) {
		*why = "no memory for checking the block index";
		return -ENOMEM;
	}
	sha256_init(sha);
	for (i = 0; i < img->nr_index; i++)
		sha256_update(sha, (const u8 *)img->index[i], PAGE_SIZE);
	sha256_final(sha, digest);
	kfree(sha);
	if (crypto_memneq(digest, img->header.crypt.index_digest,
			  sizeof(digest))) {
		*why = "block index does not match the header's index_digest (tampered index page)";
		return -EINVAL;
	}
	return 0;
}

/*
 * Reads the block index the header announces.  The header check bounded
 * index_pages by the device and, through data_pages and image_pages, by
 * memory; the walk follows at most that many next pointers and refuses a
 * chain that loops, and no page of the device may serve as two parts of
 * the image.
 */
static int read_index(struct s2_writer *w, struct s2_image *img,
		      const struct s2_image_limits *lim, const char **why)
{
	u32 n = le32_to_cpu(img->header.index_pages);
	struct s2_index_walk iw;
	unsigned long *map;
	unsigned int bits;
	int error = 0;
	u64 *locs;

	/*
	 * Bounded by the header check, but still sized by the disk: a
	 * failure is a refusal, never a warning (panic_on_warn).
	 */
	img->index = kvcalloc(n, sizeof(*img->index), GFP_KERNEL | __GFP_NOWARN);
	locs = kvcalloc(n, sizeof(*locs), GFP_KERNEL | __GFP_NOWARN);
	if (!img->index || !locs) {
		*why = "no memory for the block index";
		error = -ENOMEM;
		goto out;
	}
	s2_index_walk_start(&iw, &img->header, lim, locs);
	while (iw.done < n) {
		struct s2_index_page *ip;

		ip = (void *)__get_free_page(GFP_KERNEL | __GFP_NOWARN);

		if (!ip) {
			*why = "no memory for the block index";
			error = -ENOMEM;
			goto out;
		}
		img->index[img->nr_index++] = ip;
		error = s2_io_sync(w->bdev, REQ_OP_READ, iw.where, ip);
		if (error) {
			*why = "I/O error reading the block index";
			goto out;
		}
		error = s2_index_walk_page(&iw, ip, why);
		if (error)
			goto out;
	}
	/* A bit a page of the device, up to 16 MiB: see format.h. */
	bits = s2_overlap_map_bits(lim);
	map = kvmalloc_array(BITS_TO_LONGS(bits), sizeof(*map),
			     GFP_KERNEL | __GFP_NOWARN);
	if (!map) {
		*why = "no memory for checking the block index";
		error = -ENOMEM;
		goto out;
	}
	error = s2_index_overlaps(&iw, (void *)img->index, map, bits, why);
	kvfree(map);
	if (!error && s2_header_encrypted(&img->header))
		error = check_index_digest(img, why);
out:
	kvfree(locs);
	return error;
}

/*
 * The header's tag with the image key in @crypt, and with a key sealed to
 * the TPM, the sealed part against the digest the tag covers.
 */
static int image_header_verify(const struct s2_image *img,
			       struct s2_crypt *crypt, const char **why)
{
	const struct s2_image_header *h = &img->header;
	int error;

	crypt->nr_chunks = le64_to_cpu(h->nr_chunks);
	error = s2_crypt_header_verify(crypt, h);
	if (error == -EBADMSG) {
		*why = "image header fails authentication (tampered header)";
		return -EINVAL;
	}
	if (error) {
		*why = "cannot check the image header's tag (crypto API error)";
		return error;
	}
	if (img->tpm && !s2_crypt_sealed_digest_ok(h, img->tpm)) {
		*why = "image's sealed key is not the one its header names (tampered header)";
		return -EINVAL;
	}
	return 0;
}

/*
 * The key of an encrypted image, and its header authenticated with it,
 * before anything else is read on the header's word.  A profile that asks
 * for encryption refuses an image without: whoever can write the disk
 * could have put it there.
 */
static int image_key(struct s2_image *img, const struct s2_settings *set,
		     struct s2_crypt *crypt, const char **why)
{
	const struct s2_image_header *h = &img->header;
	int error;

	enum s2_encryption enc = le32_to_cpu(h->crypt.encryption);

	if (!s2_header_encrypted(h)) {
		if (set->encryption == S2_ENC_NONE)
			return 0;
		*why = "image is not encrypted, but its profile requires it (anyone can write one)";
		return -EINVAL;
	}
	/* Not the image's fault: its AEAD's module may be missing here. */
	if (!s2_aead_available(enc)) {
		*why = "image's AEAD is not in this kernel (module missing from the initramfs?)";
		return -ENOPKG;
	}
	if (crypt->enc == S2_ENC_NONE && img->tpm) {
		const char *no_tpm;

		/*
		 * Not the image's fault: the TPM's driver may bind later, and
		 * a kernel started by kexec leaves it to the next boot.
		 */
		if (!s2_tpm_usable(&no_tpm)) {
			*why = no_tpm;
			return -ENOKEY;
		}
		/* Unsealed once user space is frozen: s2_image_unseal(). */
		img->sealed = true;
		return 0;
	}
	if (crypt->enc == S2_ENC_NONE) {
		error = s2_crypt_get_image_key(crypt, h, why);
		if (error)
			return error;
	} else if (crypt->enc != enc ||
		   memcmp(crypt->image_id, h->crypt.image_id,
			  sizeof(crypt->image_id))) {
		*why = "image is not the one this cycle wrote (image_id differs)";
		return -EINVAL;
	}
	return image_header_verify(img, crypt, why);
}

int s2_image_unseal(struct s2_image *img, struct s2_crypt *crypt,
		    const char **why)
{
	int error;

	if (!img->sealed)
		return 0;
	error = s2_crypt_open_sealed_image(crypt, &img->header, img->tpm, why);
	if (error)
		return error;
	error = image_header_verify(img, crypt, why);
	if (!error)
		error = s2_crypt_claim_sealed_image(img->tpm, true, why);
	if (error) {
		s2_crypt_wipe(crypt);
		return error;
	}
	img->sealed = false;
	return 0;
}

int s2_image_check_seal(const struct s2_image *img,
			const struct s2_crypt *crypt, const char **why)
{
	struct s2_crypt *opened;
	int error;

	if (!img->tpm)
		return 0;
	opened = kzalloc(sizeof(*opened), GFP_KERNEL);
	if (!opened) {
		*why = "no memory to open the sealed image key";
		return -ENOMEM;
	}
	error = s2_crypt_open_sealed_image(opened, &img->header, img->tpm, why);
	if (!error && crypto_memneq(opened->key, crypt->key, S2_KEY_LEN)) {
		*why = "the key sealed to the TPM is not the key the image was written with";
		error = -EINVAL;
	}
	if (!error)
		error = s2_crypt_claim_sealed_image(img->tpm, false, why);
	s2_crypt_wipe(opened);
	kfree(opened);
	return error;
}

/* Unchecked: see s2_image_sealed_counter(). */
static u64 sealed_counter_of(const void *page)
{
	const struct s2_image_header *h = page;
	const struct s2_header_tpm *t = page + S2_HEADER_TPM_OFFSET;

	if (memcmp(h->magic, S2_IMAGE_MAGIC, sizeof(h->magic)) ||
	    !s2_header_encrypted(h) ||
	    le32_to_cpu(h->crypt.key_scheme) != S2_KEY_TPM)
		return 0;
	return le64_to_cpu(t->counter);
}

int s2_image_sealed_counter(struct s2_writer *w, u64 *counter)
{
	u64 dev_pages = bdev_nr_bytes(w->bdev) >> PAGE_SHIFT;
	struct s2_anchor *anchor;
	u64 where;
	void *page;
	int error;

	*counter = 0;
	page = (void *)__get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	error = read_anchor(w, page, &anchor);
	if (error || !s2_anchor_is_image(anchor))
		goto out;
	where = le64_to_cpu(anchor->header_page);
	if (!where || where >= dev_pages || where == w->anchor_page)
		goto out;
	error = s2_io_sync(w->bdev, REQ_OP_READ, where, page);
	if (!error)
		*counter = sealed_counter_of(page);
out:
	free_page((unsigned long)page);
	return error;
}

/* The sealed image key, from the header page, checked as hostile input. */
static int read_sealed_key(struct s2_image *img, const void *page,
			   const char **why)
{
	img->tpm = kmemdup(page + S2_HEADER_TPM_OFFSET, sizeof(*img->tpm),
			   GFP_KERNEL);
	if (!img->tpm) {
		*why = "no memory for the sealed image key";
		return -ENOMEM;
	}
	return s2_header_tpm_check(img->tpm, why);
}

/*
 * Returns 0 with the image's header and index in @img, -ENODATA when the
 * target holds no image, -ENOKEY when it is encrypted and no key for it
 * was given, or another error with *why saying why the image
 * found there cannot be used.  The image is untrusted input: the anchor,
 * then the header, are checked against the device and this machine's
 * memory before anything is allocated or read on their word.
 */
int s2_image_find(struct s2_writer *w, struct s2_image *img,
		  const struct s2_settings *set, struct s2_crypt *crypt,
		  const char **why)
{
	struct s2_kernel_id kid = {
		.release = init_utsname()->release,
		.version = init_utsname()->version,
		.machine = init_utsname()->machine,
		.compressors = s2_compressor_names,
	};
	struct s2_image_limits lim = {
		.dev_pages = bdev_nr_bytes(w->bdev) >> PAGE_SHIFT,
		.ram_pages = totalram_pages(),
		.anchor_page = w->anchor_page,
	};
	struct s2_anchor *anchor;
	u32 header_crc;
	void *page;
	int error, i;

	/*
	 * Every AEAD the format knows: one this kernel lacks is not the
	 * image's fault, and image_key() leaves such an image in place.
	 */
	for (i = S2_ENC_NONE + 1; i < S2_NR_ENC; i++)
		kid.aeads |= BIT(i);
	memset(img, 0, sizeof(*img));
	*why = "";
	page = (void *)__get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	error = read_anchor(w, page, &anchor);
	if (error) {
		*why = "I/O error reading the anchor page";
		goto out;
	}
	if (!s2_anchor_is_image(anchor)) {
		error = -ENODATA;
		goto out;
	}
	error = s2_anchor_check(anchor, &lim, why);
	if (error)
		goto out;
	lim.header_page = le64_to_cpu(anchor->header_page);
	header_crc = le32_to_cpu(anchor->header_crc);
	error = s2_io_sync(w->bdev, REQ_OP_READ, lim.header_page, page);
	if (error) {
		*why = "I/O error reading the image header";
		goto out;
	}
	memcpy(&img->header, page, sizeof(img->header));
	img->sealed_counter = sealed_counter_of(page);
	error = s2_header_check(&img->header, &kid, &lim, why);
	if (!error && le32_to_cpu(img->header.header_crc) != header_crc) {
		*why = "anchor header_crc does not match the image header (stale image)";
		error = -EINVAL;
	}
	if (!error && !s2_compressor_available(img->header.compressor)) {
		*why = "image compressor not available in this kernel";
		error = -EINVAL;
	}
	if (!error && s2_header_encrypted(&img->header) &&
	    le32_to_cpu(img->header.crypt.key_scheme) == S2_KEY_TPM)
		error = read_sealed_key(img, page, why);
	if (!error)
		error = image_key(img, set, crypt, why);
	if (!error)
		error = read_index(w, img, &lim, why);
	if (error)
		s2_image_put(img);
out:
	free_page((unsigned long)page);
	return error;
}

/*
 * Clears the anchor and reads it back, whatever the write said: a device
 * that drops writes (a failing disk, a cache that lies) reports success
 * for a write that never reached the medium, and one that lost the reply
 * reports an error for a write that did.  What counts is the medium: 0
 * once it holds no anchor; the write's error, or -EIO, while the anchor
 * is still there; the read's error when it cannot be told.  With
 * @rewrite the page is written back even when it holds no anchor: after
 * an anchor write that failed, that write may still be on its way (a
 * lost reply, a timeout), and the last write to the page must be ours.
 */
int s2_image_invalidate(struct s2_writer *w, bool rewrite)
{
	struct s2_anchor *anchor;
	int error, werror;
	void *page;

	page = (void *)__get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	error = read_anchor(w, page, &anchor);
	if (error || (!rewrite && !s2_anchor_is_image(anchor)))
		goto out;
	if (s2_anchor_is_image(anchor))
		s2_anchor_clear(anchor);
	werror = s2_io_sync(w->bdev, REQ_OP_WRITE | REQ_FUA, w->anchor_page,
			    page);
	error = read_anchor(w, page, &anchor);
	if (error)
		error = werror ?: error;
	else if (s2_anchor_is_image(anchor))
		error = werror ?: -EIO;
	else if (werror)
		pr_warn("the anchor write failed (%pe), but the anchor is gone from the target\n",
			ERR_PTR(werror));
out:
	free_page((unsigned long)page);
	return error;
}

struct s2_stream_in {
	struct s2_reader reader;
	struct s2_image *img;
	const u8 *page;		/* current page of the data stream */
	size_t pos;		/* read position in it */
	u64 left;		/* bytes of the stream not yet read */
};

static u64 locate_data_page(void *ctx, u64 n)
{
	struct s2_image *img = ctx;
	u32 entry;
	u64 page = div_u64_rem(n, S2_INDEX_ENTRIES, &entry);

	return le64_to_cpu(img->index[page]->entry[entry]);
}

static int stream_get(struct s2_stream_in *si, void *dst, size_t len)
{
	int error;

	if (len > si->left)
		return -ENODATA;
	si->left -= len;
	while (len) {
		size_t n;

		if (!si->page || si->pos == PAGE_SIZE) {
			si->page = s2_reader_next(&si->reader, &error);
			if (!si->page)
				return error;
			si->pos = 0;
		}
		n = min(len, PAGE_SIZE - si->pos);
		memcpy(dst, si->page + si->pos, n);
		si->pos += n;
		dst += n;
		len -= n;
	}
	return 0;
}

static int feed_snapshot(struct snapshot_handle *handle, const u8 *raw,
			 unsigned int len)
{
	unsigned int off;

	for (off = 0; off < len; off += PAGE_SIZE) {
		int ret = snapshot_write_next(handle);

		if (ret <= 0)
			return ret ? ret : -EINVAL;
		memcpy(data_of(*handle), raw + off, PAGE_SIZE);
	}
	return 0;
}

/* What reading an image needs besides a few counters. */
struct s2_load {
	struct s2_pipeline pipe;
	struct s2_io io;
	struct s2_stream_in si;
};

/* Reads the next chunk's header and stored bytes into @s. */
static int read_chunk(struct s2_stream_in *si, struct s2_slot *s, u32 seq,
		      const char **why)
{
	struct s2_chunk_header ch;
	int error;

	error = stream_get(si, &ch, sizeof(ch));
	if (error) {
		*why = "data stream ends early (truncated image, or data_bytes too small)";
		return error == -ENODATA ? -EBADMSG : error;
	}
	error = s2_chunk_check(&ch, seq, strcmp(si->img->header.compressor, "none"),
			       le32_to_cpu(si->img->header.checksum) == S2_CHECKSUM_CRC32C,
			       s2_header_encrypted(&si->img->header), why);
	if (error)
		return -EBADMSG;
	s->raw_len = le32_to_cpu(ch.raw_len);
	s->stored_len = le32_to_cpu(ch.stored_len);
	s->crc = le32_to_cpu(ch.crc);
	s->seq = seq;
	memcpy(s->tag, ch.tag, sizeof(s->tag));
	error = stream_get(si, s->stored, s->stored_len);
	if (error) {
		*why = "data stream ends early (truncated image, or data_bytes too small)";
		return error == -ENODATA ? -EBADMSG : error;
	}
	return 0;
}

/*
 * This thread reads the stream and feeds the snapshot code, in order; the
 * pipeline's workers verify and decompress in between.
 */
int s2_image_load(struct s2_writer *w, struct s2_image *img,
		  const struct s2_settings *set, const struct s2_crypt *crypt,
		  bool restore, struct s2_read_stats *st, const char **why)
{
	const struct s2_image_header *h = &img->header;
	u64 image_pages = le64_to_cpu(h->image_pages);
	u64 nr_chunks = le64_to_cpu(h->nr_chunks);
	struct snapshot_handle handle = {};
	struct s2_progress progress;
	ktime_t start = ktime_get();
	struct blk_plug plug;
	struct s2_load *l;
	u64 pages = 0;
	u32 seq = 0;
	int error;

	*why = "";
	/* Off the stack: the boot kernel's stack is small, debug builds more so. */
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l) {
		*why = "no memory for reading the image";
		return -ENOMEM;
	}
	l->si.img = img;
	/* Never read an encrypted image without its key: fail closed. */
	if (s2_header_encrypted(h) &&
	    (!crypt || crypt->enc != le32_to_cpu(h->crypt.encryption))) {
		*why = "image is encrypted and its key was not set up for reading";
		kfree(l);
		return -EINVAL;
	}
	error = s2_pipeline_start(&l->pipe, false,
				  le32_to_cpu(h->checksum) == S2_CHECKSUM_CRC32C,
				  set->compress_threads, h->compressor,
				  s2_header_encrypted(h) ? crypt : NULL);
	if (error) {
		*why = s2_header_encrypted(h) ?
		       "cannot start the image's decryption and decompression threads" :
		       "cannot start the image's decompression threads";
		kfree(l);
		return error;
	}
	error = s2_io_init(&l->io, w->bdev, set->io_depth);
	if (error) {
		*why = "no memory for reading the image";
		goto out_pipe;
	}
	st->threads = l->pipe.nr_threads;
	st->pipeline_bytes = s2_pipeline_bytes_for(l->pipe.nr_threads,
						   set->io_depth);

	l->si.left = le64_to_cpu(h->data_bytes);
	blk_start_plug(&plug);
	s2_reader_start(&l->si.reader, &l->io, le64_to_cpu(h->data_pages),
			locate_data_page, img);
	s2_progress_start(&progress, "Reading image", image_pages);
	for (;;) {
		struct s2_slot *s = seq < nr_chunks ? s2_pipeline_fill(&l->pipe) : NULL;

		if (s) {
			error = read_chunk(&l->si, s, seq++, why);
			if (error)
				break;
			s2_pipeline_submit(&l->pipe);
			continue;
		}
		s = s2_pipeline_drain(&l->pipe);
		if (!s)
			break;
		error = s->error;
		if (error) {
			pr_err("chunk %u of %llu: %s\n", s->seq, nr_chunks,
			       s->why);
			*why = s->why;
		} else if (pages + s->raw_len / PAGE_SIZE > image_pages) {
			*why = "chunks hold more pages than the header's image_pages";
			error = -EBADMSG;
		} else if (restore) {
			ktime_t fed = ktime_get();
			u64 us;

			error = feed_snapshot(&handle, s->raw, s->raw_len);
			if (error)
				*why = "snapshot code refused the image data";
			/*
			 * The snapshot code prepares the memory for the whole
			 * restore at the first data page: that chunk's time,
			 * the longest by far, is that set-up's.
			 */
			us = ktime_us_delta(ktime_get(), fed);
			st->feed_us += us;
			st->prepare_us = max(st->prepare_us, us);
		}
		pages += s->raw_len / PAGE_SIZE;
		s2_pipeline_release(&l->pipe);
		if (error)
			break;
		s2_progress_update(&progress, pages);
	}
	if (!error && pages != image_pages) {
		*why = "chunks hold fewer pages than the header's image_pages";
		error = -EBADMSG;
	}
	if (!error && l->si.left) {
		*why = "data stream goes on after the last chunk (data_bytes too large)";
		error = -EBADMSG;
	}
	s2_progress_end(&progress, error);
	st->decompress_wait_us = l->pipe.drain_wait_us;
	st->crypt_us = div_u64(l->pipe.crypt_ns, NSEC_PER_USEC);
	s2_reader_stop(&l->si.reader);
	blk_finish_plug(&plug);
	st->io_wait_us = l->io.wait_us;
	s2_io_exit(&l->io);
	if (!error && restore) {
		error = snapshot_write_finalize(&handle);
		if (!error && !snapshot_image_loaded(&handle))
			error = -ENODATA;
		if (error)
			*why = "snapshot code found the image incomplete";
	}
	st->bytes_read = (le64_to_cpu(h->data_pages) +
			  le32_to_cpu(h->index_pages) + 1) * PAGE_SIZE;
	st->read_us = ktime_us_delta(ktime_get(), start);
out_pipe:
	s2_pipeline_stop(&l->pipe);
	kfree(l);
	return error;
}
