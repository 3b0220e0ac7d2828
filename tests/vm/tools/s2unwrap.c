// SPDX-License-Identifier: GPL-2.0
/*
 * s2unwrap: the secrets of an encrypted image, for the confidentiality
 * checks of scenario s2-crypt, which search the raw device for them.
 *
 *   s2unwrap DEV KEY PASSFILE   open KEY.sec with the passphrase on the
 *                               first line of PASSFILE, unwrap the key of
 *                               the image on DEV (anchor on page 0) and
 *                               print "image_key HEX", "secret HEX" and
 *                               "auth HEX" (the owner authentication key)
 *   s2unwrap forge DEV KEY.pub [KEY.auth]
 *                               what an attacker holding the public key
 *                               does: wrap a new image key of its own for
 *                               KEY.pub in the header of the image on DEV
 *                               (checksums resealed), with the owner's
 *                               authentication key when given (which the
 *                               attacker does not have), else a random one
 *
 * The key file is read by its documented layout (docs/image-encryption.md,
 * cli/keys/keyfile.h), independently of hibernate's own code; the unwrap is
 * hibernate's (cli/lib/wrap.c), which the KUnit known answers tie to the
 * module's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* O_DIRECT */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32c.h"

#include <sodium.h>

#include "../../../cli/lib/wrap.c"

#define PAGE		4096
/* "S2SK", version, opslimit, memlimit KiB, key id, salt, nonce */
#define SEC_HEAD	64
#define SEC_SALT	24
#define SEC_NONCE	40
#define SEC_LEN		(SEC_HEAD + 64 + 16)	/* secret, auth, tag */

static void die(const char *what)
{
	fprintf(stderr, "s2unwrap: %s\n", what);
	exit(1);
}

static void read_file(const char *path, uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f || fread(buf, 1, len, f) != len)
		die(path);
	fclose(f);
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void hex(const char *name, const uint8_t *p, size_t len)
{
	size_t i;

	printf("%s ", name);
	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* The header and anchor pages of the image on @fd; the header's page. */
static uint64_t read_image(int fd, uint8_t *anchor, uint8_t *hdr)
{
	uint64_t header_page;

	if (pread(fd, anchor, PAGE, 0) != PAGE)
		die("cannot read the anchor page");
	memcpy(&header_page, anchor + PAGE - 36, 8);
	if (memcmp(anchor + PAGE - 10, "S2SUSPEND", 10) ||
	    pread(fd, hdr, PAGE, (off_t)(header_page * PAGE)) != PAGE)
		die("no image on the device");
	return header_page;
}

static int forge(const char *dev, const char *pubfile, const char *authfile)
{
	static uint8_t anchor[PAGE] __attribute__((aligned(PAGE)));
	static uint8_t hdr[PAGE] __attribute__((aligned(PAGE)));
	uint8_t pub[32], auth[32], key[32], eph[32];
	struct wrap_fields f;
	uint64_t header_page;
	uint32_t crc;
	int fd;

	read_file(pubfile, pub, sizeof(pub));
	if (authfile)
		read_file(authfile, auth, sizeof(auth));
	else
		randombytes_buf(auth, sizeof(auth));
	randombytes_buf(key, sizeof(key));
	randombytes_buf(eph, sizeof(eph));
	fd = open(dev, O_RDWR | O_DIRECT | O_SYNC);
	if (fd < 0)
		die(dev);
	header_page = read_image(fd, anchor, hdr);
	f.encryption = le32(hdr + 354);
	f.key_scheme = le32(hdr + 358);
	memcpy(f.image_id, hdr + 362, sizeof(f.image_id));
	if (wrap_seal(&f, key, eph, pub, auth, NULL))
		die("cannot wrap for this public key");
	memcpy(hdr + 378, f.key_id, sizeof(f.key_id));
	memcpy(hdr + 386, f.eph_pub, sizeof(f.eph_pub));
	memcpy(hdr + 418, f.wrapped_key, sizeof(f.wrapped_key));
	put32(hdr + 514, 0);
	crc = crc32c(hdr, 518);
	put32(hdr + 514, crc);
	put32(anchor + PAGE - 36 + 8, crc);
	if (pwrite(fd, hdr, PAGE, (off_t)(header_page * PAGE)) != PAGE ||
	    pwrite(fd, anchor, PAGE, 0) != PAGE)
		die("cannot write the forged header");
	close(fd);
	printf("forged: a new image key wrapped for %s with %s\n", pubfile,
	       authfile ? authfile : "a random authentication key");
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t page[PAGE] __attribute__((aligned(PAGE)));
	static uint8_t anchor[PAGE] __attribute__((aligned(PAGE)));
	uint8_t sec[SEC_LEN], pub[32], kek[32], ad[SEC_HEAD + 32], secret[64];
	uint8_t key[32];
	char path[4096], pass[1024];
	struct wrap_fields f;
	unsigned long long n;
	FILE *pf;
	int fd;

	if (sodium_init() < 0)
		die("sodium_init");
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "forge"))
		return forge(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (argc != 4)
		die("usage: s2unwrap DEV KEY PASSFILE | forge DEV KEY.pub [KEY.auth]");
	snprintf(path, sizeof(path), "%s.sec", argv[2]);
	read_file(path, sec, sizeof(sec));
	snprintf(path, sizeof(path), "%s.pub", argv[2]);
	read_file(path, pub, sizeof(pub));
	pf = fopen(argv[3], "r");
	if (!pf || !fgets(pass, sizeof(pass), pf))
		die(argv[3]);
	fclose(pf);
	pass[strcspn(pass, "\n")] = '\0';
	if (memcmp(sec, "S2SK", 4) || le32(sec + 4) != 2)
		die("not a version 2 key file");
	if (crypto_pwhash(kek, sizeof(kek), pass, strlen(pass), sec + SEC_SALT,
			  le32(sec + 8), (size_t)le32(sec + 12) * 1024,
			  crypto_pwhash_ALG_ARGON2ID13))
		die("argon2id");
	memcpy(ad, sec, SEC_HEAD);
	memcpy(ad + SEC_HEAD, pub, sizeof(pub));
	if (crypto_aead_xchacha20poly1305_ietf_decrypt(secret, &n, NULL,
			sec + SEC_HEAD, 64 + 16, ad, sizeof(ad), sec + SEC_NONCE,
			kek))
		die("wrong passphrase, or not this key file");

	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0)
		die(argv[1]);
	read_image(fd, anchor, page);
	close(fd);
	f.encryption = le32(page + 354);
	f.key_scheme = le32(page + 358);
	memcpy(f.image_id, page + 362, sizeof(f.image_id));
	memcpy(f.key_id, page + 378, sizeof(f.key_id));
	memcpy(f.eph_pub, page + 386, sizeof(f.eph_pub));
	memcpy(f.wrapped_key, page + 418, sizeof(f.wrapped_key));
	if (wrap_open(&f, secret, secret + 32, key))
		die("the image key does not unwrap with this key pair");
	hex("image_key", key, sizeof(key));
	hex("secret", secret, 32);
	hex("auth", secret + 32, 32);
	return 0;
}
