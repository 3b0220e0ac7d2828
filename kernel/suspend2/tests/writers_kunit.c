// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the pure parts of the writers: the syntax of a resume
 * location and the blocks-per-page arithmetic of the file writers.  Both
 * are inline in writer.h.  (Whether a name that ends in ":N" exists as a
 * whole is a lookup, checked by the VM scenario w-fs-refuse.)
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include "../writers/writer.h"

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

static struct kunit_case s2_writers_cases[] = {
	KUNIT_CASE(s2_location_syntax),
	KUNIT_CASE(s2_block_shift),
	{}
};

static struct kunit_suite s2_writers_suite = {
	.name = "suspend2_writers",
	.test_cases = s2_writers_cases,
};

kunit_test_suite(s2_writers_suite);
