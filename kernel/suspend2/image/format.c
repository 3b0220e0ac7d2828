// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding and validation of the suspend2 image format (see format.h).
 * Everything here is a pure function of its arguments.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include "format.h"

u32 s2_crc32c(const void *buf, size_t len)
{
	return ~__crc32c_le(~0U, buf, len);
}

u32 s2_index_pages_for(u64 data_pages)
{
	return DIV_ROUND_UP_ULL(data_pages, S2_INDEX_ENTRIES);
}

u64 s2_max_chunks_for(u64 image_pages)
{
	return DIV_ROUND_UP_ULL(image_pages, S2_CHUNK_PAGES);
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
	h->flags = cpu_to_le32(info->flags);
	h->header_crc = cpu_to_le32(header_crc(h));
}

static bool field_is_string(const char *s, size_t len)
{
	return strnlen(s, len) < len;
}

/*
 * Returns 0 for an image this kernel may restore, else -EINVAL with *why
 * saying what is wrong, in words for the kernel log.  The checks run from
 * "is this an image at all" to "is it ours", so the reason is the first
 * thing a person would want to know.
 */
int s2_header_check(const struct s2_image_header *h,
		    const struct s2_kernel_id *kid, const char **why)
{
	u64 image_pages = le64_to_cpu(h->image_pages);
	u64 data_bytes = le64_to_cpu(h->data_bytes);
	u64 data_pages = le64_to_cpu(h->data_pages);
	u64 nr_chunks = le64_to_cpu(h->nr_chunks);

	if (memcmp(h->magic, S2_IMAGE_MAGIC, sizeof(h->magic))) {
		*why = "no image header (bad magic)";
		return -EINVAL;
	}
	if (le32_to_cpu(h->header_crc) != header_crc(h)) {
		*why = "image header checksum mismatch (corrupt header)";
		return -EINVAL;
	}
	if (le32_to_cpu(h->format_version) != S2_FORMAT_VERSION ||
	    le32_to_cpu(h->header_size) != sizeof(*h)) {
		*why = "image written by another format version";
		return -EINVAL;
	}
	if (le32_to_cpu(h->page_size) != PAGE_SIZE) {
		*why = "image written with another page size";
		return -EINVAL;
	}
	if (!field_is_string(h->release, sizeof(h->release)) ||
	    !field_is_string(h->version, sizeof(h->version)) ||
	    !field_is_string(h->machine, sizeof(h->machine)) ||
	    !field_is_string(h->compressor, sizeof(h->compressor))) {
		*why = "image header has unterminated strings";
		return -EINVAL;
	}
	if (strcmp(h->release, kid->release) ||
	    strcmp(h->version, kid->version) ||
	    strcmp(h->machine, kid->machine)) {
		*why = "image written by another kernel";
		return -EINVAL;
	}
	if (le32_to_cpu(h->checksum) > S2_CHECKSUM_CRC32C) {
		*why = "unknown checksum kind";
		return -EINVAL;
	}
	if (!image_pages || !data_pages || !nr_chunks ||
	    le32_to_cpu(h->chunk_pages) != S2_CHUNK_PAGES ||
	    nr_chunks > s2_max_chunks_for(image_pages) ||
	    data_bytes > data_pages * PAGE_SIZE ||
	    data_bytes <= (data_pages - 1) * PAGE_SIZE ||
	    le32_to_cpu(h->index_pages) != s2_index_pages_for(data_pages) ||
	    !le64_to_cpu(h->first_index_page)) {
		*why = "image header sizes are inconsistent";
		return -EINVAL;
	}
	return 0;
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
	if (le32_to_cpu(ip->crc) != index_crc(ip)) {
		*why = "index page checksum mismatch (corrupt block index)";
		return -EINVAL;
	}
	if (le32_to_cpu(ip->count) != expected_count) {
		*why = "index page holds the wrong number of entries";
		return -EINVAL;
	}
	return 0;
}

void s2_chunk_seal(struct s2_chunk_header *ch, u32 seq, u32 raw_len,
		   u32 stored_len, u32 crc)
{
	ch->magic = cpu_to_le32(S2_CHUNK_MAGIC);
	ch->seq = cpu_to_le32(seq);
	ch->raw_len = cpu_to_le32(raw_len);
	ch->stored_len = cpu_to_le32(stored_len);
	ch->crc = cpu_to_le32(crc);
	ch->reserved = 0;
}

int s2_chunk_check(const struct s2_chunk_header *ch, u32 seq, const char **why)
{
	u32 raw_len = le32_to_cpu(ch->raw_len);
	u32 stored_len = le32_to_cpu(ch->stored_len);

	if (le32_to_cpu(ch->magic) != S2_CHUNK_MAGIC) {
		*why = "chunk header missing (corrupt data stream)";
		return -EINVAL;
	}
	if (le32_to_cpu(ch->seq) != seq) {
		*why = "chunk out of sequence";
		return -EINVAL;
	}
	if (!raw_len || raw_len > S2_CHUNK_PAGES * PAGE_SIZE ||
	    raw_len % PAGE_SIZE || !stored_len || stored_len > raw_len) {
		*why = "chunk sizes out of range";
		return -EINVAL;
	}
	return 0;
}
