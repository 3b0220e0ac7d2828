// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding and validation of the suspend2 image format (see format.h).
 * Everything here is a pure function of its arguments.
 */
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include "format.h"

/* The layout is the format: a change here is a new format version. */
static_assert(sizeof(struct s2_header_crypt) == 144);
static_assert(offsetof(struct s2_image_header, crypt) == 354);
static_assert(sizeof(struct s2_image_header) == 518);
static_assert(sizeof(struct s2_chunk_header) == 40);
static_assert(sizeof(struct s2_chunk_nonce) == S2_NONCE_LEN);
static_assert(sizeof(struct s2_chunk_aad) == 40);
static_assert(sizeof(struct s2_index_page) == PAGE_SIZE);

u32 s2_crc32c(const void *buf, size_t len)
{
	return ~__crc32c_le(~0U, buf, len);
}

/* Rounding up without adding first: any u64 may come from the disk. */
static u64 div_up(u64 n, u64 d)
{
	u64 q = div64_u64(n, d);

	return q + (q * d != n);
}

/* u64: an image's data_pages is untrusted and may be anything. */
u64 s2_index_pages_for(u64 data_pages)
{
	return div_up(data_pages, S2_INDEX_ENTRIES);
}

u64 s2_max_chunks_for(u64 image_pages)
{
	return div_up(image_pages, S2_CHUNK_PAGES);
}

/* crc32c of @len bytes at @buf as if the __le32 at @field were zero. */
static u32 crc_without_field(const void *buf, size_t len, size_t field)
{
	static const u8 zero[sizeof(__le32)];
	u32 crc;

	crc = __crc32c_le(~0U, buf, field);
	crc = __crc32c_le(crc, zero, sizeof(zero));
	crc = __crc32c_le(crc, (const u8 *)buf + field + sizeof(zero),
			  len - field - sizeof(zero));
	return ~crc;
}

static u32 header_crc(const struct s2_image_header *h)
{
	return crc_without_field(h, sizeof(*h),
				 offsetof(struct s2_image_header, header_crc));
}

void s2_header_seal(struct s2_image_header *h, const struct s2_image_info *info)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, S2_IMAGE_MAGIC, sizeof(h->magic));
	h->format_version = cpu_to_le32(S2_FORMAT_VERSION);
	h->header_size = cpu_to_le32(sizeof(*h));
	h->page_size = cpu_to_le32(PAGE_SIZE);
	h->checksum = cpu_to_le32(info->checksum);
	strscpy(h->release, info->release, sizeof(h->release));
	strscpy(h->version, info->version, sizeof(h->version));
	strscpy(h->machine, info->machine, sizeof(h->machine));
	strscpy(h->compressor, info->compressor, sizeof(h->compressor));
	h->image_pages = cpu_to_le64(info->image_pages);
	h->data_bytes = cpu_to_le64(info->data_bytes);
	h->data_pages = cpu_to_le64(info->data_pages);
	h->nr_chunks = cpu_to_le64(info->nr_chunks);
	h->first_index_page = cpu_to_le64(info->first_index_page);
	h->index_pages = cpu_to_le32(s2_index_pages_for(info->data_pages));
	h->chunk_pages = cpu_to_le32(S2_CHUNK_PAGES);
	h->created_sec = cpu_to_le64(info->created_sec);
	h->snapshot_us = cpu_to_le64(info->snapshot_us);
	h->write_us = cpu_to_le64(info->write_us);
	h->write_cpu_wait_us = cpu_to_le64(info->write_cpu_wait_us);
	h->write_io_wait_us = cpu_to_le64(info->write_io_wait_us);
	h->threads = cpu_to_le32(info->threads);
	h->write_crypt_us = cpu_to_le32(min_t(u64, info->write_crypt_us,
					      U32_MAX));
	h->flags = cpu_to_le32(info->flags);
	h->crypt = info->crypt;
	h->header_crc = cpu_to_le32(header_crc(h));
}

/* After the header tag is set: the crc covers the tag too. */
void s2_header_reseal_crc(struct s2_image_header *h)
{
	h->header_crc = cpu_to_le32(header_crc(h));
}

bool s2_header_encrypted(const struct s2_image_header *h)
{
	return le32_to_cpu(h->crypt.encryption) != S2_ENC_NONE;
}

static bool field_is_string(const char *s, size_t len)
{
	return strnlen(s, len) < len;
}

/*
 * Only names from the list: the reader asks the crypto API about the
 * compressor, which would load modules on the image's word.
 */
static bool name_known(const char * const *names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

static bool field_is_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/* Every refusal: -EINVAL, and why, naming the field at fault. */
static int refuse(const char **why, const char *msg)
{
	*why = msg;
	return -EINVAL;
}

/*
 * The sizes of an image: each is checked against the device and memory
 * before the reader allocates or reads anything because of it, in u64
 * with overflow checks, since every one of them comes from the disk.
 */
static int header_check_sizes(const struct s2_image_header *h,
			      const struct s2_image_limits *lim,
			      const char **why)
{
	u64 image_pages = le64_to_cpu(h->image_pages);
	u64 data_bytes = le64_to_cpu(h->data_bytes);
	u64 data_pages = le64_to_cpu(h->data_pages);
	u64 nr_chunks = le64_to_cpu(h->nr_chunks);
	u64 index_pages = le32_to_cpu(h->index_pages);
	u64 first = le64_to_cpu(h->first_index_page);
	u64 max_bytes, min_stream, max_stream, raw_bytes, total;

	if (le32_to_cpu(h->chunk_pages) != S2_CHUNK_PAGES)
		return refuse(why, "image header chunk_pages is not this format's chunk size");
	if (!image_pages)
		return refuse(why, "image header image_pages is 0");
	if (image_pages > lim->ram_pages)
		return refuse(why, "image header image_pages exceeds this machine's memory");
	/* Every chunk but the last holds S2_CHUNK_PAGES pages. */
	if (nr_chunks != s2_max_chunks_for(image_pages))
		return refuse(why, "image header nr_chunks does not match image_pages");
	if (!data_pages)
		return refuse(why, "image header data_pages is 0");
	if (data_pages >= lim->dev_pages)
		return refuse(why, "image header data_pages exceeds the device");
	if (check_mul_overflow(data_pages, (u64)PAGE_SIZE, &max_bytes) ||
	    data_bytes > max_bytes || data_bytes <= max_bytes - PAGE_SIZE)
		return refuse(why, "image header data_bytes does not match data_pages");
	/*
	 * The stream is each chunk's header and at least one stored byte,
	 * and never more than the header and the raw pages.
	 */
	if (check_mul_overflow(nr_chunks,
			       (u64)sizeof(struct s2_chunk_header) + 1,
			       &min_stream) ||
	    check_mul_overflow(image_pages, (u64)PAGE_SIZE, &raw_bytes) ||
	    check_add_overflow(raw_bytes,
			       nr_chunks * sizeof(struct s2_chunk_header),
			       &max_stream) ||
	    data_bytes < min_stream || data_bytes > max_stream)
		return refuse(why,
			      "image header data_bytes does not fit nr_chunks and image_pages");
	if (index_pages != s2_index_pages_for(data_pages))
		return refuse(why, "image header index_pages does not match data_pages");
	/* Data, index, header and anchor are distinct pages of the device. */
	if (check_add_overflow(data_pages, index_pages + 2, &total) ||
	    total > lim->dev_pages)
		return refuse(why,
			      "image does not fit on the device (data_pages + index_pages + header + anchor)");
	if (!first)
		return refuse(why, "image header first_index_page is 0");
	if (first >= lim->dev_pages)
		return refuse(why, "image header first_index_page points outside the device");
	if (first == lim->anchor_page)
		return refuse(why, "image header first_index_page points at the anchor page");
	if (first == lim->header_page)
		return refuse(why, "image header first_index_page points at the image header");
	return 0;
}

/*
 * The encryption fields.  The tag and the index digest are checked with
 * the key, once the caller has it; here only what can be said without it.
 */
static int header_check_crypt(const struct s2_image_header *h,
			      const struct s2_kernel_id *kid, const char **why)
{
	const struct s2_header_crypt *c = &h->crypt;
	u32 enc = le32_to_cpu(c->encryption);
	u32 scheme = le32_to_cpu(c->key_scheme);

	if (enc >= S2_NR_ENC)
		return refuse(why, "image header encryption names an unknown AEAD");
	if (enc == S2_ENC_NONE) {
		if (!field_is_zero(c, sizeof(*c)) ||
		    !field_is_zero(h->header_tag, sizeof(h->header_tag)))
			return refuse(why,
				      "image header crypt fields set in an unencrypted image");
		return 0;
	}
	if (!(kid->aeads & BIT(enc)))
		return refuse(why, "image header encryption is not one this kernel offers");
	if (scheme != S2_KEY_X25519 && scheme != S2_KEY_TPM)
		return refuse(why, "image header key_scheme is unknown");
	if (field_is_zero(c->image_id, sizeof(c->image_id)))
		return refuse(why, "image header image_id is 0 in an encrypted image");
	if (scheme == S2_KEY_TPM) {
		if (!field_is_zero(c->key_id, sizeof(c->key_id)) ||
		    !field_is_zero(c->tpm_reserved, sizeof(c->tpm_reserved)))
			return refuse(why,
				      "image header key_id or tpm_reserved set in a TPM-sealed image");
		if (field_is_zero(c->tpm_digest, sizeof(c->tpm_digest)))
			return refuse(why, "image header tpm_digest is 0 in a TPM-sealed image");
		return 0;
	}
	if (field_is_zero(c->eph_pub, sizeof(c->eph_pub)))
		return refuse(why, "image header eph_pub is 0 in an encrypted image");
	return 0;
}

/*
 * The sealed image key's place in the header page, before the TPM or the
 * kernel's checks see the blob: its length in range, only boot PCRs the
 * policy can name, and zeros where nothing was written.
 */
int s2_header_tpm_check(const struct s2_header_tpm *t, const char **why)
{
	u32 len = le32_to_cpu(t->blob_len);

	if (!len || len > S2_TPM_BLOB_MAX)
		return refuse(why, "image sealed key blob_len out of range");
	if (le32_to_cpu(t->boot_pcrs) & ~(BIT(23) - 1))
		return refuse(why, "image sealed key boot_pcrs names PCR 23 or above");
	if (!t->counter)
		return refuse(why, "image sealed key counter is 0");
	if (!field_is_zero(t->blob + len, S2_TPM_BLOB_MAX - len))
		return refuse(why, "image sealed key has bytes after its blob");
	return 0;
}

/*
 * Returns 0 for an image this kernel may restore, else -EINVAL with *why
 * saying what is wrong, in words for the kernel log, naming the field.
 * The checks run from "is this an image at all" to "is it ours" to "does
 * it fit", so the reason is the first thing a person would want to know.
 */
int s2_header_check(const struct s2_image_header *h,
		    const struct s2_kernel_id *kid,
		    const struct s2_image_limits *lim, const char **why)
{
	u32 threads = le32_to_cpu(h->threads);

	if (memcmp(h->magic, S2_IMAGE_MAGIC, sizeof(h->magic)))
		return refuse(why, "no image header at the anchor's header_page (bad magic)");
	if (le32_to_cpu(h->header_crc) != header_crc(h))
		return refuse(why, "image header checksum mismatch (corrupt header)");
	if (le32_to_cpu(h->format_version) != S2_FORMAT_VERSION)
		return refuse(why, "image written by another format version (format_version)");
	if (le32_to_cpu(h->header_size) != sizeof(*h))
		return refuse(why,
			      "image header_size is not this format's (another format version)");
	if (le32_to_cpu(h->page_size) != PAGE_SIZE)
		return refuse(why, "image written with another page size (page_size)");
	if (!field_is_string(h->release, sizeof(h->release)))
		return refuse(why, "image header release is not a terminated string");
	if (!field_is_string(h->version, sizeof(h->version)))
		return refuse(why, "image header version is not a terminated string");
	if (!field_is_string(h->machine, sizeof(h->machine)))
		return refuse(why, "image header machine is not a terminated string");
	if (!field_is_string(h->compressor, sizeof(h->compressor)))
		return refuse(why, "image header compressor is not a terminated string");
	if (strcmp(h->release, kid->release))
		return refuse(why, "image written by another kernel (release differs)");
	if (strcmp(h->version, kid->version))
		return refuse(why, "image written by another kernel (version differs)");
	if (strcmp(h->machine, kid->machine))
		return refuse(why, "image written by another kernel (machine differs)");
	if (!name_known(kid->compressors, h->compressor))
		return refuse(why, "image header compressor is not one this kernel knows");
	if (le32_to_cpu(h->checksum) > S2_CHECKSUM_CRC32C)
		return refuse(why, "image header checksum names an unknown checksum kind");
	/* Zero as written: anything else is another format or damage. */
	if (!field_is_zero(h->pad, sizeof(h->pad)))
		return refuse(why, "image header pad is not 0");
	/* Only an encrypted image's writer spent time sealing chunks. */
	if (h->write_crypt_us && !s2_header_encrypted(h))
		return refuse(why, "image header write_crypt_us is set on an unencrypted image");
	if (le32_to_cpu(h->flags) & ~S2_FLAGS_KNOWN)
		return refuse(why, "image header flags has unknown bits");
	if (!threads || threads > S2_MAX_THREADS)
		return refuse(why, "image header threads out of range");
	if (header_check_crypt(h, kid, why))
		return -EINVAL;
	return header_check_sizes(h, lim, why);
}

void s2_anchor_set(struct s2_anchor *a, u64 header_page, u32 header_crc)
{
	/* Keep the original signature only the first time. */
	if (memcmp(a->sig, S2_ANCHOR_SIG, S2_SIG_LEN))
		memcpy(a->orig_sig, a->sig, S2_SIG_LEN);
	memcpy(a->sig, S2_ANCHOR_SIG, S2_SIG_LEN);
	a->header_page = cpu_to_le64(header_page);
	a->header_crc = cpu_to_le32(header_crc);
	a->reserved = 0;
}

bool s2_anchor_is_image(const struct s2_anchor *a)
{
	return !memcmp(a->sig, S2_ANCHOR_SIG, S2_SIG_LEN);
}

/* Puts back what was there before the image (mkswap's signature). */
void s2_anchor_clear(struct s2_anchor *a)
{
	if (!s2_anchor_is_image(a))
		return;
	memcpy(a->sig, a->orig_sig, S2_SIG_LEN);
	memset(a->orig_sig, 0, S2_SIG_LEN);
	a->header_page = 0;
	a->header_crc = 0;
}

/* @a is an image's anchor (s2_anchor_is_image()); is it usable? */
int s2_anchor_check(const struct s2_anchor *a,
		    const struct s2_image_limits *lim, const char **why)
{
	u64 header_page = le64_to_cpu(a->header_page);

	if (!header_page)
		return refuse(why, "anchor header_page is 0");
	if (header_page >= lim->dev_pages)
		return refuse(why, "anchor header_page points outside the device");
	if (header_page == lim->anchor_page)
		return refuse(why, "anchor header_page points at the anchor itself");
	if (a->reserved)
		return refuse(why, "anchor reserved is not 0");
	return 0;
}

static u32 index_crc(const struct s2_index_page *ip)
{
	return crc_without_field(ip, sizeof(*ip),
				 offsetof(struct s2_index_page, crc));
}

void s2_index_seal(struct s2_index_page *ip, u64 next, u32 count)
{
	ip->next = cpu_to_le64(next);
	ip->count = cpu_to_le32(count);
	ip->crc = cpu_to_le32(index_crc(ip));
}

int s2_index_check(const struct s2_index_page *ip, u32 expected_count,
		   const char **why)
{
	if (le32_to_cpu(ip->crc) != index_crc(ip))
		return refuse(why,
			      "index page checksum mismatch (corrupt block index, or first_index_page or a next pointer leading elsewhere)");
	if (le32_to_cpu(ip->count) != expected_count)
		return refuse(why,
			      "index page count is not what data_pages says (or first_index_page or a next pointer leads to the wrong index page)");
	return 0;
}

void s2_index_walk_start(struct s2_index_walk *iw,
			 const struct s2_image_header *h,
			 const struct s2_image_limits *lim, u64 *locs)
{
	iw->lim = lim;
	iw->data_pages = le64_to_cpu(h->data_pages);
	iw->nr = le32_to_cpu(h->index_pages);
	iw->done = 0;
	iw->where = le64_to_cpu(h->first_index_page);
	iw->locs = locs;
}

/*
 * Has the walk been at @iw->where before?  Only asked once a page failed:
 * a chain that loops never ends in a valid last page (the pages repeat,
 * and none before the last has a next of 0), so every loop fails, and
 * this turns that failure into the message that names it.
 */
static bool index_seen(const struct s2_index_walk *iw, u64 page)
{
	u64 i;

	for (i = 0; i < iw->done; i++)
		if (iw->locs[i] == page)
			return true;
	return false;
}

static bool index_revisited(const struct s2_index_walk *iw)
{
	return index_seen(iw, iw->where);
}

#define S2_INDEX_LOOP "index page next points back to an earlier index page (the block index loops)"

/*
 * Checks the index page read from @iw->where, the iw->done'th of the
 * chain: its checksum, count and entries, and where its next pointer
 * leads.  Returns 0 and moves @iw on, or -EINVAL with *why.  The walk
 * never takes more than the header's index_pages steps, and the header
 * check bounded those by the device.
 */
int s2_index_walk_page(struct s2_index_walk *iw,
		       const struct s2_index_page *ip, const char **why)
{
	const struct s2_image_limits *lim = iw->lim;
	u64 count = min_t(u64, S2_INDEX_ENTRIES,
			  iw->data_pages - iw->done * S2_INDEX_ENTRIES);
	u64 next = le64_to_cpu(ip->next);
	u64 j;

	if (iw->done >= iw->nr)
		return refuse(why, "block index longer than the header's index_pages");
	if (s2_index_check(ip, count, why)) {
		if (index_revisited(iw))
			return refuse(why, S2_INDEX_LOOP);
		return -EINVAL;
	}
	for (j = 0; j < count; j++) {
		u64 loc = le64_to_cpu(ip->entry[j]);

		if (!loc || loc >= lim->dev_pages)
			return refuse(why, "block index entry points outside the device");
		if (loc == lim->anchor_page)
			return refuse(why, "block index entry points at the anchor page");
		if (loc == lim->header_page)
			return refuse(why, "block index entry points at the image header");
	}
	if (iw->done + 1 == iw->nr) {
		if (!next)
			goto accept;
		if (index_revisited(iw) || next == iw->where ||
		    index_seen(iw, next))
			return refuse(why, S2_INDEX_LOOP);
		return refuse(why,
			      "next of the last index page is not 0 (block index longer than index_pages)");
	}
	if (!next)
		return refuse(why,
			      "index page next is 0 before the last index page (block index shorter than index_pages)");
	if (next >= lim->dev_pages)
		return refuse(why, "index page next points outside the device");
	if (next == iw->where)
		return refuse(why,
			      "index page next points to its own page (the block index loops)");
	if (next == lim->anchor_page)
		return refuse(why, "index page next points at the anchor page");
	if (next == lim->header_page)
		return refuse(why, "index page next points at the image header");
accept:
	iw->locs[iw->done++] = iw->where;
	iw->where = next;
	return 0;
}

/* What lives at a page of the image, in the order the overlap check ranks it. */
enum { S2_AT_ANCHOR, S2_AT_HEADER, S2_AT_INDEX, S2_AT_DATA, S2_AT_KINDS };

/*
 * The pages of an image after a complete walk, one at a time: the anchor,
 * the header, each index page, then each data page as the index lists it.
 */
struct image_pages {
	const struct s2_index_walk *iw;
	const struct s2_index_page * const *index;
	u64 n;			/* anchor, header and index pages given */
	u64 data;		/* data pages given */
	u64 ip;			/* the index page of the next data page */
	u32 entry;		/* and its entry there */
};

static void image_pages_start(struct image_pages *it,
			      const struct s2_index_walk *iw,
			      const struct s2_index_page * const *index)
{
	*it = (struct image_pages){ .iw = iw, .index = index };
}

static bool image_pages_next(struct image_pages *it, u64 *page,
			     unsigned int *kind)
{
	const struct s2_index_walk *iw = it->iw;

	if (it->n < 2 + iw->done) {
		if (it->n < 2) {
			*kind = it->n ? S2_AT_HEADER : S2_AT_ANCHOR;
			*page = it->n ? iw->lim->header_page :
					iw->lim->anchor_page;
		} else {
			*kind = S2_AT_INDEX;
			*page = iw->locs[it->n - 2];
		}
		it->n++;
		return true;
	}
	if (it->data == iw->data_pages)
		return false;
	*kind = S2_AT_DATA;
	*page = le64_to_cpu(it->index[it->ip]->entry[it->entry]);
	it->data++;
	if (++it->entry == S2_INDEX_ENTRIES) {
		it->entry = 0;
		it->ip++;
		cond_resched();
	}
	return true;
}

unsigned int s2_overlap_map_bits(const struct s2_image_limits *lim)
{
	return clamp_t(u64, lim->dev_pages, 1, S2_OVERLAP_MAP_BITS);
}

/*
 * @page holds two parts of the image: which two says what is wrong.  Of
 * all the parts there, the two that rank first (enum above) name it, as
 * they came first when the check sorted the pages with their kinds.
 */
static int overlap_refuse(const struct s2_index_walk *iw,
			  const struct s2_index_page * const *index, u64 page,
			  const char **why)
{
	u64 count[S2_AT_KINDS] = {}, p;
	unsigned int kind, first, second;
	struct image_pages it;

	image_pages_start(&it, iw, index);
	while (image_pages_next(&it, &p, &kind))
		if (p == page)
			count[kind]++;
	for (first = 0; !count[first]; first++)
		;
	count[first]--;
	for (second = first; !count[second]; second++)
		;
	switch (first) {
	case S2_AT_INDEX:
		if (second == S2_AT_DATA)
			return refuse(why, "block index entry points at an index page");
		return refuse(why, S2_INDEX_LOOP);
	case S2_AT_DATA:
		return refuse(why, "block index entry lists a data page twice");
	default:
		return refuse(why, "block index points at the anchor or the image header");
	}
}

/*
 * After a complete walk: no page of the device may hold two parts of the
 * image (a data page listed twice, or an entry pointing at an index page).
 * @map, @map_bits bits (s2_overlap_map_bits(), at least 1), marks the
 * pages seen, a window of the device at a time from the lowest page up:
 * one pass over the image's pages for each window that holds any, so one
 * pass in all on a device of up to S2_OVERLAP_MAP_BITS pages.  The lowest
 * page seen twice is the one refused, with the words its two first kinds
 * give.  A page past the device cannot come from the walk, which refused
 * it; it is refused as the walk would.
 */
int s2_index_overlaps(const struct s2_index_walk *iw,
		      const struct s2_index_page * const *index,
		      unsigned long *map, unsigned int map_bits,
		      const char **why)
{
	static const char * const outside[S2_AT_KINDS] = {
		[S2_AT_ANCHOR] = "anchor page outside the device",
		[S2_AT_HEADER] = "anchor header_page points outside the device",
		[S2_AT_INDEX] = "index page next points outside the device",
		[S2_AT_DATA] = "block index entry points outside the device",
	};
	u64 base = 0, next, twice, page;
	struct image_pages it;
	unsigned int kind;

	image_pages_start(&it, iw, index);
	while (image_pages_next(&it, &page, &kind))
		if (page >= iw->lim->dev_pages)
			return refuse(why, outside[kind]);
	for (;;) {
		bitmap_zero(map, map_bits);
		next = U64_MAX;
		twice = U64_MAX;
		image_pages_start(&it, iw, index);
		while (image_pages_next(&it, &page, &kind)) {
			if (page < base)
				continue;
			if (page - base >= map_bits)
				next = min(next, page);
			else if (__test_and_set_bit(page - base, map))
				twice = min(twice, page);
		}
		if (twice != U64_MAX)
			return overlap_refuse(iw, index, twice, why);
		if (next == U64_MAX)
			return 0;
		base = next;
	}
}

/* @tag: the AEAD tag of the stored bytes, NULL in an unencrypted image. */
void s2_chunk_seal(struct s2_chunk_header *ch, u32 seq, u32 raw_len,
		   u32 stored_len, u32 crc, const u8 *tag)
{
	ch->magic = cpu_to_le32(S2_CHUNK_MAGIC);
	ch->seq = cpu_to_le32(seq);
	ch->raw_len = cpu_to_le32(raw_len);
	ch->stored_len = cpu_to_le32(stored_len);
	ch->crc = cpu_to_le32(crc);
	ch->reserved = 0;
	if (tag)
		memcpy(ch->tag, tag, sizeof(ch->tag));
	else
		memset(ch->tag, 0, sizeof(ch->tag));
}

/*
 * @compressed: the image names a compressor (a chunk may then be stored
 * shorter than raw); @checksum: the image has chunk checksums;
 * @encrypted: the chunk carries a tag, which only the key can check.
 */
int s2_chunk_check(const struct s2_chunk_header *ch, u32 seq,
		   bool compressed, bool checksum, bool encrypted,
		   const char **why)
{
	u32 raw_len = le32_to_cpu(ch->raw_len);
	u32 stored_len = le32_to_cpu(ch->stored_len);

	if (le32_to_cpu(ch->magic) != S2_CHUNK_MAGIC)
		return refuse(why, "chunk header missing (bad chunk magic, corrupt data stream)");
	if (le32_to_cpu(ch->seq) != seq)
		return refuse(why, "chunk seq out of sequence");
	if (!raw_len || raw_len > S2_CHUNK_BYTES || raw_len % PAGE_SIZE)
		return refuse(why, "chunk raw_len out of range");
	if (!stored_len || stored_len > raw_len)
		return refuse(why, "chunk stored_len out of range");
	if (!compressed && stored_len != raw_len)
		return refuse(why,
			      "chunk stored_len differs from raw_len in an uncompressed image");
	if (!checksum && ch->crc)
		return refuse(why, "chunk crc set in an image whose header checksum says none");
	if (ch->reserved)
		return refuse(why, "chunk reserved is not 0");
	if (!encrypted && !field_is_zero(ch->tag, sizeof(ch->tag)))
		return refuse(why, "chunk tag set in an unencrypted image");
	return 0;
}

void s2_chunk_nonce_fill(struct s2_chunk_nonce *n, const u8 *image_id,
			 u64 seq)
{
	memcpy(n->id4, image_id, sizeof(n->id4));
	n->seq = cpu_to_le64(seq);
}

void s2_chunk_aad_fill(struct s2_chunk_aad *aad, const u8 *image_id, u64 seq,
		       u64 nr_chunks, u32 raw_len, u32 stored_len)
{
	memcpy(aad->image_id, image_id, sizeof(aad->image_id));
	aad->seq = cpu_to_le64(seq);
	aad->nr_chunks = cpu_to_le64(nr_chunks);
	aad->raw_len = cpu_to_le32(raw_len);
	aad->stored_len = cpu_to_le32(stored_len);
}
