// SPDX-License-Identifier: GPL-2.0
/*
 * compressors - what each compressor costs on the bench's workload, outside
 * the guest: the same mixed pages memmarker fills the guest with, cut into
 * the image format's chunks and compressed one chunk at a time on one
 * thread, as a compression thread of the module does.
 *
 *   compressors [MiB [SEED [PAGES]]]
 *
 * MiB and SEED default to the bench's workload (400, 9157); PAGES, the
 * chunk size, to the image format's, and another size shows what a format
 * change would gain.
 *
 * Prints, for each compressor and level, the seconds it took, the MiB it
 * made and the ratio.  make bench-compressors runs it natively and under
 * QEMU's TCG (qemu-x86_64), the emulator the benchmark's guest runs on:
 * how much slower each compressor gets there is what decides which is
 * fastest in the benchmark, and it is not what it is on a real CPU.
 *
 * CHUNK_PAGES comes from the Makefile, read from the image format
 * (S2_CHUNK_PAGES in kernel/suspend2/image/format.h).
 */
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zstd.h>

#include "../vm/tools/mixed.h"

#ifndef CHUNK_PAGES
#error "CHUNK_PAGES: build with make bench-compressors"
#endif

#define PAGE_BYTES	(PAGE_WORDS * 8)
#define MAX_CHUNK_PAGES	1024
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* One compressor: compresses @len bytes of @src into @dst, returns the size. */
struct compressor {
	const char *name;
	int level;
	size_t (*compress)(const struct compressor *c, void *dst, size_t cap,
			   const void *src, size_t len);
};

static ZSTD_CCtx *zstd_ctx;
static unsigned char lzo_work[LZO1X_1_MEM_COMPRESS];

static size_t zstd_one(const struct compressor *c, void *dst, size_t cap,
		       const void *src, size_t len)
{
	size_t n = ZSTD_compressCCtx(zstd_ctx, dst, cap, src, len, c->level);

	if (ZSTD_isError(n)) {
		fprintf(stderr, "compressors: zstd: %s\n", ZSTD_getErrorName(n));
		exit(1);
	}
	return n;
}

static size_t lz4_one(const struct compressor *c, void *dst, size_t cap,
		      const void *src, size_t len)
{
	int n = LZ4_compress_default(src, dst, (int)len, (int)cap);

	(void)c;
	if (n <= 0) {
		fprintf(stderr, "compressors: lz4 failed\n");
		exit(1);
	}
	return (size_t)n;
}

static size_t lzo_one(const struct compressor *c, void *dst, size_t cap,
		      const void *src, size_t len)
{
	lzo_uint n = cap;

	(void)c;
	if (lzo1x_1_compress(src, len, dst, &n, lzo_work) != LZO_E_OK) {
		fprintf(stderr, "compressors: lzo failed\n");
		exit(1);
	}
	return n;
}

/* mainline's two, then zstd from above its default level to its fast ones. */
static const struct compressor compressors[] = {
	{ "lzo", 0, lzo_one },
	{ "lz4", 0, lz4_one },
	{ "zstd", 6, zstd_one },
	{ "zstd", 3, zstd_one },
	{ "zstd", 1, zstd_one },
	{ "zstd", -1, zstd_one },
	{ "zstd", -5, zstd_one },
	{ "zstd", -20, zstd_one },
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 400;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 9157;
	unsigned long chunk_pages = argc > 3 ? strtoul(argv[3], NULL, 10) :
				    CHUNK_PAGES;
	size_t pages, cap, chunk, i;
	uint64_t *mem;
	void *dst;

	if (argc > 4 || mib == 0 || mib > 4096 || chunk_pages == 0 ||
	    chunk_pages > MAX_CHUNK_PAGES || mib * 256 < chunk_pages) {
		fprintf(stderr, "usage: compressors [MiB (1 to 4096) [SEED [PAGES (1 to %d, at most MiB * 256)]]]\n",
			MAX_CHUNK_PAGES);
		return 2;
	}
	chunk = chunk_pages * PAGE_BYTES;
	/* Whole chunks: the last chunk of an image may be short, these not. */
	pages = mib * (1024 * 1024 / PAGE_BYTES) / chunk_pages * chunk_pages;
	cap = ZSTD_compressBound(chunk);
	if (cap < (size_t)LZ4_compressBound(chunk))
		cap = LZ4_compressBound(chunk);
	/* lzo1x's own worst case: input + input / 16 + 64 + 3. */
	if (cap < chunk + chunk / 16 + 67)
		cap = chunk + chunk / 16 + 67;
	mem = malloc(pages * PAGE_BYTES);
	dst = malloc(cap);
	zstd_ctx = ZSTD_createCCtx();
	if (!mem || !dst || !zstd_ctx || lzo_init() != LZO_E_OK) {
		fprintf(stderr, "compressors: out of memory\n");
		return 1;
	}
	for (i = 0; i < pages; i++)
		mixed_page(mem + i * PAGE_WORDS, i, seed);

	printf("%zu MiB of the mixed workload (seed %llu), %lu-page chunks, one thread\n",
	       pages * PAGE_BYTES >> 20, seed, chunk_pages);
	printf("%-10s %9s %9s %7s\n", "compressor", "seconds", "MiB", "ratio");
	for (i = 0; i < ARRAY_SIZE(compressors); i++) {
		const struct compressor *c = &compressors[i];
		size_t off, out = 0;
		char name[32];
		double t0 = now(), t;

		/* A chunk that does not shrink is stored as it is. */
		for (off = 0; off < pages * PAGE_BYTES; off += chunk) {
			size_t n = c->compress(c, dst, cap, (char *)mem + off,
					       chunk);

			out += n < chunk ? n : chunk;
		}
		t = now() - t0;
		if (c->compress == zstd_one)
			snprintf(name, sizeof(name), "%s:%d", c->name, c->level);
		else
			snprintf(name, sizeof(name), "%s", c->name);
		printf("%-10s %9.2f %9.2f %6.2fx\n", name, t,
		       out / 1048576.0, (double)(pages * PAGE_BYTES) / out);
	}
	ZSTD_freeCCtx(zstd_ctx);
	free(dst);
	free(mem);
	return 0;
}
