// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the progress line (core/progress.c): what it says at
 * the start, halfway and the end, and that counts from a hostile image
 * header neither wrap nor divide by zero.
 */
#include <kunit/test.h>
#include "../core/progress.c"

static const char *line(char *buf, size_t len, u64 done, u64 total,
			u64 elapsed_ns)
{
	s2_progress_format(buf, len, "Writing image", done, total, elapsed_ns);
	return buf;
}

static void s2_progress_line(struct kunit *test)
{
	char buf[S2_PROGRESS_LINE];

	if (PAGE_SIZE != SZ_4K)
		kunit_skip(test, "the expected lines count 4 KiB pages");
	/* 2 MiB of 4 in 2 s: 1 MB/s (10^6 bytes), the other 2 MiB in 2.1 s, up. */
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 512, 1024, 2000000000),
			   "suspend2: Writing image [#####.....]  50%  2/4 MiB  1 MB/s  3 s left");
	/* No speed at the start, nor before a tenth of a second. */
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 0, 1024, 5000000000),
			   "suspend2: Writing image [..........]   0%  0/4 MiB");
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 512, 1024, 99999999),
			   "suspend2: Writing image [#####.....]  50%  2/4 MiB");
	/* Done: the speed stays, nothing is left. */
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 25600, 25600,
				      1000000000),
			   "suspend2: Writing image [##########] 100%  100/100 MiB  104 MB/s");
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 2560, 25600,
				      1000000000),
			   "suspend2: Writing image [#.........]  10%  10/100 MiB  10 MB/s  10 s left");
}

static void s2_progress_hostile(struct kunit *test)
{
	char buf[S2_PROGRESS_LINE];

	if (PAGE_SIZE != SZ_4K)
		kunit_skip(test, "the expected lines count 4 KiB pages");
	/* No total: all done, no division by it. */
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 0, 0, 1000000000),
			   "suspend2: Writing image [##########] 100%  0/0 MiB");
	/* More done than the total: the total. */
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 3000, 1024, 0),
			   "suspend2: Writing image [##########] 100%  4/4 MiB");
	/* Counts no memory holds are shown as 2^40 pages, unwrapped. */
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), U64_MAX / 2, U64_MAX,
				      1000000000),
			   "suspend2: Writing image [##########] 100%  4294967296/4294967296 MiB  4503599627 MB/s");
	KUNIT_EXPECT_STREQ(test, line(buf, sizeof(buf), 1, U64_MAX, U64_MAX),
			   "suspend2: Writing image [..........]   0%  0/4294967296 MiB");
	/* A short buffer is cut, never overrun. */
	KUNIT_EXPECT_EQ(test, s2_progress_format(buf, 12, "Writing image", 1,
						 2, 0), 11);
	KUNIT_EXPECT_STREQ(test, buf, "suspend2: W");
}

static struct kunit_case s2_progress_cases[] = {
	KUNIT_CASE(s2_progress_line),
	KUNIT_CASE(s2_progress_hostile),
	{}
};

static struct kunit_suite s2_progress_suite = {
	.name = "suspend2-progress",
	.test_cases = s2_progress_cases,
};

kunit_test_suite(s2_progress_suite);
