// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the pure parts of the writers: the syntax of a resume
 * location and the blocks-per-page arithmetic of the file writers (inline
 * in writer.h), and the extent list the file and bdev writers reserve
 * pages from, and what the file writer makes of each extent ->fiemap
 * reports.  (Whether a name that ends in ":N" exists as a whole is a
 * lookup, checked by the VM scenario w-fs-refuse; that the extent walk
 * maps a real file as bmap() does, by w-file.)  extent.c is pure, so
 * it is compiled straight into this test module, which loads without
 * suspend2.ko.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include "../writers/extent.c"

static void s2_location_syntax(struct kunit *test)
{
	char dev[32];
	u64 page = 7;

	KUNIT_EXPECT_TRUE(test, s2_location_split("/dev/vda:34816", dev,
						  sizeof(dev), &page));
	KUNIT_EXPECT_STREQ(test, dev, "/dev/vda");
	KUNIT_EXPECT_EQ(test, page, 34816ULL);
	/* The last colon splits: DEVICE:N:PAGE names page PAGE of DEVICE:N. */
	KUNIT_EXPECT_TRUE(test, s2_location_split("/dev/usb-X_0:0:12", dev,
						  sizeof(dev), &page));
	KUNIT_EXPECT_STREQ(test, dev, "/dev/usb-X_0:0");
	KUNIT_EXPECT_EQ(test, page, 12ULL);
	/* Plain paths. */
	KUNIT_EXPECT_FALSE(test, s2_location_split("/swapfile", dev,
						   sizeof(dev), &page));
	KUNIT_EXPECT_FALSE(test, s2_location_split("/a:1/b", dev,
						   sizeof(dev), &page));
	KUNIT_EXPECT_FALSE(test, s2_location_split("/dev/vda:", dev,
						   sizeof(dev), &page));
	KUNIT_EXPECT_FALSE(test, s2_location_split("/dev/vda:1x", dev,
						   sizeof(dev), &page));
	KUNIT_EXPECT_FALSE(test, s2_location_split(":5", dev, sizeof(dev),
						   &page));
	/* A page that is no u64 makes no location either. */
	KUNIT_EXPECT_FALSE(test, s2_location_split("/dev/vda:-1", dev,
						   sizeof(dev), &page));
	KUNIT_EXPECT_FALSE(test, s2_location_split("/dev/vda:18446744073709551616",
						   dev, sizeof(dev), &page));
	KUNIT_EXPECT_TRUE(test, s2_location_split("/dev/vda:18446744073709551615",
						  dev, sizeof(dev), &page));
	KUNIT_EXPECT_EQ(test, page, U64_MAX);
	/* A device name that does not fit is no location. */
	KUNIT_EXPECT_FALSE(test, s2_location_split("/dev/disk/by-id/a-much-longer-name:1",
						   dev, sizeof(dev), &page));
}

static void s2_block_shift(struct kunit *test)
{
	/* Blocks up to a page: 2^shift blocks make a page. */
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(12, 12), 0);
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(10, 12), 2);
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(9, 12), 3);
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(12, 16), 4);
	/*
	 * Blocks bigger than a page (xfs with 8 KiB or 64 KiB blocks on
	 * 4 KiB pages): refused, where PAGE_SHIFT - i_blkbits would wrap.
	 */
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(13, 12), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(16, 12), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(0, 12), -EOPNOTSUPP);
	/* This kernel's own page. */
	KUNIT_EXPECT_EQ(test, s2_blocks_per_page_shift(PAGE_SHIFT, PAGE_SHIFT),
			0);
	KUNIT_EXPECT_LT(test, s2_blocks_per_page_shift(PAGE_SHIFT + 1,
						       PAGE_SHIFT), 0);
}

/* Runs contiguous on the device merge, whatever their file pages. */
static void s2_extents_merge(struct kunit *test)
{
	struct s2_extents x = {};

	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 1, 100, 1), 0);
	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 2, 101, 1), 0);
	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 3, 102, 3), 0);
	KUNIT_EXPECT_EQ(test, x.nr, 1U);
	KUNIT_EXPECT_EQ(test, x.ext[0].len, 5ULL);
	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 6, 50, 1), 0);
	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 7, 105, 1), 0);
	KUNIT_EXPECT_EQ(test, x.nr, 3U);
	KUNIT_EXPECT_EQ(test, x.ext[1].file_page, 6ULL);
	KUNIT_EXPECT_EQ(test, x.usable, 7ULL);
	s2_extents_free(&x);
	KUNIT_EXPECT_PTR_EQ(test, x.ext, NULL);
	KUNIT_EXPECT_EQ(test, x.nr, 0U);
}

/* Pages come out in list order, then ENOSPC; a rewind starts over. */
static void s2_extents_reservation(struct kunit *test)
{
	static const u64 want[] = { 10, 11, 20, 30, 31, 32 };
	struct s2_extents x = {};
	struct s2_writer w = { .priv = &x };
	unsigned int i;
	u64 page;

	KUNIT_EXPECT_EQ(test, s2_extents_reserve(&w, &page), -ENOSPC);
	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 1, 10, 2), 0);
	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 3, 20, 1), 0);
	KUNIT_ASSERT_EQ(test, s2_extents_add(&x, 4, 30, 3), 0);
	KUNIT_EXPECT_EQ(test, s2_extents_free_bytes(&w), 6ULL << PAGE_SHIFT);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_EQ(test, s2_extents_reserve(&w, &page), 0);
		KUNIT_EXPECT_EQ(test, page, want[i]);
	}
	KUNIT_EXPECT_EQ(test, s2_extents_free_bytes(&w), 0ULL);
	KUNIT_EXPECT_EQ(test, s2_extents_reserve(&w, &page), -ENOSPC);
	KUNIT_EXPECT_EQ(test, x.reserved, 6ULL);
	s2_extents_rewind(&w);
	KUNIT_EXPECT_EQ(test, s2_extents_free_bytes(&w), 6ULL << PAGE_SHIFT);
	KUNIT_ASSERT_EQ(test, s2_extents_reserve(&w, &page), 0);
	KUNIT_EXPECT_EQ(test, page, 10ULL);
	s2_extents_free(&x);
}

/* A fragmented file: the array grows past its first allocation intact. */
static void s2_extents_growth(struct kunit *test)
{
	struct s2_extents x = {};
	struct s2_writer w = { .priv = &x };
	u64 n, page;

	for (n = 0; n < 1000; n++)
		KUNIT_ASSERT_EQ(test, s2_extents_add(&x, n, 2 * n, 1), 0);
	KUNIT_EXPECT_EQ(test, x.nr, 1000U);
	KUNIT_EXPECT_GE(test, x.cap, 1000U);
	for (n = 0; n < 1000; n++) {
		KUNIT_ASSERT_EQ(test, s2_extents_reserve(&w, &page), 0);
		KUNIT_ASSERT_EQ(test, page, 2 * n);
	}
	KUNIT_EXPECT_EQ(test, s2_extents_reserve(&w, &page), -ENOSPC);
	s2_extents_free(&x);
}

#define P(n)	((u64)(n) << PAGE_SHIFT)

/* Plain extents: their whole pages, within the file, with no bmap(). */
static void s2_fiemap_plain(struct kunit *test)
{
	struct s2_fiemap_step s;

	/* A file of 10 pages in one extent at device page 100. */
	s2_fiemap_step(0, 10, 0, P(100), P(10), FIEMAP_EXTENT_LAST, &s);
	KUNIT_EXPECT_TRUE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 0ULL);
	KUNIT_EXPECT_EQ(test, s.end, 10ULL);
	KUNIT_EXPECT_EQ(test, s.dev_page, 100ULL);
	/* Blocks past the file's end (preallocated beyond EOF) are cut. */
	s2_fiemap_step(0, 10, 0, P(100), P(64), 0, &s);
	KUNIT_EXPECT_TRUE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.end, 10ULL);
	/* An extent that began before the walk's restart: from @next on. */
	s2_fiemap_step(5, 10, 0, P(100), P(10), 0, &s);
	KUNIT_EXPECT_TRUE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 5ULL);
	KUNIT_EXPECT_EQ(test, s.dev_page, 105ULL);
	/* Extents of a file mapped by blocks (ext2/3) are merged ones. */
	s2_fiemap_step(2, 10, P(2), P(7), P(3), FIEMAP_EXTENT_MERGED, &s);
	KUNIT_EXPECT_TRUE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 2ULL);
	KUNIT_EXPECT_EQ(test, s.end, 5ULL);
	KUNIT_EXPECT_EQ(test, s.dev_page, 7ULL);
}

/* Holes and partial pages before an extent are left to bmap(). */
static void s2_fiemap_gaps(struct kunit *test)
{
	struct s2_fiemap_step s;

	/* A hole of pages 0-2 (bmap() refuses page 0), then the extent. */
	s2_fiemap_step(0, 10, P(3), P(50), P(7), 0, &s);
	KUNIT_EXPECT_EQ(test, s.gap_end, 3ULL);
	KUNIT_EXPECT_EQ(test, s.end, 10ULL);
	KUNIT_EXPECT_EQ(test, s.dev_page, 50ULL);
	/*
	 * 1 KiB blocks: an extent that starts 1 KiB into page 0 leaves page
	 * 0 to bmap(), and one that ends 1 KiB into page 3 leaves page 3.
	 */
	s2_fiemap_step(0, 10, 1024, P(50) + 1024, P(3), 0, &s);
	KUNIT_EXPECT_TRUE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 1ULL);
	KUNIT_EXPECT_EQ(test, s.end, 3ULL);
	KUNIT_EXPECT_EQ(test, s.dev_page, 51ULL);
	/* An extent inside one page has no whole page: all of it a gap. */
	s2_fiemap_step(4, 10, P(4) + 1024, P(9) + 1024, 2048, 0, &s);
	KUNIT_EXPECT_FALSE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 5ULL);
	KUNIT_EXPECT_EQ(test, s.end, 5ULL);
	/* One wholly before @next adds nothing. */
	s2_fiemap_step(8, 10, 0, P(100), P(4), 0, &s);
	KUNIT_EXPECT_FALSE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 8ULL);
	KUNIT_EXPECT_EQ(test, s.end, 8ULL);
	/* One past the file's end leaves the tail to bmap(). */
	s2_fiemap_step(4, 10, P(12), P(100), P(4), 0, &s);
	KUNIT_EXPECT_FALSE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 10ULL);
	KUNIT_EXPECT_EQ(test, s.end, 10ULL);
}

/* What bmap() refuses, or cannot map page for page, is never plain. */
static void s2_fiemap_not_plain(struct kunit *test)
{
	static const u32 refused[] = {
		FIEMAP_EXTENT_UNWRITTEN,
		FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN,
		FIEMAP_EXTENT_SHARED,
		FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED,
		FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_NOT_ALIGNED,
		FIEMAP_EXTENT_DATA_ENCRYPTED | FIEMAP_EXTENT_ENCODED,
		FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_LAST,
	};
	struct s2_fiemap_step s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		s2_fiemap_step(0, 10, 0, P(100), P(10), refused[i], &s);
		KUNIT_EXPECT_FALSE_MSG(test, s.plain, "flags %#x", refused[i]);
		KUNIT_EXPECT_EQ(test, s.gap_end, 0ULL);
		KUNIT_EXPECT_EQ(test, s.end, 10ULL);
	}
	/* Written, but 1 KiB off a page on the device: every page splits. */
	s2_fiemap_step(0, 10, 0, P(100) + 1024, P(10), 0, &s);
	KUNIT_EXPECT_FALSE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.end, 10ULL);
	/* Numbers at the end of u64 neither wrap nor map. */
	s2_fiemap_step(0, 10, U64_MAX - 10, P(100), U64_MAX, 0, &s);
	KUNIT_EXPECT_FALSE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.gap_end, 10ULL);
	s2_fiemap_step(3, 10, 0, U64_MAX & PAGE_MASK, P(10), 0, &s);
	KUNIT_EXPECT_FALSE(test, s.plain);
	KUNIT_EXPECT_EQ(test, s.end, 10ULL);
}

static struct kunit_case s2_writers_cases[] = {
	KUNIT_CASE(s2_location_syntax),
	KUNIT_CASE(s2_block_shift),
	KUNIT_CASE(s2_extents_merge),
	KUNIT_CASE(s2_extents_reservation),
	KUNIT_CASE(s2_extents_growth),
	KUNIT_CASE(s2_fiemap_plain),
	KUNIT_CASE(s2_fiemap_gaps),
	KUNIT_CASE(s2_fiemap_not_plain),
	{}
};

static struct kunit_suite s2_writers_suite = {
	.name = "suspend2_writers",
	.test_cases = s2_writers_cases,
};

kunit_test_suite(s2_writers_suite);
