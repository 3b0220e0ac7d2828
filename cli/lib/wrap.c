// SPDX-License-Identifier: GPL-2.0
/*
 * The image key wrap (wrap.h): HKDF-SHA256 built from libsodium's
 * HMAC-SHA256 (1.0.18 has no HKDF), X25519 and ChaCha20-Poly1305.  Every
 * intermediate secret is wiped before returning.
 */
#include <errno.h>
#include <string.h>

#include <sodium.h>

#include "lib/wrap.h"

#define WRAP_INFO	"suspend2 image key v1"
#define WRAP_INFO_LEN	(sizeof(WRAP_INFO) - 1)
#define WRAP_AD_LEN	(WRAP_ID_LEN + 4 + 4 + WRAP_KEY_ID_LEN)

int hkdf_sha256(const uint8_t *salt, size_t salt_len, const uint8_t *ikm,
		size_t ikm_len, const uint8_t *info, size_t info_len,
		uint8_t *out, size_t out_len)
{
	uint8_t prk[crypto_auth_hmacsha256_BYTES];
	uint8_t t[crypto_auth_hmacsha256_BYTES];
	crypto_auth_hmacsha256_state st;
	size_t done = 0, t_len = 0;
	uint8_t counter = 0;

	if (out_len > 255 * sizeof(t))
		return -EINVAL;
	/* Extract: PRK = HMAC(salt, IKM). */
	crypto_auth_hmacsha256_init(&st, salt, salt_len);
	crypto_auth_hmacsha256_update(&st, ikm, ikm_len);
	crypto_auth_hmacsha256_final(&st, prk);
	/* Expand: T(i) = HMAC(PRK, T(i-1) || info || i). */
	while (done < out_len) {
		size_t n = out_len - done < sizeof(t) ? out_len - done
						      : sizeof(t);

		counter++;
		crypto_auth_hmacsha256_init(&st, prk, sizeof(prk));
		crypto_auth_hmacsha256_update(&st, t, t_len);
		crypto_auth_hmacsha256_update(&st, info, info_len);
		crypto_auth_hmacsha256_update(&st, &counter, 1);
		crypto_auth_hmacsha256_final(&st, t);
		t_len = sizeof(t);
		memcpy(out + done, t, n);
		done += n;
	}
	sodium_memzero(prk, sizeof(prk));
	sodium_memzero(t, sizeof(t));
	sodium_memzero(&st, sizeof(st));
	return 0;
}

void wrap_key_id(const uint8_t *pub, uint8_t *key_id)
{
	uint8_t h[crypto_hash_sha256_BYTES];

	crypto_hash_sha256(h, pub, WRAP_KEY_LEN);
	memcpy(key_id, h, WRAP_KEY_ID_LEN);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void wrap_ad(const struct wrap_fields *f, uint8_t *ad)
{
	memcpy(ad, f->image_id, WRAP_ID_LEN);
	put_le32(ad + WRAP_ID_LEN, f->encryption);
	put_le32(ad + WRAP_ID_LEN + 4, f->key_scheme);
	memcpy(ad + WRAP_ID_LEN + 8, f->key_id, WRAP_KEY_ID_LEN);
}

/* ikm = the X25519 shared secret, then the owner authentication key. */
static int wrap_kek(const uint8_t *shared, const uint8_t *auth,
		    const uint8_t *image_id, const uint8_t *eph_pub,
		    const uint8_t *pub, uint8_t *kek)
{
	uint8_t info[WRAP_INFO_LEN + 2 * WRAP_KEY_LEN];
	uint8_t ikm[2 * WRAP_KEY_LEN];
	int ret;

	memcpy(info, WRAP_INFO, WRAP_INFO_LEN);
	memcpy(info + WRAP_INFO_LEN, eph_pub, WRAP_KEY_LEN);
	memcpy(info + WRAP_INFO_LEN + WRAP_KEY_LEN, pub, WRAP_KEY_LEN);
	memcpy(ikm, shared, WRAP_KEY_LEN);
	memcpy(ikm + WRAP_KEY_LEN, auth, WRAP_AUTH_LEN);
	ret = hkdf_sha256(image_id, WRAP_ID_LEN, ikm, sizeof(ikm), info,
			  sizeof(info), kek, WRAP_KEY_LEN);
	sodium_memzero(ikm, sizeof(ikm));
	return ret;
}

int wrap_seal(struct wrap_fields *f, const uint8_t *image_key,
	      const uint8_t *eph_secret, const uint8_t *pub,
	      const uint8_t *auth, uint8_t *kek_out)
{
	static const uint8_t nonce[crypto_aead_chacha20poly1305_IETF_NPUBBYTES];
	uint8_t shared[WRAP_KEY_LEN], kek[WRAP_KEY_LEN], ad[WRAP_AD_LEN];
	unsigned long long clen;
	int ret = -EINVAL;

	if (crypto_scalarmult_base(f->eph_pub, eph_secret) ||
	    crypto_scalarmult(shared, eph_secret, pub))
		goto out;
	wrap_key_id(pub, f->key_id);
	if (wrap_kek(shared, auth, f->image_id, f->eph_pub, pub, kek))
		goto out;
	wrap_ad(f, ad);
	crypto_aead_chacha20poly1305_ietf_encrypt(f->wrapped_key, &clen,
						  image_key, WRAP_KEY_LEN,
						  ad, sizeof(ad), NULL,
						  nonce, kek);
	if (kek_out)
		memcpy(kek_out, kek, sizeof(kek));
	ret = 0;
out:
	sodium_memzero(shared, sizeof(shared));
	sodium_memzero(kek, sizeof(kek));
	return ret;
}

int wrap_open(const struct wrap_fields *f, const uint8_t *secret,
	      const uint8_t *auth, uint8_t *image_key)
{
	static const uint8_t nonce[crypto_aead_chacha20poly1305_IETF_NPUBBYTES];
	uint8_t shared[WRAP_KEY_LEN], kek[WRAP_KEY_LEN], ad[WRAP_AD_LEN];
	uint8_t pub[WRAP_KEY_LEN];
	unsigned long long mlen;
	int ret = -EINVAL;

	if (crypto_scalarmult_base(pub, secret) ||
	    crypto_scalarmult(shared, secret, f->eph_pub))
		goto out;
	if (wrap_kek(shared, auth, f->image_id, f->eph_pub, pub, kek))
		goto out;
	wrap_ad(f, ad);
	ret = crypto_aead_chacha20poly1305_ietf_decrypt(image_key, &mlen, NULL,
							f->wrapped_key,
							WRAP_WRAPPED_LEN, ad,
							sizeof(ad), nonce,
							kek) ? -EBADMSG : 0;
	if (ret)
		sodium_memzero(image_key, WRAP_KEY_LEN);
out:
	sodium_memzero(shared, sizeof(shared));
	sodium_memzero(kek, sizeof(kek));
	return ret;
}
