// SPDX-License-Identifier: GPL-2.0
/*
 * Key files and the image key wrap (cli/keys/keyfile.c,
 * cli/lib/wrap.c): a key made and unlocked in a temporary
 * HIBERNATE_KEYDIR with --kdf insecure-test, the modes and sizes of what is
 * written (NAME.auth included), the
 * refusals, a wrap that does not open without the authentication key,
 * a .pub and .sec of two key pairs told without a passphrase, the owner
 * and mode rules of the key files, an initramfs older than the key, and
 * the unwrap of
 * tests/vectors/wrap-v1.txt, the vector the module's KUnit test checks
 * too, so hibernate and the module agree on the wrap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sodium.h>

#include "kshim.h"
#include "../../kernel/suspend2/image/format.h"
#include "check/imghdr.h"
#include "keys/keyfile.h"
#include "keys/keytrust.h"
#include "lib/wrap.h"

/* imghdr.h's offsets are those of the module's header. */
#define SAME_OFF(a, b) _Static_assert(offsetof(struct s2_image_header, a) == \
				      (b), #a)
SAME_OFF(format_version, IMGHDR_OFF_VERSION);
SAME_OFF(release, IMGHDR_OFF_RELEASE);
SAME_OFF(created_sec, IMGHDR_OFF_CREATED);
SAME_OFF(compressor, IMGHDR_OFF_COMPRESSOR);
SAME_OFF(image_pages, IMGHDR_OFF_IMAGE_PAGES);
SAME_OFF(data_bytes, IMGHDR_OFF_DATA_BYTES);
_Static_assert(S2_ALGO_LEN == IMGHDR_COMPRESSOR_LEN, "compressor");
SAME_OFF(crypt.encryption, IMGHDR_OFF_ENCRYPTION);
SAME_OFF(crypt.key_scheme, IMGHDR_OFF_KEY_SCHEME);
SAME_OFF(crypt.image_id, IMGHDR_OFF_IMAGE_ID);
SAME_OFF(crypt.key_id, IMGHDR_OFF_KEY_ID);
SAME_OFF(crypt.eph_pub, IMGHDR_OFF_EPH_PUB);
SAME_OFF(crypt.wrapped_key, IMGHDR_OFF_WRAPPED);
_Static_assert(sizeof(struct s2_image_header) == IMGHDR_SIZE, "size");
_Static_assert(S2_ENC_NONE == IMGHDR_ENC_NONE, "none");
_Static_assert(S2_KEY_X25519 == WRAP_SCHEME_X25519, "key_scheme x25519");
_Static_assert(S2_KEY_TPM == WRAP_SCHEME_TPM, "key_scheme tpm");

#define VECTOR "tests/vectors/wrap-v1.txt"

/*
 * The key directory is BASE/keys, BASE made in scratch_root(): not under
 * /tmp, as no key directory may be under a directory others may write,
 * sticky or not.
 */
static char base[160];
static char keydir[sizeof(base) + 8];
static char passfile[sizeof(keydir) + 16];

static void set_pass(const char *text)
{
	FILE *f = fopen(passfile, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	/* A secret: refused when others may read it (test_passfile_mode). */
	assert_int_equal(chmod(passfile, 0600), 0);
}

/*
 * Scratch space every directory above which is root's (or the user's
 * running the tests) and writable by no one else, wherever the tree is
 * checked out (a clone under /tmp too): /run for root, else the user's
 * runtime directory or home.  tests/unit/lib.sh does the same.
 */
static const char *scratch_root(char *buf, size_t len)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");

	if (!geteuid())
		dir = "/run";
	else if (!dir || !*dir)
		dir = getenv("HOME");
	if (!dir || !*dir)
		return NULL;
	snprintf(buf, len, "%s/suspend2-unit", dir);
	if (mkdir(buf, 0755) && errno != EEXIST)
		return NULL;
	return buf;
}

static int setup(void **state)
{
	char root[sizeof(base) - 32];
	int n;

	(void)state;
	if (sodium_init() < 0 || !scratch_root(root, sizeof(root)))
		return -1;
	n = snprintf(base, sizeof(base), "%s/test_keyfile.XXXXXX", root);
	if (n < 0 || (size_t)n >= sizeof(base) || !mkdtemp(base))
		return -1;
	/* The key directory itself is made by keyfile_setup(). */
	snprintf(keydir, sizeof(keydir), "%s/keys", base);
	snprintf(passfile, sizeof(passfile), "%s.pass", keydir);
	setenv("HIBERNATE_KEYDIR", keydir, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[sizeof(base) + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

static mode_t mode_of(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", keydir, name);
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

static off_t size_of(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", keydir, name);
	assert_int_equal(lstat(path, &st), 0);
	return st.st_size;
}

static void chmod_key(const char *name, mode_t mode)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", keydir, name);
	assert_int_equal(chmod(path, mode), 0);
}

/* An image header with f's wrap, as the module writes it. */
static void make_header(uint8_t *hdr, const struct wrap_fields *f)
{
	memset(hdr, 0, IMGHDR_PAGE);
	memcpy(hdr, IMGHDR_MAGIC, IMGHDR_MAGIC_LEN);
	hdr[IMGHDR_OFF_VERSION] = IMGHDR_VERSION;
	hdr[IMGHDR_OFF_ENCRYPTION] = f->encryption;
	hdr[IMGHDR_OFF_KEY_SCHEME] = f->key_scheme;
	memcpy(hdr + IMGHDR_OFF_IMAGE_ID, f->image_id, WRAP_ID_LEN);
	memcpy(hdr + IMGHDR_OFF_KEY_ID, f->key_id, WRAP_KEY_ID_LEN);
	memcpy(hdr + IMGHDR_OFF_EPH_PUB, f->eph_pub, WRAP_KEY_LEN);
	memcpy(hdr + IMGHDR_OFF_WRAPPED, f->wrapped_key, WRAP_WRAPPED_LEN);
}

static void test_setup_unlock(void **state)
{
	uint8_t *secret = sodium_malloc(WRAP_KEY_LEN);
	uint8_t *auth = sodium_malloc(WRAP_AUTH_LEN);
	uint8_t *file_auth = sodium_malloc(WRAP_AUTH_LEN);
	uint8_t pub[WRAP_KEY_LEN], check[WRAP_KEY_LEN];

	(void)state;
	assert_non_null(secret);
	assert_non_null(auth);
	assert_non_null(file_auth);
	set_pass("correct horse\nignored second line\n");
	assert_int_equal(keyfile_setup("k1", KDF_INSECURE_TEST, passfile, false), 0);
	assert_int_equal(mode_of(""), 0700);
	assert_int_equal(mode_of("k1.sec"), 0600);
	assert_int_equal(mode_of("k1.pub"), 0644);
	assert_int_equal(mode_of("k1.auth"), 0600);
	assert_int_equal(size_of("k1.sec"), KEYFILE_SEC_LEN);
	assert_int_equal(KEYFILE_SEC_LEN, 144);
	assert_int_equal(size_of("k1.pub"), WRAP_KEY_LEN);
	assert_int_equal(size_of("k1.auth"), WRAP_AUTH_LEN);
	assert_int_equal(keyfile_read_pub("k1", pub), 0);
	assert_int_equal(keyfile_read_auth("k1", file_auth), 0);
	assert_int_equal(keyfile_unlock("k1", "correct horse", secret, auth),
			 0);
	assert_int_equal(crypto_scalarmult_base(check, secret), 0);
	assert_memory_equal(check, pub, sizeof(pub));
	/* The .sec seals the same authentication key as the .auth. */
	assert_memory_equal(auth, file_auth, WRAP_AUTH_LEN);
	assert_int_equal(keyfile_unlock("k1", "correct hors", secret, auth),
			 -EKEYREJECTED);
	assert_int_equal(keyfile_unlock("k1", "", secret, auth),
			 -EKEYREJECTED);
	assert_int_equal(keyfile_unlock("nokey", "x", secret, auth), -ENOENT);
	assert_int_equal(keyfile_read_auth("nokey", file_auth), -ENOENT);

	/* A .auth group or others may read is refused. */
	chmod_key("k1.auth", 0640);
	assert_int_equal(keyfile_read_auth("k1", file_auth), -EPERM);
	chmod_key("k1.auth", 0604);
	assert_int_equal(keyfile_read_auth("k1", file_auth), -EPERM);
	chmod_key("k1.auth", 0600);
	assert_int_equal(keyfile_read_auth("k1", file_auth), 0);

	/*
	 * A header wrapped for k1's public key and authentication key opens
	 * with its secret and authentication key; with the public key alone
	 * (any other auth) the image cannot be forged.
	 */
	{
		struct wrap_fields f = { .encryption = 1,
					 .key_scheme = WRAP_SCHEME_X25519 };
		uint8_t key[WRAP_KEY_LEN], eph[WRAP_KEY_LEN], out[WRAP_KEY_LEN];
		uint8_t forged[WRAP_AUTH_LEN] = { 0 };
		uint8_t hdr[IMGHDR_PAGE];

		randombytes_buf(key, sizeof(key));
		randombytes_buf(eph, sizeof(eph));
		randombytes_buf(f.image_id, sizeof(f.image_id));
		assert_int_equal(wrap_seal(&f, key, eph, pub, file_auth, NULL),
				 0);
		make_header(hdr, &f);
		assert_int_equal(keyfile_unlock("k1", "correct horse", secret,
						auth), 0);
		assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), 0);
		assert_memory_equal(out, key, sizeof(key));
		/* One bit of auth off: does not open. */
		auth[5] ^= 1;
		assert_int_equal(keyfile_unwrap(hdr, secret, auth, out),
				 -EBADMSG);
		assert_int_equal(wrap_open(&f, secret, auth, out), -EBADMSG);
		auth[5] ^= 1;
		/* Sealed with the public key and a guessed auth: refused. */
		assert_int_equal(wrap_seal(&f, key, eph, pub, forged, NULL), 0);
		make_header(hdr, &f);
		assert_int_equal(keyfile_unwrap(hdr, secret, auth, out),
				 -EBADMSG);
		assert_int_equal(wrap_open(&f, secret, auth, out), -EBADMSG);
	}
	sodium_free(file_auth);
	sodium_free(auth);
	sodium_free(secret);
}

static void test_refusals(void **state)
{
	uint8_t pub[WRAP_KEY_LEN], pub2[WRAP_KEY_LEN];
	uint8_t *secret = sodium_malloc(WRAP_KEY_LEN);
	uint8_t *auth = sodium_malloc(WRAP_AUTH_LEN);
	uint8_t *auth2 = sodium_malloc(WRAP_AUTH_LEN);
	char path[256];

	(void)state;
	assert_non_null(secret);
	assert_non_null(auth);
	assert_non_null(auth2);
	set_pass("first\n");
	assert_int_equal(keyfile_setup("k2", KDF_INSECURE_TEST, passfile, false), 0);
	assert_int_equal(keyfile_read_pub("k2", pub), 0);
	/* An existing key stays without force. */
	set_pass("second\n");
	assert_int_equal(keyfile_setup("k2", KDF_INSECURE_TEST, passfile, false),
			 -EEXIST);
	assert_int_equal(keyfile_read_pub("k2", pub2), 0);
	assert_memory_equal(pub, pub2, sizeof(pub));
	assert_int_equal(keyfile_unlock("k2", "first", secret, auth), 0);
	/* With force it is a new key, the old passphrase gone. */
	assert_int_equal(keyfile_setup("k2", KDF_INSECURE_TEST, passfile, true), 0);
	assert_int_equal(keyfile_read_pub("k2", pub2), 0);
	assert_memory_not_equal(pub, pub2, sizeof(pub));
	assert_int_equal(keyfile_unlock("k2", "first", secret, auth2),
			 -EKEYREJECTED);
	assert_int_equal(keyfile_unlock("k2", "second", secret, auth2), 0);
	/* ... and a new authentication key. */
	assert_memory_not_equal(auth, auth2, WRAP_AUTH_LEN);
	/* A .auth alone left over still counts as the key existing. */
	snprintf(path, sizeof(path), "%s/k2.pub", keydir);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/k2.sec", keydir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(keyfile_setup("k2", KDF_INSECURE_TEST, passfile, false),
			 -EEXIST);
	/* A .auth of the wrong size is not one. */
	snprintf(path, sizeof(path), "%s/k2.auth", keydir);
	assert_int_equal(truncate(path, 31), 0);
	assert_int_equal(keyfile_read_auth("k2", auth), -EINVAL);
	/* Empty passphrase, empty file. */
	set_pass("\n");
	assert_int_equal(keyfile_setup("k3", KDF_INSECURE_TEST, passfile, false),
			 -EINVAL);
	set_pass("");
	assert_int_equal(keyfile_setup("k3", KDF_INSECURE_TEST, passfile, false),
			 -EINVAL);
	assert_int_equal(keyfile_read_pub("k3", pub), -ENOENT);
	assert_int_equal(keyfile_read_auth("k3", auth), -ENOENT);
	sodium_free(auth2);
	sodium_free(auth);
	sodium_free(secret);
}

static void key_path(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", keydir, name);
}

static void copy_key(const char *from, const char *to)
{
	char a[256], b[256], cmd[600];

	key_path(from, a, sizeof(a));
	key_path(to, b, sizeof(b));
	snprintf(cmd, sizeof(cmd), "cp -p %s %s", a, b);
	assert_int_equal(system(cmd), 0);
}

/*
 * A --setup-key --force cut short between its renames (.sec, .auth,
 * .pub) leaves a .sec of the new pair with the .pub of the old.  Mixed
 * the other way round here, which the same check tells: by the key id in
 * the .sec header, without a passphrase, not as a wrong one.
 */
static void test_pair(void **state)
{
	uint8_t *secret = sodium_malloc(WRAP_KEY_LEN);
	uint8_t *auth = sodium_malloc(WRAP_AUTH_LEN);
	uint8_t pub[WRAP_KEY_LEN], id[WRAP_KEY_ID_LEN];
	uint8_t sec_id[WRAP_KEY_ID_LEN], pub_id[WRAP_KEY_ID_LEN];
	uint8_t sec[KEYFILE_SEC_LEN];
	char path[256];
	FILE *f;

	(void)state;
	assert_non_null(secret);
	assert_non_null(auth);
	set_pass("old\n");
	assert_int_equal(keyfile_setup("k5", KDF_INSECURE_TEST, passfile, false), 0);
	/* The layout: version 2, the key id of the .pub after the cost. */
	assert_int_equal(keyfile_read_pub("k5", pub), 0);
	wrap_key_id(pub, id);
	key_path("k5.sec", path, sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(sec, 1, sizeof(sec), f), sizeof(sec));
	fclose(f);
	assert_memory_equal(sec, "S2SK\2\0\0\0", 8);
	assert_memory_equal(sec + 16, id, sizeof(id));
	assert_int_equal(keyfile_check_pair("k5", sec_id, pub_id), 0);
	assert_memory_equal(sec_id, id, sizeof(id));
	assert_memory_equal(pub_id, id, sizeof(id));

	copy_key("k5.sec", "old.sec");
	set_pass("new\n");
	assert_int_equal(keyfile_setup("k5", KDF_INSECURE_TEST, passfile, true), 0);
	copy_key("old.sec", "k5.sec");
	assert_int_equal(keyfile_check_pair("k5", sec_id, pub_id), -ESTALE);
	assert_memory_equal(sec_id, id, sizeof(id));
	assert_memory_not_equal(pub_id, id, sizeof(id));
	/* Neither passphrase: the files, not the passphrase, are wrong. */
	assert_int_equal(keyfile_unlock("k5", "old", secret, auth), -ESTALE);
	assert_int_equal(keyfile_unlock("k5", "new", secret, auth), -ESTALE);

	/* A key id edited to match: the seal's associated data says no. */
	key_path("k5.sec", path, sizeof(path));
	f = fopen(path, "r+");
	assert_non_null(f);
	assert_int_equal(fseek(f, 16, SEEK_SET), 0);
	assert_int_equal(fwrite(pub_id, 1, sizeof(pub_id), f),
			 sizeof(pub_id));
	fclose(f);
	assert_int_equal(keyfile_check_pair("k5", NULL, NULL), 0);
	assert_int_equal(keyfile_unlock("k5", "old", secret, auth),
			 -EKEYREJECTED);
	/* Another version, or a missing .sec. */
	sec[4] = 1;
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(sec, 1, sizeof(sec), f), sizeof(sec));
	fclose(f);
	assert_int_equal(keyfile_check_pair("k5", NULL, NULL), -EINVAL);
	assert_int_equal(truncate(path, 136), 0);
	assert_int_equal(keyfile_check_pair("k5", NULL, NULL), -EINVAL);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(keyfile_check_pair("k5", NULL, NULL), -ENOENT);
	sodium_free(auth);
	sodium_free(secret);
}

/* The passphrase file open to others: refused, nothing made. */
static void test_passfile_mode(void **state)
{
	char pub[256];

	(void)state;
	set_pass("open\n");
	key_path("k9.pub", pub, sizeof(pub));
	assert_int_equal(chmod(passfile, 0644), 0);
	assert_int_equal(keyfile_setup("k9", KDF_INSECURE_TEST, passfile, false),
			 -EPERM);
	assert_int_equal(access(pub, F_OK), -1);
	assert_int_equal(chmod(passfile, 0620), 0);
	assert_int_equal(keyfile_setup("k9", KDF_INSECURE_TEST, passfile, false),
			 -EPERM);
	assert_int_equal(chmod(passfile, 0600), 0);
	assert_int_equal(keyfile_setup("k9", KDF_INSECURE_TEST, passfile, false), 0);
	assert_int_equal(access(pub, F_OK), 0);
}

/* keytrust_files() on NAME's files: want, and why naming path. */
static void check_trust(const char *name, int want, const char *path,
			const char *text)
{
	char why[1024];

	assert_int_equal(keytrust_files(name, why, sizeof(why)), want);
	if (!want)
		return;
	assert_non_null(strstr(why, path));
	assert_non_null(strstr(why, text));
}

static void test_trust(void **state)
{
	char pub[256], sec[256], auth[256], real[sizeof(keydir) + 8];
	char away[sizeof(base) + 16];

	(void)state;
	set_pass("trust\n");
	assert_int_equal(keyfile_setup("k6", KDF_INSECURE_TEST, passfile, false), 0);
	key_path("k6.pub", pub, sizeof(pub));
	key_path("k6.sec", sec, sizeof(sec));
	key_path("k6.auth", auth, sizeof(auth));
	check_trust("k6", 0, NULL, NULL);
	/* Whoever may write the .pub chooses the key images are for. */
	assert_int_equal(chmod(pub, 0664), 0);
	check_trust("k6", -EPERM, pub, "mode 0664 (writable by its group)");
	assert_int_equal(chmod(pub, 0644), 0);
	assert_int_equal(chmod(keydir, 0703), 0);
	check_trust("k6", -EPERM, keydir, "(writable by others)");
	assert_int_equal(chmod(keydir, 0700), 0);
	/* The secrets: open to root alone. */
	assert_int_equal(chmod(sec, 0644), 0);
	check_trust("k6", -EPERM, sec, "mode 0644 (open to group and others)");
	assert_int_equal(chmod(sec, 0600), 0);
	assert_int_equal(chmod(auth, 0640), 0);
	check_trust("k6", -EPERM, auth, "chmod 600");
	assert_int_equal(chmod(auth, 0600), 0);
	/* Owned by someone else: theirs to change (root only can chown). */
	if (geteuid() == 0) {
		assert_int_equal(chown(pub, 65534, 0), 0);
		check_trust("k6", -EPERM, pub, "owned by uid 65534");
		assert_int_equal(chown(pub, 0, 0), 0);
		assert_int_equal(chown(sec, 65534, 0), 0);
		check_trust("k6", -EPERM, sec, "chown root");
		assert_int_equal(chown(sec, 0, 0), 0);
		assert_int_equal(chown(keydir, 65534, 0), 0);
		check_trust("k6", -EPERM, keydir, "owned by uid 65534");
		assert_int_equal(chown(keydir, 0, 0), 0);
		/* So is a directory above the key directory. */
		assert_int_equal(chown(base, 65534, 0), 0);
		check_trust("k6", -EPERM, base, "owned by uid 65534");
		assert_int_equal(chown(base, 0, 0), 0);
	}
	/*
	 * A directory above the key directory others may write: they could
	 * put a key directory of their own in its place.  Sticky or not.
	 */
	assert_int_equal(chmod(base, 0777), 0);
	check_trust("k6", -EPERM, base, "a directory above it is not root's");
	assert_int_equal(chmod(base, 01777), 0);
	check_trust("k6", -EPERM, base, "sticky as /tmp is");
	assert_int_equal(chmod(base, 0700), 0);
	check_trust("k6", 0, NULL, NULL);
	/* A link in a key file's place: not a key file. */
	snprintf(away, sizeof(away), "%s/k6.away", base);
	assert_int_equal(rename(pub, away), 0);
	assert_int_equal(symlink(away, pub), 0);
	check_trust("k6", -EPERM, pub, "not a regular file");
	assert_int_equal(unlink(pub), 0);
	assert_int_equal(rename(away, pub), 0);
	/* A missing file is for its reader to report. */
	assert_int_equal(rename(auth, away), 0);
	check_trust("k6", 0, NULL, NULL);
	assert_int_equal(rename(away, auth), 0);
	check_trust("k6", 0, NULL, NULL);
	/*
	 * The key directory a symbolic link (to a directory root's alone
	 * as it is): refused, as --setup-key refuses it, whatever it names.
	 */
	snprintf(real, sizeof(real), "%s.real", keydir);
	assert_int_equal(rename(keydir, real), 0);
	assert_int_equal(symlink(real, keydir), 0);
	check_trust("k6", -EPERM, keydir, "is a symbolic link");
	assert_int_equal(unlink(keydir), 0);
	assert_int_equal(rename(real, keydir), 0);
	check_trust("k6", 0, NULL, NULL);
}

/*
 * The initramfs (under HIBERNATE_SYSROOT) at mtime KEY's status change
 * time + delta.
 */
static void set_initramfs(const char *sysroot, const char *fmt,
			  const char *key, int delta)
{
	char dir[256], img[512], rel[256];
	struct timespec t[2];
	struct utsname u;
	struct stat st;
	FILE *f;

	assert_int_equal(uname(&u), 0);
	snprintf(dir, sizeof(dir), "%s/boot", sysroot);
	mkdir(dir, 0755);
	snprintf(rel, sizeof(rel), fmt, u.release);
	snprintf(img, sizeof(img), "%s%s", sysroot, rel);
	f = fopen(img, "w");
	assert_non_null(f);
	fclose(f);
	key_path(key, rel, sizeof(rel));
	assert_int_equal(stat(rel, &st), 0);
	t[0] = st.st_ctim;
	t[1] = st.st_ctim;
	t[1].tv_sec += delta;
	assert_int_equal(utimensat(AT_FDCWD, img, t, 0), 0);
}

/* chmod KEY to its own mode until its status change time moves on. */
static void touch_status(const char *key)
{
	struct stat before, st;
	char path[256];
	int i;

	key_path(key, path, sizeof(path));
	assert_int_equal(stat(path, &before), 0);
	for (i = 0; i < 2000; i++) {
		assert_int_equal(chmod(path, before.st_mode & 07777), 0);
		assert_int_equal(stat(path, &st), 0);
		if (st.st_ctim.tv_sec != before.st_ctim.tv_sec ||
		    st.st_ctim.tv_nsec != before.st_ctim.tv_nsec)
			return;
		usleep(1000);
	}
	fail_msg("the status change time of %s does not move", path);
}

static void test_initramfs(void **state)
{
	char sysroot[] = "/tmp/test_keyfile_root.XXXXXX", why[1024], cmd[128];
	struct utsname u;

	(void)state;
	assert_non_null(mkdtemp(sysroot));
	setenv("HIBERNATE_SYSROOT", sysroot, 1);
	set_pass("initramfs\n");
	assert_int_equal(keyfile_setup("k7", KDF_INSECURE_TEST, passfile, false), 0);
	/* No initramfs: nothing to say. */
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), 0);
	set_initramfs(sysroot, "/boot/initrd.img-%s", "k7.pub", -60);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), -ESTALE);
	assert_non_null(strstr(why, "/boot/initrd.img-"));
	assert_non_null(strstr(why, "is older than"));
	assert_non_null(strstr(why, "k7.pub"));
	/* The running kernel's, not the newest installed kernel's. */
	assert_int_equal(uname(&u), 0);
	snprintf(cmd, sizeof(cmd), "run update-initramfs -u -k %s (or dracut -f) first",
		 u.release);
	assert_non_null(strstr(why, cmd));
	/* Rebuilt after the key: fine; at the same instant, not older. */
	set_initramfs(sysroot, "/boot/initrd.img-%s", "k7.sec", 60);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), 0);
	/* The .pub is renamed last, its .tmp written last: the newer. */
	set_initramfs(sysroot, "/boot/initrd.img-%s", "k7.pub", 0);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), 0);
	/*
	 * A chmod after the initramfs was built (its copy has the old
	 * mode) changes no contents, yet makes the initramfs stale.
	 */
	touch_status("k7.sec");
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), -ESTALE);
	assert_non_null(strstr(why, "k7.sec (changed "));
	set_initramfs(sysroot, "/boot/initrd.img-%s", "k7.sec", 0);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), 0);
	/* dracut's name, when initramfs-tools' is not there. */
	snprintf(cmd, sizeof(cmd), "rm -f %s/boot/initrd.img-*", sysroot);
	assert_int_equal(system(cmd), 0);
	set_initramfs(sysroot, "/boot/initramfs-%s.img", "k7.sec", -1);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), -ESTALE);
	assert_non_null(strstr(why, "/boot/initramfs-"));
	/* Both: the newer counts, whichever name it has. */
	set_initramfs(sysroot, "/boot/initrd.img-%s", "k7.sec", 60);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), 0);
	set_initramfs(sysroot, "/boot/initrd.img-%s", "k7.sec", -2);
	set_initramfs(sysroot, "/boot/initramfs-%s.img", "k7.sec", 60);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), 0);
	set_initramfs(sysroot, "/boot/initramfs-%s.img", "k7.sec", -1);
	assert_int_equal(keytrust_initramfs("k7", why, sizeof(why)), -ESTALE);
	assert_non_null(strstr(why, "/boot/initramfs-"));
	unsetenv("HIBERNATE_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", sysroot);
	assert_int_equal(system(cmd), 0);
}

static bool tmp_left(const char *name, const char *ext)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s%s.tmp", keydir, name, ext);
	return access(path, F_OK) == 0;
}

/*
 * A write or a rename that fails leaves no .tmp file behind (one would
 * hold the raw authentication key).
 */
static void test_tmp_cleanup(void **state)
{
	char path[256];

	(void)state;
	set_pass("tmp\n");
	/* Some key first: the key directory is made. */
	assert_int_equal(keyfile_setup("k8", KDF_INSECURE_TEST, passfile, false), 0);
	/* NAME.pub.tmp cannot be made: a directory has its name. */
	snprintf(path, sizeof(path), "%s/k9.pub.tmp", keydir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(keyfile_setup("k9", KDF_INSECURE_TEST, passfile, false),
			 -EEXIST);
	assert_false(tmp_left("k9", ".sec"));
	assert_false(tmp_left("k9", ".auth"));
	assert_int_equal(rmdir(path), 0);
	/* The second rename fails: NAME.auth is a directory, not empty. */
	snprintf(path, sizeof(path), "%s/k8.auth", keydir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/k8.auth/x", keydir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_not_equal(keyfile_setup("k8", KDF_INSECURE_TEST, passfile, true), 0);
	assert_false(tmp_left("k8", ".sec"));
	assert_false(tmp_left("k8", ".auth"));
	assert_false(tmp_left("k8", ".pub"));
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/k8.auth", keydir);
	assert_int_equal(rmdir(path), 0);
}

/*
 * hib_info(), wrapped: whether the signals that would cut --setup-key
 * short were held back when it said the key was made.
 */
static int info_calls, info_held;

void __wrap_hib_info(const char *fmt, ...);
void __wrap_hib_info(const char *fmt, ...)
{
	sigset_t now;
	va_list ap;

	info_calls++;
	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &now), 0);
	if (sigismember(&now, SIGINT) && sigismember(&now, SIGTERM) &&
	    sigismember(&now, SIGHUP) && sigismember(&now, SIGTSTP))
		info_held++;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Held from the first rename until the directory is synced and both
 * messages (the key made, the initramfs to rebuild) are out; not after.
 */
static void test_signals_held(void **state)
{
	sigset_t now;

	(void)state;
	set_pass("held\n");
	info_calls = info_held = 0;
	assert_int_equal(keyfile_setup("k10", KDF_INSECURE_TEST, passfile, false), 0);
	assert_int_equal(info_calls, 2);
	assert_int_equal(info_held, 2);
	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &now), 0);
	assert_false(sigismember(&now, SIGINT));
	assert_false(sigismember(&now, SIGTSTP));
}

/* One "name = hex" line of the vector into buf. */
static void vec(const char *name, uint8_t *buf, size_t len)
{
	char line[512], hex[256];
	size_t bin_len;
	FILE *f = fopen(VECTOR, "r");
	bool found = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char key[64];

		if (sscanf(line, "%63s = %255s", key, hex) != 2 ||
		    strcmp(key, name))
			continue;
		assert_int_equal(sodium_hex2bin(buf, len, hex, strlen(hex),
						NULL, &bin_len, NULL), 0);
		assert_int_equal(bin_len, len);
		found = true;
	}
	fclose(f);
	if (!found)
		fail_msg("%s: no line %s", VECTOR, name);
}

static void test_vector(void **state)
{
	uint8_t secret[32], pub[32], eph[32], eph_pub[32], key[32], id[16];
	uint8_t enc[4], scheme[4], key_id[8], wrapped[48], out[32], kid[8];
	uint8_t auth[32], hdr[IMGHDR_PAGE];

	(void)state;
	vec("recipient_secret", secret, sizeof(secret));
	vec("recipient_public", pub, sizeof(pub));
	vec("eph_secret", eph, sizeof(eph));
	vec("eph_pub", eph_pub, sizeof(eph_pub));
	vec("image_key", key, sizeof(key));
	vec("image_id", id, sizeof(id));
	vec("auth", auth, sizeof(auth));
	vec("encryption", enc, sizeof(enc));
	vec("key_scheme", scheme, sizeof(scheme));
	vec("key_id", key_id, sizeof(key_id));
	vec("wrapped_key", wrapped, sizeof(wrapped));
	assert_int_equal(crypto_scalarmult_base(out, secret), 0);
	assert_memory_equal(out, pub, sizeof(pub));
	wrap_key_id(pub, kid);
	assert_memory_equal(kid, key_id, sizeof(kid));

	/* The header as the module writes it. */
	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, IMGHDR_MAGIC, IMGHDR_MAGIC_LEN);
	hdr[IMGHDR_OFF_VERSION] = IMGHDR_VERSION;
	memcpy(hdr + IMGHDR_OFF_ENCRYPTION, enc, 4);
	memcpy(hdr + IMGHDR_OFF_KEY_SCHEME, scheme, 4);
	memcpy(hdr + IMGHDR_OFF_IMAGE_ID, id, sizeof(id));
	memcpy(hdr + IMGHDR_OFF_KEY_ID, key_id, sizeof(key_id));
	memcpy(hdr + IMGHDR_OFF_EPH_PUB, eph_pub, sizeof(eph_pub));
	memcpy(hdr + IMGHDR_OFF_WRAPPED, wrapped, sizeof(wrapped));
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), 0);
	assert_memory_equal(out, key, sizeof(key));

	/* Each field the wrap binds, changed, makes it fail. */
	hdr[IMGHDR_OFF_IMAGE_ID + 3] ^= 1;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EBADMSG);
	hdr[IMGHDR_OFF_IMAGE_ID + 3] ^= 1;
	hdr[IMGHDR_OFF_KEY_ID] ^= 0x80;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EBADMSG);
	hdr[IMGHDR_OFF_KEY_ID] ^= 0x80;
	hdr[IMGHDR_OFF_ENCRYPTION] = 1;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EBADMSG);
	hdr[IMGHDR_OFF_ENCRYPTION] = enc[0];
	hdr[IMGHDR_OFF_WRAPPED + 47] ^= 1;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EBADMSG);
	hdr[IMGHDR_OFF_WRAPPED + 47] ^= 1;
	assert_int_equal(keyfile_unwrap(hdr, eph, auth, out), -EBADMSG);
	/* The right secret with another authentication key: refused. */
	auth[31] ^= 0x40;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EBADMSG);
	auth[31] ^= 0x40;
	/* An unencrypted header has nothing to unwrap. */
	hdr[IMGHDR_OFF_ENCRYPTION] = 0;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EINVAL);
	hdr[IMGHDR_OFF_ENCRYPTION] = enc[0];
	/*
	 * A key sealed to the TPM (the module's to unseal), or a scheme
	 * this version does not know, however large: nothing is unwrapped.
	 */
	hdr[IMGHDR_OFF_KEY_SCHEME] = WRAP_SCHEME_TPM;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EINVAL);
	memset(hdr + IMGHDR_OFF_KEY_SCHEME, 0xff, 4);
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EINVAL);
	memcpy(hdr + IMGHDR_OFF_KEY_SCHEME, scheme, 4);
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), 0);
	hdr[IMGHDR_OFF_VERSION] = 1;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), -EPROTO);
	hdr[IMGHDR_OFF_VERSION] = IMGHDR_VERSION;
	assert_int_equal(keyfile_unwrap(hdr, secret, auth, out), 0);
}

/* The wrap the vector came from gives its bytes again. */
static void test_wrap_seal(void **state)
{
	uint8_t secret[32], pub[32], eph[32], key[32], kek[32], want[48];
	struct wrap_fields f = { .key_scheme = WRAP_SCHEME_X25519 };
	uint8_t enc[4], auth[32], out[32], zero[32] = { 0 };

	(void)state;
	vec("recipient_secret", secret, sizeof(secret));
	vec("recipient_public", pub, sizeof(pub));
	vec("eph_secret", eph, sizeof(eph));
	vec("image_key", key, sizeof(key));
	vec("image_id", f.image_id, sizeof(f.image_id));
	vec("encryption", enc, sizeof(enc));
	vec("auth", auth, sizeof(auth));
	f.encryption = enc[0];
	assert_int_equal(wrap_seal(&f, key, eph, pub, auth, kek), 0);
	vec("kek", want, 32);
	assert_memory_equal(kek, want, 32);
	vec("wrapped_key", want, 48);
	assert_memory_equal(f.wrapped_key, want, 48);
	assert_int_equal(wrap_open(&f, secret, auth, out), 0);
	assert_memory_equal(out, key, sizeof(key));
	/* A wrong authentication key does not open it. */
	assert_int_equal(wrap_open(&f, secret, zero, out), -EBADMSG);
	/* Another authentication key gives another kek. */
	assert_int_equal(wrap_seal(&f, key, eph, pub, zero, out), 0);
	vec("kek", want, 32);
	assert_memory_not_equal(out, want, 32);
	/* A low-order public key gives a zero shared secret: refused. */
	assert_int_equal(wrap_seal(&f, key, eph, zero, auth, NULL), -EINVAL);
}

/* RFC 5869, test case 1. */
static void test_hkdf(void **state)
{
	uint8_t ikm[22], salt[13], info[10], okm[42], want[42];
	size_t i, len;

	(void)state;
	memset(ikm, 0x0b, sizeof(ikm));
	for (i = 0; i < sizeof(salt); i++)
		salt[i] = i;
	for (i = 0; i < sizeof(info); i++)
		info[i] = 0xf0 + i;
	sodium_hex2bin(want, sizeof(want),
		       "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db0"
		       "2d56ecc4c5bf34007208d5b887185865", 84, NULL, &len,
		       NULL);
	assert_int_equal(len, sizeof(want));
	assert_int_equal(hkdf_sha256(salt, sizeof(salt), ikm, sizeof(ikm),
				     info, sizeof(info), okm, sizeof(okm)), 0);
	assert_memory_equal(okm, want, sizeof(want));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_unlock),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_trust),
		cmocka_unit_test(test_passfile_mode),
		cmocka_unit_test(test_initramfs),
		cmocka_unit_test(test_tmp_cleanup),
		cmocka_unit_test(test_signals_held),
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_wrap_seal),
		cmocka_unit_test(test_hkdf),
	};

	return cmocka_run_group_tests_name("keyfile", tests, setup, teardown);
}
