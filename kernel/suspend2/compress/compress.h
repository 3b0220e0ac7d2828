/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Image compression through the kernel crypto API.  "none" is a compressor
 * like the others, so callers never special-case it.
 */
#ifndef _SUSPEND2_COMPRESS_H
#define _SUSPEND2_COMPRESS_H

#include <linux/types.h>

struct crypto_comp;

struct s2_compressor {
	const char *name;
	struct crypto_comp *tfm;	/* NULL for "none" */
};

int s2_compressor_init(struct s2_compressor *c, const char *name);
void s2_compressor_exit(struct s2_compressor *c);

/*
 * Compress @slen bytes into @dst (room for @dst_room).  Returns the stored
 * length; when compression does not pay, the data is copied as is and
 * the stored length equals @slen.
 */
unsigned int s2_compress(struct s2_compressor *c, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dst_room);

/* Returns 0 when exactly @raw_len bytes came out. */
int s2_decompress(struct s2_compressor *c, const u8 *src, unsigned int slen,
		  u8 *dst, unsigned int raw_len);

#endif /* _SUSPEND2_COMPRESS_H */
