// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the image format: header sealing and validation, the
 * anchor, the block index and chunk headers, and the fuzzer of
 * format_fuzz.h over all of them.  format.c is pure, so it is compiled
 * straight into this test module.
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include "../image/format.c"

#define FZ_FAIL(ctx, fmt, ...) \
	KUNIT_FAIL(((struct kunit *)(ctx)), fmt, ##__VA_ARGS__)
#include "format_fuzz.h"

static unsigned long fuzz_seed = 0x5eed2026;
module_param(fuzz_seed, ulong, 0444);
MODULE_PARM_DESC(fuzz_seed, "seed of the random images of s2_format_fuzz");
static unsigned long fuzz_rounds = 5000;
module_param(fuzz_rounds, ulong, 0444);
MODULE_PARM_DESC(fuzz_rounds, "random images s2_format_fuzz tries");

static const char * const test_compressors[] = { "none", "lz4", NULL };

static const struct s2_kernel_id test_kid = {
	.release = "6.12.0-test",
	.version = "#1 SMP test",
	.machine = "x86_64",
	.compressors = test_compressors,
	.aeads = BIT(S2_ENC_AES_GCM) | BIT(S2_ENC_CHACHA20_POLY1305),
};

static const struct s2_image_limits test_lim = {
	.dev_pages = 10000,
	.ram_pages = 1 << 20,
	.anchor_page = 0,
	.header_page = 1,
};

static void fill_info(struct s2_image_info *info)
{
	memset(info, 0, sizeof(*info));
	info->release = test_kid.release;
	info->version = test_kid.version;
	info->machine = test_kid.machine;
	info->compressor = "lz4";
	info->checksum = S2_CHECKSUM_CRC32C;
	info->image_pages = 1000;
	info->data_pages = 600;
	info->data_bytes = 600 * PAGE_SIZE - 100;
	info->nr_chunks = s2_max_chunks_for(1000);
	info->first_index_page = 42;
	info->threads = 2;
}

static struct s2_image_header *sealed_header(struct kunit *test)
{
	struct s2_image_header *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct s2_image_info info;

	KUNIT_ASSERT_NOT_NULL(test, h);
	fill_info(&info);
	s2_header_seal(h, &info);
	return h;
}

static void reseal(struct s2_image_header *h)
{
	h->header_crc = cpu_to_le32(header_crc(h));
}

static void s2_crc32c_known_value(struct kunit *test)
{
	/* The standard check value of CRC-32C (Castagnoli). */
	KUNIT_EXPECT_EQ(test, s2_crc32c("123456789", 9), 0xe3069283U);
}

static void s2_header_roundtrip(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(h->image_pages), 1000ULL);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->index_pages),
			s2_index_pages_for(600));
	KUNIT_EXPECT_STREQ(test, h->compressor, "lz4");
}

static void s2_header_flipped_byte(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	const char *why = NULL;
	size_t i;

	/* Any single flipped byte outside the magic is a checksum error. */
	for (i = sizeof(h->magic); i < sizeof(*h); i++) {
		((u8 *)h)[i] ^= 0x01;
		KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why),
				-EINVAL);
		((u8 *)h)[i] ^= 0x01;
	}
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), 0);
	h->magic[0] ^= 0x01;
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "magic"));
}

static void s2_header_other_version(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	const char *why = NULL;

	h->format_version = cpu_to_le32(S2_FORMAT_VERSION + 1);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "format version"));
}

/* What can be said of the encryption fields without the key. */
static void s2_header_crypt_fields(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	struct s2_kernel_id no_aead = test_kid;
	const char *why = NULL;
	struct s2_image_header good;
	size_t i;

	/* Unencrypted: any byte of the encryption fields or tag set. */
	for (i = offsetof(struct s2_image_header, crypt) + 4;
	     i < offsetof(struct s2_image_header, header_crc); i++) {
		((u8 *)h)[i] = 0x5a;
		reseal(h);
		KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why),
				-EINVAL);
		KUNIT_EXPECT_NOT_NULL(test, strstr(why, "crypt fields set"));
		((u8 *)h)[i] = 0;
	}
	h->crypt.encryption = cpu_to_le32(S2_NR_ENC);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "unknown AEAD"));

	/* Encrypted, as the writer fills it (the tag is checked later). */
	h->crypt.encryption = cpu_to_le32(S2_ENC_CHACHA20_POLY1305);
	h->crypt.key_scheme = cpu_to_le32(S2_KEY_X25519);
	memset(h->crypt.image_id, 0x11, sizeof(h->crypt.image_id));
	memset(h->crypt.eph_pub, 0x22, sizeof(h->crypt.eph_pub));
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), 0);
	KUNIT_EXPECT_TRUE(test, s2_header_encrypted(h));
	good = *h;
	no_aead.aeads = BIT(S2_ENC_AES_GCM);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &no_aead, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "not one this kernel offers"));
	/* Sealed to the TPM: a digest where the wrap was, nothing else. */
	h->crypt.key_scheme = cpu_to_le32(S2_KEY_TPM);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), 0);
	h->crypt.key_id[3] = 1;
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "key_id or tpm_reserved"));
	h->crypt.key_id[3] = 0;
	h->crypt.tpm_reserved[sizeof(h->crypt.tpm_reserved) - 1] = 1;
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "key_id or tpm_reserved"));
	h->crypt.tpm_reserved[sizeof(h->crypt.tpm_reserved) - 1] = 0;
	memset(h->crypt.tpm_digest, 0, sizeof(h->crypt.tpm_digest));
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "tpm_digest"));
	h->crypt.key_scheme = cpu_to_le32(S2_KEY_TPM + 1);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "key_scheme"));
	h->crypt.key_scheme = cpu_to_le32(S2_KEY_NONE);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "key_scheme"));
	*h = good;
	memset(h->crypt.image_id, 0, sizeof(h->crypt.image_id));
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "image_id"));
	*h = good;
	memset(h->crypt.eph_pub, 0, sizeof(h->crypt.eph_pub));
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "eph_pub"));
}

/* Nonce and associated data: each field in its place, little endian. */
static void s2_chunk_nonce_and_aad(struct kunit *test)
{
	static const u8 id[S2_IMAGE_ID_LEN] = { 1, 2, 3, 4, 5 };
	struct s2_chunk_nonce n;
	struct s2_chunk_aad aad;

	s2_chunk_nonce_fill(&n, id, 0x0102030405060708ULL);
	KUNIT_EXPECT_MEMEQ(test, n.id4, id, 4);
	KUNIT_EXPECT_EQ(test, ((u8 *)&n)[4], 0x08);
	KUNIT_EXPECT_EQ(test, ((u8 *)&n)[11], 0x01);
	s2_chunk_aad_fill(&aad, id, 7, 9, 3 * PAGE_SIZE, 100);
	KUNIT_EXPECT_MEMEQ(test, aad.image_id, id, S2_IMAGE_ID_LEN);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(aad.seq), 7ULL);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(aad.nr_chunks), 9ULL);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(aad.raw_len), 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(aad.stored_len), 100U);
}

static void s2_header_other_kernel(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	struct s2_kernel_id other = test_kid;
	const char *why = NULL;

	other.release = "6.12.1-other";
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &other, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "another kernel"));
	other = test_kid;
	other.version = "#2 SMP other build";
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &other, &test_lim, &why), -EINVAL);
}

static void s2_header_inconsistent_sizes(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	const char *why = NULL;

	h->data_bytes = cpu_to_le64(601 * PAGE_SIZE);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "data_bytes"));

	h = sealed_header(test);
	h->nr_chunks = cpu_to_le64(s2_max_chunks_for(1000) + 1);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);

	h = sealed_header(test);
	h->index_pages = cpu_to_le32(s2_index_pages_for(600) + 1);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "index_pages"));
}

/*
 * The hostile headers of issue 12: each passed the u32 arithmetic of the
 * old check, and made the reader index past its block index array or
 * allocate without bound.
 */
static void s2_header_hostile_sizes(struct kunit *test)
{
	struct s2_image_limits huge = test_lim;
	struct s2_image_header *h = sealed_header(test);
	const char *why = NULL;

	/* index_pages 1 for 510 * 2^32 + 1 data pages: u32 wrap. */
	h->data_pages = cpu_to_le64(510ULL * (1ULL << 32) + 1);
	h->data_bytes = cpu_to_le64(le64_to_cpu(h->data_pages) * PAGE_SIZE);
	h->index_pages = cpu_to_le32(1);
	reseal(h);
	huge.dev_pages = ~0ULL;
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &huge, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "_pages"));
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &test_lim, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "data_pages"));

	/* data_pages * PAGE_SIZE wraps to 4096. */
	h = sealed_header(test);
	h->data_pages = cpu_to_le64((1ULL << 52) + 1);
	h->data_bytes = cpu_to_le64(4096);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &huge, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "data_bytes"));

	/* More pages than memory, or than the device holds. */
	h = sealed_header(test);
	huge = test_lim;
	huge.ram_pages = 999;
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &huge, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "memory"));
	huge = test_lim;
	huge.dev_pages = 600 + 2 + 1;
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &huge, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "fit on the device"));
	huge.dev_pages++;
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &huge, &why), 0);
}

static struct fz_image *fuzz_image(struct kunit *test)
{
	struct fz_image *im = vzalloc(sizeof(*im));

	KUNIT_ASSERT_NOT_NULL(test, im);
	fz_build(im);
	return im;
}

/* A next pointing to its own page, or back, ends the walk as a loop. */
static void s2_index_loops(struct kunit *test)
{
	struct fz_image *im = fuzz_image(test);
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, fz_parse(im, &why), 0);
	im->idx[1].next = cpu_to_le64(im->idx_loc[1]);
	fz_reseal_index(im, 1);
	KUNIT_EXPECT_EQ(test, fz_parse(im, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "loops"));
	fz_build(im);
	im->idx[1].next = cpu_to_le64(im->idx_loc[0]);
	fz_reseal_index(im, 1);
	KUNIT_EXPECT_EQ(test, fz_parse(im, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "loops"));
	/* Never more index pages read than the header announces. */
	KUNIT_EXPECT_LE(test, im->nr_walked, FZ_NR_INDEX);
	/* The last page's next, back to the first. */
	fz_build(im);
	im->idx[FZ_NR_INDEX - 1].next = cpu_to_le64(im->idx_loc[0]);
	fz_reseal_index(im, FZ_NR_INDEX - 1);
	KUNIT_EXPECT_EQ(test, fz_parse(im, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "loops"));
	vfree(im);
}

/*
 * The overlap check over a map of the device: its cases, then random
 * images against the sort it replaced, same verdicts and same words.
 */
static void s2_index_overlap(struct kunit *test)
{
	struct fz_image *im = fuzz_image(test);
	struct fz_overlap *o = vzalloc(sizeof(*o));
	struct fz_stats st = {};

	KUNIT_ASSERT_NOT_NULL(test, o);
	KUNIT_EXPECT_EQ(test, fz_overlap_cases(test, im, o), 0U);
	fz_overlap_random(test, o, fuzz_seed ? fuzz_seed : 1,
			  fuzz_rounds / 10, &st);
	kunit_info(test, "overlaps: %lu random images, %lu refused, %lu accepted, %lu unlike the sort\n",
		   st.tried, st.refused, st.accepted, st.failures);
	vfree(o);
	vfree(im);
}

/* Every field at every boundary value, then fuzz_rounds random images. */
static void s2_format_fuzz(struct kunit *test)
{
	struct fz_image *im = fuzz_image(test);
	struct fz_stats st = {};
	unsigned long tried;

	fz_boundary_pass(test, im, &st);
	tried = st.tried;
	kunit_info(test, "format fuzz: boundary pass: %lu images tried, %lu refused, %lu accepted, %lu failures\n",
		   st.tried, st.refused, st.accepted, st.failures);
	/* Every field, page and value it should have tried, no fewer. */
	KUNIT_EXPECT_EQ(test, st.tried, fz_boundary_count(im));
	memset(&st, 0, sizeof(st));
	fz_random(test, im, fuzz_seed ? fuzz_seed : 1, fuzz_rounds, &st);
	kunit_info(test, "format fuzz: random pass (seed %#lx): %lu images tried, %lu refused, %lu accepted, %lu failures\n",
		   fuzz_seed, st.tried, st.refused, st.accepted, st.failures);
	kunit_info(test, "format fuzz: %lu images tried in all\n",
		   tried + st.tried);
	vfree(im);
}

/* tests/vm/tools/s2img.c reads the header by these offsets. */
static void s2_header_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, format_version), 8UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, release), 24UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, data_pages), 270UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, first_index_page), 286UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, header_crc), 514UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_image_header), 518UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.encryption), 354UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.key_scheme), 358UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.image_id), 362UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.key_id), 378UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.eph_pub), 386UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.wrapped_key), 418UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.index_digest), 466UL);
	/* key = tpm: the digest where eph_pub is, the area further down. */
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.tpm_digest), 386UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, crypt.tpm_reserved), 418UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_header_tpm), 1040UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_header_tpm, blob), 16UL);
	KUNIT_EXPECT_GE(test, S2_HEADER_TPM_OFFSET, sizeof(struct s2_image_header));
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, header_tag), 498UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_chunk_header, tag), 24UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_chunk_header), 40UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_anchor), 36UL);
	/* And by these, for its mutator (and format_fuzz.h by its sizes). */
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, header_size), 12UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, page_size), 16UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, checksum), 20UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, version), 89UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, machine), 154UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, compressor), 219UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, pad), 251UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, image_pages), 254UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, data_bytes), 262UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, nr_chunks), 278UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, index_pages), 294UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, chunk_pages), 298UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, created_sec), 302UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, threads), 342UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, write_crypt_us),
			346UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, flags), 350UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_anchor, header_crc), 8UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_anchor, reserved), 12UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_anchor, sig), 26UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_index_page, count), 8UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_index_page, crc), 12UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_index_page, entry), 16UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_chunk_header, stored_len), 12UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_chunk_header, reserved), 20UL);
}

static void s2_index_math(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(0), 0ULL);
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(1), 1ULL);
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(S2_INDEX_ENTRIES), 1ULL);
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(S2_INDEX_ENTRIES + 1), 2ULL);
	/* No wrap, at either end of u64 or of u32. */
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(~0ULL),
			~0ULL / S2_INDEX_ENTRIES + 1);
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(510ULL * (1ULL << 32) + 1),
			(1ULL << 32) + 1);
	KUNIT_EXPECT_EQ(test, s2_max_chunks_for(~0ULL), (1ULL << 59));
	KUNIT_EXPECT_EQ(test, s2_max_chunks_for(S2_CHUNK_PAGES), 1ULL);
	KUNIT_EXPECT_EQ(test, s2_max_chunks_for(S2_CHUNK_PAGES + 1), 2ULL);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_index_page), PAGE_SIZE);
}

static void s2_index_roundtrip(struct kunit *test)
{
	struct s2_index_page *ip = kunit_kzalloc(test, sizeof(*ip), GFP_KERNEL);
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, ip);
	ip->entry[0] = cpu_to_le64(7);
	ip->entry[1] = cpu_to_le64(9);
	s2_index_seal(ip, 123, 2);
	KUNIT_EXPECT_EQ(test, s2_index_check(ip, 2, &why), 0);
	KUNIT_EXPECT_EQ(test, s2_index_check(ip, 3, &why), -EINVAL);
	((u8 *)ip)[100] ^= 0x80;
	KUNIT_EXPECT_EQ(test, s2_index_check(ip, 2, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "checksum"));
}

static void s2_anchor_keeps_swap_signature(struct kunit *test)
{
	struct s2_anchor a = {};

	memcpy(a.sig, "SWAPSPACE2", S2_SIG_LEN);
	KUNIT_EXPECT_FALSE(test, s2_anchor_is_image(&a));
	s2_anchor_set(&a, 5, 0xabcd);
	KUNIT_EXPECT_TRUE(test, s2_anchor_is_image(&a));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(a.header_page), 5ULL);
	/* A second image over the first keeps the original signature. */
	s2_anchor_set(&a, 6, 0x1234);
	s2_anchor_clear(&a);
	KUNIT_EXPECT_FALSE(test, s2_anchor_is_image(&a));
	KUNIT_EXPECT_EQ(test, memcmp(a.sig, "SWAPSPACE2", S2_SIG_LEN), 0);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_anchor) % 2, 0UL);
}

static void s2_chunk_validation(struct kunit *test)
{
	struct s2_chunk_header ch;
	const char *why = NULL;

	s2_chunk_seal(&ch, 3, PAGE_SIZE * 2, 100, 0, NULL);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 3, true, false, false, &why), 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 4, true, false, false, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "sequence"));
	s2_chunk_seal(&ch, 0, PAGE_SIZE, PAGE_SIZE + 1, 0, NULL);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, true, false, false, &why), -EINVAL);
	s2_chunk_seal(&ch, 0, PAGE_SIZE * (S2_CHUNK_PAGES + 1), 10, 0, NULL);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, true, false, false, &why), -EINVAL);
	s2_chunk_seal(&ch, 0, 100, 10, 0, NULL);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, true, false, false, &why), -EINVAL);
	s2_chunk_seal(&ch, 0, PAGE_SIZE, 10, 0, NULL);
	ch.magic = 0;
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, true, false, false, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "chunk header"));
	/* Uncompressed: stored is raw; without checksums: crc is 0. */
	s2_chunk_seal(&ch, 0, PAGE_SIZE, 10, 0, NULL);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, false, false, false, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "stored_len"));
	s2_chunk_seal(&ch, 0, PAGE_SIZE, PAGE_SIZE, 7, NULL);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, false, true, false, &why), 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, false, false, false, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "crc"));
	ch.crc = 0;
	ch.reserved = cpu_to_le32(1);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, false, false, false, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "reserved"));
}

/* A tag only where the header says the image is encrypted. */
static void s2_chunk_tag(struct kunit *test)
{
	static const u8 tag[S2_TAG_LEN] = { [7] = 1 };
	struct s2_chunk_header ch;
	const char *why = NULL;

	s2_chunk_seal(&ch, 0, PAGE_SIZE, PAGE_SIZE, 0, tag);
	KUNIT_EXPECT_MEMEQ(test, ch.tag, tag, S2_TAG_LEN);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, false, false, true, &why), 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, false, false, false, &why),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "tag"));
	s2_chunk_seal(&ch, 0, PAGE_SIZE, PAGE_SIZE, 0, NULL);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, false, false, false, &why), 0);
}

/* The sealed key's area, before the TPM sees any of it. */
static void s2_header_tpm_area(struct kunit *test)
{
	struct s2_header_tpm *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->blob_len = cpu_to_le32(300);
	t->boot_pcrs = cpu_to_le32(BIT(0) | BIT(22));
	t->counter = cpu_to_le64(7);
	memset(t->blob, 0x5a, 300);
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), 0);
	t->blob_len = 0;
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "blob_len"));
	t->blob_len = cpu_to_le32(S2_TPM_BLOB_MAX + 1);
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "blob_len"));
	t->blob_len = cpu_to_le32(0xffffffff);
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), -EINVAL);
	/* A shorter length leaves blob bytes after it. */
	t->blob_len = cpu_to_le32(299);
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "after its blob"));
	t->blob_len = cpu_to_le32(S2_TPM_BLOB_MAX);
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), 0);
	t->blob_len = cpu_to_le32(300);
	t->boot_pcrs = cpu_to_le32(BIT(23));
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "boot_pcrs"));
	t->boot_pcrs = cpu_to_le32(BIT(31));
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), -EINVAL);
	t->boot_pcrs = 0;
	t->counter = 0;
	KUNIT_EXPECT_EQ(test, s2_header_tpm_check(t, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "counter"));
}

static struct kunit_case s2_format_cases[] = {
	KUNIT_CASE(s2_crc32c_known_value),
	KUNIT_CASE(s2_header_roundtrip),
	KUNIT_CASE(s2_header_flipped_byte),
	KUNIT_CASE(s2_header_other_version),
	KUNIT_CASE(s2_header_other_kernel),
	KUNIT_CASE(s2_header_crypt_fields),
	KUNIT_CASE(s2_header_tpm_area),
	KUNIT_CASE(s2_chunk_nonce_and_aad),
	KUNIT_CASE(s2_header_inconsistent_sizes),
	KUNIT_CASE(s2_header_hostile_sizes),
	KUNIT_CASE(s2_header_layout),
	KUNIT_CASE(s2_index_math),
	KUNIT_CASE(s2_index_roundtrip),
	KUNIT_CASE(s2_anchor_keeps_swap_signature),
	KUNIT_CASE(s2_chunk_validation),
	KUNIT_CASE(s2_chunk_tag),
	KUNIT_CASE(s2_index_loops),
	KUNIT_CASE(s2_index_overlap),
	KUNIT_CASE(s2_format_fuzz),
	{}
};

static struct kunit_suite s2_format_suite = {
	.name = "suspend2_format",
	.test_cases = s2_format_cases,
};

kunit_test_suite(s2_format_suite);

MODULE_DESCRIPTION("KUnit tests for the suspend2 image format");
MODULE_LICENSE("GPL");
