// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the chunk pipeline (core/pipeline.c): the ring hands
 * chunks back in the order they went in, never more than its slots at
 * once, and a chunk written through it reads back through it; a chunk
 * whose checksum does not match comes back with its error.
 */
#include <kunit/test.h>
#include <linux/lzo.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/zstd.h>
#include "../compress/compress.h"
#include "../core/pipeline.c"

#define S2_TEST_CHUNKS	10
#define S2_TEST_LEN	(2 * PAGE_SIZE)

static void s2_test_fill(u8 *raw, unsigned int n)
{
	unsigned int i;

	/* Compressible, and different for every chunk. */
	for (i = 0; i < S2_TEST_LEN; i++)
		raw[i] = (i / 64 + n) & 0xff;
}

static void s2_pipeline_threads_clamped(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, s2_pipeline_threads(1), 1U);
	KUNIT_EXPECT_EQ(test, s2_pipeline_threads(0),
			clamp(num_online_cpus(), 1U, (unsigned int)S2_MAX_THREADS));
	KUNIT_EXPECT_EQ(test, s2_pipeline_threads(S2_MAX_THREADS + 1),
			(unsigned int)S2_MAX_THREADS);
	/* docs/configfs.md's example for pipeline_bytes (4 KiB pages). */
	if (PAGE_SIZE == SZ_4K)
		KUNIT_EXPECT_EQ(test, s2_pipeline_bytes_for(2, 256),
				(u64)SZ_2M);
}

static void s2_pipeline_ring(struct kunit *test)
{
	const char *comp = s2_compressor_available("lzo") ? "lzo" : "none";
	struct s2_pipeline *w, *r;
	unsigned int filled = 0, drained = 0, i;
	u8 **stored, *want;
	u32 *len, *crc;
	struct s2_slot *s;

	stored = kunit_kcalloc(test, S2_TEST_CHUNKS, sizeof(*stored),
			       GFP_KERNEL);
	len = kunit_kcalloc(test, S2_TEST_CHUNKS, sizeof(*len), GFP_KERNEL);
	crc = kunit_kcalloc(test, S2_TEST_CHUNKS, sizeof(*crc), GFP_KERNEL);
	want = kunit_kmalloc(test, S2_TEST_LEN, GFP_KERNEL);
	/* Off the stack: two rings are most of a debug kernel's frame. */
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, stored);
	KUNIT_ASSERT_NOT_NULL(test, len);
	KUNIT_ASSERT_NOT_NULL(test, crc);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (i = 0; i < S2_TEST_CHUNKS; i++) {
		stored[i] = kunit_kmalloc(test, S2_TEST_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, stored[i]);
	}

	/* Writing: fill until the ring is full, then drain in order. */
	KUNIT_ASSERT_EQ(test, s2_pipeline_start(w, true, true, 2, comp, NULL), 0);
	KUNIT_EXPECT_EQ(test, w->nr_slots, 4U);
	while (drained < S2_TEST_CHUNKS) {
		while (filled < S2_TEST_CHUNKS && (s = s2_pipeline_fill(w))) {
			s2_test_fill(s->raw, filled++);
			s->raw_len = S2_TEST_LEN;
			s2_pipeline_submit(w);
		}
		KUNIT_EXPECT_LE(test, filled - drained, w->nr_slots);
		if (filled < S2_TEST_CHUNKS)
			KUNIT_EXPECT_NULL(test, s2_pipeline_fill(w));
		s = s2_pipeline_drain(w);
		KUNIT_ASSERT_NOT_NULL(test, s);
		KUNIT_EXPECT_EQ(test, s->error, 0);
		KUNIT_EXPECT_LE(test, s->stored_len, (u32)S2_TEST_LEN);
		KUNIT_EXPECT_EQ(test, s->crc,
				s2_crc32c(s->stored, s->stored_len));
		memcpy(stored[drained], s->stored, s->stored_len);
		len[drained] = s->stored_len;
		crc[drained++] = s->crc;
		s2_pipeline_release(w);
	}
	KUNIT_EXPECT_NULL(test, s2_pipeline_drain(w));
	s2_pipeline_stop(w);

	/* Reading: every chunk verified and expanded, in order. */
	crc[3] ^= 1;
	KUNIT_ASSERT_EQ(test, s2_pipeline_start(r, false, true, 1, comp, NULL), 0);
	for (filled = drained = 0; drained < S2_TEST_CHUNKS;) {
		while (filled < S2_TEST_CHUNKS && (s = s2_pipeline_fill(r))) {
			memcpy(s->stored, stored[filled], len[filled]);
			s->stored_len = len[filled];
			s->crc = crc[filled++];
			s->raw_len = S2_TEST_LEN;
			s2_pipeline_submit(r);
		}
		s = s2_pipeline_drain(r);
		KUNIT_ASSERT_NOT_NULL(test, s);
		if (drained == 3) {
			KUNIT_EXPECT_EQ(test, s->error, -EBADMSG);
		} else {
			KUNIT_EXPECT_EQ(test, s->error, 0);
			s2_test_fill(want, drained);
			KUNIT_EXPECT_MEMEQ(test, s->raw, want, S2_TEST_LEN);
		}
		drained++;
		s2_pipeline_release(r);
	}
	s2_pipeline_stop(r);
}

/*
 * With an AEAD, what the workers write reads back through the workers, and
 * a chunk whose tag was changed, or that is read in another chunk's place,
 * is refused as not authentic.
 */
static void s2_pipeline_crypt_one(struct kunit *test, enum s2_encryption enc)
{
	const char *comp = s2_compressor_available("lz4") ? "lz4" : "none";
	struct s2_crypt *c;
	struct s2_pipeline *w, *r;
	unsigned int i, n;
	u8 **stored, (*tag)[S2_TAG_LEN], *want;
	u32 *len;
	struct s2_slot *s;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	stored = kunit_kcalloc(test, S2_TEST_CHUNKS, sizeof(*stored), GFP_KERNEL);
	tag = kunit_kcalloc(test, S2_TEST_CHUNKS, sizeof(*tag), GFP_KERNEL);
	len = kunit_kcalloc(test, S2_TEST_CHUNKS, sizeof(*len), GFP_KERNEL);
	want = kunit_kmalloc(test, S2_TEST_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	/* Off the stack: two rings are most of a debug kernel's frame. */
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, stored);
	KUNIT_ASSERT_NOT_NULL(test, tag);
	KUNIT_ASSERT_NOT_NULL(test, len);
	KUNIT_ASSERT_NOT_NULL(test, want);
	c->enc = enc;
	get_random_bytes(c->key, sizeof(c->key));
	get_random_bytes(c->image_id, sizeof(c->image_id));
	c->nr_chunks = S2_TEST_CHUNKS;

	KUNIT_ASSERT_EQ(test, s2_pipeline_start(w, true, true, 2, comp, c), 0);
	for (n = 0, i = 0; i < S2_TEST_CHUNKS;) {
		while (n < S2_TEST_CHUNKS && (s = s2_pipeline_fill(w))) {
			s2_test_fill(s->raw, n);
			s->raw_len = S2_TEST_LEN;
			s->seq = n++;
			s2_pipeline_submit(w);
		}
		s = s2_pipeline_drain(w);
		KUNIT_ASSERT_NOT_NULL(test, s);
		KUNIT_EXPECT_EQ(test, s->error, 0);
		KUNIT_EXPECT_EQ(test, s->crc, s2_crc32c(s->stored, s->stored_len));
		stored[i] = kunit_kmalloc(test, s->stored_len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, stored[i]);
		memcpy(stored[i], s->stored, s->stored_len);
		memcpy(tag[i], s->tag, S2_TAG_LEN);
		len[i++] = s->stored_len;
		s2_pipeline_release(w);
	}
	s2_pipeline_stop(w);

	/* Chunk 3's tag changed; chunk 6 is read where chunk 5 should be. */
	tag[3][0] ^= 1;
	KUNIT_ASSERT_EQ(test, s2_pipeline_start(r, false, true, 2, comp, c), 0);
	for (n = 0, i = 0; i < S2_TEST_CHUNKS;) {
		while (n < S2_TEST_CHUNKS && (s = s2_pipeline_fill(r))) {
			unsigned int from = n == 5 ? 6 : n;

			memcpy(s->stored, stored[from], len[from]);
			s->stored_len = len[from];
			s->crc = s2_crc32c(stored[from], len[from]);
			memcpy(s->tag, tag[from], S2_TAG_LEN);
			s->raw_len = S2_TEST_LEN;
			s->seq = n++;
			s2_pipeline_submit(r);
		}
		s = s2_pipeline_drain(r);
		KUNIT_ASSERT_NOT_NULL(test, s);
		if (i == 3 || i == 5) {
			KUNIT_EXPECT_EQ(test, s->error, -EBADMSG);
			KUNIT_EXPECT_STREQ(test, s->why,
					   "chunk fails authentication (tampered, moved, or from another image)");
		} else {
			KUNIT_EXPECT_EQ(test, s->error, 0);
			s2_test_fill(want, i);
			KUNIT_EXPECT_MEMEQ(test, s->raw, want, S2_TEST_LEN);
		}
		i++;
		s2_pipeline_release(r);
	}
	s2_pipeline_stop(r);
	memzero_explicit(c, sizeof(*c));
}

static void s2_pipeline_crypt(struct kunit *test)
{
	enum s2_encryption enc;

	for (enc = S2_ENC_AES_GCM; enc < S2_NR_ENC; enc++) {
		if (!s2_aead_available(enc)) {
			kunit_info(test, "AEAD %d not available, skipped\n",
				   enc);
			continue;
		}
		s2_pipeline_crypt_one(test, enc);
	}
}

/*
 * The memory the copy leaves free for the write counts every worker's
 * compressor and AEAD: zstd:19 takes a few MiB a worker, so 64 workers
 * take ten times the slack once thought to cover all workspaces.
 */
static void s2_pipeline_write_reserve(struct kunit *test)
{
	static const unsigned int threads[] = { 1, 2, 64 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(threads); i++) {
		unsigned int n = threads[i];
		u64 base = s2_pipeline_bytes_for(n, 256) + S2_WRITE_SLACK_BYTES;
		u64 aead = s2_write_reserve_bytes(n, 256, "lzo",
						  S2_ENC_AES_GCM) -
			   s2_write_reserve_bytes(n, 256, "lzo", S2_ENC_NONE);

		KUNIT_EXPECT_EQ(test, s2_write_reserve_bytes(n, 256, "none",
							     S2_ENC_NONE),
				base);
		KUNIT_EXPECT_GE(test, s2_write_reserve_bytes(n, 256, "lzo",
							     S2_ENC_NONE),
				base + (u64)n * LZO1X_MEM_COMPRESS);
		/* Each worker's AEAD (s2_aead_sizes() checks the bound). */
		KUNIT_EXPECT_GT(test, s2_aead_workspace_bytes(S2_ENC_AES_GCM),
				0UL);
		KUNIT_EXPECT_EQ(test, aead,
				(u64)n * s2_aead_workspace_bytes(S2_ENC_AES_GCM));
#if IS_REACHABLE(CONFIG_ZSTD_COMPRESS)
		{
			zstd_parameters p = zstd_get_params(19, S2_CHUNK_BYTES);
			u64 want = base + (u64)n *
				   zstd_cctx_workspace_bound(&p.cParams);
			u64 got = s2_write_reserve_bytes(n, 256, "zstd:19",
							 S2_ENC_CHACHA20_POLY1305);

			KUNIT_EXPECT_GE(test, got, want);
			kunit_info(test, "%u threads, zstd:19, chacha20-poly1305: %llu MiB kept free (%llu MiB without the workspaces)\n",
				   n, got >> 20, base >> 20);
			/* The crypto API's zstd, a window for any size. */
			p = zstd_get_params(3, 0);
			KUNIT_EXPECT_GE(test,
					s2_write_reserve_bytes(n, 256, "zstd",
							       S2_ENC_NONE),
					base + (u64)n *
					zstd_cctx_workspace_bound(&p.cParams));
		}
#endif
	}
}

static struct kunit_case s2_pipeline_cases[] = {
	KUNIT_CASE(s2_pipeline_write_reserve),
	KUNIT_CASE(s2_pipeline_threads_clamped),
	KUNIT_CASE(s2_pipeline_ring),
	KUNIT_CASE(s2_pipeline_crypt),
	{}
};

static struct kunit_suite s2_pipeline_suite = {
	.name = "suspend2_pipeline",
	.test_cases = s2_pipeline_cases,
};

kunit_test_suite(s2_pipeline_suite);
