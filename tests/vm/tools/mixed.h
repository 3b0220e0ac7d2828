/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test workload's memory: a PRNG stream (next_rand()), and pages of
 * mixed kinds that compress like real memory (mixed_page()).  Shared by
 * memmarker, which fills and verifies a process's memory with them, and
 * by the bench's compressor measurement (tests/bench/compressors.c),
 * which compresses the same pages outside the guest.
 */
#ifndef S2_TEST_MIXED_H
#define S2_TEST_MIXED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* splitmix64: tiny, fast, and every seed gives a different stream. */
static inline uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#define PAGE_WORDS	512	/* 8-byte words in a 4 KiB page */

/*
 * One page of the mixed workload, a function of (seed, page) only: a
 * quarter zero pages, a third text-like pages, a quarter binary-like
 * pages with many zero bytes, the rest random.  lz4 gets about 2:1 on it.
 */
static inline void mixed_page(uint64_t *out, size_t page, uint64_t seed)
{
	static const char *const vocab[16] = {
		"the ", "kernel ", "image ", "page ", "of ", "and ",
		"memory ", "to ", "swap ", "a ", "file ", "is ", "in ",
		"suspend ", "disk ", "resume\n",
	};
	uint64_t st = seed ^ (page * 0xd1b54a32d192ed03ULL);
	unsigned int kind = next_rand(&st) % 12;
	char *text = (char *)out;
	size_t i, len = 0;
	uint64_t r = 0;

	if (kind < 3) {
		memset(out, 0, PAGE_WORDS * 8);
	} else if (kind < 7) {
		for (i = 0; len < PAGE_WORDS * 8; i++) {
			const char *w;
			size_t n;

			if (i % 16 == 0)
				r = next_rand(&st);
			w = vocab[(r >> (4 * (i % 16))) & 15];
			n = strlen(w);
			if (n > PAGE_WORDS * 8 - len)
				n = PAGE_WORDS * 8 - len;
			memcpy(text + len, w, n);
			len += n;
		}
	} else if (kind < 10) {
		for (i = 0; i < PAGE_WORDS; i++) {
			r = next_rand(&st);
			out[i] = (r & 3) ? 0 : r >> 44;
		}
	} else {
		for (i = 0; i < PAGE_WORDS; i++)
			out[i] = next_rand(&st);
	}
}

#endif
