// SPDX-License-Identifier: GPL-2.0
/*
 * An image key sealed to the TPM (key = tpm; docs/tpm-lockdown.md).  The
 * key is made here, after the atomic copy, sealed by tpm/seal.c into the
 * header page's struct s2_header_tpm, whose SHA-256 goes into the header,
 * so that the header tag covers the sealed object and its PCR selection.
 * Opening it is the reverse: unseal (the TPM and tpm/seal.c check that
 * the kernel made it, on this boot chain), then the header tag, then the
 * digest.  Both ends run with user space frozen.
 */
#include <crypto/algapi.h>
#include <crypto/sha2.h>
#include <linux/random.h>
#include <linux/string.h>
#include "crypt.h"
#include "../tpm/tpm.h"

int s2_crypt_new_sealed_image(struct s2_crypt *c, enum s2_encryption enc,
			      u32 boot_pcrs, struct s2_header_crypt *hc,
			      struct s2_header_tpm *t, const char **why)
{
	size_t len = 0;
	u64 counter = 0;
	int error;

	if (enc == S2_ENC_NONE || enc >= S2_NR_ENC)
		return -EINVAL;
	memset(hc, 0, sizeof(*hc));
	memset(t, 0, sizeof(*t));
	get_random_bytes(c->key, S2_KEY_LEN);
	get_random_bytes(c->image_id, S2_IMAGE_ID_LEN);
	error = s2_tpm_counter_next(&counter, why);
	if (!error)
		error = s2_tpm_seal(c->key, S2_KEY_LEN, boot_pcrs, t->blob,
				    &len, why);
	if (error) {
		memzero_explicit(c->key, S2_KEY_LEN);
		memset(c->image_id, 0, S2_IMAGE_ID_LEN);
		memset(t, 0, sizeof(*t));
		return error;
	}
	t->blob_len = cpu_to_le32(len);
	t->boot_pcrs = cpu_to_le32(boot_pcrs);
	t->counter = cpu_to_le64(counter);
	hc->encryption = cpu_to_le32(enc);
	hc->key_scheme = cpu_to_le32(S2_KEY_TPM);
	c->tpm_counter = counter;
	memcpy(hc->image_id, c->image_id, S2_IMAGE_ID_LEN);
	sha256((const u8 *)t, sizeof(*t), hc->tpm_digest);
	c->enc = enc;
	return 0;
}

int s2_crypt_open_sealed_image(struct s2_crypt *c,
			       const struct s2_image_header *h,
			       const struct s2_header_tpm *t, const char **why)
{
	int error;

	/*
	 * The header's word on the PCRs is not taken: an image sealed to
	 * fewer of them could have been made on another boot chain.
	 */
	if (le32_to_cpu(t->boot_pcrs) != S2_TPM_BOOT_PCRS) {
		*why = "image's key is sealed to other boot PCRs than this kernel's";
		return -EKEYREJECTED;
	}
	error = s2_tpm_unseal(t->blob, le32_to_cpu(t->blob_len),
			      S2_TPM_BOOT_PCRS, c->key, S2_KEY_LEN, why);
	if (error)
		return error;
	c->enc = le32_to_cpu(h->crypt.encryption);
	memcpy(c->image_id, h->crypt.image_id, S2_IMAGE_ID_LEN);
	return 0;
}

/* Once the header tag has passed: the sealed part is the one it names. */
bool s2_crypt_sealed_digest_ok(const struct s2_image_header *h,
			       const struct s2_header_tpm *t)
{
	u8 digest[S2_DIGEST_LEN];

	sha256((const u8 *)t, sizeof(*t), digest);
	return !crypto_memneq(digest, h->crypt.tpm_digest, sizeof(digest));
}

/*
 * Once the header tag vouches for the counter value: the image is the
 * newest sealed on this TPM.  Resuming (@bump) moves the counter on, so
 * that this image cannot be resumed again.
 */
int s2_crypt_claim_sealed_image(const struct s2_header_tpm *t, bool bump,
				const char **why)
{
	return s2_tpm_counter_claim(le64_to_cpu(t->counter), bump, why);
}
