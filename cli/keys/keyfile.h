/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Key files of encrypted images, in /etc/suspend2/keys (HIBERNATE_KEYDIR
 * for tests): NAME.pub, the raw 32-byte X25519 public key the module
 * wraps each image key for; NAME.auth, the raw 32-byte owner
 * authentication key that binds every image to this machine (0600, never
 * in the initramfs); and NAME.sec, the secret key and the authentication
 * key sealed with a passphrase (Argon2id, XChaCha20-Poly1305):
 *
 *   "S2SK" | le32 version 2 | le32 opslimit | le32 memlimit in KiB |
 *   key_id[8] | salt[16] | nonce[24] | sealed (secret[32] || auth[32]) |
 *   tag[16]
 *
 * with associated data all the bytes before the sealed secret and then
 * the public key.  key_id is wrap_key_id() of the public key, in the
 * clear so that a NAME.sec of another key pair than NAME.pub (a
 * --setup-key --force cut short) is told before any passphrase is asked
 * for; being associated data, an edited one still fails the unlock.
 * Secrets live in sodium_malloc()'d memory, wiped on every path.  Needs
 * sodium_init().
 */
#ifndef HIB_KEYFILE_H
#define HIB_KEYFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/wrap.h"

#define KEYFILE_DIR		"/etc/suspend2/keys"
#define KEYFILE_DEFAULT_NAME	"default"
#define KEYFILE_MAGIC		"S2SK"
#define KEYFILE_VERSION		2
#define KEYFILE_SALT_LEN	16
#define KEYFILE_NONCE_LEN	24
#define KEYFILE_OFF_KEY_ID	16
#define KEYFILE_OFF_SALT	(KEYFILE_OFF_KEY_ID + WRAP_KEY_ID_LEN)
#define KEYFILE_OFF_NONCE	(KEYFILE_OFF_SALT + KEYFILE_SALT_LEN)
#define KEYFILE_HEAD_LEN	(KEYFILE_OFF_NONCE + KEYFILE_NONCE_LEN)
#define KEYFILE_SEALED_LEN	(WRAP_KEY_LEN + WRAP_AUTH_LEN)
#define KEYFILE_SEC_LEN		(KEYFILE_HEAD_LEN + KEYFILE_SEALED_LEN + \
				 WRAP_TAG_LEN)
#define KEYFILE_TRIES		3

/*
 * How hard the passphrase is to guess: moderate, or libsodium's minimum
 * for tests (hibernate --kdf insecure-test), cheap to guess offline.
 */
enum keyfile_kdf {
	KDF_MODERATE,		/* opslimit 3, 128 MiB */
	KDF_INSECURE_TEST,	/* libsodium's minimum: milliseconds */
};

/* The key directory; buf holds it when it is moved. */
const char *keyfile_dir(char *buf, size_t len);
/*
 * Every directory above the key directory DIR (those there yet) owned by
 * root or the user running hibernate and writable by no one else, sticky
 * or not, as OpenSSH's StrictModes: 0, or -EPERM with why naming the
 * directory and what is wrong.
 */
int keyfile_parents_trusted(const char *dir, char *why, size_t len);
/* DIR/NAME.EXT; -ENAMETOOLONG or 0. */
int keyfile_path(const char *name, const char *ext, char *buf, size_t len);
/* "0123456789abcdef": 17 bytes with the NUL. */
void keyfile_hex(const uint8_t *p, size_t len, char *out);

/*
 * hibernate --setup-key: asks for the passphrase twice (or reads the
 * first line of passfile), makes a key pair and an authentication key
 * and writes the three files.
 * Refuses to replace a key without force, and a key directory that is
 * a symbolic link, another user's or writable by others, or under a
 * directory that is another user's or writable by others (-EPERM,
 * before the passphrase is asked for).  0 or -errno; says why.
 */
int keyfile_setup(const char *name, enum keyfile_kdf kdf,
		  const char *passfile, bool force);
/* NAME.pub into pub: 0, -ENOENT, -EINVAL (not 32 bytes), -errno. */
int keyfile_read_pub(const char *name, uint8_t *pub);
/*
 * NAME.auth into auth (WRAP_AUTH_LEN bytes, best from sodium_malloc): 0,
 * -ENOENT, -EINVAL (not a 32-byte file), -EPERM (group or others may
 * read or write it, or it is not root's), -errno.
 */
int keyfile_read_auth(const char *name, uint8_t *auth);
/*
 * Whether NAME.sec is the secret key of NAME.pub, by the key id in its
 * header (no passphrase needed): 0, -ESTALE when the two are of
 * different key pairs (sec_id and pub_id, either may be NULL, get both
 * ids), -EINVAL when NAME.pub or NAME.sec is not a key file of this
 * version, else -errno (-ENOENT: one is missing).
 */
int keyfile_check_pair(const char *name, uint8_t *sec_id, uint8_t *pub_id);
/*
 * The secret key and the authentication key of NAME.sec into secret and
 * auth (WRAP_KEY_LEN and WRAP_AUTH_LEN bytes, best from sodium_malloc):
 * 0, -EKEYREJECTED for a wrong passphrase, -ESTALE when NAME.sec is not
 * of NAME.pub's key pair (checked first: no passphrase can open it),
 * -EINVAL for a file that is not a key file, else -errno.
 */
int keyfile_unlock(const char *name, const char *passphrase, uint8_t *secret,
		   uint8_t *auth);
/*
 * The image key from an image header's bytes (imghdr.h), 0 or -errno:
 * -EBADMSG when it was not written for this key pair and authentication
 * key, or was forged or changed; -EINVAL for an unencrypted image or a
 * key_scheme other than WRAP_SCHEME_X25519 (WRAP_SCHEME_TPM: the module
 * unseals the key itself, there is nothing to unwrap here).
 */
int keyfile_unwrap(const uint8_t *header, const uint8_t *secret,
		   const uint8_t *auth, uint8_t *key);

#endif
