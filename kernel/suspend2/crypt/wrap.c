// SPDX-License-Identifier: GPL-2.0
/*
 * The wrap of the image key for its owner: a box to the owner's X25519
 * public key that only a holder of the owner's authentication key (auth,
 * 32 secret bytes made with the key pair) can have made:
 *
 *   eph_pub     = X25519(eph, base point), eph fresh for every image
 *   kek         = HKDF-SHA256(salt = image_id,
 *                             ikm = X25519(eph, pub) || auth,
 *                             info = "suspend2 image key v1" || eph_pub || pub)
 *   wrapped_key = ChaCha20-Poly1305(kek, nonce 0, image key,
 *                                   ad = image_id || le32 encryption ||
 *                                        le32 key_scheme || key_id)
 *
 * Without auth in the kek, anybody with the public key (which is no
 * secret: it is in the initramfs) could write an image that unwraps and
 * authenticates, and have the owner's passphrase restore it.  auth lives
 * in a root-only file and, sealed with the passphrase, in the initramfs.
 *
 * The kek is used once, so the all-zero nonce is safe.  hibernate(8)
 * opens it in user space with libsodium (X25519, HMAC-SHA256 and the
 * IETF ChaCha20-Poly1305): both sides must agree to the byte, which the
 * known answers in tests/crypt_kunit.c and tests/vectors/wrap-v1.txt pin.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/chacha20poly1305.h>
#include <crypto/curve25519.h>
#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/string.h>
#include "crypt.h"

#define S2_WRAP_INFO		"suspend2 image key v1"
#define S2_WRAP_INFO_LEN	(sizeof(S2_WRAP_INFO) - 1)
#define S2_WRAP_AD_LEN		(S2_IMAGE_ID_LEN + 4 + 4 + S2_KEY_ID_LEN)

/* RFC 5869 on the crypto API's HMAC, as fs/crypto/hkdf.c does it. */
int s2_hkdf_sha256(const u8 *salt, size_t salt_len, const u8 *ikm,
		   size_t ikm_len, const u8 *info, size_t info_len, u8 *out,
		   size_t out_len)
{
	/* No salt is a salt of HashLen zero bytes (RFC 5869 2.2). */
	static const u8 zero_salt[SHA256_DIGEST_SIZE];
	u8 prk[SHA256_DIGEST_SIZE], t[SHA256_DIGEST_SIZE];
	struct crypto_shash *tfm;
	size_t done;
	u8 counter;
	int error;

	if (out_len > 255 * SHA256_DIGEST_SIZE)
		return -EINVAL;
	tfm = crypto_alloc_shash(S2_HKDF_HMAC, 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	{
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		/* Extract: PRK = HMAC(salt, IKM). */
		if (!salt_len)
			error = crypto_shash_setkey(tfm, zero_salt,
						    sizeof(zero_salt));
		else
			error = crypto_shash_setkey(tfm, salt, salt_len);
		if (!error)
			error = crypto_shash_digest(desc, ikm, ikm_len, prk);
		if (!error)
			error = crypto_shash_setkey(tfm, prk, sizeof(prk));
		/* Expand: T(i) = HMAC(PRK, T(i-1) || info || i), i from 1. */
		for (done = 0, counter = 1; !error && done < out_len;
		     counter++) {
			size_t n = min(out_len - done, sizeof(t));

			error = crypto_shash_init(desc);
			if (!error && done)
				error = crypto_shash_update(desc, t, sizeof(t));
			if (!error)
				error = crypto_shash_update(desc, info,
							    info_len);
			if (!error)
				error = crypto_shash_finup(desc, &counter, 1,
							   t);
			if (!error)
				memcpy(out + done, t, n);
			done += n;
		}
		shash_desc_zero(desc);
	}
	crypto_free_shash(tfm);
	memzero_explicit(prk, sizeof(prk));
	memzero_explicit(t, sizeof(t));
	if (error)
		memzero_explicit(out, out_len);
	return error;
}

void s2_crypt_key_id(const u8 *pub, u8 *key_id)
{
	u8 digest[SHA256_DIGEST_SIZE];

	sha256(pub, S2_KEY_LEN, digest);
	memcpy(key_id, digest, S2_KEY_ID_LEN);
}

/* The header fields the wrap depends on; eph_pub goes into the kek. */
static void s2_wrap_ad(const struct s2_header_crypt *hc, u8 *ad)
{
	memcpy(ad, hc->image_id, S2_IMAGE_ID_LEN);
	/* Both are __le32 in the header already. */
	memcpy(ad + S2_IMAGE_ID_LEN, &hc->encryption, 4);
	memcpy(ad + S2_IMAGE_ID_LEN + 4, &hc->key_scheme, 4);
	memcpy(ad + S2_IMAGE_ID_LEN + 8, hc->key_id, S2_KEY_ID_LEN);
}

/* @shared is X25519(eph, pub) == X25519(secret, eph_pub). */
static int s2_wrap_kek(const u8 *shared, const u8 *auth,
		       const struct s2_header_crypt *hc, const u8 *pub, u8 *kek)
{
	u8 info[S2_WRAP_INFO_LEN + 2 * S2_KEY_LEN], ikm[2 * S2_KEY_LEN];
	int error;

	memcpy(ikm, shared, S2_KEY_LEN);
	memcpy(ikm + S2_KEY_LEN, auth, S2_KEY_LEN);
	memcpy(info, S2_WRAP_INFO, S2_WRAP_INFO_LEN);
	memcpy(info + S2_WRAP_INFO_LEN, hc->eph_pub, S2_KEY_LEN);
	memcpy(info + S2_WRAP_INFO_LEN + S2_KEY_LEN, pub, S2_KEY_LEN);
	error = s2_hkdf_sha256(hc->image_id, S2_IMAGE_ID_LEN, ikm, sizeof(ikm),
			       info, sizeof(info), kek, S2_KEY_LEN);
	memzero_explicit(ikm, sizeof(ikm));
	return error;
}

/*
 * The caller has set hc's encryption, key_scheme, image_id and key_id:
 * this adds eph_pub and wrapped_key.
 */
int __s2_crypt_wrap(const u8 *key, const u8 *eph_secret,
		    const struct s2_owner_key *owner, struct s2_header_crypt *hc)
{
	u8 shared[CURVE25519_KEY_SIZE], kek[S2_KEY_LEN], ad[S2_WRAP_AD_LEN];
	int error;

	if (!curve25519_generate_public(hc->eph_pub, eph_secret))
		return -EINVAL;
	/* A low-order point gives the all-zero secret whatever eph is. */
	if (!curve25519(shared, eph_secret, owner->pub)) {
		pr_err("the public key is not a usable X25519 key\n");
		error = -EINVAL;
		goto out;
	}
	error = s2_wrap_kek(shared, owner->auth, hc, owner->pub, kek);
	if (error)
		goto out;
	s2_wrap_ad(hc, ad);
	chacha20poly1305_encrypt(hc->wrapped_key, key, S2_KEY_LEN, ad,
				 sizeof(ad), 0, kek);
out:
	memzero_explicit(shared, sizeof(shared));
	memzero_explicit(kek, sizeof(kek));
	return error;
}

int s2_crypt_new_image(struct s2_crypt *c, enum s2_encryption enc,
		       const struct s2_owner_key *owner,
		       struct s2_header_crypt *hc)
{
	u8 eph[CURVE25519_KEY_SIZE];
	int error;

	if (enc == S2_ENC_NONE || enc >= S2_NR_ENC)
		return -EINVAL;
	memset(hc, 0, sizeof(*hc));
	get_random_bytes(c->key, S2_KEY_LEN);
	get_random_bytes(c->image_id, S2_IMAGE_ID_LEN);
	hc->encryption = cpu_to_le32(enc);
	hc->key_scheme = cpu_to_le32(S2_KEY_X25519);
	memcpy(hc->image_id, c->image_id, S2_IMAGE_ID_LEN);
	s2_crypt_key_id(owner->pub, hc->key_id);
	curve25519_generate_secret(eph);
	error = __s2_crypt_wrap(c->key, eph, owner, hc);
	memzero_explicit(eph, sizeof(eph));
	if (error) {
		memzero_explicit(c->key, S2_KEY_LEN);
		memset(c->image_id, 0, S2_IMAGE_ID_LEN);
		memset(hc, 0, sizeof(*hc));
		return error;
	}
	c->enc = enc;
	return 0;
}

int s2_crypt_unwrap(const struct s2_header_crypt *hc, const u8 *secret,
		    const u8 *auth, u8 *key)
{
	u8 pub[CURVE25519_KEY_SIZE], shared[CURVE25519_KEY_SIZE];
	u8 kek[S2_KEY_LEN], ad[S2_WRAP_AD_LEN];
	int error = -EBADMSG;

	if (!curve25519_generate_public(pub, secret) ||
	    !curve25519(shared, secret, hc->eph_pub))
		goto out;
	if (s2_wrap_kek(shared, auth, hc, pub, kek))
		goto out;
	s2_wrap_ad(hc, ad);
	if (chacha20poly1305_decrypt(key, hc->wrapped_key, S2_WRAPPED_LEN, ad,
				     sizeof(ad), 0, kek))
		error = 0;
out:
	if (error)
		memzero_explicit(key, S2_KEY_LEN);
	memzero_explicit(shared, sizeof(shared));
	memzero_explicit(kek, sizeof(kek));
	return error;
}
