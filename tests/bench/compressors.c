// SPDX-License-Identifier: GPL-2.0
/*
 * compressors - what each compressor costs on the bench's workload, outside
 * the guest: the same mixed pages the bench's guest fills its memory with
 * (memmarker start 400 20261203 mixed, tests/vm/scenarios/bench/boot1),
 * less the zero pages, which the kernel's snapshot code does not save;
 * cut into the image format's chunks and compressed one chunk at a time
 * on one thread, as a compression thread of the module does.
 *
 *   compressors [MiB [SEED [PAGES]]]
 *
 * MiB and SEED default to the bench's workload (400, 20261203); PAGES,
 * the chunk size, to the image format's, and another size shows what a
 * format change would gain.
 *
 * Prints, for each compressor and level, the seconds it took, the MiB it
 * made and the ratio.  make bench-compressors runs it natively and under
 * QEMU's user-mode TCG (qemu-x86_64): the same code generator as the
 * guest's qemu-system-x86_64 -accel tcg, without the guest's software
 * TLB, so its slowdowns are indicative, if anything low.  These are the
 * user-space libraries (liblzo2, liblz4, libzstd), not the kernel's
 * copies of them, which differ in details (the kernel's LZO hashes fewer
 * bits); the in-guest benchmark measures the kernel's.
 *
 * The chunk size is the image format's own (S2_CHUNK_PAGES), through the
 * unit tests' shim of the kernel headers (tests/unit/kshim).
 */
#include <errno.h>
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zstd.h>

#include "kshim.h"
#include "../../kernel/suspend2/image/format.h"
#include "../vm/tools/mixed.h"

#define PAGE_BYTES	(PAGE_WORDS * 8)
#define MAX_CHUNK_PAGES	1024
#define MAX_MIB		4096
#define BENCH_SEED	20261203ULL	/* tests/vm/scenarios/bench/boot1 */

static_assert(PAGE_BYTES == PAGE_SIZE, "mixed.h's pages are the kernel's");
static_assert(S2_CHUNK_PAGES <= MAX_CHUNK_PAGES, "S2_CHUNK_PAGES out of range");

/* One compressor: compresses @len bytes of @src into @dst, returns the size. */
struct compressor {
	const char *name;
	int level;
	size_t (*compress)(const struct compressor *c, void *dst, size_t cap,
			   const void *src, size_t len);
};

static ZSTD_CCtx *zstd_ctx;
/* LZO wants its work memory aligned as lzo_align_t. */
static lzo_align_t lzo_work[LZO1X_1_MEM_COMPRESS / sizeof(lzo_align_t) + 1];

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

/* A decimal argument, all of it, in [min, max]; exits with the usage on anything else. */
static unsigned long long number(const char *arg, unsigned long long min,
				 unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v < min || v > max) {
		fprintf(stderr, "compressors: '%s' is not a number from %llu to %llu\n",
			arg, min, max);
		fprintf(stderr, "usage: compressors [MiB [SEED [PAGES]]]\n");
		exit(2);
	}
	return v;
}

static int zero_page(const uint64_t *page)
{
	size_t i;

	for (i = 0; i < PAGE_WORDS; i++)
		if (page[i])
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? number(argv[1], 1, MAX_MIB) : 400;
	unsigned long long seed = argc > 2 ? number(argv[2], 0, UINT64_MAX) :
				  BENCH_SEED;
	size_t chunk_pages = argc > 3 ?
			     number(argv[3], 1, MAX_CHUNK_PAGES) : S2_CHUNK_PAGES;
	size_t workload, pages, kept, cap, chunk, i;
	uint64_t *mem;
	void *dst;

	if (argc > 4) {
		fprintf(stderr, "usage: compressors [MiB [SEED [PAGES]]]\n");
		return 2;
	}
	workload = mib * (1024 * 1024 / PAGE_BYTES);
	if (workload > SIZE_MAX / PAGE_BYTES) {
		fprintf(stderr, "compressors: %zu MiB is more than this machine addresses\n",
			mib);
		return 2;
	}
	chunk = chunk_pages * PAGE_BYTES;
	cap = ZSTD_compressBound(chunk);
	if (cap < (size_t)LZ4_compressBound(chunk))
		cap = LZ4_compressBound(chunk);
	/* lzo1x's own worst case: input + input / 16 + 64 + 3. */
	if (cap < chunk + chunk / 16 + 67)
		cap = chunk + chunk / 16 + 67;
	mem = malloc(workload * PAGE_BYTES);
	dst = malloc(cap);
	zstd_ctx = ZSTD_createCCtx();
	if (!mem || !dst || !zstd_ctx) {
		fprintf(stderr, "compressors: out of memory\n");
		return 1;
	}
	if (lzo_init() != LZO_E_OK) {
		fprintf(stderr, "compressors: lzo_init() failed (liblzo2 built for another ABI?)\n");
		return 1;
	}
	/* The snapshot code saves no zero page: neither does this. */
	for (i = 0, kept = 0; i < workload; i++) {
		mixed_page(mem + kept * PAGE_WORDS, i, seed);
		if (!zero_page(mem + kept * PAGE_WORDS))
			kept++;
	}
	/* Whole chunks: the last chunk of an image may be short, these not. */
	pages = kept / chunk_pages * chunk_pages;
	if (!pages) {
		fprintf(stderr, "compressors: fewer nonzero pages (%zu) than one chunk (%zu)\n",
			kept, chunk_pages);
		return 2;
	}

	printf("%zu MiB of the mixed workload (seed %llu), of it %.1f MiB not zero pages, in %zu-page chunks, one thread\n",
	       mib, seed, pages * PAGE_BYTES / 1048576.0, chunk_pages);
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
