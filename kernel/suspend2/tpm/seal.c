// SPDX-License-Identifier: GPL-2.0
/*
 * The image key sealed to the TPM so that only this kernel, booted the
 * same way, can have made it and can open it (docs/tpm-lockdown.md).
 *
 * The kernel brings PCR 23, which a kernel with CONFIG_TCG_TPM_RESTRICT_PCR
 * keeps away from user space, into a state S only while user space is
 * frozen.  The key is sealed with the policy "PCR 23 is S and the boot
 * PCRs are what they are now", and the TPM records in the creation data
 * the PCRs as they were when the sealed object was made.  At resume the
 * kernel checks that record against S and the boot PCRs, and has the TPM
 * confirm with TPM2_CertifyCreation that it made the object with that
 * record: a sealed object that root made through /dev/tpmrm0 with the
 * same policy, and a key of root's choosing, was made while PCR 23 was
 * not S, and is refused.
 *
 * The callers must have user space frozen: between s2_tpm_seal()'s or
 * s2_tpm_unseal()'s first and last command PCR 23 is S.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/sha2.h>
#include <linux/device.h>
#include <linux/kexec.h>
#include <linux/panic.h>
#include <linux/random.h>
#include <linux/security.h>
#include <linux/string.h>
#include <linux/tpm.h>
#include <linux/unaligned.h>
#include "tpm.h"
#include "wire.h"

/* Not in linux/tpm.h: no other kernel code sends them. */
#define TPM2_CC_CERTIFY_CREATION	0x014A
#define TPM2_CC_POLICY_PCR		0x017F

/* The PCR kept to the kernel, and the one constant it is extended with. */
#define S2_STATE_PCR		23
#define S2_STATE_LABEL		"suspend2 image key v1"
#define S2_AWAY_LABEL		"suspend2 image key away"

/* What the sealed object is: sealed data that only its policy opens. */
#define S2_SEALED_ATTRS	(TPM2_OA_FIXED_TPM | TPM2_OA_FIXED_PARENT | \
			 TPM2_OA_NO_DA)

/* Bounds on the parts of a stored blob; each is far above what a TPM makes. */
#define S2_TPM2B_MAX		320
#define S2_NAME_MAX		(2 + SHA256_DIGEST_SIZE)
/*
 * A ticket's HMAC is made with the TPM's context integrity hash, not the
 * object's: SHA-512 in libtpms (swtpm).
 */
#define S2_TICKET_DIGEST_MAX	SHA512_DIGEST_SIZE

struct s2_pcr_state {
	u32 selection;		/* the boot PCRs and PCR 23 */
	u8 digest[SHA256_DIGEST_SIZE];	/* of their values, as the TPM does */
	u8 policy[SHA256_DIGEST_SIZE];	/* PolicyPCR over them */
};

/* Building a TPMT_PUBLIC template in a buffer, big-endian. */
static void put_be16(u8 *buf, size_t *n, u16 v)
{
	put_unaligned_be16(v, buf + *n);
	*n += 2;
}

static void put_be32(u8 *buf, size_t *n, u32 v)
{
	put_unaligned_be32(v, buf + *n);
	*n += 4;
}

static void wipe_destroy(struct tpm_buf *buf)
{
	memzero_explicit(buf->data, PAGE_SIZE);
	tpm_buf_destroy(buf);
}

static int pcr_reset(struct tpm_chip *chip, u32 pcr)
{
	struct tpm_buf buf;
	struct s2_rd rd;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_PCR_RESET);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, pcr);
	s2_wr_password_auth(&buf);
	rc = s2_tpm_send(chip, &buf, &rd, "resetting a PCR");
	tpm_buf_destroy(&buf);
	return rc;
}

static int pcr_extend(struct tpm_chip *chip, u32 pcr, const u8 *digest)
{
	struct tpm_buf buf;
	struct s2_rd rd;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_PCR_EXTEND);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, pcr);
	s2_wr_password_auth(&buf);
	tpm_buf_append_u32(&buf, 1);		/* the SHA-256 bank only */
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	tpm_buf_append(&buf, digest, SHA256_DIGEST_SIZE);
	rc = s2_tpm_send(chip, &buf, &rd, "extending a PCR");
	tpm_buf_destroy(&buf);
	return rc;
}

static int pcr_read(struct tpm_chip *chip, u32 pcr, u8 *value)
{
	u8 want[S2_PCR_SELECTION_LEN];
	struct tpm_buf buf;
	struct s2_rd rd;
	const u8 *sel, *v;
	u16 len;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_NO_SESSIONS, TPM2_CC_PCR_READ);
	if (rc)
		return rc;
	s2_wr_pcr_selection(&buf, BIT(pcr));
	rc = s2_tpm_send(chip, &buf, &rd, "reading a PCR");
	if (rc)
		goto out;
	s2_rd_u32(&rd);				/* pcrUpdateCounter */
	sel = s2_rd_bytes(&rd, S2_PCR_SELECTION_LEN);
	/* A TPM without a SHA-256 bank answers with an empty selection. */
	s2_pcr_selection_bytes(BIT(pcr), want);
	if (!sel || memcmp(sel, want, sizeof(want)) || s2_rd_u32(&rd) != 1) {
		rc = -EOPNOTSUPP;
		goto out;
	}
	v = s2_rd_tpm2b(&rd, &len, SHA256_DIGEST_SIZE);
	if (!v || len != SHA256_DIGEST_SIZE)
		rc = -EIO;
	else
		memcpy(value, v, len);
out:
	tpm_buf_destroy(&buf);
	return rc;
}

/* The value PCR 23 has after a reset and the kernel's one extend. */
static void kernel_state_value(u8 *value)
{
	u8 both[2 * SHA256_DIGEST_SIZE] = {};

	sha256(S2_STATE_LABEL, strlen(S2_STATE_LABEL), both + SHA256_DIGEST_SIZE);
	sha256(both, sizeof(both), value);
}

static int kernel_state_enter(struct tpm_chip *chip)
{
	u8 label[SHA256_DIGEST_SIZE];
	int rc;

	rc = pcr_reset(chip, S2_STATE_PCR);
	if (rc)
		return rc;
	sha256(S2_STATE_LABEL, strlen(S2_STATE_LABEL), label);
	return pcr_extend(chip, S2_STATE_PCR, label);
}

/*
 * Back to the reset state, which user space cannot leave either: the
 * policy's state is reachable again only through kernel_state_enter().
 * If the TPM will not reset it, an extend with another constant also
 * takes it away from S.  User space must never run with PCR 23 in S: it
 * could then make a sealed key that every later boot accepts.  So when
 * neither works and the kernel is locked down (the one case where the
 * kernel's word on an image is all that stands between root and kernel
 * code), there is nothing safe left but to stop.
 */
static int kernel_state_leave(struct tpm_chip *chip)
{
	u8 away[SHA256_DIGEST_SIZE];
	int rc, i;

	for (i = 0; i < 3; i++) {
		rc = pcr_reset(chip, S2_STATE_PCR);
		if (!rc)
			return 0;
	}
	sha256(S2_AWAY_LABEL, strlen(S2_AWAY_LABEL), away);
	if (!pcr_extend(chip, S2_STATE_PCR, away))
		return rc;
	if (security_locked_down(LOCKDOWN_HIBERNATION))
		panic("suspend2: the TPM keeps PCR 23 in the kernel's sealing state (error %d)\n",
		      rc);
	pr_crit("the TPM keeps PCR 23 in the kernel's sealing state (error %d): do not trust images sealed from now on\n",
		rc);
	return rc;
}

/*
 * The PCR digest and policy the sealed object must have: the boot PCRs'
 * values now, and PCR 23 in the kernel's state whatever it is now.
 */
static int expected_state(struct tpm_chip *chip, u32 boot_pcrs,
			  struct s2_pcr_state *st)
{
	u8 sel[S2_PCR_SELECTION_LEN], value[SHA256_DIGEST_SIZE];
	static const u8 zero[SHA256_DIGEST_SIZE];
	struct sha256_state ctx;
	__be32 cc = cpu_to_be32(TPM2_CC_POLICY_PCR);
	u32 pcr;
	int rc;

	st->selection = boot_pcrs | BIT(S2_STATE_PCR);
	sha256_init(&ctx);
	for (pcr = 0; pcr <= S2_STATE_PCR; pcr++) {
		if (!(st->selection & BIT(pcr)))
			continue;
		if (pcr == S2_STATE_PCR) {
			kernel_state_value(value);
		} else {
			rc = pcr_read(chip, pcr, value);
			if (rc)
				return rc;
		}
		sha256_update(&ctx, value, sizeof(value));
	}
	sha256_final(&ctx, st->digest);

	/* TPM2_PolicyPCR from an empty policy, as the TPM computes it. */
	s2_pcr_selection_bytes(st->selection, sel);
	sha256_init(&ctx);
	sha256_update(&ctx, zero, sizeof(zero));
	sha256_update(&ctx, (const u8 *)&cc, sizeof(cc));
	sha256_update(&ctx, sel, sizeof(sel));
	sha256_update(&ctx, st->digest, sizeof(st->digest));
	sha256_final(&ctx, st->policy);
	return 0;
}

/*
 * The storage primary key from the standard ECC P-256 template: the same
 * key on every boot, derived from the owner hierarchy's seed, so nothing
 * needs storing in the TPM.  Its name is what a sealed object's creation
 * data names as parent.
 */
static int create_primary(struct tpm_chip *chip, u32 *handle, u8 *name,
			  u16 *name_len)
{
	u8 tmpl[64];
	size_t n = 0;
	struct tpm_buf buf;
	struct s2_rd rd;
	const u8 *p;
	u16 len;
	int rc;

	put_be16(tmpl, &n, TPM_ALG_ECC);
	put_be16(tmpl, &n, TPM_ALG_SHA256);
	put_be32(tmpl, &n, TPM2_OA_FIXED_TPM | TPM2_OA_FIXED_PARENT |
			   TPM2_OA_SENSITIVE_DATA_ORIGIN |
			   TPM2_OA_USER_WITH_AUTH | TPM2_OA_NO_DA |
			   TPM2_OA_RESTRICTED | TPM2_OA_DECRYPT);
	put_be16(tmpl, &n, 0);		/* authPolicy */
	put_be16(tmpl, &n, TPM_ALG_AES);
	put_be16(tmpl, &n, 128);
	put_be16(tmpl, &n, TPM_ALG_CFB);
	put_be16(tmpl, &n, TPM_ALG_NULL);	/* scheme */
	put_be16(tmpl, &n, TPM2_ECC_NIST_P256);
	put_be16(tmpl, &n, TPM_ALG_NULL);	/* kdf */
	put_be16(tmpl, &n, 0);		/* unique.x */
	put_be16(tmpl, &n, 0);		/* unique.y */

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_CREATE_PRIMARY);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, TPM2_RH_OWNER);
	s2_wr_password_auth(&buf);
	tpm_buf_append_u16(&buf, 4);		/* inSensitive: both empty */
	tpm_buf_append_u16(&buf, 0);
	tpm_buf_append_u16(&buf, 0);
	s2_wr_tpm2b(&buf, tmpl, n);
	tpm_buf_append_u16(&buf, 0);		/* outsideInfo */
	tpm_buf_append_u32(&buf, 0);		/* creationPCR: none */
	rc = s2_tpm_send(chip, &buf, &rd, "creating the storage key");
	if (rc)
		goto out;
	*handle = s2_rd_u32(&rd);
	s2_rd_u32(&rd);				/* parameterSize */
	s2_rd_tpm2b(&rd, &len, PAGE_SIZE);	/* outPublic */
	s2_rd_tpm2b(&rd, &len, PAGE_SIZE);	/* creationData */
	s2_rd_tpm2b(&rd, &len, PAGE_SIZE);	/* creationHash */
	s2_rd_u16(&rd);				/* creationTicket */
	s2_rd_u32(&rd);
	s2_rd_tpm2b(&rd, &len, PAGE_SIZE);
	p = s2_rd_tpm2b(&rd, name_len, S2_NAME_MAX);
	if (!p) {
		/* A handle the TPM did give is flushed; a garbled one is not. */
		if (rd.off > TPM_HEADER_SIZE + 4)
			tpm2_flush_context(chip, *handle);
		rc = -EIO;
		goto out;
	}
	memcpy(name, p, *name_len);
out:
	tpm_buf_destroy(&buf);
	return rc;
}

/* The stored blob, parsed: spans into it, each a whole TPM2B. */
struct s2_sealed {
	const u8 *pub, *priv, *cdata, *ticket;
	size_t pub_len, priv_len, cdata_len, ticket_len;
};

static int parse_blob(const u8 *blob, size_t len, struct s2_sealed *s)
{
	struct s2_rd rd;
	size_t start;
	u16 n;

	s2_rd_init(&rd, blob, len);
	s->pub = s2_rd_tpm2b_span(&rd, &s->pub_len, S2_TPM2B_MAX);
	s->priv = s2_rd_tpm2b_span(&rd, &s->priv_len, S2_TPM2B_MAX);
	s->cdata = s2_rd_tpm2b_span(&rd, &s->cdata_len, S2_TPM2B_MAX);
	start = rd.off;
	if (s2_rd_u16(&rd) != TPM2_ST_CREATION ||
	    s2_rd_u32(&rd) != TPM2_RH_OWNER)
		return -EINVAL;
	s2_rd_tpm2b(&rd, &n, S2_TICKET_DIGEST_MAX);
	if (rd.bad || rd.off != len)
		return -EINVAL;
	s->ticket = blob + start;
	s->ticket_len = rd.off - start;
	return 0;
}

/*
 * The sealed object's public area is the one the kernel makes, with the
 * policy of this boot's PCRs: a sealed object made on another boot chain
 * differs only in its policy.
 */
static int check_public(const struct s2_sealed *s,
			const struct s2_pcr_state *st, const char **why)
{
	struct s2_rd rd;
	const u8 *policy;
	u16 len;

	s2_rd_init(&rd, s->pub + 2, s->pub_len - 2);
	if (s2_rd_u16(&rd) != TPM_ALG_KEYEDHASH ||
	    s2_rd_u16(&rd) != TPM_ALG_SHA256 ||
	    s2_rd_u32(&rd) != S2_SEALED_ATTRS)
		goto not_ours;
	policy = s2_rd_tpm2b(&rd, &len, SHA256_DIGEST_SIZE);
	if (!policy || len != SHA256_DIGEST_SIZE ||
	    s2_rd_u16(&rd) != TPM_ALG_NULL)
		goto not_ours;
	s2_rd_tpm2b(&rd, &len, SHA256_DIGEST_SIZE);	/* unique */
	if (rd.bad || rd.off != rd.len)
		goto not_ours;
	if (memcmp(policy, st->policy, SHA256_DIGEST_SIZE)) {
		*why =
			"key sealed for other boot measurements (firmware, boot loader or kernel changed)";
		return -EKEYREJECTED;
	}
	return 0;
not_ours:
	*why = "the sealed key is not one the kernel makes";
	return -EKEYREJECTED;
}

/*
 * The creation data says the object was made under our storage key
 * while the selected PCRs, PCR 23 among them, had the expected values.
 */
static bool created_in_state(const struct s2_sealed *s,
			     const struct s2_pcr_state *st,
			     const u8 *parent, u16 parent_len)
{
	u8 sel[S2_PCR_SELECTION_LEN];
	const u8 *p;
	struct s2_rd rd;
	u16 len;

	s2_rd_init(&rd, s->cdata + 2, s->cdata_len - 2);
	s2_pcr_selection_bytes(st->selection, sel);
	p = s2_rd_bytes(&rd, sizeof(sel));
	if (!p || memcmp(p, sel, sizeof(sel)))
		return false;
	p = s2_rd_tpm2b(&rd, &len, SHA256_DIGEST_SIZE);
	if (!p || len != SHA256_DIGEST_SIZE ||
	    memcmp(p, st->digest, len))
		return false;
	s2_rd_u8(&rd);					/* locality */
	if (s2_rd_u16(&rd) != TPM_ALG_SHA256)
		return false;
	p = s2_rd_tpm2b(&rd, &len, S2_NAME_MAX);	/* parentName */
	if (!p || len != parent_len || memcmp(p, parent, len))
		return false;
	s2_rd_tpm2b(&rd, &len, S2_NAME_MAX);	/* parentQualifiedName */
	s2_rd_tpm2b(&rd, &len, 0);		/* outsideInfo: none */
	return !rd.bad && rd.off == rd.len;
}

static int create_sealed(struct tpm_chip *chip, u32 parent,
			 const struct s2_pcr_state *st, const u8 *secret,
			 size_t secret_len, u8 *blob, size_t *blob_len)
{
	u8 pub[2 + 2 + 4 + 2 + SHA256_DIGEST_SIZE + 2 + 2];
	size_t n = 0, total = 0;
	struct tpm_buf buf;
	struct s2_rd rd;
	const u8 *span[3];
	size_t span_len[3];
	u16 len;
	int rc, i;

	put_be16(pub, &n, TPM_ALG_KEYEDHASH);
	put_be16(pub, &n, TPM_ALG_SHA256);
	put_be32(pub, &n, S2_SEALED_ATTRS);
	put_be16(pub, &n, SHA256_DIGEST_SIZE);
	memcpy(pub + n, st->policy, SHA256_DIGEST_SIZE);
	n += SHA256_DIGEST_SIZE;
	put_be16(pub, &n, TPM_ALG_NULL);	/* scheme */
	put_be16(pub, &n, 0);			/* unique */

	/*
	 * The parent's auth is empty, but the kernel's HMAC session (salted
	 * to the null seed) encrypts inSensitive, the image key, on its way
	 * over the TPM's bus.
	 */
	rc = tpm2_start_auth_session(chip);
	if (rc)
		return rc;
	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_CREATE);
	if (rc) {
		tpm2_end_auth_session(chip);
		return rc;
	}
	rc = tpm_buf_append_name(chip, &buf, parent, NULL);
	if (rc)
		goto out;
	tpm_buf_append_hmac_session(chip, &buf, TPM2_SA_DECRYPT, NULL, 0);
	tpm_buf_append_u16(&buf, 2 + 2 + secret_len);	/* inSensitive */
	tpm_buf_append_u16(&buf, 0);			/* userAuth */
	s2_wr_tpm2b(&buf, secret, secret_len);
	s2_wr_tpm2b(&buf, pub, n);
	tpm_buf_append_u16(&buf, 0);			/* outsideInfo */
	s2_wr_pcr_selection(&buf, st->selection);	/* creationPCR */
	rc = s2_tpm_send_hmac(chip, &buf, &rd, "sealing the image key");
	if (rc)
		goto out;
	s2_rd_u32(&rd);					/* parameterSize */
	/* The blob is outPublic, outPrivate, creationData, the ticket. */
	span[1] = s2_rd_tpm2b_span(&rd, &span_len[1], S2_TPM2B_MAX);
	span[0] = s2_rd_tpm2b_span(&rd, &span_len[0], S2_TPM2B_MAX);
	span[2] = s2_rd_tpm2b_span(&rd, &span_len[2], S2_TPM2B_MAX);
	s2_rd_tpm2b(&rd, &len, SHA256_DIGEST_SIZE);	/* creationHash */
	if (rd.bad ||
	    span_len[0] + span_len[1] + span_len[2] > S2_TPM_BLOB_MAX) {
		rc = -EIO;
		goto out;
	}
	for (i = 0; i < 3; i++) {
		memcpy(blob + total, span[i], span_len[i]);
		total += span_len[i];
	}
	/* The ticket: tag, hierarchy, digest. */
	n = rd.off;
	s2_rd_u16(&rd);
	s2_rd_u32(&rd);
	s2_rd_tpm2b(&rd, &len, S2_TICKET_DIGEST_MAX);
	if (rd.bad || total + rd.off - n > S2_TPM_BLOB_MAX) {
		rc = -EIO;
		goto out;
	}
	memcpy(blob + total, rd.p + n, rd.off - n);
	*blob_len = total + rd.off - n;
out:
	wipe_destroy(&buf);
	return rc;
}

static int load_sealed(struct tpm_chip *chip, u32 parent,
		       const struct s2_sealed *s, u32 *handle)
{
	struct tpm_buf buf;
	struct s2_rd rd;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_LOAD);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, parent);
	s2_wr_password_auth(&buf);
	tpm_buf_append(&buf, s->priv, s->priv_len);
	tpm_buf_append(&buf, s->pub, s->pub_len);
	rc = s2_tpm_send(chip, &buf, &rd, NULL);
	if (!rc) {
		*handle = s2_rd_u32(&rd);
		if (rd.bad)
			rc = -EIO;
	}
	tpm_buf_destroy(&buf);
	return rc;
}

/* The TPM confirms that it made @object with the creation data given. */
static int certify_creation(struct tpm_chip *chip, u32 object,
			    const struct s2_sealed *s)
{
	u8 hash[SHA256_DIGEST_SIZE];
	struct tpm_buf buf;
	struct s2_rd rd;
	int rc;

	/* Hashed here, not taken from the image: the check is about these. */
	sha256(s->cdata + 2, s->cdata_len - 2, hash);
	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_CERTIFY_CREATION);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, TPM2_RH_NULL);	/* no signature wanted */
	tpm_buf_append_u32(&buf, object);
	s2_wr_password_auth(&buf);
	tpm_buf_append_u16(&buf, 0);			/* qualifyingData */
	s2_wr_tpm2b(&buf, hash, sizeof(hash));
	tpm_buf_append_u16(&buf, TPM_ALG_NULL);		/* inScheme */
	tpm_buf_append(&buf, s->ticket, s->ticket_len);
	rc = s2_tpm_send(chip, &buf, &rd, NULL);
	tpm_buf_destroy(&buf);
	return rc;
}

static int unseal_with_policy(struct tpm_chip *chip, u32 object,
			      const struct s2_pcr_state *st, u8 *secret,
			      size_t secret_len)
{
	u8 nonce[16];
	struct tpm_buf buf;
	struct s2_rd rd;
	const u8 *p;
	u32 session;
	u16 len;
	int rc;

	get_random_bytes(nonce, sizeof(nonce));
	rc = tpm_buf_init(&buf, TPM2_ST_NO_SESSIONS, TPM2_CC_START_AUTH_SESS);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, TPM2_RH_NULL);		/* tpmKey */
	tpm_buf_append_u32(&buf, TPM2_RH_NULL);		/* bind */
	s2_wr_tpm2b(&buf, nonce, sizeof(nonce));
	tpm_buf_append_u16(&buf, 0);			/* encryptedSalt */
	tpm_buf_append_u8(&buf, TPM2_SE_POLICY);
	tpm_buf_append_u16(&buf, TPM_ALG_NULL);		/* symmetric */
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	rc = s2_tpm_send(chip, &buf, &rd, "starting a policy session");
	if (rc)
		goto out;
	session = s2_rd_u32(&rd);
	if (rd.bad) {
		rc = -EIO;
		goto out;
	}

	tpm_buf_reset(&buf, TPM2_ST_NO_SESSIONS, TPM2_CC_POLICY_PCR);
	tpm_buf_append_u32(&buf, session);
	tpm_buf_append_u16(&buf, 0);	/* pcrDigest: the PCRs as they are */
	s2_wr_pcr_selection(&buf, st->selection);
	rc = s2_tpm_send(chip, &buf, &rd, "asserting the PCR policy");
	if (rc) {
		tpm2_flush_context(chip, session);
		goto out;
	}

	/*
	 * The policy session ends with this command, whatever its outcome.
	 * The kernel's HMAC session rides along to encrypt the answer, the
	 * image key, on the TPM's bus.
	 */
	rc = tpm2_start_auth_session(chip);
	if (rc) {
		tpm2_flush_context(chip, session);
		goto out;
	}
	tpm_buf_reset(&buf, TPM2_ST_SESSIONS, TPM2_CC_UNSEAL);
	rc = tpm_buf_append_name(chip, &buf, object, NULL);
	if (rc) {
		tpm2_flush_context(chip, session);
		goto out;
	}
	s2_wr_policy_auth(&buf, session);
	tpm_buf_append_hmac_session_opt(chip, &buf, TPM2_SA_ENCRYPT, NULL, 0);
	rc = s2_tpm_send_hmac(chip, &buf, &rd, NULL);
	if (rc) {
		tpm2_flush_context(chip, session);
		goto out;
	}
	s2_rd_u32(&rd);					/* parameterSize */
	p = s2_rd_tpm2b(&rd, &len, secret_len);
	if (!p || len != secret_len)
		rc = -EIO;
	else
		memcpy(secret, p, len);
out:
	wipe_destroy(&buf);
	return rc;
}

#define S2_PCR4_OFF_LOG \
	"PCR 4 is off the event log: started by kexec, or extended since boot"
#define S2_KEXEC_STARTED \
	"this kernel was started by kexec, so the boot PCRs are not its own: reboot first"

/*
 * Set once PCR 4 was found off the event log (kexec_pcr_as_logged()): it
 * cannot come back before the TPM is reset, and the flag checks, which
 * may not talk to the TPM, can then say so too.
 */
static bool s2_pcr4_off_log;

/*
 * What the chip's flags alone say against sealing to it, read without
 * the chip's ops (no TPM I/O); other bits of the word change under
 * suspend, hence READ_ONCE().
 */
static bool s2_tpm_flags_ok(struct tpm_chip *chip, const char **why)
{
	unsigned int flags = READ_ONCE(chip->flags);

	if (!(flags & TPM_CHIP_FLAG_TPM2)) {
		*why = "the TPM is not a TPM 2.0";
		return false;
	}
	/*
	 * A vTPM proxy is a TPM that a process answers for: root could make
	 * one, unbind the real TPM's driver, and approve any forgery.
	 */
	if (flags & TPM_CHIP_FLAG_VIRTUAL) {
		*why = "the TPM is a virtual one that a process answers for";
		return false;
	}
	if (flags & (TPM_CHIP_FLAG_DISABLE | TPM_CHIP_FLAG_FIRMWARE_UPGRADE)) {
		*why = "the TPM is disabled or in firmware upgrade mode";
		return false;
	}
	if (!IS_ENABLED(CONFIG_TCG_TPM_RESTRICT_PCR)) {
		*why = "the kernel does not keep PCR 23 from user space";
		return false;
	}
	/*
	 * A kernel started by kexec inherits the boot PCRs: without patch
	 * 0007 moving PCR 4 first, it could unseal, or forge, what this
	 * kernel seals.  With it, a kernel loaded since boot means PCR 4
	 * moved: a key sealed now would not unseal at the next boot, and one
	 * sealed before does not unseal now (the next boot still can).
	 * The patch is also what tells this kernel whether kexec started it,
	 * which only x86 records.
	 */
	if (!IS_ENABLED(CONFIG_KEXEC_EXTEND_PCR)) {
		*why = "the kernel cannot see kexec (no CONFIG_KEXEC_EXTEND_PCR)";
		return false;
	}
	if (!IS_ENABLED(CONFIG_X86)) {
		*why = "only x86 records whether kexec started the kernel";
		return false;
	}
	/*
	 * Its loader may have moved PCR 4 and then let root rewrite the
	 * event log in memory to match, or not moved it at all (a kernel
	 * without patch 0007, booted by the firmware, that let root seal a
	 * key of its choosing): the boot PCRs are not this kernel's own.
	 */
	if (kexec_started()) {
		*why = S2_KEXEC_STARTED;
		return false;
	}
	if (READ_ONCE(s2_pcr4_off_log)) {
		*why = S2_PCR4_OFF_LOG;
		return false;
	}
	if (kexec_pcr_extended()) {
		*why = "a kexec or crash kernel was loaded since boot, which moved PCR 4: reboot first";
		return false;
	}
	return true;
}

/*
 * Whether KEXEC_PCR (4) holds what the firmware's event log replays to.
 * Patch 0007 extends it, unlogged, when a kexec kernel is loaded; a
 * kernel that finds it moved was started by kexec (or PCR 4 was extended
 * since boot, which root may do to itself): what it seals the next boot
 * would refuse, and a key sealed at that value could have been made by a
 * kernel that lets root choose it.  Checked with the ops lock held.
 */
static bool kexec_pcr_as_logged(struct tpm_chip *chip, const char **why)
{
	const u8 *log = chip->log.bios_event_log;
	u8 logged[SHA256_DIGEST_SIZE], now[SHA256_DIGEST_SIZE];
	const char *bad;

	if (!log) {
		*why = "the firmware left no TPM event log to check PCR 4 against";
		return false;
	}
	if (s2_tpm_log_replay(log, (const u8 *)chip->log.bios_event_log_end - log,
			      S2_KEXEC_PCR, logged, &bad)) {
		*why = bad;
		return false;
	}
	if (pcr_read(chip, S2_KEXEC_PCR, now)) {
		*why = "the TPM did not answer a PCR read";
		return false;
	}
	if (memcmp(now, logged, sizeof(now))) {
		WRITE_ONCE(s2_pcr4_off_log, true);
		*why = S2_PCR4_OFF_LOG;
		return false;
	}
	return true;
}

struct tpm_chip *s2_tpm_get(const char **why)
{
	struct tpm_chip *chip = tpm_default_chip();
	struct device *parent;
	bool logged;

	if (!chip) {
		*why = "there is no TPM (or its driver is not loaded)";
		return NULL;
	}
	if (!s2_tpm_flags_ok(chip, why))
		goto put;
	/*
	 * The TPM core frees chip->log when the chip is unregistered, before
	 * it waits for the holders of its ops.  A chip is unregistered from
	 * its driver's remove, under the lock of the device it hangs from:
	 * holding that lock while the log is read keeps the log there.
	 */
	parent = chip->dev.parent;
	if (!parent) {
		*why = "the TPM has no device behind it";
		goto put;
	}
	device_lock(parent);
	if (tpm_try_get_ops(chip)) {
		device_unlock(parent);
		*why = "the TPM is going away";
		goto put;
	}
	logged = kexec_pcr_as_logged(chip, why);
	device_unlock(parent);
	if (!logged) {
		tpm_put_ops(chip);
		goto put;
	}
	return chip;
put:
	put_device(&chip->dev);
	return NULL;
}

bool s2_tpm_present(void)
{
	struct tpm_chip *chip = tpm_default_chip();
	const char *why;
	bool ok;

	if (!chip)
		return false;
	ok = s2_tpm_flags_ok(chip, &why);
	put_device(&chip->dev);
	return ok;
}

void s2_tpm_put(struct tpm_chip *chip)
{
	tpm_put_ops(chip);
	put_device(&chip->dev);
}

int __s2_tpm_seal(const u8 *secret, size_t secret_len, u32 boot_pcrs,
		  bool kernel_state, u8 *blob, size_t *blob_len,
		  const char **why)
{
	struct s2_pcr_state st;
	u8 name[S2_NAME_MAX];
	struct tpm_chip *chip;
	u32 primary;
	u16 name_len;
	int rc, rc2;

	if (!secret_len || secret_len > S2_TPM_SECRET_MAX ||
	    boot_pcrs & ~S2_TPM_BOOT_PCRS_VALID) {
		*why = "invalid sealing request";
		return -EINVAL;
	}
	chip = s2_tpm_get(why);
	if (!chip)
		return -ENODEV;
	rc = kernel_state ? kernel_state_enter(chip) : 0;
	if (rc) {
		*why = "the TPM refused to set PCR 23";
		goto leave;
	}
	rc = expected_state(chip, boot_pcrs, &st);
	if (rc) {
		*why = "the TPM's SHA-256 PCRs cannot be read";
		goto leave;
	}
	rc = create_primary(chip, &primary, name, &name_len);
	if (rc) {
		*why = "the TPM refused to make its storage key (owner password set?)";
		goto leave;
	}
	rc = create_sealed(chip, primary, &st, secret, secret_len, blob,
			   blob_len);
	if (rc)
		*why = "the TPM refused to seal the image key";
	tpm2_flush_context(chip, primary);
leave:
	rc2 = kernel_state_leave(chip);
	if (!rc && rc2) {
		*why = "the TPM refused to reset PCR 23";
		rc = rc2;
	}
	s2_tpm_put(chip);
	return rc > 0 ? -EIO : rc;
}

int s2_tpm_seal(const u8 *secret, size_t secret_len, u32 boot_pcrs,
		u8 *blob, size_t *blob_len, const char **why)
{
	return __s2_tpm_seal(secret, secret_len, boot_pcrs, true, blob,
			     blob_len, why);
}

int s2_tpm_unseal(const u8 *blob, size_t blob_len, u32 boot_pcrs,
		  u8 *secret, size_t secret_len, const char **why)
{
	struct s2_pcr_state st;
	struct s2_sealed s;
	u8 name[S2_NAME_MAX];
	struct tpm_chip *chip;
	u32 primary, object;
	u16 name_len;
	int rc, rc2;

	if (!secret_len || secret_len > S2_TPM_SECRET_MAX ||
	    blob_len > S2_TPM_BLOB_MAX || boot_pcrs & ~S2_TPM_BOOT_PCRS_VALID ||
	    parse_blob(blob, blob_len, &s)) {
		*why = "the sealed image key is malformed";
		return -EINVAL;
	}
	chip = s2_tpm_get(why);
	if (!chip)
		return -ENODEV;
	rc = kernel_state_enter(chip);
	if (rc) {
		*why = "the TPM refused to set PCR 23";
		goto leave;
	}
	rc = expected_state(chip, boot_pcrs, &st);
	if (rc) {
		*why = "the TPM's SHA-256 PCRs cannot be read";
		goto leave;
	}
	rc = check_public(&s, &st, why);
	if (rc)
		goto leave;
	rc = create_primary(chip, &primary, name, &name_len);
	if (rc) {
		*why = "the TPM refused to make its storage key (owner password set?)";
		goto leave;
	}
	if (!created_in_state(&s, &st, name, name_len)) {
		*why = "sealed key not made by the kernel (PCR 23 not in its state at creation)";
		rc = -EKEYREJECTED;
		goto flush_primary;
	}
	rc = load_sealed(chip, primary, &s, &object);
	if (rc) {
		*why = "the TPM refused to load the sealed key (another TPM, or TPM cleared)";
		goto flush_primary;
	}
	rc = certify_creation(chip, object, &s);
	if (rc) {
		*why = "the TPM does not confirm the sealed key's creation data";
		rc = -EKEYREJECTED;
		goto flush_object;
	}
	rc = unseal_with_policy(chip, object, &st, secret, secret_len);
	if (rc)
		*why = "the TPM refused to unseal the key (PCRs differ from sealing)";
flush_object:
	tpm2_flush_context(chip, object);
flush_primary:
	tpm2_flush_context(chip, primary);
leave:
	rc2 = kernel_state_leave(chip);
	if (!rc && rc2) {
		*why = "the TPM refused to reset PCR 23";
		rc = rc2;
	}
	if (rc)
		memzero_explicit(secret, secret_len);
	s2_tpm_put(chip);
	rc = s2_tpm_errno(rc);
	if (s2_tpm_no_verdict(rc))
		*why = "the TPM did not work (not started, in failure mode, busy or not answering): no verdict on the sealed key";
	return rc;
}

/*
 * Sealing and unsealing carry the image key: without the kernel's HMAC and
 * parameter-encryption sessions they would cross the TPM's bus in the
 * clear, for anyone with a probe on the LPC or SPI lines.  Counter moves
 * carry no secret and go on without them (s2_tpm_get()), so an image
 * sealed by another kernel can still be retired here.
 */
bool s2_tpm_usable(const char **why)
{
	struct tpm_chip *chip;

	if (!IS_ENABLED(CONFIG_TCG_TPM2_HMAC)) {
		*why = "this kernel is built without CONFIG_TCG_TPM2_HMAC, so the sealed key would cross the TPM's bus in the clear";
		return false;
	}
	chip = s2_tpm_get(why);
	if (!chip)
		return false;
	s2_tpm_put(chip);
	return true;
}
