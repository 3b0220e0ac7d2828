// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the image format: header sealing and validation, the
 * anchor, the block index and chunk headers.  format.c is pure, so it is
 * compiled straight into this test module.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "../image/format.c"

static const struct s2_kernel_id test_kid = {
	.release = "6.12.0-test",
	.version = "#1 SMP test",
	.machine = "x86_64",
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

	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why), 0);
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
		KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why),
				-EINVAL);
		((u8 *)h)[i] ^= 0x01;
	}
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why), 0);
	h->magic[0] ^= 0x01;
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "magic"));
}

static void s2_header_other_version(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	const char *why = NULL;

	h->format_version = cpu_to_le32(S2_FORMAT_VERSION + 1);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "format version"));
}

static void s2_header_other_kernel(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	struct s2_kernel_id other = test_kid;
	const char *why = NULL;

	other.release = "6.12.1-other";
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &other, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "another kernel"));
	other = test_kid;
	other.version = "#2 SMP other build";
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &other, &why), -EINVAL);
}

static void s2_header_inconsistent_sizes(struct kunit *test)
{
	struct s2_image_header *h = sealed_header(test);
	const char *why = NULL;

	h->data_bytes = cpu_to_le64(601 * PAGE_SIZE);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "inconsistent"));

	h = sealed_header(test);
	h->nr_chunks = cpu_to_le64(s2_max_chunks_for(1000) + 1);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why), -EINVAL);

	h = sealed_header(test);
	h->index_pages = cpu_to_le32(s2_index_pages_for(600) + 1);
	reseal(h);
	KUNIT_EXPECT_EQ(test, s2_header_check(h, &test_kid, &why), -EINVAL);
}

/* tests/vm/tools/s2img.c reads the header by these offsets. */
static void s2_header_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, format_version), 8UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, release), 24UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, data_pages), 270UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, first_index_page), 286UL);
	KUNIT_EXPECT_EQ(test, offsetof(struct s2_image_header, header_crc), 354UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_image_header), 358UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct s2_anchor), 36UL);
}

static void s2_index_math(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(0), 0U);
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(1), 1U);
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(S2_INDEX_ENTRIES), 1U);
	KUNIT_EXPECT_EQ(test, s2_index_pages_for(S2_INDEX_ENTRIES + 1), 2U);
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

	s2_chunk_seal(&ch, 3, PAGE_SIZE * 2, 100, 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 3, &why), 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 4, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "sequence"));
	s2_chunk_seal(&ch, 0, PAGE_SIZE, PAGE_SIZE + 1, 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, &why), -EINVAL);
	s2_chunk_seal(&ch, 0, PAGE_SIZE * (S2_CHUNK_PAGES + 1), 10, 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, &why), -EINVAL);
	s2_chunk_seal(&ch, 0, 100, 10, 0);
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, &why), -EINVAL);
	s2_chunk_seal(&ch, 0, PAGE_SIZE, 10, 0);
	ch.magic = 0;
	KUNIT_EXPECT_EQ(test, s2_chunk_check(&ch, 0, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "chunk header"));
}

static struct kunit_case s2_format_cases[] = {
	KUNIT_CASE(s2_crc32c_known_value),
	KUNIT_CASE(s2_header_roundtrip),
	KUNIT_CASE(s2_header_flipped_byte),
	KUNIT_CASE(s2_header_other_version),
	KUNIT_CASE(s2_header_other_kernel),
	KUNIT_CASE(s2_header_inconsistent_sizes),
	KUNIT_CASE(s2_header_layout),
	KUNIT_CASE(s2_index_math),
	KUNIT_CASE(s2_index_roundtrip),
	KUNIT_CASE(s2_anchor_keeps_swap_signature),
	KUNIT_CASE(s2_chunk_validation),
	{}
};

static struct kunit_suite s2_format_suite = {
	.name = "suspend2_format",
	.test_cases = s2_format_cases,
};

kunit_test_suite(s2_format_suite);

MODULE_DESCRIPTION("KUnit tests for the suspend2 image format");
MODULE_LICENSE("GPL");
