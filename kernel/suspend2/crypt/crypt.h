/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Encrypted images: the image key and the AEAD that seals each chunk and
 * the header with it, the wrap of that key for its owner's X25519 public
 * key, and the kernel keyring, through which hibernate(8) hands over the
 * public key when hibernating and the unwrapped image key when resuming.
 * docs/image-encryption.md describes the scheme.
 */
#ifndef _SUSPEND2_CRYPT_H
#define _SUSPEND2_CRYPT_H

#include <linux/types.h>
#include "../image/format.h"

/*
 * One per cycle, kzalloc'd and wiped by s2_crypt_wipe(): the image key
 * lives only here (and in the workers' transforms) and never in the
 * snapshot, since it is made after the atomic copy.
 */
struct s2_crypt {
	enum s2_encryption enc;		/* S2_ENC_NONE: nothing below is set */
	u8 key[S2_KEY_LEN];
	u8 image_id[S2_IMAGE_ID_LEN];
	u64 nr_chunks;			/* bound into every chunk's tag */
	u64 tpm_counter;		/* key = tpm: the counter sealed with it */
};

/*
 * What the image key is wrapped for: the owner's X25519 public key, and
 * the owner's authentication key, which proves the image was written by
 * a holder of it (crypt/wrap.c).  hibernate(8) hands both over as one
 * logon key.
 */
struct s2_owner_key {
	u8 pub[S2_KEY_LEN];
	u8 auth[S2_KEY_LEN];
};

/* crypt/aead.c: one transform and request per worker thread. */
struct s2_aead;

bool s2_aead_available(enum s2_encryption enc);
/* The memory s2_aead_new() allocates, bounded; 0 for S2_ENC_NONE. */
size_t s2_aead_workspace_bytes(enum s2_encryption enc);
struct s2_aead *s2_aead_new(const struct s2_crypt *c);	/* or ERR_PTR */
void s2_aead_free(struct s2_aead *a);
/*
 * Encrypts @len bytes at @buf (vmalloc'd or linear) in place as chunk
 * @seq, holding @raw_len bytes of image, and puts the tag in @tag.
 */
int s2_aead_seal(struct s2_aead *a, const struct s2_crypt *c, u64 seq,
		 void *buf, u32 len, u32 raw_len, u8 *tag);
/* Decrypts in place; -EBADMSG when the tag does not match. */
int s2_aead_open(struct s2_aead *a, const struct s2_crypt *c, u64 seq,
		 void *buf, u32 len, u32 raw_len, const u8 *tag);
/* The header tag, over the header's first S2_HEADER_AAD_LEN bytes. */
int s2_crypt_header_seal(const struct s2_crypt *c, struct s2_image_header *h);
int s2_crypt_header_verify(const struct s2_crypt *c,
			   const struct s2_image_header *h);

/* crypt/wrap.c */
#define S2_HKDF_HMAC	"hmac(sha256)"	/* what s2_hkdf_sha256() runs on */
/*
 * A new image key and image id in @c, and the header fields that wrap the
 * key for @owner in @hc.
 */
int s2_crypt_new_image(struct s2_crypt *c, enum s2_encryption enc,
		       const struct s2_owner_key *owner,
		       struct s2_header_crypt *hc);
/* The wrap with a given ephemeral secret: KUnit's known answers. */
int __s2_crypt_wrap(const u8 *key, const u8 *eph_secret,
		    const struct s2_owner_key *owner, struct s2_header_crypt *hc);
/* The unwrap hibernate(8) does in user space, for KUnit. */
int s2_crypt_unwrap(const struct s2_header_crypt *hc, const u8 *secret,
		    const u8 *auth, u8 *key);
int s2_hkdf_sha256(const u8 *salt, size_t salt_len, const u8 *ikm,
		   size_t ikm_len, const u8 *info, size_t info_len, u8 *out,
		   size_t out_len);
void s2_crypt_key_id(const u8 *pub, u8 *key_id);

/* crypt/sealed.c: key = tpm.  Both ends need user space frozen. */
int s2_crypt_new_sealed_image(struct s2_crypt *c, enum s2_encryption enc,
			      u32 boot_pcrs, struct s2_header_crypt *hc,
			      struct s2_header_tpm *t, const char **why);
/* Unseals @t's key into @c; the caller then checks the header tag. */
int s2_crypt_open_sealed_image(struct s2_crypt *c,
			       const struct s2_image_header *h,
			       const struct s2_header_tpm *t, const char **why);
bool s2_crypt_sealed_digest_ok(const struct s2_image_header *h,
			       const struct s2_header_tpm *t);
int s2_crypt_claim_sealed_image(const struct s2_header_tpm *t, bool bump,
				const char **why);

/* crypt/keys.c */
/*
 * The owner key for @keyspec "keyring:NAME": the logon key "suspend2:NAME"
 * root put in the keyring of the process that started the cycle.
 */
int s2_crypt_get_owner_key(const char *keyspec, struct s2_owner_key *owner,
			   char *why, size_t why_len);
/*
 * The image key hibernate(8) unwrapped, the logon key
 * "suspend2:img:<image id in hex>", into @c; -ENOKEY when none is there.
 */
int s2_crypt_get_image_key(struct s2_crypt *c, const struct s2_image_header *h,
			   const char **why);
void s2_crypt_wipe(struct s2_crypt *c);

#endif /* _SUSPEND2_CRYPT_H */
