// SPDX-License-Identifier: GPL-2.0
/*
 * Compressors for image chunks, over crypto_comp as kernel/power/swap.c
 * uses it.  The crypto API has no levels, so a level calls the library
 * directly, as zram's backends do (drivers/block/zram/backend_*.c); what
 * it writes is still what the crypto API's decompressor reads, so an
 * image never needs to record its level.
 */
#include <linux/crypto.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/lz4.h>
#include <linux/lzo.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zlib.h>
#include <linux/zstd.h>
#include "../internal.h"
#include "../image/format.h"
#include "compress.h"

/*
 * Every compressor this module knows how to name; capabilities lists the
 * ones the crypto API can actually provide.
 */
#define S2_WORD(s)	s,
const char * const s2_compressor_names[] = {
	S2_COMPRESSOR_NAMES(S2_WORD) NULL
};

struct s2_level_range {
	const char *name;
	int min, max;
};

#define S2_LEVEL_RANGE(n, lo, hi)	{ n, lo, hi },
static const struct s2_level_range s2_level_ranges[] = {
	S2_COMPRESSOR_LEVELS(S2_LEVEL_RANGE)
};

static const struct s2_level_range *s2_level_range(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(s2_level_ranges); i++)
		if (!strcmp(s2_level_ranges[i].name, name))
			return &s2_level_ranges[i];
	return NULL;
}

/*
 * A level as the contract has it: an optional '-' and decimal digits
 * without a leading zero, so that it reads back exactly as written.
 */
static int s2_parse_level(const char *s, int *level)
{
	const char *digits = *s == '-' ? s + 1 : s;
	size_t n = strlen(digits);

	if (!n || strspn(digits, "0123456789") != n ||
	    (digits[0] == '0' && (n > 1 || digits != s)))
		return -EINVAL;
	return kstrtoint(s, 10, level);
}

int s2_compressor_parse(const char *spec, int *index, int *level)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? colon - spec : strlen(spec);
	const struct s2_level_range *range;
	int i, error;

	*level = S2_NO_LEVEL;
	for (i = 0; s2_compressor_names[i]; i++)
		if (strlen(s2_compressor_names[i]) == len &&
		    !strncmp(s2_compressor_names[i], spec, len))
			break;
	if (!s2_compressor_names[i])
		return -EINVAL;
	*index = i;
	if (!colon)
		return 0;
	range = s2_level_range(s2_compressor_names[i]);
	if (!range)
		return -EINVAL;
	error = s2_parse_level(colon + 1, level);
	if (!error && (*level < range->min || *level > range->max))
		error = -ERANGE;
	if (error)
		*level = S2_NO_LEVEL;
	return error;
}

const char *s2_compressor_base(const char *spec)
{
	int i, level;

	return s2_compressor_parse(spec, &i, &level) ? NULL :
	       s2_compressor_names[i];
}

bool s2_compressor_available(const char *name)
{
	return !strcmp(name, "none") || crypto_has_comp(name, 0, 0) == 1;
}

/* How a level is run: the library's context and its one-shot call. */
struct s2_level_ops {
	const char *name;
	int (*init)(struct s2_level_ctx *x);
	void (*exit)(struct s2_level_ctx *x);
	/* The workspace init() allocates for @level, in bytes. */
	size_t (*workspace)(int level);
	/* Returns the compressed length, or 0 when it did not fit. */
	size_t (*compress)(struct s2_level_ctx *x, const u8 *src,
			   unsigned int slen, u8 *dst, unsigned int room);
};

struct s2_level_ctx {
	const struct s2_level_ops *ops;
	int level;
	void *work;
	zstd_cctx *cctx;
	zstd_parameters params;
	struct z_stream_s z;
};

#if IS_REACHABLE(CONFIG_ZSTD_COMPRESS)
static size_t s2_zstd_workspace(int level)
{
	/* Tuned for a chunk, as zram tunes for a page. */
	zstd_parameters params = zstd_get_params(level, S2_CHUNK_BYTES);

	return zstd_cctx_workspace_bound(&params.cParams);
}

static int s2_zstd_init(struct s2_level_ctx *x)
{
	size_t size = s2_zstd_workspace(x->level);

	x->params = zstd_get_params(x->level, S2_CHUNK_BYTES);
	x->work = kvmalloc(size, GFP_KERNEL);
	if (!x->work)
		return -ENOMEM;
	x->cctx = zstd_init_cctx(x->work, size);
	return x->cctx ? 0 : -EINVAL;
}

static size_t s2_zstd_compress(struct s2_level_ctx *x, const u8 *src,
			       unsigned int slen, u8 *dst, unsigned int room)
{
	size_t n = zstd_compress_cctx(x->cctx, dst, room, src, slen,
				      &x->params);

	return zstd_is_error(n) ? 0 : n;
}
#endif

#if IS_REACHABLE(CONFIG_LZ4HC_COMPRESS)
static size_t s2_lz4hc_workspace(int level)
{
	return LZ4HC_MEM_COMPRESS;
}

static int s2_lz4hc_init(struct s2_level_ctx *x)
{
	x->work = kvmalloc(LZ4HC_MEM_COMPRESS, GFP_KERNEL);
	return x->work ? 0 : -ENOMEM;
}

static size_t s2_lz4hc_compress(struct s2_level_ctx *x, const u8 *src,
				unsigned int slen, u8 *dst, unsigned int room)
{
	int n = LZ4_compress_HC(src, dst, slen, room, x->level, x->work);

	return n > 0 ? n : 0;
}
#endif

#if IS_REACHABLE(CONFIG_ZLIB_DEFLATE)
/*
 * The crypto API's "deflate" inflates raw deflate with a 2^11 window
 * (crypto/deflate.c): a larger window here would write what it cannot
 * read.  The memory level is the crypto API's too.
 */
#define S2_DEFLATE_WINBITS	11

static size_t s2_deflate_workspace(int level)
{
	return zlib_deflate_workspacesize(-S2_DEFLATE_WINBITS, MAX_MEM_LEVEL);
}

static int s2_deflate_init(struct s2_level_ctx *x)
{
	x->work = kvzalloc(s2_deflate_workspace(x->level), GFP_KERNEL);
	if (!x->work)
		return -ENOMEM;
	x->z.workspace = x->work;
	if (zlib_deflateInit2(&x->z, x->level, Z_DEFLATED, -S2_DEFLATE_WINBITS,
			      MAX_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK) {
		x->z.workspace = NULL;
		return -EINVAL;
	}
	return 0;
}

static void s2_deflate_exit(struct s2_level_ctx *x)
{
	if (x->z.workspace)
		zlib_deflateEnd(&x->z);
}

static size_t s2_deflate_compress(struct s2_level_ctx *x, const u8 *src,
				  unsigned int slen, u8 *dst,
				  unsigned int room)
{
	if (zlib_deflateReset(&x->z) != Z_OK)
		return 0;
	x->z.next_in = src;
	x->z.avail_in = slen;
	x->z.next_out = dst;
	x->z.avail_out = room;
	if (zlib_deflate(&x->z, Z_FINISH) != Z_STREAM_END)
		return 0;
	return x->z.total_out;
}
#endif

static const struct s2_level_ops s2_level_ops[] = {
#if IS_REACHABLE(CONFIG_ZSTD_COMPRESS)
	{ "zstd", s2_zstd_init, NULL, s2_zstd_workspace, s2_zstd_compress },
#endif
#if IS_REACHABLE(CONFIG_LZ4HC_COMPRESS)
	{ "lz4hc", s2_lz4hc_init, NULL, s2_lz4hc_workspace,
	  s2_lz4hc_compress },
#endif
#if IS_REACHABLE(CONFIG_ZLIB_DEFLATE)
	{ "deflate", s2_deflate_init, s2_deflate_exit, s2_deflate_workspace,
	  s2_deflate_compress },
#endif
};

static const struct s2_level_ops *s2_level_ops_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(s2_level_ops); i++)
		if (!strcmp(s2_level_ops[i].name, name))
			return &s2_level_ops[i];
	return NULL;
}

bool s2_compressor_level_available(const char *name)
{
	return s2_level_range(name) && s2_level_ops_find(name) &&
	       s2_compressor_available(name);
}

static void s2_level_free(struct s2_level_ctx *x)
{
	if (!x)
		return;
	if (x->ops->exit)
		x->ops->exit(x);
	kvfree(x->work);
	kfree(x);
}

static int s2_level_new(struct s2_compressor *c)
{
	const struct s2_level_ops *ops = s2_level_ops_find(c->name);
	struct s2_level_ctx *x;
	int error;

	if (!ops)
		return -EOPNOTSUPP;
	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	x->ops = ops;
	x->level = c->level;
	error = ops->init(x);
	if (error) {
		s2_level_free(x);
		return error;
	}
	c->lib = x;
	return 0;
}

/*
 * What the crypto API's transform of @name allocates: the workspaces its
 * crypto/ module sizes this way (lzo.c, lz4.c, lz4hc.c, zstd.c at its
 * level 3 for input of unknown size, deflate.c with its window), vmalloc'd
 * or kvmalloc'd.  zstd and deflate keep a decompression workspace too.
 */
#define S2_CRYPTO_ZSTD_LEVEL	3

static size_t s2_crypto_workspace(const char *name)
{
	if (!strcmp(name, "lzo"))
		return PAGE_ALIGN(LZO1X_MEM_COMPRESS);
	if (!strcmp(name, "lz4"))
		return PAGE_ALIGN(LZ4_MEM_COMPRESS);
	if (!strcmp(name, "lz4hc"))
		return PAGE_ALIGN(LZ4HC_MEM_COMPRESS);
#if IS_REACHABLE(CONFIG_ZSTD_COMPRESS) && IS_REACHABLE(CONFIG_ZSTD_DECOMPRESS)
	if (!strcmp(name, "zstd")) {
		zstd_parameters params = zstd_get_params(S2_CRYPTO_ZSTD_LEVEL, 0);

		return PAGE_ALIGN(zstd_cctx_workspace_bound(&params.cParams)) +
		       PAGE_ALIGN(zstd_dctx_workspace_bound());
	}
#endif
#if IS_REACHABLE(CONFIG_ZLIB_DEFLATE) && IS_REACHABLE(CONFIG_ZLIB_INFLATE)
	if (!strcmp(name, "deflate"))
		return PAGE_ALIGN(zlib_deflate_workspacesize(-S2_DEFLATE_WINBITS,
							     MAX_MEM_LEVEL)) +
		       PAGE_ALIGN(zlib_inflate_workspacesize());
#endif
	return 0;
}

size_t s2_compressor_workspace_bytes(const char *spec)
{
	const struct s2_level_ops *ops;
	int i, level;

	if (s2_compressor_parse(spec, &i, &level))
		return 0;
	if (level == S2_NO_LEVEL)
		return s2_crypto_workspace(s2_compressor_names[i]);
	ops = s2_level_ops_find(s2_compressor_names[i]);
	if (!ops)
		return 0;
	return sizeof(struct s2_level_ctx) + PAGE_ALIGN(ops->workspace(level));
}

int s2_compressor_init(struct s2_compressor *c, const char *spec)
{
	int i, error;

	c->tfm = NULL;
	c->lib = NULL;
	error = s2_compressor_parse(spec, &i, &c->level);
	if (error)
		return error;
	c->name = s2_compressor_names[i];
	if (!strcmp(c->name, "none"))
		return 0;
	/*
	 * A level only compresses: reading, the test action's read-back
	 * too, starts a compressor of the header's name, without one.
	 */
	if (c->level != S2_NO_LEVEL)
		return s2_level_new(c);
	c->tfm = crypto_alloc_comp(c->name, 0, 0);
	if (IS_ERR(c->tfm)) {
		error = PTR_ERR(c->tfm);
		c->tfm = NULL;
		return error;
	}
	return 0;
}

void s2_compressor_exit(struct s2_compressor *c)
{
	s2_level_free(c->lib);
	c->lib = NULL;
	if (c->tfm)
		crypto_free_comp(c->tfm);
	c->tfm = NULL;
}

unsigned int s2_compress(struct s2_compressor *c, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dst_room)
{
	unsigned int dlen = dst_room;

	if (c->lib) {
		size_t n = c->lib->ops->compress(c->lib, src, slen, dst,
						 dst_room);

		if (n && n < slen)
			return n;
	} else if (c->tfm &&
		   !crypto_comp_compress(c->tfm, src, slen, dst, &dlen) &&
		   dlen < slen) {
		return dlen;
	}
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
