// SPDX-License-Identifier: GPL-2.0
/*
 * Compressors for image chunks, over crypto_comp as kernel/power/swap.c
 * uses it.
 */
#include <linux/crypto.h>
#include <linux/err.h>
#include <linux/string.h>
#include "../internal.h"
#include "compress.h"

/*
 * Every compressor this module knows how to name; capabilities lists the
 * ones the crypto API can actually provide.
 */
#define S2_WORD(s)	s,
const char * const s2_compressor_names[] = {
	S2_COMPRESSOR_NAMES(S2_WORD) NULL
};

bool s2_compressor_available(const char *name)
{
	return !strcmp(name, "none") || crypto_has_comp(name, 0, 0) == 1;
}

int s2_compressor_init(struct s2_compressor *c, const char *name)
{
	c->name = name;
	c->tfm = NULL;
	if (!strcmp(name, "none"))
		return 0;
	c->tfm = crypto_alloc_comp(name, 0, 0);
	if (IS_ERR(c->tfm)) {
		int error = PTR_ERR(c->tfm);

		c->tfm = NULL;
		return error;
	}
	return 0;
}

void s2_compressor_exit(struct s2_compressor *c)
{
	if (c->tfm)
		crypto_free_comp(c->tfm);
	c->tfm = NULL;
}

unsigned int s2_compress(struct s2_compressor *c, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dst_room)
{
	unsigned int dlen = dst_room;

	if (c->tfm && !crypto_comp_compress(c->tfm, src, slen, dst, &dlen) &&
	    dlen < slen)
		return dlen;
	memcpy(dst, src, slen);
	return slen;
}

int s2_decompress(struct s2_compressor *c, const u8 *src, unsigned int slen,
		  u8 *dst, unsigned int raw_len)
{
	unsigned int dlen = raw_len;
	int error;

	if (slen == raw_len) {
		memcpy(dst, src, raw_len);
		return 0;
	}
	if (!c->tfm)
		return -EINVAL;
	error = crypto_comp_decompress(c->tfm, src, slen, dst, &dlen);
	if (error)
		return error;
	return dlen == raw_len ? 0 : -EINVAL;
}
