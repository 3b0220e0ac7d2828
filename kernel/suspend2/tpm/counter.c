// SPDX-License-Identifier: GPL-2.0
/*
 * The TPM's monotonic counter that keeps an older image from being
 * resumed (docs/tpm-lockdown.md, "A monotonic counter").  Hibernating
 * increments it and records the new value in the image, where the header
 * tag covers it; resuming accepts the image only if the counter still has
 * that value, and increments it, so each image resumes at most once and
 * an older one never.
 *
 * The counter is an NV index of type counter, defined by the kernel the
 * first time it is needed, under the owner hierarchy (empty owner
 * password, as for the storage key).  A TPM counter only ever moves up,
 * and a counter defined anew starts at the highest value any counter of
 * the TPM ever had, so root can move it on (refusing the current image,
 * which root can do anyway) but never back.  Root could define the index
 * first as an ordinary index it can write: the kernel refuses any index
 * there that is not a counter.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/tpm.h>
#include <linux/unaligned.h>
#include "tpm.h"
#include "wire.h"

/* In the owner's NV range (TCG handle registry: 0x01000000-0x013fffff). */
#define S2_NV_COUNTER		0x01325332

#define TPM2_CC_NV_DEFINE	0x012A
#define TPM2_CC_NV_INCREMENT	0x0134
#define TPM2_CC_NV_READ_PUBLIC	0x0169
#define TPM2_RC_HANDLE_P1	0x018B	/* no such index */

/* TPMA_NV */
#define TPMA_NV_AUTHWRITE	BIT(2)
#define TPMA_NV_TYPE_MASK	0xF0
#define TPMA_NV_COUNTER		0x10
#define TPMA_NV_AUTHREAD	BIT(18)
#define TPMA_NV_NO_DA		BIT(25)

static int nv_read_public(struct tpm_chip *chip, u32 *attrs, u16 *size)
{
	struct tpm_buf buf;
	struct s2_rd rd;
	u16 len;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_NO_SESSIONS, TPM2_CC_NV_READ_PUBLIC);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, S2_NV_COUNTER);
	rc = s2_tpm_send(chip, &buf, &rd, NULL);
	if (!rc) {
		s2_rd_u16(&rd);				/* nvPublic's size */
		if (s2_rd_u32(&rd) != S2_NV_COUNTER)
			rd.bad = true;
		s2_rd_u16(&rd);				/* nameAlg */
		*attrs = s2_rd_u32(&rd);
		s2_rd_tpm2b(&rd, &len, 64);		/* authPolicy */
		*size = s2_rd_u16(&rd);
		if (rd.bad)
			rc = -EIO;
	}
	tpm_buf_destroy(&buf);
	return rc;
}

static int nv_define(struct tpm_chip *chip)
{
	struct tpm_buf buf;
	struct s2_rd rd;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_NV_DEFINE);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, TPM2_RH_OWNER);
	s2_wr_password_auth(&buf);
	tpm_buf_append_u16(&buf, 0);			/* auth: empty */
	tpm_buf_append_u16(&buf, 4 + 2 + 4 + 2 + 2);	/* nvPublic */
	tpm_buf_append_u32(&buf, S2_NV_COUNTER);
	tpm_buf_append_u16(&buf, TPM_ALG_SHA256);
	tpm_buf_append_u32(&buf, TPMA_NV_COUNTER | TPMA_NV_AUTHWRITE |
			   TPMA_NV_AUTHREAD | TPMA_NV_NO_DA);
	tpm_buf_append_u16(&buf, 0);			/* authPolicy */
	tpm_buf_append_u16(&buf, 8);			/* dataSize */
	rc = s2_tpm_send(chip, &buf, &rd, "defining the image counter");
	tpm_buf_destroy(&buf);
	return rc;
}

/* The index is there and is a counter, whoever defined it. */
static int nv_ensure(struct tpm_chip *chip, bool define, const char **why)
{
	u32 attrs = 0;
	u16 size = 0;
	int rc;

	rc = nv_read_public(chip, &attrs, &size);
	if (rc == TPM2_RC_HANDLE_P1 && define) {
		rc = nv_define(chip);
		if (rc) {
			*why = "the TPM refused to define the image counter (owner password set?)";
			return rc;
		}
		rc = nv_read_public(chip, &attrs, &size);
	}
	if (rc == TPM2_RC_HANDLE_P1) {
		*why = "the TPM has no image counter (no image was sealed on it)";
		return -EKEYREJECTED;
	}
	if (rc) {
		*why = "the TPM's image counter cannot be read";
		return rc;
	}
	if ((attrs & TPMA_NV_TYPE_MASK) != TPMA_NV_COUNTER || size != 8) {
		*why = "the TPM's image counter index is not a counter";
		return -EKEYREJECTED;
	}
	return 0;
}

static int nv_increment(struct tpm_chip *chip)
{
	struct tpm_buf buf;
	struct s2_rd rd;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_NV_INCREMENT);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, S2_NV_COUNTER);	/* authHandle */
	tpm_buf_append_u32(&buf, S2_NV_COUNTER);
	s2_wr_password_auth(&buf);
	rc = s2_tpm_send(chip, &buf, &rd, "incrementing the image counter");
	tpm_buf_destroy(&buf);
	return rc;
}

static int nv_read(struct tpm_chip *chip, u64 *value)
{
	struct tpm_buf buf;
	struct s2_rd rd;
	const u8 *p;
	u16 len;
	int rc;

	rc = tpm_buf_init(&buf, TPM2_ST_SESSIONS, TPM2_CC_NV_READ);
	if (rc)
		return rc;
	tpm_buf_append_u32(&buf, S2_NV_COUNTER);	/* authHandle */
	tpm_buf_append_u32(&buf, S2_NV_COUNTER);
	s2_wr_password_auth(&buf);
	tpm_buf_append_u16(&buf, 8);			/* size */
	tpm_buf_append_u16(&buf, 0);			/* offset */
	rc = s2_tpm_send(chip, &buf, &rd, "reading the image counter");
	if (!rc) {
		s2_rd_u32(&rd);				/* parameterSize */
		p = s2_rd_tpm2b(&rd, &len, 8);
		if (!p || len != 8)
			rc = -EIO;
		else
			*value = get_unaligned_be64(p);
	}
	tpm_buf_destroy(&buf);
	return rc;
}

/*
 * Set once s2_tpm_counter_retire_all() moved the counter in this boot:
 * every image sealed before then is dead, so a retry (s2_stale_watch())
 * need not write the TPM's NV again, every few minutes for as long as a
 * disk refuses its anchor.  Cleared by the next seal, whose image is new.
 */
static bool s2_counter_retired_all;

int s2_tpm_counter_next(u64 *value, const char **why)
{
	struct tpm_chip *chip = s2_tpm_get(why);
	int rc;

	if (!chip)
		return -ENODEV;
	/* Before the increment: a reply lost after it still seals anew. */
	WRITE_ONCE(s2_counter_retired_all, false);
	rc = nv_ensure(chip, true, why);
	if (!rc) {
		rc = nv_increment(chip);
		if (!rc)
			rc = nv_read(chip, value);
		if (rc)
			*why = "the TPM refused to move the image counter on";
	}
	s2_tpm_put(chip);
	return rc > 0 ? -EIO : rc;
}

int s2_tpm_counter_claim(u64 expected, bool bump, const char **why)
{
	struct tpm_chip *chip = s2_tpm_get(why);
	u64 now = 0;
	int rc;

	if (!chip)
		return -ENODEV;
	rc = nv_ensure(chip, false, why);
	if (!rc) {
		rc = nv_read(chip, &now);
		if (rc)
			*why = "the TPM's image counter cannot be read";
	}
	if (!rc && now != expected) {
		*why = "image is not the newest one sealed on this TPM (an older image, or already resumed)";
		rc = -EKEYREJECTED;
	}
	if (!rc && bump) {
		rc = nv_increment(chip);
		/*
		 * A reply lost after the TPM moved the counter would keep an
		 * image whose key is spent: the counter says which it was.
		 */
		if (s2_tpm_no_verdict(s2_tpm_errno(rc)) && !nv_read(chip, &now))
			rc = now == expected + 1 ? 0 :
			     now == expected ? rc : -EKEYREJECTED;
		if (rc)
			*why = "the TPM refused to move the image counter on";
	}
	s2_tpm_put(chip);
	rc = s2_tpm_errno(rc);
	if (s2_tpm_no_verdict(rc))
		*why = "the TPM did not work (not started, in failure mode, busy or not answering): the image counter cannot be checked";
	return rc;
}

/*
 * Whatever root did to the index, a counter that reads @retired, or that
 * is gone (defined again, a counter starts at the highest value any had
 * on this TPM), moves on; one that reads another value has already left
 * @retired behind, and stays.
 */
int s2_tpm_counter_retire(u64 retired, const char **why)
{
	struct tpm_chip *chip = s2_tpm_get(why);
	u64 now = 0;
	int rc;

	if (!chip)
		return -ENODEV;
	rc = nv_ensure(chip, true, why);
	if (!rc) {
		rc = nv_read(chip, &now);
		/* Defined but never incremented: it has no value yet. */
		if (rc > 0 || (!rc && now == retired))
			rc = nv_increment(chip);
		if (rc)
			*why = "the TPM refused to move the image counter on";
	}
	s2_tpm_put(chip);
	return rc > 0 ? -EIO : rc;
}

/*
 * A boot that goes on without restoring an image leaves every image
 * sealed before it stale.  Which image that is cannot come from a header:
 * its key_scheme and counter are not authenticated until the key is
 * unsealed, and someone who writes the disk while the machine is off can
 * change them so that s2_tpm_counter_retire() is never asked for the
 * right value.  So the counter moves on whatever a header says.  An index
 * that is not there, or is not a counter, passes no image's claim (a
 * counter defined again starts past every value one had on this TPM):
 * nothing to retire then.
 */
int s2_tpm_counter_retire_all(const char **why)
{
	struct tpm_chip *chip;
	int rc;

	if (READ_ONCE(s2_counter_retired_all))
		return 0;
	chip = s2_tpm_get(why);
	if (!chip)
		return -ENODEV;
	rc = nv_ensure(chip, false, why);
	if (rc == -EKEYREJECTED) {
		rc = 0;
	} else if (!rc) {
		rc = nv_increment(chip);
		if (rc)
			*why = "the TPM refused to move the image counter on";
		else
			WRITE_ONCE(s2_counter_retired_all, true);
	}
	s2_tpm_put(chip);
	return rc > 0 ? -EIO : rc;
}
