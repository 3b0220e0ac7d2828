/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wrap of an encrypted image's key for an X25519 public key and the
 * owner authentication key, the same bytes as the module's crypt/wrap.c
 * (docs/image-encryption.md):
 *   shared = X25519(eph_secret, pub), never all zero
 *   kek    = HKDF-SHA256(salt image_id, ikm shared || auth,
 *                        info "suspend2 image key v1" || eph_pub || pub)
 *   wrapped_key = ChaCha20-Poly1305-IETF(kek, nonce 0, image key,
 *                 ad image_id || le32 encryption || le32 key_scheme || key_id)
 *   key_id = SHA-256(pub)[0..8]
 * auth is the 32 secret bytes of NAME.auth (and sealed in NAME.sec): only
 * who has it can write an image that opens, not who has the public key.
 * hibernate only unwraps; the wrap is here for the known-answer vector
 * (tests/unit/wrapvec.c) and the tests.  Needs sodium_init().
 */
#ifndef HIB_WRAP_H
#define HIB_WRAP_H

#include <stddef.h>
#include <stdint.h>

#define WRAP_KEY_LEN		32	/* image key, X25519 keys, kek */
#define WRAP_AUTH_LEN		32	/* owner authentication key */
#define WRAP_ID_LEN		16	/* image_id */
#define WRAP_KEY_ID_LEN		8	/* key_id */
#define WRAP_TAG_LEN		16
#define WRAP_WRAPPED_LEN	(WRAP_KEY_LEN + WRAP_TAG_LEN)
#define WRAP_SCHEME_X25519	1	/* key_scheme: wrapped as here */
#define WRAP_SCHEME_TPM		2	/* key_scheme: sealed to the TPM */

/* The header fields the wrap reads and writes. */
struct wrap_fields {
	uint32_t encryption;
	uint32_t key_scheme;
	uint8_t image_id[WRAP_ID_LEN];
	uint8_t key_id[WRAP_KEY_ID_LEN];
	uint8_t eph_pub[WRAP_KEY_LEN];
	uint8_t wrapped_key[WRAP_WRAPPED_LEN];
};

/* RFC 5869 with HMAC-SHA256; out_len at most 255 * 32.  0 or -EINVAL. */
int hkdf_sha256(const uint8_t *salt, size_t salt_len, const uint8_t *ikm,
		size_t ikm_len, const uint8_t *info, size_t info_len,
		uint8_t *out, size_t out_len);
void wrap_key_id(const uint8_t *pub, uint8_t *key_id);
/*
 * Fills f's key_id, eph_pub and wrapped_key from f's encryption,
 * key_scheme and image_id for pub and auth; kek (may be NULL) gets the
 * key-encryption key.
 * -EINVAL for a public key that gives an all-zero shared secret.
 */
int wrap_seal(struct wrap_fields *f, const uint8_t *image_key,
	      const uint8_t *eph_secret, const uint8_t *pub,
	      const uint8_t *auth, uint8_t *kek);
/*
 * The image key from f with the recipient's secret and authentication
 * key: -EINVAL for an unusable eph_pub, -EBADMSG when the wrapped key
 * does not open (another key pair's image, a forged one, or a changed
 * header field).
 */
int wrap_open(const struct wrap_fields *f, const uint8_t *secret,
	      const uint8_t *auth, uint8_t *image_key);

#endif
