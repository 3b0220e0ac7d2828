// SPDX-License-Identifier: GPL-2.0
/*
 * The key pair and the authentication key an encrypted image is wrapped
 * for (keyfile.h): made by hibernate --setup-key, unlocked with the
 * passphrase at resume.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "check/imghdr.h"
#include "keys/askpass.h"
#include "keys/keyfile.h"
#include "lib/common.h"
#include "lib/perm.h"
#include "lib/sysroot.h"
#include "system/initramfs.h"

#define KEYFILE_OPS_MODERATE	3
#define KEYFILE_MEM_MODERATE	(128 * 1024)	/* KiB */
#define KEYFILE_OPS_MAX		16
#define KEYFILE_MEM_MAX		(1024 * 1024)	/* KiB: 1 GiB */

const char *keyfile_dir(char *buf, size_t len)
{
	const char *d = getenv("HIBERNATE_KEYDIR");

	if (!d || !*d)
		d = hib_path(KEYFILE_DIR, buf, len);
	/* Always in buf: callers keep it as theirs. */
	if (d != buf)
		snprintf(buf, len, "%s", d);
	return buf;
}

int keyfile_path(const char *name, const char *ext, char *buf, size_t len)
{
	char dir[PATH_MAX];
	int n = snprintf(buf, len, "%s/%s%s",
			 keyfile_dir(dir, sizeof(dir)), name, ext);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void keyfile_hex(const uint8_t *p, size_t len, char *out)
{
	sodium_bin2hex(out, 2 * len + 1, p, len);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The sealing key of a .sec head: Argon2id of the passphrase. */
static int derive(const uint8_t *head, const char *pass, uint8_t *kek)
{
	unsigned long long ops = get_le32(head + 8);
	size_t mem = (size_t)get_le32(head + 12) * 1024;

	/*
	 * The cost comes from the file: bounded, so an edited one cannot
	 * make the unlock hang or exhaust memory in the initramfs.
	 */
	if (ops < crypto_pwhash_argon2id_OPSLIMIT_MIN ||
	    mem < crypto_pwhash_argon2id_MEMLIMIT_MIN ||
	    ops > KEYFILE_OPS_MAX || get_le32(head + 12) > KEYFILE_MEM_MAX)
		return -EINVAL;
	if (crypto_pwhash(kek, WRAP_KEY_LEN, pass, strlen(pass),
			  head + KEYFILE_OFF_SALT, ops, mem,
			  crypto_pwhash_ALG_ARGON2ID13))
		return -ENOMEM;
	return 0;
}

/* The associated data of the seal: the head, then the public key. */
static void seal_ad(const uint8_t *head, const uint8_t *pub, uint8_t *ad)
{
	memcpy(ad, head, KEYFILE_HEAD_LEN);
	memcpy(ad + KEYFILE_HEAD_LEN, pub, WRAP_KEY_LEN);
}

/*
 * plain, the secret key then the authentication key (KEYFILE_SEALED_LEN
 * bytes), sealed into sec (KEYFILE_SEC_LEN bytes) with the passphrase.
 */
static int seal(const uint8_t *plain, const uint8_t *pub, const char *pass,
		enum keyfile_kdf kdf, uint8_t *sec)
{
	uint8_t ad[KEYFILE_HEAD_LEN + WRAP_KEY_LEN];
	unsigned long long clen;
	uint8_t *kek;
	int ret;

	memcpy(sec, KEYFILE_MAGIC, 4);
	put_le32(sec + 4, KEYFILE_VERSION);
	put_le32(sec + 8, kdf == KDF_INSECURE_TEST ?
		 crypto_pwhash_argon2id_OPSLIMIT_MIN : KEYFILE_OPS_MODERATE);
	put_le32(sec + 12, kdf == KDF_INSECURE_TEST ?
		 crypto_pwhash_argon2id_MEMLIMIT_MIN / 1024 :
		 KEYFILE_MEM_MODERATE);
	wrap_key_id(pub, sec + KEYFILE_OFF_KEY_ID);
	randombytes_buf(sec + KEYFILE_OFF_SALT, KEYFILE_SALT_LEN);
	randombytes_buf(sec + KEYFILE_OFF_NONCE, KEYFILE_NONCE_LEN);
	kek = sodium_malloc(WRAP_KEY_LEN);
	if (!kek)
		return -ENOMEM;
	ret = derive(sec, pass, kek);
	if (!ret) {
		seal_ad(sec, pub, ad);
		crypto_aead_xchacha20poly1305_ietf_encrypt(
			sec + KEYFILE_HEAD_LEN, &clen, plain,
			KEYFILE_SEALED_LEN, ad, sizeof(ad), NULL,
			sec + KEYFILE_OFF_NONCE, kek);
	}
	sodium_free(kek);
	return ret;
}

/*
 * Exactly len bytes of a regular file, no more; private: only root (or
 * the user running hibernate) may own it, and no one else touch it.
 */
static int read_file(const char *path, uint8_t *buf, size_t len,
		     bool private)
{
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	/* Non-blocking: a FIFO in its place must not hang the boot. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if (!S_ISREG(st.st_mode) || st.st_size != (off_t)len) {
		ret = -EINVAL;
	} else if (private && ((st.st_mode & 077) ||
			       (st.st_uid && st.st_uid != geteuid()))) {
		ret = -EPERM;
	} else {
		n = read(fd, buf, len);
		if (n < 0)
			ret = -errno;
		else if ((size_t)n != len)
			ret = -EINVAL;
	}
	if (ret)
		sodium_memzero(buf, len);
	close(fd);
	return ret;
}

int keyfile_read_pub(const char *name, uint8_t *pub)
{
	char path[PATH_MAX];
	int ret = keyfile_path(name, ".pub", path, sizeof(path));

	return ret ? ret : read_file(path, pub, WRAP_KEY_LEN, false);
}

int keyfile_read_auth(const char *name, uint8_t *auth)
{
	char path[PATH_MAX];
	int ret = keyfile_path(name, ".auth", path, sizeof(path));

	return ret ? ret : read_file(path, auth, WRAP_AUTH_LEN, true);
}

/*
 * NAME.pub and NAME.sec, the latter's header checked: this version's,
 * and of the public key's pair by its key id.  0, -ESTALE, -EINVAL or
 * -errno as keyfile_check_pair().
 */
static int read_pair(const char *name, uint8_t *pub, uint8_t *sec,
		     uint8_t *sec_id, uint8_t *pub_id)
{
	uint8_t id[WRAP_KEY_ID_LEN];
	char path[PATH_MAX];
	int ret;

	ret = keyfile_read_pub(name, pub);
	if (!ret)
		ret = keyfile_path(name, ".sec", path, sizeof(path));
	if (!ret)
		ret = read_file(path, sec, KEYFILE_SEC_LEN, false);
	if (ret)
		return ret;
	if (memcmp(sec, KEYFILE_MAGIC, 4) ||
	    get_le32(sec + 4) != KEYFILE_VERSION)
		return -EINVAL;
	wrap_key_id(pub, id);
	if (sec_id)
		memcpy(sec_id, sec + KEYFILE_OFF_KEY_ID, WRAP_KEY_ID_LEN);
	if (pub_id)
		memcpy(pub_id, id, WRAP_KEY_ID_LEN);
	return memcmp(id, sec + KEYFILE_OFF_KEY_ID, sizeof(id)) ? -ESTALE : 0;
}

int keyfile_check_pair(const char *name, uint8_t *sec_id, uint8_t *pub_id)
{
	uint8_t sec[KEYFILE_SEC_LEN], pub[WRAP_KEY_LEN];

	return read_pair(name, pub, sec, sec_id, pub_id);
}

int keyfile_unlock(const char *name, const char *passphrase, uint8_t *secret,
		   uint8_t *auth)
{
	uint8_t sec[KEYFILE_SEC_LEN], pub[WRAP_KEY_LEN], check[WRAP_KEY_LEN];
	uint8_t ad[KEYFILE_HEAD_LEN + WRAP_KEY_LEN];
	unsigned long long mlen;
	uint8_t *kek, *plain;
	int ret;

	/* Files of two key pairs: no passphrase could open them. */
	ret = read_pair(name, pub, sec, NULL, NULL);
	if (ret)
		return ret;
	kek = sodium_malloc(WRAP_KEY_LEN + KEYFILE_SEALED_LEN);
	if (!kek)
		return -ENOMEM;
	plain = kek + WRAP_KEY_LEN;
	ret = derive(sec, passphrase, kek);
	if (!ret) {
		seal_ad(sec, pub, ad);
		if (crypto_aead_xchacha20poly1305_ietf_decrypt(
			    plain, &mlen, NULL, sec + KEYFILE_HEAD_LEN,
			    KEYFILE_SEALED_LEN + WRAP_TAG_LEN, ad, sizeof(ad),
			    sec + KEYFILE_OFF_NONCE, kek))
			ret = -EKEYREJECTED;
	}
	if (!ret) {
		memcpy(secret, plain, WRAP_KEY_LEN);
		memcpy(auth, plain + WRAP_KEY_LEN, WRAP_AUTH_LEN);
	}
	sodium_free(kek);
	/* The secret must be the public key's: else the files were mixed. */
	if (!ret && (crypto_scalarmult_base(check, secret) ||
		     sodium_memcmp(check, pub, sizeof(pub))))
		ret = -EINVAL;
	if (ret) {
		sodium_memzero(secret, WRAP_KEY_LEN);
		sodium_memzero(auth, WRAP_AUTH_LEN);
	}
	return ret;
}

int keyfile_unwrap(const uint8_t *header, const uint8_t *secret,
		   const uint8_t *auth, uint8_t *key)
{
	struct img_header h;
	int ret = imghdr_parse(header, IMGHDR_PAGE, &h);

	if (ret)
		return ret;
	if (h.w.encryption == IMGHDR_ENC_NONE ||
	    h.w.key_scheme != WRAP_SCHEME_X25519)
		return -EINVAL;
	return wrap_open(&h.w, secret, auth, key);
}

/*
 * Every directory above the key directory must be root's alone too:
 * whoever may rename or replace one of them puts a key directory of
 * their own in its place.  Judged as OpenSSH judges the directories
 * above authorized_keys (safe_path()): owned by root (or the user
 * running hibernate) and writable by neither group nor others, a
 * sticky one such as /tmp included (perm_path_strict()), along the path
 * as written and as it resolves.  Those not there yet are skipped:
 * make_dir() makes them, root's, in one no one else may write, so none
 * can be put in their place meanwhile.
 */
int keyfile_parents_trusted(const char *dir, char *why, size_t len)
{
	char parent[PATH_MAX], what[2 * PATH_MAX + 256], *slash;
	struct stat st;
	int ret;

	snprintf(parent, sizeof(parent), "%s", dir);
	for (;;) {
		slash = strrchr(parent, '/');
		/* A relative one: the working directory, by its name. */
		if (!slash && !getcwd(parent, sizeof(parent)))
			snprintf(parent, sizeof(parent), ".");
		if (!slash)
			break;
		if (slash == parent)
			parent[1] = '\0';
		else
			*slash = '\0';
		if (!lstat(parent, &st) || errno != ENOENT ||
		    !strcmp(parent, "/") || !strcmp(parent, "."))
			break;
	}
	ret = perm_path_strict(parent, what, sizeof(what));
	if (!ret)
		return 0;
	snprintf(why, len, "key directory %s: %s: %s", dir,
		 ret == -EPERM ? "a directory above it is not root's alone" :
		 "cannot check the directories above it", what);
	return -EPERM;
}

/*
 * An existing key directory may hold keys only if it is a directory (not
 * a symbolic link, which could lead to /tmp or /etc), owned by root (or
 * the user running hibernate) and writable by no one else, under
 * directories alike (keyfile_parents_trusted()): one that others could
 * write, or that they own, they could fill with keys of their own.
 * Never chmod'ed into shape.  0, -ENOENT when there is none yet (its
 * parents checked all the same), or -EPERM with why.
 */
static int dir_trusted(const char *dir, char *why, size_t len)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;
	int ret;

	if (lstat(dir, &st)) {
		ret = -errno;
		if (ret == -ENOENT && keyfile_parents_trusted(dir, why, len))
			return -EPERM;
		return ret;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlink(dir, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		snprintf(why, len,
			 "key directory %s is a symbolic link (to %s); it must be a directory of root's alone: remove the link and run --setup-key again",
			 dir, n > 0 ? target : "?");
		return -EPERM;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "key directory %s is not a directory", dir);
		return -EPERM;
	}
	if (perm_owner_mode(dir, st.st_uid, st.st_mode, why, len))
		return -EPERM;
	return keyfile_parents_trusted(dir, why, len);
}

/*
 * mkdir DIR (and its parent) if missing; DIR ends up 0700, changed
 * through a descriptor of the directory itself, never through a link.
 */
static int make_dir(const char *dir)
{
	char parent[PATH_MAX], *slash;
	struct stat st;
	int fd, ret = 0;

	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		if (mkdir(parent, 0755) && errno != EEXIST)
			return -errno;
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &st) || fchmod(fd, 0700))
		ret = -errno;
	else if (st.st_uid && st.st_uid != geteuid())
		ret = -EPERM;
	close(fd);
	return ret;
}

/* PATH.tmp written, synced and left for the rename. */
static int write_tmp(const char *path, const void *buf, size_t len,
		     mode_t mode)
{
	char tmp[PATH_MAX + 8];
	int fd, ret = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp);	/* left by an earlier run cut short */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  mode);
	if (fd < 0)
		return -errno;
	errno = 0;
	if (fchmod(fd, mode) || write(fd, buf, len) != (ssize_t)len ||
	    fsync(fd))
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int commit_tmp(const char *path)
{
	char tmp[PATH_MAX + 8];

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	return rename(tmp, path) ? -errno : 0;
}

/* PATH.tmp removed: one of them holds the raw authentication key. */
static void drop_tmp(const char *path)
{
	char tmp[PATH_MAX + 8];

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp);
}

/*
 * The three renames that replace a key.  Everything slow (the passphrase
 * hash, writing and syncing the three .tmp files) is done before the
 * first, so an interruption then leaves the old set whole.  Three
 * renames still cannot be one atomic step (a crash may land between
 * them), so the order makes every mixed set detectable without the
 * passphrase: .auth has nothing to check it against, so it goes between
 * .sec and .pub, and any set cut short then has a .sec and a .pub of
 * different key pairs, which the key id in the .sec tells
 * (keyfile_check_pair()).
 */
static int commit_three(const char *sec_path, const char *auth_path,
			const char *pub_path)
{
	int ret;

	ret = commit_tmp(sec_path);
	if (!ret)
		ret = commit_tmp(auth_path);
	if (!ret)
		ret = commit_tmp(pub_path);
	return ret;
}

/*
 * Ctrl-C, Ctrl-Z, SIGTERM, a hangup held back from the first rename
 * until the directory is synced and the outcome said: a key replaced
 * without the message that the initramfs must be rebuilt is an image
 * lost at the next resume.  The old mask into old.
 */
static void hold_signals(sigset_t *old)
{
	sigset_t hold;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigaddset(&hold, SIGTSTP);
	sigprocmask(SIG_BLOCK, &hold, old);
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* The passphrase, twice from the terminal or once from the file. */
static int ask_new(const char *passfile, char *pass, char *again)
{
	struct askpass a;
	int ret;

	ret = askpass_open(&a, passfile, false);
	if (ret) {
		if (passfile)
			hib_err("cannot read %s: %s", passfile, a.why);
		else
			hib_err("no terminal to ask for the passphrase on (use --passphrase-file)");
		return ret;
	}
	ret = askpass_get(&a, "New passphrase for the hibernation key: ",
			  pass);
	if (!ret && !passfile)
		ret = askpass_get(&a, "Same passphrase again: ", again);
	askpass_close(&a);
	if (ret == -E2BIG) {
		hib_err("passphrase too long (at most %d bytes)",
			ASKPASS_MAX - 1);
		return ret;
	}
	if (ret == -EILSEQ) {
		hib_err("passphrase refused: it holds a NUL byte, which would end it there");
		return ret;
	}
	if (ret && ret != -ENODATA) {
		hib_err("cannot read the passphrase: %s", strerror(-ret));
		return ret;
	}
	if (!*pass) {
		hib_err("empty passphrase refused");
		return -EINVAL;
	}
	if (!passfile && strcmp(pass, again)) {
		hib_err("the passphrases differ; nothing written");
		return -EINVAL;
	}
	return 0;
}

/* The secret memory of keyfile_setup, in one sodium_malloc() block. */
struct setup_secrets {
	char pass[ASKPASS_MAX];
	char again[ASKPASS_MAX];
	uint8_t plain[KEYFILE_SEALED_LEN];	/* secret key || auth */
};

int keyfile_setup(const char *name, enum keyfile_kdf kdf,
		  const char *passfile, bool force)
{
	char dir[PATH_MAX], pub_path[PATH_MAX], sec_path[PATH_MAX];
	char auth_path[PATH_MAX], id_hex[2 * WRAP_KEY_ID_LEN + 1], cmd[128];
	char why[2 * PATH_MAX + 256];
	uint8_t pub[WRAP_KEY_LEN], sec[KEYFILE_SEC_LEN], id[WRAP_KEY_ID_LEN];
	struct setup_secrets *s;
	struct stat st;
	sigset_t old;
	int ret;

	keyfile_dir(dir, sizeof(dir));
	if (keyfile_path(name, ".pub", pub_path, sizeof(pub_path)) ||
	    keyfile_path(name, ".sec", sec_path, sizeof(sec_path)) ||
	    keyfile_path(name, ".auth", auth_path, sizeof(auth_path))) {
		hib_err("key directory %s: path too long", dir);
		return -ENAMETOOLONG;
	}
	ret = dir_trusted(dir, why, sizeof(why));
	if (ret && ret != -ENOENT) {
		hib_err("%s; nothing was made", ret == -EPERM ? why :
			strerror(-ret));
		return ret;
	}
	if (!force) {
		const char *have = !lstat(sec_path, &st) ? sec_path :
				   !lstat(pub_path, &st) ? pub_path :
				   !lstat(auth_path, &st) ? auth_path : NULL;

		if (have) {
			hib_err("key '%s' exists (%s); --force replaces it, and images written for the old key could no longer be resumed",
				name, have);
			return -EEXIST;
		}
	}
	s = sodium_malloc(sizeof(*s));
	if (!s) {
		hib_err("out of memory");
		return -ENOMEM;
	}
	ret = ask_new(passfile, s->pass, s->again);
	if (!ret) {
		randombytes_buf(s->plain, sizeof(s->plain));
		crypto_scalarmult_base(pub, s->plain);
		ret = seal(s->plain, pub, s->pass, kdf, sec);
		if (ret)
			hib_err("cannot seal the key: %s (out of memory for the passphrase hash?)",
				strerror(-ret));
	}
	if (!ret) {
		ret = make_dir(dir);
		if (ret)
			hib_err("cannot create %s: %s", dir, strerror(-ret));
	}
	if (ret)
		goto out;
	ret = write_tmp(sec_path, sec, sizeof(sec), 0600);
	if (!ret)
		ret = write_tmp(auth_path, s->plain + WRAP_KEY_LEN,
				WRAP_AUTH_LEN, 0600);
	if (!ret)
		ret = write_tmp(pub_path, pub, sizeof(pub), 0644);
	hold_signals(&old);
	if (!ret)
		ret = commit_three(sec_path, auth_path, pub_path);
	if (ret) {
		/* Whatever was written and not renamed. */
		drop_tmp(sec_path);
		drop_tmp(auth_path);
		drop_tmp(pub_path);
	}
	sync_dir(dir);
	if (ret) {
		hib_err("cannot write key '%s' in %s: %s; no key file was left under a temporary name",
			name, dir, strerror(-ret));
	} else {
		wrap_key_id(pub, id);
		keyfile_hex(id, sizeof(id), id_hex);
		hib_info("key '%s' (id %s): public key %s, secret key %s, sealed with the passphrase, authentication key %s",
			 name, id_hex, pub_path, sec_path, auth_path);
		/* The initramfs unlocks the image: without it, it cannot. */
		hib_info("rebuild the initramfs now, or images written for this key cannot be resumed (hibernating refuses while the initramfs is older than the key): %s",
			 initramfs_rebuild(cmd, sizeof(cmd)));
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	sodium_memzero(s, sizeof(*s));
	sodium_free(s);
	return ret;
}
