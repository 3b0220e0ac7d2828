// SPDX-License-Identifier: GPL-2.0
/*
 * Writes tests/vectors/wrap-v1.txt, the known answer of the image key
 * wrap (cli/lib/wrap.h) that the module's KUnit test and test_keyfile.c
 * both check, so that hibernate and the module agree bit for bit.  Fixed
 * inputs; X25519 clamps the secrets as given.  Built and run by hand:
 *
 *   gcc -std=gnu11 -Wall -Icli -o build/wrapvec tests/unit/wrapvec.c \
 *       cli/lib/wrap.c -lsodium &&
 *       build/wrapvec >tests/vectors/wrap-v1.txt
 *
 * Each line is "name = hex", bytes in lower case; encryption and
 * key_scheme are their le32 bytes as they enter the associated data.
 */
#include <stdio.h>
#include <stdlib.h>

#include <sodium.h>

#include "lib/wrap.h"

static void fill(uint8_t *p, size_t len, uint8_t first)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = first + i;
}

static void line(const char *name, const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	printf("%s = ", name);
	for (i = 0; i < len; i++)
		printf("%02x", b[i]);
	printf("\n");
}

static void line_le32(const char *name, uint32_t v)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

	line(name, b, sizeof(b));
}

int main(void)
{
	uint8_t secret[WRAP_KEY_LEN], pub[WRAP_KEY_LEN], eph[WRAP_KEY_LEN];
	uint8_t key[WRAP_KEY_LEN], kek[WRAP_KEY_LEN], back[WRAP_KEY_LEN];
	uint8_t auth[WRAP_AUTH_LEN];
	struct wrap_fields f = { .encryption = 2,
				 .key_scheme = WRAP_SCHEME_X25519 };

	if (sodium_init() < 0)
		return 1;
	fill(secret, sizeof(secret), 0x01);
	fill(eph, sizeof(eph), 0x41);
	fill(key, sizeof(key), 0x81);
	fill(f.image_id, sizeof(f.image_id), 0xc1);
	fill(auth, sizeof(auth), 0x21);
	if (crypto_scalarmult_base(pub, secret) ||
	    wrap_seal(&f, key, eph, pub, auth, kek))
		return 1;
	/* The vector is only worth writing if it opens again. */
	if (wrap_open(&f, secret, auth, back) ||
	    sodium_memcmp(back, key, sizeof(key)))
		return 1;
	line("recipient_secret", secret, sizeof(secret));
	line("recipient_public", pub, sizeof(pub));
	line("eph_secret", eph, sizeof(eph));
	line("eph_pub", f.eph_pub, sizeof(f.eph_pub));
	line("image_key", key, sizeof(key));
	line("image_id", f.image_id, sizeof(f.image_id));
	line("auth", auth, sizeof(auth));
	line_le32("encryption", f.encryption);
	line_le32("key_scheme", f.key_scheme);
	line("key_id", f.key_id, sizeof(f.key_id));
	line("kek", kek, sizeof(kek));
	line("wrapped_key", f.wrapped_key, sizeof(f.wrapped_key));
	return 0;
}
