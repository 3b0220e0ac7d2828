// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel keyring is how hibernate(8) hands keys to the module: the
 * owner key (public key and authentication key) as the logon key
 * "suspend2:NAME" when hibernating, and the image key it unwrapped as the
 * logon key "suspend2:img:<image id in hex>" when resuming.  Both sit in
 * the keyring of the process that writes the action, so they are gone
 * when it exits; the image key is revoked as soon as it has been read,
 * and a logon key cannot be read back from user space at all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/hash.h>
#include <keys/user-type.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/rwsem.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include "../internal.h"
#include "crypt.h"

#define S2_KEY_DESC_PREFIX	"suspend2:"
#define S2_IMG_DESC_PREFIX	"suspend2:img:"

/*
 * Copies the payload of @key, which must be exactly @len bytes, into
 * @out.  Only root's keys count: a session keyring shared with another
 * user (sudo without pam_keyinit) must not let that user choose what the
 * image is wrapped for.  The semaphore keeps the key from being updated
 * or revoked under us; a revoked key has no payload any more.
 */
static int s2_key_read(struct key *key, void *out, size_t len)
{
	const struct user_key_payload *p;
	int error;

	if (!uid_eq(key->uid, GLOBAL_ROOT_UID))
		return -EKEYREJECTED;
	down_read(&key->sem);
	error = key_validate(key);
	if (!error) {
		p = user_key_payload_locked(key);
		if (!p)
			error = -EKEYREVOKED;
		else if (p->datalen != len)
			error = -EINVAL;
		else
			memcpy(out, p->data, len);
	}
	up_read(&key->sem);
	return error;
}

int s2_crypt_get_owner_key(const char *keyspec, struct s2_owner_key *owner,
			   char *why, size_t why_len)
{
	char desc[sizeof(S2_KEY_DESC_PREFIX) + S2_KEYNAME_MAX];
	const char *name;
	struct key *key;
	int error;

	if (!str_has_prefix(keyspec, S2_KEYRING_PREFIX)) {
		snprintf(why, why_len, "key %s is not keyring:NAME", keyspec);
		return -EINVAL;
	}
	name = keyspec + strlen(S2_KEYRING_PREFIX);
	if (!*name || strlen(name) > S2_KEYNAME_MAX) {
		snprintf(why, why_len, "key %s has no usable key name", keyspec);
		return -EINVAL;
	}
	snprintf(desc, sizeof(desc), S2_KEY_DESC_PREFIX "%s", name);
	/*
	 * No callout info: never start /sbin/request-key, only search the
	 * keyrings of the process that started the cycle.
	 */
	key = request_key(&key_type_logon, desc, NULL);
	if (IS_ERR(key))
		error = PTR_ERR(key);
	else
		error = s2_key_read(key, owner, sizeof(*owner));
	if (!IS_ERR(key))
		key_put(key);
	switch (error) {
	case 0:
		break;
	/*
	 * The search passes over revoked and expired keys; these two are a
	 * key revoked or expiring while we read it.
	 */
	case -ENOKEY:
	case -EKEYREVOKED:
	case -EKEYEXPIRED:
		snprintf(why, why_len, "no owner key %s in the keyring (hibernate loads it)",
			 desc);
		return -ENOKEY;
	case -EKEYREJECTED:
		snprintf(why, why_len, "owner key %s is not root's", desc);
		return -EKEYREJECTED;
	case -EINVAL:
		snprintf(why, why_len, "owner key %s is not %zu bytes", desc,
			 sizeof(*owner));
		return -EINVAL;
	default:
		snprintf(why, why_len, "cannot look up owner key %s: %pe",
			 desc, ERR_PTR(error));
		return error;
	}
	/*
	 * The wrap runs after the atomic copy, with user space frozen.  An
	 * HMAC the crypto API has not instantiated yet would make it try to
	 * load a module then; here, before anything is frozen, it still can,
	 * and a kernel without it is refused before the cycle starts.
	 */
	if (crypto_has_shash(S2_HKDF_HMAC, 0, 0) != 1) {
		memzero_explicit(owner, sizeof(*owner));
		snprintf(why, why_len, "this kernel has no %s for the key wrap",
			 S2_HKDF_HMAC);
		return -ENOPKG;
	}
	return 0;
}

int s2_crypt_get_image_key(struct s2_crypt *c, const struct s2_image_header *h,
			   const char **why)
{
	char desc[sizeof(S2_IMG_DESC_PREFIX) + 2 * S2_IMAGE_ID_LEN];
	struct key *key;
	int error;

	snprintf(desc, sizeof(desc), S2_IMG_DESC_PREFIX "%*phN",
		 S2_IMAGE_ID_LEN, h->crypt.image_id);
	key = request_key(&key_type_logon, desc, NULL);
	if (IS_ERR(key)) {
		error = PTR_ERR(key);
		if (error == -ENOKEY || error == -EKEYREVOKED ||
		    error == -EKEYEXPIRED) {
			*why = "image is encrypted and no key for it was given";
			return -ENOKEY;
		}
		*why = "cannot look up the image key in the keyring";
		return error;
	}
	error = s2_key_read(key, c->key, S2_KEY_LEN);
	/*
	 * It opens this one image only: nobody needs it after us.  Revoking
	 * frees the payload (after an RCU grace period, which the resume
	 * waits for before the restore), invalidating unlinks the key.
	 */
	key_revoke(key);
	key_invalidate(key);
	key_put(key);
	if (error == -EINVAL) {
		*why = "the image key given is not 32 bytes";
		return -EINVAL;
	}
	if (error == -EKEYREJECTED) {
		*why = "the image key given is not root's";
		return -ENOKEY;
	}
	if (error) {
		*why = "image is encrypted and no key for it was given";
		return -ENOKEY;
	}
	c->enc = le32_to_cpu(h->crypt.encryption);
	memcpy(c->image_id, h->crypt.image_id, S2_IMAGE_ID_LEN);
	c->nr_chunks = le64_to_cpu(h->nr_chunks);
	return 0;
}

void s2_crypt_wipe(struct s2_crypt *c)
{
	if (c)
		memzero_explicit(c, sizeof(*c));
}
