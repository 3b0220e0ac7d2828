// SPDX-License-Identifier: GPL-2.0
/*
 * The image format parser (kernel/suspend2/image/format.c, pure code)
 * built on the host with tests/unit/kshim and fed hostile images by the
 * structure-aware fuzzer of kernel/suspend2/tests/format_fuzz.h: every
 * field at every boundary value, then a seeded stream of random damage.
 * S2_FUZZ_SEED and S2_FUZZ_ROUNDS pick another stream.  The counts go to
 * stdout ("format fuzz: N images tried, ...").
 */
#include "../../kernel/suspend2/image/format.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <cmocka.h>

#define FZ_FAIL(ctx, ...)					\
	do {							\
		(void)(ctx);					\
		printf("FUZZ FAIL: " __VA_ARGS__);		\
		printf("\n");					\
	} while (0)

#include "../../kernel/suspend2/tests/format_fuzz.h"

static struct fz_image *new_image(void)
{
	struct fz_image *im = calloc(1, sizeof(*im));

	assert_non_null(im);
	fz_build(im);
	return im;
}

static void valid_image_accepted(void **state)
{
	struct fz_image *im = new_image();
	const char *why;

	(void)state;
	assert_int_equal(fz_parse(im, &why), 0);
	assert_null(fz_accepted_ok(im));
	assert_int_equal(im->nr_walked, FZ_NR_INDEX);
	free(im);
}

/* The two examples of the issue: each passed the old header check. */
static void issue_examples_refused(void **state)
{
	struct fz_image *im = new_image();
	struct s2_image_header *h = fz_header(im);
	const char *why;

	(void)state;
	h->data_pages = cpu_to_le64(510ULL * (1ULL << 32) + 1);
	h->index_pages = cpu_to_le32(1);
	h->data_bytes = cpu_to_le64(4096);
	fz_reseal_header(im);
	assert_int_equal(fz_parse(im, &why), -EINVAL);
	assert_non_null(strstr(why, "data_pages"));

	fz_build(im);
	h->data_pages = cpu_to_le64((1ULL << 52) + 1);
	h->data_bytes = cpu_to_le64(4096);
	fz_reseal_header(im);
	assert_int_equal(fz_parse(im, &why), -EINVAL);
	assert_non_null(strstr(why, "data_pages"));

	/* Whatever the device, data_pages * PAGE_SIZE may not wrap. */
	im->lim.dev_pages = ~0ULL;
	assert_int_equal(fz_parse(im, &why), -EINVAL);
	assert_non_null(strstr(why, "data_bytes"));
	free(im);
}

/* A next pointing to its own page, or back, is a loop, named as one. */
static void index_loops_refused(void **state)
{
	struct fz_image *im = new_image();
	const char *why;

	(void)state;
	im->idx[1].next = cpu_to_le64(im->idx_loc[1]);
	fz_reseal_index(im, 1);
	assert_int_equal(fz_parse(im, &why), -EINVAL);
	assert_non_null(strstr(why, "loops"));

	fz_build(im);
	im->idx[1].next = cpu_to_le64(im->idx_loc[0]);
	fz_reseal_index(im, 1);
	assert_int_equal(fz_parse(im, &why), -EINVAL);
	assert_non_null(strstr(why, "loops"));
	assert_int_equal(im->nr_walked, FZ_NR_INDEX);

	/* The last page's next, back to the first page or to itself. */
	fz_build(im);
	im->idx[FZ_NR_INDEX - 1].next = cpu_to_le64(im->idx_loc[0]);
	fz_reseal_index(im, FZ_NR_INDEX - 1);
	assert_int_equal(fz_parse(im, &why), -EINVAL);
	assert_non_null(strstr(why, "loops"));
	fz_build(im);
	im->idx[FZ_NR_INDEX - 1].next = cpu_to_le64(im->idx_loc[FZ_NR_INDEX - 1]);
	fz_reseal_index(im, FZ_NR_INDEX - 1);
	assert_int_equal(fz_parse(im, &why), -EINVAL);
	assert_non_null(strstr(why, "loops"));
	free(im);
}

/* The overlap check's cases, and random images against the old sort. */
static void overlaps_as_sorted(void **state)
{
	struct fz_image *im = new_image();
	struct fz_overlap *o = calloc(1, sizeof(*o));
	const char *env = getenv("S2_FUZZ_SEED");
	u64 seed = env ? strtoull(env, NULL, 0) : 0x5eed2026ULL;
	struct fz_stats st = {};
	unsigned int bad;

	(void)state;
	assert_non_null(o);
	bad = fz_overlap_cases(NULL, im, o);
	env = getenv("S2_FUZZ_ROUNDS");
	fz_overlap_random(NULL, o, seed ? seed : 1,
			  env ? strtoul(env, NULL, 0) : 20000, &st);
	printf("overlaps: %lu random images, %lu refused, %lu accepted, %lu unlike the sort\n",
	       st.tried, st.refused, st.accepted, st.failures);
	free(o);
	free(im);
	assert_int_equal(bad + st.failures, 0);
}

static void boundary_and_random(void **state)
{
	struct fz_image *im = new_image();
	struct fz_stats st = {};
	const char *env = getenv("S2_FUZZ_SEED");
	u64 seed = env ? strtoull(env, NULL, 0) : 0x5eed2026ULL;
	unsigned long rounds, failures;

	(void)state;
	env = getenv("S2_FUZZ_ROUNDS");
	rounds = env ? strtoul(env, NULL, 0) : 50000;
	fz_boundary_pass(NULL, im, &st);
	printf("format fuzz: boundary pass: %lu images tried, %lu refused, %lu accepted, %lu failures\n",
	       st.tried, st.refused, st.accepted, st.failures);
	/* Every field, page and value it should have tried, no fewer. */
	assert_int_equal(st.tried, fz_boundary_count(im));
	failures = st.failures;
	memset(&st, 0, sizeof(st));
	fz_random(NULL, im, seed ? seed : 1, rounds, &st);
	printf("format fuzz: random pass (seed %#llx): %lu images tried, %lu refused, %lu accepted, %lu failures\n",
	       (unsigned long long)seed, st.tried, st.refused, st.accepted,
	       st.failures);
	free(im);
	assert_int_equal(failures + st.failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_image_accepted),
		cmocka_unit_test(issue_examples_refused),
		cmocka_unit_test(index_loops_refused),
		cmocka_unit_test(overlaps_as_sorted),
		cmocka_unit_test(boundary_and_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
