// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of encrypted images in a run (docs/image-encryption.md):
 * hibernate --setup-key makes the key pair and the owner authentication
 * key; a cycle hands the module the public key and the authentication
 * key (logon key "suspend2:NAME" in the process keyring, payload the one
 * then the other, read from keys/NAME.pub and keys/NAME.auth); a
 * resume asks for the passphrase, unlocks the secret key and the
 * authentication key from NAME.sec, unwraps the image key from the header
 * and hands it over as the logon key "suspend2:img:<image id>".  An image
 * that stays locked is left as it is: exit status HIB_EXIT_LOCKED.
 * With key = tpm none of that: the module makes the image key, seals it
 * to the TPM in the header and unseals it at resume (docs/tpm-lockdown.md);
 * hibernate reads no key file and asks for no passphrase.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <dirent.h>
#include <sodium.h>

#include "check/imghdr.h"
#include "keys/askpass.h"
#include "keys/imgkey.h"
#include "keys/keyfile.h"
#include "keys/keyring.h"
#include "keys/keytrust.h"
#include "system/initramfs.h"

#define KR_PREFIX	"suspend2:"
#define KR_IMG_PREFIX	"suspend2:img:"

/* The payload of the logon key "suspend2:NAME". */
struct owner_key {
	uint8_t pub[WRAP_KEY_LEN];
	uint8_t auth[WRAP_AUTH_LEN];
};

/* NAME of the profile's key = keyring:NAME, or NULL. */
static const char *profile_key(const struct profile *p)
{
	const char *v = p->v[K_KEY].value;
	size_t n = strlen(CONF_KEYRING_PREFIX);

	return v && !strncmp(v, CONF_KEYRING_PREFIX, n) ? v + n : NULL;
}

/* key = tpm: the module seals the image key to the TPM itself. */
static bool profile_tpm(const struct profile *p)
{
	const char *v = p->v[K_KEY].value;

	return v && !strcmp(v, CONF_KEY_TPM);
}

static bool is_encrypted(const struct profile *p)
{
	const char *v = p->v[K_ENCRYPTION].value;

	return v && strcmp(v, "none");
}

/*
 * --setup-key: key files for a name, or the profile's key, else
 * "default"; for tpm (--setup-key tpm, or a profile of key = tpm) no file
 * at all, the TPM checked instead (run.c's setup_tpm()): key = tpm would
 * go on without them.  A profile of key = keyring:tpm, from before key =
 * tpm existed, still gets its key files named tpm.
 */
int setup_key_profile(struct run *r, bool *tpm)
{
	const struct hib_ctl *ctl = r->ctl;
	char err[CONF_MAX_LINE + 256];
	int ret;

	*tpm = ctl->key_name && !strcmp(ctl->key_name, CONF_KEY_TPM);
	/* A profile named with -p that is not there is a typo: said. */
	if (conf_resolve(&r->conf, ctl->profile, &r->prof, err,
			 sizeof(err))) {
		hib_err("%s; no key was made", err);
		return HIB_EXIT_CONFIG;
	}
	/* --set key=tpm --setup-key means the TPM, as it would for a cycle. */
	ret = apply_sets(r);
	if (ret)
		return ret;
	/* The profile names the module that is asked. */
	if (!ctl->key_name)
		*tpm = profile_tpm(&r->prof);
	return 0;
}

/*
 * --kdf insecure-test: libsodium's minimum Argon2id cost, so whoever gets
 * NAME.sec tries passphrases offline at thousands a second.  For tests:
 * always said, even with -q, and refused (HIB_EXIT_USAGE, before the
 * passphrase is asked for and anything made) for the real key directory,
 * the one without HIBERNATE_KEYDIR, unless --force says it is meant.
 */
static int insecure_kdf(const struct hib_ctl *ctl)
{
	const char *test_dir = getenv("HIBERNATE_KEYDIR");
	char dir[PATH_MAX];

	hib_alert("--kdf insecure-test: the passphrase is hashed at libsodium's minimum cost, cheap to guess offline from the key file; for tests only");
	if ((test_dir && *test_dir) || ctl->force)
		return 0;
	hib_err("refusing --kdf insecure-test for the real key directory %s: a key there would be cheap to brute-force; use --kdf moderate (the default), or add --force if this is a test machine; nothing was made",
		keyfile_dir(dir, sizeof(dir)));
	fputs("Try 'hibernate --help' for more information.\n", stderr);
	return HIB_EXIT_USAGE;
}

int setup_key(struct run *r)
{
	const struct hib_ctl *ctl = r->ctl;
	const char *name = ctl->key_name;
	int ret;

	if (!name)
		name = profile_key(&r->prof);
	if (ctl->dry_run) {
		hib_err("--dry-run: --setup-key makes key files, which a dry run cannot show; only --setup-key tpm (which makes none) has a dry run");
		fputs("Try 'hibernate --help' for more information.\n", stderr);
		return HIB_EXIT_USAGE;
	}
	if (!name)
		name = KEYFILE_DEFAULT_NAME;
	if (ctl->kdf == HIB_KDF_INSECURE_TEST) {
		ret = insecure_kdf(ctl);
		if (ret)
			return ret;
	}
	ret = keyfile_setup(name, ctl->kdf == HIB_KDF_INSECURE_TEST ?
			    KDF_INSECURE_TEST : KDF_MODERATE, ctl->passfile,
			    ctl->force);
	if (ret == -EPERM)
		return HIB_EXIT_PERM;
	return ret ? HIB_EXIT_FAILURE : HIB_EXIT_OK;
}

/*
 * NAME.auth into auth; says why not (and how to fix it) and returns
 * HIB_EXIT_CONFIG, or 0.
 */
static int read_auth(struct run *r, const char *name, uint8_t *auth)
{
	const struct profile *p = &r->prof;
	char path[PATH_MAX];
	int ret;

	keyfile_path(name, ".auth", path, sizeof(path));
	ret = keyfile_read_auth(name, auth);
	if (!ret)
		return 0;
	if (ret == -EPERM)
		hib_err("profile %s: encryption %s: the authentication key %s may be read or changed by others than root; refused: chown root %s; chmod 600 %s; nothing was frozen",
			p->name, p->v[K_ENCRYPTION].value, path, path, path);
	else
		hib_err("profile %s: encryption %s: cannot read the authentication key %s: %s (make the key anew with hibernate --setup-key %s --force, then update the initramfs); nothing was frozen",
			p->name, p->v[K_ENCRYPTION].value, path,
			ret == -EINVAL ? "not a 32-byte key" : strerror(-ret),
			name);
	note(r, "check: encryption %s, key %s: %s %s: FAILED",
	     p->v[K_ENCRYPTION].value, p->v[K_KEY].value, path,
	     ret == -EPERM ? "unsafe mode" : "missing");
	return HIB_EXIT_CONFIG;
}

/*
 * Why NAME.pub and NAME.sec cannot be unlocked together, from what
 * keyfile_check_pair() returned (NAME.pub itself read).  At resume the
 * files are the initramfs's copies, and such a pair almost always means
 * an initramfs built before the key was made or changed: the fix is to
 * rebuild it, never to make the key anew, which would leave the image
 * locked for good.
 */
static void pair_why(const char *name, int err, const uint8_t *sec_id,
		     const uint8_t *pub_id, bool resume, char *why,
		     size_t len)
{
	char pub[PATH_MAX], sec[PATH_MAX], what[2 * PATH_MAX + 256];
	char sec_hex[2 * WRAP_KEY_ID_LEN + 1], pub_hex[sizeof(sec_hex)];
	char cmd[128];

	keyfile_path(name, ".pub", pub, sizeof(pub));
	keyfile_path(name, ".sec", sec, sizeof(sec));
	keyfile_hex(sec_id, WRAP_KEY_ID_LEN, sec_hex);
	keyfile_hex(pub_id, WRAP_KEY_ID_LEN, pub_hex);
	initramfs_rebuild(cmd, sizeof(cmd));
	if (err == -ESTALE)
		snprintf(what, sizeof(what),
			 "%s (key id %s) is not the secret key of %s (key id %s): they are of two key pairs",
			 sec, sec_hex, pub, pub_hex);
	else if (err == -EINVAL)
		snprintf(what, sizeof(what),
			 "%s is not a key file of this version (%d bytes, \"%s\" version %d expected)",
			 sec, KEYFILE_SEC_LEN, KEYFILE_MAGIC, KEYFILE_VERSION);
	else
		snprintf(what, sizeof(what),
			 "cannot read the secret key %s: %s", sec,
			 strerror(-err));
	if (resume)
		snprintf(why, len,
			 "the key files in the initramfs do not match: %s; the initramfs was built before the key was made or changed: boot, run %s and reboot (do not make the key anew: images written for this key could then never be unlocked)",
			 what, cmd);
	else if (err == -ESTALE)
		snprintf(why, len,
			 "%s, as a hibernate --setup-key --force cut short leaves them, and no passphrase can unlock them; make the key anew with hibernate --setup-key %s --force, then run %s",
			 what, name, cmd);
	else if (err == -EINVAL)
		snprintf(why, len,
			 "%s; make the key anew with hibernate --setup-key %s --force, then run %s",
			 what, name, cmd);
	else
		snprintf(why, len,
			 "%s; it is what unlocks the image at resume (make the key anew with hibernate --setup-key %s --force, then run %s)",
			 what, name, cmd);
}

/*
 * At resume the key files are the initramfs's copies, made by root when
 * it was built: refusing them for their owner or mode would only lose
 * the image, and a .pub or .sec of someone else's cannot make the
 * owner's passphrase open an image that was not wrapped for the owner's
 * key with the authentication key, which never leaves the running
 * system.  Said, and the unlock goes on.
 */
static void warn_keys(struct run *r, const char *name)
{
	char why[2 * PATH_MAX + 256], cmd[128];

	if (!keytrust_files(name, why, sizeof(why)))
		return;
	hib_warn("key '%s': %s; going on all the same, since these are the initramfs's copies and refusing them would only lose the image: fix the files on the running system, then run %s",
		 name, why, initramfs_rebuild(cmd, sizeof(cmd)));
	note(r, "check: key %s: unsafe, going on: %s", name, why);
}

/*
 * Before a cycle reads or uses the key files: the directory and the
 * files root's alone (keytrust.c).  0, or HIB_EXIT_PERM, said with what.
 */
static int trust_keys(struct run *r, const char *name, const char *what)
{
	char why[2 * PATH_MAX + 256];

	if (!keytrust_files(name, why, sizeof(why)))
		return 0;
	hib_err("refusing key '%s': %s; %s", name, why, what);
	note(r, "check: key %s: refused: %s: FAILED", name, why);
	return HIB_EXIT_PERM;
}

/*
 * An image written now must be one the initramfs can unlock: NAME.sec of
 * NAME.pub's pair, and the initramfs no older than both.  0 or
 * HIB_EXIT_CONFIG, said.
 */
static int check_unlockable(struct run *r, const char *name)
{
	const struct profile *p = &r->prof;
	uint8_t sec_id[WRAP_KEY_ID_LEN] = { 0 };
	uint8_t pub_id[WRAP_KEY_ID_LEN] = { 0 };
	const char *what = "cannot be unlocked";
	char why[3 * PATH_MAX + 512];
	int ret;

	ret = keyfile_check_pair(name, sec_id, pub_id);
	if (ret) {
		pair_why(name, ret, sec_id, pub_id, false, why, sizeof(why));
	} else {
		ret = keytrust_initramfs(name, why, sizeof(why));
		if (!ret)
			return 0;
		what = "the initramfs is older than the key";
	}
	hib_err("profile %s: encryption %s: %s; nothing was frozen", p->name,
		p->v[K_ENCRYPTION].value, why);
	note(r, "check: encryption %s, key %s: %s: FAILED",
	     p->v[K_ENCRYPTION].value, p->v[K_KEY].value, what);
	return HIB_EXIT_CONFIG;
}

/*
 * Before anything is frozen, in a dry run as in a real one: an encrypted
 * profile's key files must be trusted, the public key and authentication
 * key there to hand to the module, and the image unlockable at resume.
 */
int check_encryption(struct run *r)
{
	const struct profile *p = &r->prof;
	char path[PATH_MAX], id_hex[2 * WRAP_KEY_ID_LEN + 1];
	uint8_t id[WRAP_KEY_ID_LEN];
	const char *name = profile_key(p);
	uint8_t *auth;
	int ret;

	if (!is_encrypted(p)) {
		note(r, "check: encryption: none");
		return 0;
	}
	/* No key file to trust or read, no initramfs copy to check. */
	if (profile_tpm(p)) {
		r->encrypted = true;
		r->tpm = true;
		note(r, "encryption: %s, key sealed to the TPM by the module (no key file)",
		     p->v[K_ENCRYPTION].value);
		return 0;
	}
	/* profile_check_key() saw to it that there is a key. */
	if (!name)
		return HIB_EXIT_CONFIG;
	ret = trust_keys(r, name, "nothing was frozen");
	if (ret)
		return ret;
	keyfile_path(name, ".pub", path, sizeof(path));
	ret = keyfile_read_pub(name, r->pub);
	if (ret) {
		hib_err("profile %s: encryption %s: cannot read the public key %s: %s%s",
			p->name, p->v[K_ENCRYPTION].value, path,
			ret == -EINVAL ? "not a 32-byte key" : strerror(-ret),
			ret == -ENOENT ? " (create it with hibernate --setup-key)" : "");
		note(r, "check: encryption %s, key %s: %s missing: FAILED",
		     p->v[K_ENCRYPTION].value, p->v[K_KEY].value, path);
		return HIB_EXIT_CONFIG;
	}
	auth = sodium_malloc(WRAP_AUTH_LEN);
	if (!auth) {
		hib_err("out of memory; nothing was frozen");
		return HIB_EXIT_FAILURE;
	}
	ret = read_auth(r, name, auth);
	sodium_memzero(auth, WRAP_AUTH_LEN);
	sodium_free(auth);
	if (ret)
		return ret;
	ret = check_unlockable(r, name);
	if (ret)
		return ret;
	wrap_key_id(r->pub, id);
	keyfile_hex(id, sizeof(id), id_hex);
	snprintf(r->key_name, sizeof(r->key_name), "%s", name);
	r->encrypted = true;
	note(r, "encryption: %s, key %s (id %s, %s)",
	     p->v[K_ENCRYPTION].value, p->v[K_KEY].value, id_hex, path);
	return 0;
}

#define TPM_CAPS_TEXT	(PATH_MAX + 2 * 256 + 64)

/*
 * What the capabilities say about the TPM key scheme, for messages:
 * "capabilities says: keys: keyring, tpm: none".
 */
static void tpm_caps_text(const struct run *r, char *buf, size_t len)
{
	const struct caps *c = &r->caps;

	if (!c->from_module)
		snprintf(buf, len, "cannot read %s/capabilities", r->cfs.root);
	else
		snprintf(buf, len, "capabilities says: keys: %s, tpm: %s",
			 *c->keys ? c->keys : "(nothing)",
			 *c->tpm ? c->tpm : "(not said)");
}

/*
 * Why the module does not offer key tpm, in words: the kernel's own
 * reason when capabilities carries it (tpm-refused), else guessed from
 * its tpm line, as a module older than that line leaves us to.
 */
static const char *tpm_why(const struct caps *c)
{
	if (!c->from_module)
		return "the module does not say it can (no capabilities to read)";
	if (*c->tpm_refused)
		return c->tpm_refused;
	if (!*c->tpm)
		return "the module does not say which TPM it sees (a module too old for key tpm?)";
	if (!strcmp(c->tpm, "none"))
		return "the kernel sees no TPM (none in this machine, turned off in the firmware, or its driver, tpm_tis or tpm_crb, not loaded)";
	if (!strcmp(c->tpm, "1.2"))
		return "the TPM is a 1.2, and key tpm needs a TPM 2.0";
	if (!strcmp(c->tpm, "2.0"))
		return "the TPM is a 2.0, but the kernel will not seal to it: it was built without CONFIG_TCG_TPM_RESTRICT_PCR (kernel patch 0004), so user space could change PCR 23, or the TPM is a virtual one that a process answers for";
	return "the module names a TPM this hibernate does not know";
}

/*
 * --setup-key tpm, once setup_tpm() loaded the module and read its
 * capabilities: whether key = tpm can work here, and what it needs.  0,
 * or HIB_EXIT_CONFIG as a cycle's check_key_tpm() refuses the profile.
 */
int setup_tpm_say(struct run *r)
{
	char says[TPM_CAPS_TEXT], cmd[128];

	/* A dry run before the module is loaded cannot ask it. */
	if (!cfs_exists(&r->cfs, NULL)) {
		note(r, "check: key tpm: the module is not loaded yet; the real run loads it, reads its capabilities and says whether this kernel can seal images to the TPM (exit %d when it cannot)",
		     HIB_EXIT_CONFIG);
		return 0;
	}
	tpm_caps_text(r, says, sizeof(says));
	if (!caps_key_tpm(&r->caps)) {
		hib_err("key tpm: this kernel cannot seal hibernation images to the TPM: %s; %s; no key file was made",
			tpm_why(&r->caps), says);
		note(r, "check: key tpm: not offered by the module (%s): FAILED",
		     says);
		return HIB_EXIT_CONFIG;
	}
	initramfs_rebuild(cmd, sizeof(cmd));
	note(r, "check: key tpm: offered by the module (%s)", says);
	note(r, "key tpm: no key file to make; the real run says to rebuild the initramfs: %s",
	     cmd);
	if (r->ctl->dry_run)
		return 0;
	hib_info("key tpm: this kernel can seal hibernation images to the TPM (%s)",
		 says);
	hib_info("key tpm: nothing to make or keep: no key file, no passphrase; the kernel makes a new image key at each hibernation, and its TPM counter the first time");
	/* The initramfs unseals the image: without the drivers, it cannot. */
	hib_info("rebuild the initramfs now, so that it has the TPM drivers to unseal the image at resume: %s",
		 cmd);
	return 0;
}

/*
 * key = tpm: whether the kernel seals to the TPM here only the module can
 * tell (a TPM 2.0, and PCR 23 kept from user space), after check_module()
 * read its capabilities.  A dry run before the module is loaded says what
 * the real run will check.  0, or HIB_EXIT_CONFIG as for a word the
 * module does not offer.
 */
int check_key_tpm(struct run *r)
{
	const struct profile *p = &r->prof;
	char where[PATH_MAX + 32], says[TPM_CAPS_TEXT];

	if (!r->tpm)
		return 0;
	if (!cfs_exists(&r->cfs, NULL)) {
		note(r, "check: key tpm: the module is not loaded yet; the real run refuses unless its capabilities offer keys: tpm");
		return 0;
	}
	tpm_caps_text(r, says, sizeof(says));
	if (caps_key_tpm(&r->caps)) {
		note(r, "check: key tpm: offered by the module (%s)", says);
		return 0;
	}
	hib_err("%s: profile %s: key tpm is not offered: %s; %s; nothing was frozen",
		prof_where(&p->v[K_KEY], where, sizeof(where)), p->name,
		tpm_why(&r->caps), says);
	note(r, "check: key tpm: not offered by the module (%s): FAILED", says);
	return HIB_EXIT_CONFIG;
}

/*
 * The public key and the authentication key into this process's keyring,
 * where the module looks: one logon key, which no one can read back.
 * Nothing with key = tpm.
 */
int load_pubkey(struct run *r)
{
	char desc[sizeof(KR_PREFIX) + CONF_KEYNAME_MAX];
	struct owner_key *k;
	int32_t id;
	int ret;

	if (!r->encrypted)
		return 0;
	if (r->tpm) {
		note(r, "key tpm: no key to add to the keyring; the module makes the image key and seals it to the TPM");
		return 0;
	}
	snprintf(desc, sizeof(desc), KR_PREFIX "%s", r->key_name);
	if (r->ctl->dry_run) {
		note(r, "would add logon key %s (keys/%s.pub and keys/%s.auth, %zu bytes) to the process keyring",
		     desc, r->key_name, r->key_name, sizeof(*k));
		return 0;
	}
	k = sodium_malloc(sizeof(*k));
	if (!k) {
		hib_err("out of memory; nothing was frozen");
		return HIB_EXIT_FAILURE;
	}
	memcpy(k->pub, r->pub, sizeof(k->pub));
	/* Read again: check_encryption() did not keep it. */
	ret = read_auth(r, r->key_name, k->auth);
	if (!ret) {
		id = kr_add("logon", desc, k, sizeof(*k));
		if (id < 0) {
			hib_err("cannot add the key %s to the keyring: %s; nothing was frozen",
				desc, strerror(-id));
			ret = HIB_EXIT_FAILURE;
		} else {
			hib_verbose("logon key %s (serial %d, %zu bytes) in the process keyring",
				    desc, id, sizeof(*k));
		}
	}
	sodium_memzero(k, sizeof(*k));
	sodium_free(k);
	return ret;
}

/* The secrets of an unlock, in one sodium_malloc() block. */
struct unlock_secrets {
	char pass[ASKPASS_MAX];
	uint8_t secret[WRAP_KEY_LEN];
	uint8_t auth[WRAP_AUTH_LEN];
	uint8_t key[WRAP_KEY_LEN];
};

/*
 * Up to KEYFILE_TRIES passphrases (lines of --passphrase-file, else the
 * terminal): 0 with s->secret unlocked, else the exit status.
 */
static int ask_unlock(struct run *r, const char *name, const char *prompt,
		      struct unlock_secrets *s)
{
	struct askpass a;
	int ret, i;

	ret = askpass_open(&a, r->ctl->passfile, true);
	if (ret) {
		if (r->ctl->passfile)
			hib_err("cannot read %s: %s", r->ctl->passfile,
				a.why);
		else
			hib_err("no terminal to ask for the passphrase on (use --passphrase-file)");
		return HIB_EXIT_LOCKED;
	}
	for (i = 1; i <= KEYFILE_TRIES; i++) {
		ret = askpass_get(&a, prompt, s->pass);
		if (ret == -ENODATA || ret == -ECANCELED)
			break;
		if (!ret)
			ret = keyfile_unlock(name, s->pass, s->secret,
					     s->auth);
		sodium_memzero(s->pass, sizeof(s->pass));
		if (!ret)
			break;
		if (ret == -EKEYREJECTED || ret == -E2BIG || ret == -EILSEQ) {
			hib_err("wrong passphrase (try %d of %d)", i,
				KEYFILE_TRIES);
			continue;
		}
		hib_err("cannot unlock key '%s': %s", name,
			ret == -EINVAL ? "not a key file of this version, or the .pub and .sec do not belong together" :
			ret == -ESTALE ? "its .sec and .pub are of two key pairs" :
			strerror(-ret));
		break;
	}
	askpass_close(&a);
	if (ret == -ENODATA)
		hib_err("no more passphrases%s%s", r->ctl->passfile ? " in " : "",
			r->ctl->passfile ? r->ctl->passfile : "");
	if (ret == -ECANCELED)
		hib_err("the passphrase prompt (%s) gave up", a.helper);
	return ret ? HIB_EXIT_LOCKED : 0;
}

/*
 * The name of the key in the key directory whose public key has key_id,
 * into name (CONF_KEYNAME_MAX + 1 bytes): true when there is one.
 */
static bool key_by_id(const uint8_t *key_id, char *name)
{
	char dir[PATH_MAX], base[CONF_KEYNAME_MAX + 1];
	uint8_t pub[WRAP_KEY_LEN], id[WRAP_KEY_ID_LEN];
	bool found = false;
	struct dirent *e;
	DIR *d;

	d = opendir(keyfile_dir(dir, sizeof(dir)));
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n <= 4 || n - 4 > CONF_KEYNAME_MAX ||
		    strcmp(e->d_name + n - 4, ".pub"))
			continue;
		memcpy(base, e->d_name, n - 4);
		base[n - 4] = '\0';
		if (!conf_valid_keyname(base) || keyfile_read_pub(base, pub))
			continue;
		wrap_key_id(pub, id);
		if (!memcmp(id, key_id, sizeof(id))) {
			memcpy(name, base, n - 3);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/*
 * An image whose key the module sealed to the TPM: no passphrase and no
 * key file; the module unseals the key when the resume action is
 * written.  When the module says it cannot (no TPM 2.0 now, its driver
 * missing from the initramfs, or a kernel that lets user space have PCR
 * 23), the image is left as it is, as a locked one, instead of being
 * written to the module only to be refused and invalidated.
 */
static int tpm_image(struct run *r, const struct img_header *h)
{
	const char *enc = imghdr_encryption_name(h->w.encryption);
	char says[TPM_CAPS_TEXT];

	if (r->caps.from_module && !caps_key_tpm(&r->caps)) {
		tpm_caps_text(r, says, sizeof(says));
		hib_err("image on %s is encrypted (%s) with its key sealed to the TPM, but this kernel cannot unseal it now: %s (%s%s); the image is left as it is, for a boot where the TPM works",
			r->target, enc, tpm_why(&r->caps), says,
			!*r->caps.tpm || !strcmp(r->caps.tpm, "none") ?
			"; no TPM seen: is its driver in the initramfs?" :
			"");
		note(r, "check: image on %s: key sealed to the TPM, which the module does not offer: FAILED",
		     r->target);
		return HIB_EXIT_LOCKED;
	}
	/*
	 * A dry run before the module is loaded knows only the built-in
	 * list: as for a cycle's key = tpm, the real run's check is said.
	 */
	if (!r->caps.from_module && r->ctl->dry_run &&
	    !cfs_exists(&r->cfs, NULL)) {
		note(r, "check: image on %s is encrypted (%s) with its key sealed to the TPM: the module is not loaded yet; the real run leaves the image as it is (exit %d) unless its capabilities offer keys: tpm",
		     r->target, enc, HIB_EXIT_LOCKED);
		return 0;
	}
	note(r, "check: image on %s is encrypted (%s) with its key sealed to the TPM: no passphrase, the module unseals it",
	     r->target, enc);
	if (!r->ctl->dry_run)
		hib_info("image on %s is encrypted (%s) with its key sealed to the TPM: no passphrase needed, the kernel unseals it",
			 r->target, enc);
	return 0;
}

/*
 * Before the resume action: when the image at LOC is encrypted, unlock
 * it and put its key in the keyring (*key_serial, else 0), or, for a key
 * sealed to the TPM, leave that to the module.  Returns 0 to go on with
 * the resume, else the exit status; the image is not touched.
 */
int unlock_image(struct run *r, const char *loc, int32_t *key_serial)
{
	char desc[sizeof(KR_IMG_PREFIX) + 2 * WRAP_ID_LEN];
	char want[2 * WRAP_KEY_ID_LEN + 1], have[sizeof(want)];
	char path[PATH_MAX], prompt[512], when[64];
	char other[CONF_KEYNAME_MAX + 1], why[3 * PATH_MAX + 512];
	uint8_t hdr[IMGHDR_PAGE], pub[WRAP_KEY_LEN], id[WRAP_KEY_ID_LEN];
	const char *name = profile_key(&r->prof);
	struct unlock_secrets *s;
	struct img_header h;
	struct tm *tm;
	size_t i;
	time_t t;
	int ret;

	*key_serial = 0;
	if (imghdr_read(loc, hdr) != 1 || imghdr_parse(hdr, sizeof(hdr), &h))
		return 0;	/* no image, or the module says what is wrong */
	if (h.w.encryption == IMGHDR_ENC_NONE)
		return 0;
	/* An encryption this hibernate does not know: as an unknown scheme. */
	if (!imghdr_encryption_known(h.w.encryption)) {
		hib_err("image on %s is encrypted with encryption %u, which this hibernate does not know: not asking for a passphrase; the image is left as it is",
			r->target, (unsigned int)h.w.encryption);
		note(r, "check: image on %s: unknown encryption %u: FAILED",
		     r->target, (unsigned int)h.w.encryption);
		return HIB_EXIT_LOCKED;
	}
	if (h.w.key_scheme == WRAP_SCHEME_TPM)
		return tpm_image(r, &h);
	/* Anything but the two schemes: no passphrase can help. */
	if (h.w.key_scheme != WRAP_SCHEME_X25519) {
		hib_err("image on %s is encrypted (%s) with key scheme %u, which this hibernate does not know (1: keyring, 2: tpm): not asking for a passphrase; the image is left as it is",
			r->target, imghdr_encryption_name(h.w.encryption),
			(unsigned int)h.w.key_scheme);
		note(r, "check: image on %s: unknown key scheme %u: FAILED",
		     r->target, (unsigned int)h.w.key_scheme);
		return HIB_EXIT_LOCKED;
	}
	/*
	 * key = tpm names no key file: the default key or one found by its
	 * id would be a guess, and a prompt at resume a surprise.  The user
	 * says which key with --set.
	 */
	if (profile_tpm(&r->prof)) {
		keyfile_hex(h.w.key_id, sizeof(h.w.key_id), want);
		hib_err("image on %s is encrypted (%s) with a keyring key (scheme 1, key id %s), but profile %s has key = tpm: not asking for a passphrase; to resume it, run hibernate --resume --set key=keyring:NAME; the image is left as it is",
			r->target, imghdr_encryption_name(h.w.encryption),
			want, r->prof.name);
		note(r, "check: image on %s: keyring key, profile key = tpm: FAILED",
		     r->target);
		return HIB_EXIT_LOCKED;
	}
	if (!name)
		name = KEYFILE_DEFAULT_NAME;
	keyfile_hex(h.w.key_id, sizeof(h.w.key_id), want);
	/* Not the profile's key: another key in the directory may be. */
	ret = keyfile_read_pub(name, pub);
	if (!ret)
		wrap_key_id(pub, id);
	if ((ret || memcmp(id, h.w.key_id, sizeof(id))) &&
	    key_by_id(h.w.key_id, other)) {
		hib_info("image on %s was written for key id %s: that is key '%s', not '%s'; using '%s'",
			 r->target, want, other, name, other);
		name = other;
	}
	keyfile_path(name, ".pub", path, sizeof(path));
	warn_keys(r, name);
	/* Files of two key pairs: told now, not as three wrong tries. */
	if (!keyfile_read_pub(name, pub)) {
		uint8_t sec_id[WRAP_KEY_ID_LEN] = { 0 };

		ret = keyfile_check_pair(name, sec_id, id);
		if (ret) {
			pair_why(name, ret, sec_id, id, true, why,
				 sizeof(why));
			hib_err("image on %s: %s; not asking for a passphrase; the image is left as it is",
				r->target, why);
			note(r, "check: key %s: cannot be unlocked: FAILED",
			     name);
			return HIB_EXIT_LOCKED;
		}
	}
	note(r, "check: image on %s is encrypted (%s, key id %s): would ask for the passphrase of key %s",
	     r->target, imghdr_encryption_name(h.w.encryption), want, name);
	if (r->ctl->dry_run)
		return 0;
	ret = keyfile_read_pub(name, pub);
	if (ret) {
		hib_err("image on %s is encrypted (%s, key id %s) and the key file %s cannot be read: %s; the image is left as it is",
			r->target, imghdr_encryption_name(h.w.encryption),
			want, path, strerror(-ret));
		return HIB_EXIT_LOCKED;
	}
	wrap_key_id(pub, id);
	keyfile_hex(id, sizeof(id), have);
	if (sodium_memcmp(id, h.w.key_id, sizeof(id))) {
		hib_err("image on %s was written for key id %s, but %s is key id %s: not asking for a passphrase; the image is left as it is",
			r->target, want, path, have);
		return HIB_EXIT_LOCKED;
	}
	t = (time_t)h.created_sec;
	tm = localtime(&t);
	if (!tm || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", tm))
		snprintf(when, sizeof(when), "%llu",
			 (unsigned long long)h.created_sec);
	/*
	 * The release is read from the disk and not authenticated yet: no
	 * control bytes from it reach the terminal or plymouth.
	 */
	for (i = 0; h.release[i]; i++)
		if ((unsigned char)h.release[i] < 0x20 ||
		    (unsigned char)h.release[i] >= 0x7f)
			h.release[i] = '?';
	snprintf(prompt, sizeof(prompt),
		 "Passphrase to resume the hibernation image of %s (%s), key '%s' (id %s): ",
		 when, h.release, name, have);
	/* Whatever goes wrong from here leaves the image locked and intact. */
	s = sodium_malloc(sizeof(*s));
	if (!s) {
		hib_err("out of memory for the passphrase; the image is left as it is");
		return HIB_EXIT_LOCKED;
	}
	ret = ask_unlock(r, name, prompt, s);
	if (!ret && keyfile_unwrap(hdr, s->secret, s->auth, s->key)) {
		hib_err("the image key does not unwrap: the image was not written with key '%s' and its authentication key, or it was forged or tampered with; the image is left as it is",
			name);
		ret = HIB_EXIT_LOCKED;
	}
	if (!ret) {
		snprintf(desc, sizeof(desc), KR_IMG_PREFIX);
		keyfile_hex(h.w.image_id, sizeof(h.w.image_id),
			    desc + strlen(KR_IMG_PREFIX));
		*key_serial = kr_add("logon", desc, s->key, sizeof(s->key));
		if (*key_serial < 0) {
			hib_err("cannot add the image key %s to the keyring: %s",
				desc, strerror(-*key_serial));
			*key_serial = 0;
			ret = HIB_EXIT_LOCKED;
		}
	}
	sodium_memzero(s, sizeof(*s));
	sodium_free(s);
	if (ret == HIB_EXIT_LOCKED)
		hib_err("image on %s stays locked and intact", r->target);
	return ret;
}

void drop_image_key(int32_t key_serial)
{
	if (key_serial > 0)
		kr_invalidate(key_serial);
}
