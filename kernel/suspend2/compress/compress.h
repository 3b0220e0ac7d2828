/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Image compression through the kernel crypto API, or through the
 * compression library itself for a level the crypto API cannot take
 * (compressor = zstd:1).  "none" is a compressor like the others, so
 * callers never special-case it.
 */
#ifndef _SUSPEND2_COMPRESS_H
#define _SUSPEND2_COMPRESS_H

#include <linux/limits.h>
#include <linux/types.h>

struct crypto_comp;
struct s2_level_ctx;

/* No level given: the crypto API's own. */
#define S2_NO_LEVEL	INT_MIN

struct s2_compressor {
	const char *name;		/* as the image header records it */
	int level;			/* or S2_NO_LEVEL */
	struct crypto_comp *tfm;	/* NULL for "none" */
	struct s2_level_ctx *lib;	/* the library's, for a level */
};

/*
 * "NAME" or "NAME:LEVEL" (a decimal, negative for zstd's fast levels)
 * into NAME's index in s2_compressor_names and the level, S2_NO_LEVEL
 * without one.  -EINVAL for a name this module does not know, a level on
 * a compressor that takes none, or a malformed number; -ERANGE for a
 * level outside what the library takes (S2_COMPRESSOR_LEVELS).
 */
int s2_compressor_parse(const char *spec, int *index, int *level);

/* Whether this kernel offers NAME, and for a level its library. */
bool s2_compressor_available(const char *name);
bool s2_compressor_level_available(const char *name);

/* The name in @spec that an image header records ("zstd" of "zstd:1"). */
const char *s2_compressor_base(const char *spec);

/*
 * The memory s2_compressor_init() allocates for @spec, in bytes: the
 * workspace of the crypto API's transform, or of the library for a
 * level.  0 for "none", and for a spec this kernel cannot run.
 */
size_t s2_compressor_workspace_bytes(const char *spec);

int s2_compressor_init(struct s2_compressor *c, const char *spec);
void s2_compressor_exit(struct s2_compressor *c);

/*
 * Compress @slen bytes into @dst (room for @dst_room).  Returns the stored
 * length; when compression does not pay, the data is copied as is and
 * the stored length equals @slen.
 */
unsigned int s2_compress(struct s2_compressor *c, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dst_room);

/*
 * Returns 0 when exactly @raw_len bytes came out.  The level is the
 * writer's business: the crypto API reads what any level wrote, and a
 * compressor started with a level only compresses (start one without it,
 * s2_compressor_base(), to read).
 */
int s2_decompress(struct s2_compressor *c, const u8 *src, unsigned int slen,
		  u8 *dst, unsigned int raw_len);

#endif /* _SUSPEND2_COMPRESS_H */
