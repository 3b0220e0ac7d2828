/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's headers to build the pure image format code
 * (kernel/suspend2/image/format.c) on the host, for test_format.c.  Every
 * linux/ and asm/ header here includes this one.  x86-64 only, like the
 * module: the format is little endian and so is the host.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>	/* the host's: __le32, __le64 */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#define __packed		__attribute__((packed))
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define U64_MAX			UINT64_MAX
#define U32_MAX			UINT32_MAX
/* The kernel's, whose message is optional. */
#undef static_assert
#define static_assert(e, ...)	_Static_assert(e, #e)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define cpu_to_le32(x)		((u32)(x))
#define cpu_to_le64(x)		((u64)(x))
#define le32_to_cpu(x)		((u32)(x))
#define le64_to_cpu(x)		((u64)(x))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define BITS_PER_LONG		(8 * sizeof(long))
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)

static inline u64 div64_u64(u64 n, u64 d)
{
	return n / d;
}

/* The kernel's __crc32c_le: no pre or post inversion. */
static inline u32 __crc32c_le(u32 crc, const void *buf, size_t len)
{
	const u8 *p = buf;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78U & -(crc & 1));
	}
	return crc;
}

static inline void *memchr_inv(const void *s, int c, size_t n)
{
	const u8 *p = s;

	for (; n; n--, p++)
		if (*p != (u8)c)
			return (void *)p;
	return NULL;
}

static inline long strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return n;
}

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *), void *swap)
{
	(void)swap;
	qsort(base, num, size, cmp);
}

static inline void bitmap_zero(unsigned long *map, unsigned int nbits)
{
	memset(map, 0, BITS_TO_LONGS(nbits) * sizeof(long));
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *map)
{
	unsigned long *word = map + nr / BITS_PER_LONG;
	unsigned long bit = 1UL << (nr % BITS_PER_LONG);
	bool old = *word & bit;

	*word |= bit;
	return old;
}

/* Nothing to yield to on the host. */
static inline void cond_resched(void)
{
}

#endif
