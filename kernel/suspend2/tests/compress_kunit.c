// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for compressor levels (compress/compress.c): which specs
 * configfs takes, that names.h's ranges are the libraries' own, and that
 * a level really reaches the library while what it writes reads back
 * through the crypto API, which knows nothing of levels.
 */
#include <kunit/test.h>
#include <linux/lz4.h>
#include <linux/lzo.h>
#include <linux/zlib.h>
#include <linux/zstd.h>
#include "../compress/compress.c"

static int parse(const char *spec, int *level)
{
	int i = -1;

	return s2_compressor_parse(spec, &i, level);
}

static void s2_compress_parse(struct kunit *test)
{
	static const char * const einval[] = {
		"", "zst", "zstdx", ":3", "zstd:", "zstd:-", "zstd:01",
		"zstd:-0", "zstd:+3", "zstd: 3", "zstd:3 ", "zstd:3:4",
		"zstd:0x3", "lz4:1", "lzo:1", "none:0", "zstd:3\n",
	};
	int i = -1, level = 0;
	size_t n;

	KUNIT_EXPECT_EQ(test, s2_compressor_parse("lzo", &i, &level), 0);
	KUNIT_EXPECT_STREQ(test, s2_compressor_names[i], "lzo");
	KUNIT_EXPECT_EQ(test, level, S2_NO_LEVEL);
	KUNIT_EXPECT_EQ(test, s2_compressor_parse("zstd:-7", &i, &level), 0);
	KUNIT_EXPECT_STREQ(test, s2_compressor_names[i], "zstd");
	KUNIT_EXPECT_EQ(test, level, -7);
	/* Each range's ends are in it, one past them is not. */
	KUNIT_EXPECT_EQ(test, parse("zstd:-131072", &level), 0);
	KUNIT_EXPECT_EQ(test, level, -131072);
	KUNIT_EXPECT_EQ(test, parse("zstd:0", &level), 0);
	KUNIT_EXPECT_EQ(test, parse("zstd:22", &level), 0);
	KUNIT_EXPECT_EQ(test, parse("zstd:-131073", &level), -ERANGE);
	KUNIT_EXPECT_EQ(test, level, S2_NO_LEVEL);
	KUNIT_EXPECT_EQ(test, parse("zstd:23", &level), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse("lz4hc:1", &level), 0);
	KUNIT_EXPECT_EQ(test, parse("lz4hc:16", &level), 0);
	KUNIT_EXPECT_EQ(test, parse("lz4hc:0", &level), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse("lz4hc:17", &level), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse("deflate:1", &level), 0);
	KUNIT_EXPECT_EQ(test, parse("deflate:9", &level), 0);
	KUNIT_EXPECT_EQ(test, parse("deflate:10", &level), -ERANGE);
	/* Past an int: kstrtoint's own ERANGE, never a wrapped level. */
	KUNIT_EXPECT_EQ(test, parse("zstd:2147483648", &level), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse("zstd:-99999999999", &level), -ERANGE);
	for (n = 0; n < ARRAY_SIZE(einval); n++)
		KUNIT_EXPECT_EQ_MSG(test, parse(einval[n], &level), -EINVAL,
				    "spec '%s'", einval[n]);
	KUNIT_EXPECT_STREQ(test, s2_compressor_base("zstd:1"), "zstd");
	KUNIT_EXPECT_STREQ(test, s2_compressor_base("lz4"), "lz4");
	KUNIT_EXPECT_NULL(test, s2_compressor_base("lz4:1"));
}

/* names.h says the libraries' ranges; hibernate(8) checks by it. */
static void s2_compress_ranges(struct kunit *test)
{
	const struct s2_level_range *r;

	r = s2_level_range("zstd");
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->min, zstd_min_clevel());
	KUNIT_EXPECT_EQ(test, r->max, zstd_max_clevel());
	r = s2_level_range("lz4hc");
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->max, LZ4HC_MAX_CLEVEL);
	r = s2_level_range("deflate");
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->min, Z_BEST_SPEED);
	KUNIT_EXPECT_EQ(test, r->max, Z_BEST_COMPRESSION);
	KUNIT_EXPECT_NULL(test, s2_level_range("lz4"));
}

/* Text-like: words from a small list in a pseudo-random order. */
static void s2_test_text(u8 *buf, size_t len)
{
	static const char * const words[] = {
		"page ", "image ", "swap ", "resume ", "kernel ", "chunk ",
		"frozen ", "thaw ", "0x7f3a ", "writer\n", "the ", "of ",
	};
	u32 x = 12345;
	size_t used = 0, n;

	while (used < len) {
		x = x * 1103515245 + 12345;
		n = min(strlen(words[(x >> 16) % ARRAY_SIZE(words)]),
			len - used);
		memcpy(buf + used, words[(x >> 16) % ARRAY_SIZE(words)], n);
		used += n;
	}
}

/* Compressed with @spec, read back by the crypto API; the stored size. */
static unsigned int s2_round_trip(struct kunit *test, const char *spec,
				  const u8 *raw, u8 *stored, u8 *back)
{
	struct s2_compressor w = {}, r = {};
	unsigned int n;

	KUNIT_ASSERT_EQ_MSG(test, s2_compressor_init(&w, spec), 0,
			    "spec '%s'", spec);
	n = s2_compress(&w, raw, S2_CHUNK_BYTES, stored, S2_CHUNK_BYTES);
	s2_compressor_exit(&w);
	KUNIT_EXPECT_LT_MSG(test, n, (unsigned int)S2_CHUNK_BYTES,
			    "spec '%s' did not compress", spec);
	KUNIT_ASSERT_EQ(test, s2_compressor_init(&r, s2_compressor_base(spec)),
			0);
	memset(back, 0, S2_CHUNK_BYTES);
	KUNIT_EXPECT_EQ_MSG(test, s2_decompress(&r, stored, n, back,
						S2_CHUNK_BYTES), 0,
			    "spec '%s'", spec);
	KUNIT_EXPECT_MEMEQ(test, back, raw, S2_CHUNK_BYTES);
	s2_compressor_exit(&r);
	return n;
}

static void s2_compress_levels(struct kunit *test)
{
	static const char * const bases[] = { "zstd", "lz4hc", "deflate" };
	u8 *raw = kunit_kmalloc(test, S2_CHUNK_BYTES, GFP_KERNEL);
	u8 *stored = kunit_kmalloc(test, S2_CHUNK_BYTES, GFP_KERNEL);
	u8 *back = kunit_kmalloc(test, S2_CHUNK_BYTES, GFP_KERNEL);
	unsigned int fast, best;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, raw);
	KUNIT_ASSERT_NOT_NULL(test, stored);
	KUNIT_ASSERT_NOT_NULL(test, back);
	for (i = 0; i < ARRAY_SIZE(bases); i++)
		KUNIT_ASSERT_TRUE_MSG(test,
				      s2_compressor_level_available(bases[i]),
				      "%s: no level in this kernel", bases[i]);
	s2_test_text(raw, S2_CHUNK_BYTES);

	/* A level that had not reached the library would compress alike. */
	fast = s2_round_trip(test, "zstd:-5", raw, stored, back);
	best = s2_round_trip(test, "zstd:19", raw, stored, back);
	KUNIT_EXPECT_LT(test, best, fast);
	s2_round_trip(test, "zstd:1", raw, stored, back);
	s2_round_trip(test, "zstd", raw, stored, back);
	fast = s2_round_trip(test, "lz4hc:1", raw, stored, back);
	best = s2_round_trip(test, "lz4hc:16", raw, stored, back);
	KUNIT_EXPECT_LT(test, best, fast);
	fast = s2_round_trip(test, "deflate:1", raw, stored, back);
	best = s2_round_trip(test, "deflate:9", raw, stored, back);
	KUNIT_EXPECT_LT(test, best, fast);

	/* What does not compress is stored as it is, and reads back. */
	get_random_bytes(raw, S2_CHUNK_BYTES);
	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		struct s2_compressor c = {};
		const char *spec = i == 0 ? "zstd:22" :
				   i == 1 ? "lz4hc:9" : "deflate:6";

		KUNIT_ASSERT_EQ(test, s2_compressor_init(&c, spec), 0);
		KUNIT_EXPECT_EQ(test, s2_compress(&c, raw, S2_CHUNK_BYTES,
						  stored, S2_CHUNK_BYTES),
				(unsigned int)S2_CHUNK_BYTES);
		KUNIT_EXPECT_MEMEQ(test, stored, raw, S2_CHUNK_BYTES);
		s2_compressor_exit(&c);
	}
}

/*
 * What each compressor allocates, as the memory kept free after the copy
 * counts it per worker: the library's own bound for a level, the crypto
 * API module's sizes without one.
 */
static void s2_compress_workspaces(struct kunit *test)
{
	static const char * const specs[] = {
		"lzo", "lz4", "lz4hc", "zstd", "deflate", "zstd:-5", "zstd:1",
		"zstd:3", "zstd:19", "zstd:22", "lz4hc:16", "deflate:9",
	};
	size_t i;

	KUNIT_EXPECT_EQ(test, s2_compressor_workspace_bytes("none"), 0UL);
	KUNIT_EXPECT_EQ(test, s2_compressor_workspace_bytes("zstd:23"), 0UL);
	KUNIT_EXPECT_EQ(test, s2_compressor_workspace_bytes("bogus"), 0UL);
	KUNIT_EXPECT_EQ(test, s2_compressor_workspace_bytes("lzo"),
			PAGE_ALIGN(LZO1X_MEM_COMPRESS));
	KUNIT_EXPECT_EQ(test, s2_compressor_workspace_bytes("lz4"),
			PAGE_ALIGN(LZ4_MEM_COMPRESS));
	KUNIT_EXPECT_GE(test, s2_compressor_workspace_bytes("lz4hc:1"),
			(size_t)LZ4HC_MEM_COMPRESS);
#if IS_REACHABLE(CONFIG_ZSTD_COMPRESS)
	{
		zstd_parameters p = zstd_get_params(19, S2_CHUNK_BYTES);

		KUNIT_EXPECT_GE(test, s2_compressor_workspace_bytes("zstd:19"),
				zstd_cctx_workspace_bound(&p.cParams));
		KUNIT_EXPECT_GT(test, s2_compressor_workspace_bytes("zstd:19"),
				s2_compressor_workspace_bytes("zstd:1"));
		p = zstd_get_params(3, 0);
		KUNIT_EXPECT_GT(test, s2_compressor_workspace_bytes("zstd"),
				zstd_cctx_workspace_bound(&p.cParams));
	}
#endif
#if IS_REACHABLE(CONFIG_ZLIB_DEFLATE)
	KUNIT_EXPECT_GE(test, s2_compressor_workspace_bytes("deflate:1"),
			(size_t)zlib_deflate_workspacesize(-S2_DEFLATE_WINBITS,
							   MAX_MEM_LEVEL));
#endif
	for (i = 0; i < ARRAY_SIZE(specs); i++)
		kunit_info(test, "%s: %zu KiB a worker\n", specs[i],
			   s2_compressor_workspace_bytes(specs[i]) >> 10);
}

static struct kunit_case s2_compress_cases[] = {
	KUNIT_CASE(s2_compress_workspaces),
	KUNIT_CASE(s2_compress_parse),
	KUNIT_CASE(s2_compress_ranges),
	KUNIT_CASE_SLOW(s2_compress_levels),
	{}
};

static struct kunit_suite s2_compress_suite = {
	.name = "suspend2-compress",
	.test_cases = s2_compress_cases,
};

kunit_test_suite(s2_compress_suite);
