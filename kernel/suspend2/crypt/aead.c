// SPDX-License-Identifier: GPL-2.0
/*
 * The AEAD that seals every chunk of an encrypted image, and the header,
 * with the image key: AES-256-GCM or ChaCha20-Poly1305 through the crypto
 * API, in place on the chunk's buffer.
 *
 * Each compression worker has its own transform and request, so chunks
 * are sealed in parallel without a lock.  The transform the crypto API
 * picks may be asynchronous (AES-NI's gcm(aes) is a simd wrapper that
 * defers to cryptd when the FPU is not usable): the request carries
 * crypto_req_done() and MAY_SLEEP, and crypto_wait_req() sleeps until it
 * is done, which is fine in the workers' kthreads and in the cycle's
 * process context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/aead.h>
#include <linux/crypto.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "crypt.h"

/*
 * What the AEAD reads and writes besides the data: it goes into
 * scatterlists, so it must be linear memory, never on a (vmapped) stack.
 */
struct s2_aead_scratch {
	struct s2_chunk_nonce nonce;
	struct s2_chunk_aad aad;
	u8 tag[S2_TAG_LEN];
};

/*
 * The scatterlist: the associated data, the data one entry per page (a
 * chunk that does not start on a page boundary touches one page more),
 * and the tag.
 */
#define S2_AEAD_SG	(1 + S2_CHUNK_PAGES + 1 + 1)

struct s2_aead {
	struct crypto_aead *tfm;
	struct aead_request *req;
	struct crypto_wait wait;
	struct s2_aead_scratch *scratch;
	struct scatterlist sg[S2_AEAD_SG];
};

static const char *s2_aead_name(enum s2_encryption enc)
{
	switch (enc) {
	case S2_ENC_AES_GCM:
		return "gcm(aes)";
	case S2_ENC_CHACHA20_POLY1305:
		return "rfc7539(chacha20,poly1305)";
	default:
		return NULL;
	}
}

bool s2_aead_available(enum s2_encryption enc)
{
	const char *name = s2_aead_name(enc);

	if (enc == S2_ENC_NONE)
		return true;
	return name && crypto_has_aead(name, 0, 0) == 1;
}

/*
 * The crypto API's part of an AEAD: the transform with its children (the
 * cipher and the hash of gcm(aes), a cryptd instance behind a simd one)
 * and their key schedules, and the request with theirs.  It says nothing
 * of it before the transform exists, and a few KiB is what it takes;
 * this bounds it with room to spare (s2_aead_sizes() in crypt_kunit.c).
 */
#define S2_AEAD_CRYPTO_BYTES	(16 * 1024)

size_t s2_aead_workspace_bytes(enum s2_encryption enc)
{
	if (!s2_aead_name(enc))
		return 0;
	return sizeof(struct s2_aead) + sizeof(struct s2_aead_scratch) +
	       S2_AEAD_CRYPTO_BYTES;
}

/* @name: KUnit also asks for cryptd(...), to take the asynchronous path. */
static struct s2_aead *s2_aead_alloc(const struct s2_crypt *c,
				     const char *name)
{
	struct s2_aead *a;
	int error;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return ERR_PTR(-ENOMEM);
	a->scratch = kzalloc(sizeof(*a->scratch), GFP_KERNEL);
	if (!a->scratch) {
		error = -ENOMEM;
		goto fail;
	}
	a->tfm = crypto_alloc_aead(name, 0, 0);
	if (IS_ERR(a->tfm)) {
		error = PTR_ERR(a->tfm);
		a->tfm = NULL;
		pr_err("cannot allocate %s: %pe\n", name, ERR_PTR(error));
		goto fail;
	}
	error = crypto_aead_setkey(a->tfm, c->key, S2_KEY_LEN);
	if (!error)
		error = crypto_aead_setauthsize(a->tfm, S2_TAG_LEN);
	if (error) {
		pr_err("%s refuses the image key: %pe\n", name, ERR_PTR(error));
		goto fail;
	}
	a->req = aead_request_alloc(a->tfm, GFP_KERNEL);
	if (!a->req) {
		error = -ENOMEM;
		goto fail;
	}
	crypto_init_wait(&a->wait);
	aead_request_set_callback(a->req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &a->wait);
	return a;
fail:
	s2_aead_free(a);
	return ERR_PTR(error);
}

struct s2_aead *s2_aead_new(const struct s2_crypt *c)
{
	const char *name = s2_aead_name(c->enc);

	if (!name)
		return ERR_PTR(-EINVAL);
	return s2_aead_alloc(c, name);
}

void s2_aead_free(struct s2_aead *a)
{
	if (IS_ERR_OR_NULL(a))
		return;
	/* Both wipe what they held: the request's context, the key schedule. */
	aead_request_free(a->req);
	crypto_free_aead(a->tfm);
	kfree(a->scratch);
	kfree(a);
}

/*
 * sg = [aad] + @len bytes at @buf + [tag].  A vmalloc'd buffer is only
 * virtually contiguous, so it gets one entry per page it touches; a
 * linear one (kmalloc) is one entry.
 */
static int s2_aead_sg(struct s2_aead *a, void *buf, u32 len)
{
	struct scatterlist *sg = a->sg;
	unsigned int n = 0;

	if (len > S2_CHUNK_BYTES)
		return -EINVAL;
	sg_init_table(sg, S2_AEAD_SG);
	sg_set_buf(&sg[n++], &a->scratch->aad, sizeof(a->scratch->aad));
	if (is_vmalloc_addr(buf)) {
		u8 *p = buf;
		u32 left = len;

		while (left) {
			unsigned int off = offset_in_page(p);
			unsigned int bytes = min_t(u32, left, PAGE_SIZE - off);

			sg_set_page(&sg[n++], vmalloc_to_page(p), bytes, off);
			p += bytes;
			left -= bytes;
		}
	} else if (len) {
		if (WARN_ON_ONCE(!virt_addr_valid(buf)))
			return -EINVAL;
		sg_set_buf(&sg[n++], buf, len);
	}
	sg_set_buf(&sg[n++], a->scratch->tag, S2_TAG_LEN);
	sg_mark_end(&sg[n - 1]);
	return 0;
}

static int s2_aead_chunk(struct s2_aead *a, const struct s2_crypt *c,
			 u64 seq, void *buf, u32 len, u32 raw_len, bool seal)
{
	int error;

	s2_chunk_nonce_fill(&a->scratch->nonce, c->image_id, seq);
	s2_chunk_aad_fill(&a->scratch->aad, c->image_id, seq, c->nr_chunks,
			  raw_len, len);
	error = s2_aead_sg(a, buf, len);
	if (error)
		return error;
	aead_request_set_ad(a->req, sizeof(a->scratch->aad));
	/* On open, the length the AEAD works on counts the tag. */
	aead_request_set_crypt(a->req, a->sg, a->sg, seal ? len : len + S2_TAG_LEN,
			       (u8 *)&a->scratch->nonce);
	return crypto_wait_req(seal ? crypto_aead_encrypt(a->req) :
			       crypto_aead_decrypt(a->req), &a->wait);
}

int s2_aead_seal(struct s2_aead *a, const struct s2_crypt *c, u64 seq,
		 void *buf, u32 len, u32 raw_len, u8 *tag)
{
	int error = s2_aead_chunk(a, c, seq, buf, len, raw_len, true);

	if (!error)
		memcpy(tag, a->scratch->tag, S2_TAG_LEN);
	return error;
}

int s2_aead_open(struct s2_aead *a, const struct s2_crypt *c, u64 seq,
		 void *buf, u32 len, u32 raw_len, const u8 *tag)
{
	memcpy(a->scratch->tag, tag, S2_TAG_LEN);
	return s2_aead_chunk(a, c, seq, buf, len, raw_len, false);
}

/*
 * The header's tag: the header up to the tag is the associated data of an
 * empty message under the nonce of seq S2_HEADER_SEQ, which no chunk has.
 * It runs once a cycle, so it takes a transform of its own.
 */
static int s2_crypt_header_tag(const struct s2_crypt *c,
			       const struct s2_image_header *h, u8 *out)
{
	bool seal = out;
	struct s2_aead *a;
	u8 *copy;
	int error;

	a = s2_aead_new(c);
	if (IS_ERR(a))
		return PTR_ERR(a);
	/* The header may sit on the stack or in vmalloc'd memory. */
	copy = kmalloc(S2_HEADER_AAD_LEN + S2_TAG_LEN, GFP_KERNEL);
	if (!copy) {
		s2_aead_free(a);
		return -ENOMEM;
	}
	memcpy(copy, h, S2_HEADER_AAD_LEN);
	memcpy(copy + S2_HEADER_AAD_LEN, h->header_tag, S2_TAG_LEN);
	s2_chunk_nonce_fill(&a->scratch->nonce, c->image_id, S2_HEADER_SEQ);
	sg_init_one(a->sg, copy, S2_HEADER_AAD_LEN + S2_TAG_LEN);
	aead_request_set_ad(a->req, S2_HEADER_AAD_LEN);
	aead_request_set_crypt(a->req, a->sg, a->sg, seal ? 0 : S2_TAG_LEN,
			       (u8 *)&a->scratch->nonce);
	error = crypto_wait_req(seal ? crypto_aead_encrypt(a->req) :
				crypto_aead_decrypt(a->req), &a->wait);
	if (!error && seal)
		memcpy(out, copy + S2_HEADER_AAD_LEN, S2_TAG_LEN);
	kfree(copy);
	s2_aead_free(a);
	return error;
}

int s2_crypt_header_seal(const struct s2_crypt *c, struct s2_image_header *h)
{
	return s2_crypt_header_tag(c, h, h->header_tag);
}

/* The AEAD compares the tags itself, in constant time: -EBADMSG if not. */
int s2_crypt_header_verify(const struct s2_crypt *c,
			   const struct s2_image_header *h)
{
	return s2_crypt_header_tag(c, h, NULL);
}
