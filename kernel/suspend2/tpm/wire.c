// SPDX-License-Identifier: GPL-2.0
/*
 * TPM 2.0 commands on the wire (see wire.h): what a command appends and
 * how a response is read.  A response is read through a cursor that
 * refuses to step past its end, so a short or garbled answer from the
 * TPM, or a hostile blob from an image header, ends in an error rather
 * than in a read beyond the buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/string.h>
#include <linux/tpm.h>
#include <linux/unaligned.h>
#include "tpm.h"
#include "wire.h"

void s2_rd_init(struct s2_rd *rd, const u8 *p, size_t len)
{
	rd->p = p;
	rd->len = len;
	rd->off = 0;
	rd->bad = false;
}

const u8 *s2_rd_bytes(struct s2_rd *rd, size_t n)
{
	const u8 *at;

	if (rd->bad || n > rd->len - rd->off) {
		rd->bad = true;
		return NULL;
	}
	at = rd->p + rd->off;
	rd->off += n;
	return at;
}

u8 s2_rd_u8(struct s2_rd *rd)
{
	const u8 *at = s2_rd_bytes(rd, 1);

	return at ? *at : 0;
}

u16 s2_rd_u16(struct s2_rd *rd)
{
	const u8 *at = s2_rd_bytes(rd, 2);

	return at ? get_unaligned_be16(at) : 0;
}

u32 s2_rd_u32(struct s2_rd *rd)
{
	const u8 *at = s2_rd_bytes(rd, 4);

	return at ? get_unaligned_be32(at) : 0;
}

/* A TPM2B: its u16 size, then that many bytes, at most @max of them. */
const u8 *s2_rd_tpm2b(struct s2_rd *rd, u16 *len, size_t max)
{
	*len = s2_rd_u16(rd);
	if (*len > max) {
		rd->bad = true;
		return NULL;
	}
	return s2_rd_bytes(rd, *len);
}

/* The bytes of a whole TPM2B, size included, as one span. */
const u8 *s2_rd_tpm2b_span(struct s2_rd *rd, size_t *span, size_t max)
{
	size_t start = rd->off;
	u16 len;

	s2_rd_tpm2b(rd, &len, max);
	if (rd->bad)
		return NULL;
	*span = rd->off - start;
	return rd->p + start;
}

void s2_wr_tpm2b(struct tpm_buf *buf, const u8 *p, u16 len)
{
	tpm_buf_append_u16(buf, len);
	if (len)
		tpm_buf_append(buf, p, len);
}

/* One password session with an empty password: what owner auth needs. */
void s2_wr_password_auth(struct tpm_buf *buf)
{
	tpm_buf_append_u32(buf, 9);		/* the size of what follows */
	tpm_buf_append_u32(buf, TPM2_RS_PW);
	tpm_buf_append_u16(buf, 0);		/* nonce */
	tpm_buf_append_u8(buf, 0);		/* attributes */
	tpm_buf_append_u16(buf, 0);		/* password */
}

/*
 * A policy session that the TPM ends after this command: a policy with
 * no password or HMAC in it carries no authorisation value.
 */
void s2_wr_policy_auth(struct tpm_buf *buf, u32 session)
{
	tpm_buf_append_u32(buf, 9);
	tpm_buf_append_u32(buf, session);
	tpm_buf_append_u16(buf, 0);
	tpm_buf_append_u8(buf, 0);		/* continueSession clear */
	tpm_buf_append_u16(buf, 0);
}

void s2_pcr_selection_bytes(u32 pcrs, u8 *out)
{
	put_unaligned_be32(1, out);		/* one bank */
	put_unaligned_be16(TPM_ALG_SHA256, out + 4);
	out[6] = S2_PCR_SELECT_BYTES;
	out[7] = pcrs & 0xff;
	out[8] = (pcrs >> 8) & 0xff;
	out[9] = (pcrs >> 16) & 0xff;
}

void s2_wr_pcr_selection(struct tpm_buf *buf, u32 pcrs)
{
	u8 sel[S2_PCR_SELECTION_LEN];

	s2_pcr_selection_bytes(pcrs, sel);
	tpm_buf_append(buf, sel, sizeof(sel));
}

/*
 * Sends @buf; on success @rd reads the response's body, past its header.
 * Returns 0, a negative errno, or the TPM's positive response code.
 */
/*
 * The same for a command carrying the kernel's HMAC session
 * (tpm2_start_auth_session(), CONFIG_TCG_TPM2_HMAC): the session's HMAC
 * and parameter encryption are filled in, and the response's HMAC is
 * checked and its first parameter decrypted before it is read.  Without
 * the kernel's sessions these do nothing, and the command goes as built.
 */
int s2_tpm_send_hmac(struct tpm_chip *chip, struct tpm_buf *buf,
		     struct s2_rd *rd, const char *what)
{
	int rc;

	if (buf->flags & TPM_BUF_OVERFLOW) {
		tpm2_end_auth_session(chip);
		return -E2BIG;
	}
	rc = tpm_buf_fill_hmac_session(chip, buf);
	if (rc)
		return rc;
	rc = tpm_transmit_cmd(chip, buf, 0, what);
	rc = tpm_buf_check_hmac_response(chip, buf, rc);
	if (rc)
		return rc;
	s2_rd_init(rd, buf->data, tpm_buf_length(buf));
	s2_rd_bytes(rd, TPM_HEADER_SIZE);
	return rd->bad ? -EIO : 0;
}

/* TPM 2.0 response code bits (TPM 2.0 Part 2, 6.6): format one, version 1, vendor, warning. */
#define S2_TPM_RC_FMT1		0x080
#define S2_TPM_RC_VER1		0x100
#define S2_TPM_RC_VENDOR	0x400
#define S2_TPM_RC_WARN		0x900
#define S2_TPM_RC_PCR_CHANGED	0x128
#define S2_TPM_RC_REBOOT	0x130
#define S2_TPM_RC_NEEDS_TEST	0x153

int s2_tpm_errno(int rc)
{
	if (rc <= 0)
		return rc;
	/* Format one: an error about a handle, session or parameter. */
	if (rc & S2_TPM_RC_FMT1)
		return -EKEYREJECTED;
	/* TPM 1.2's codes (a TPM 2.0 would not answer so), vendor codes. */
	if (!(rc & S2_TPM_RC_VER1) || (rc & S2_TPM_RC_VENDOR))
		return -EAGAIN;
	/* A warning: "try again later". */
	if ((rc & S2_TPM_RC_WARN) == S2_TPM_RC_WARN)
		return -EAGAIN;
	switch (rc) {
	case TPM2_RC_INITIALIZE:
	case TPM2_RC_FAILURE:
	case TPM2_RC_UPGRADE:
	case S2_TPM_RC_PCR_CHANGED:
	case S2_TPM_RC_REBOOT:
	case S2_TPM_RC_NEEDS_TEST:
		return -EAGAIN;
	}
	return -EKEYREJECTED;
}

bool s2_tpm_no_verdict(int error)
{
	switch (error) {
	case -EAGAIN:
	case -ENODEV:
	case -EIO:
	case -ETIME:
	case -ETIMEDOUT:
	case -EPIPE:
	case -ENOMEM:
		return true;
	}
	return false;
}

int s2_tpm_send(struct tpm_chip *chip, struct tpm_buf *buf, struct s2_rd *rd,
		const char *what)
{
	int rc;

	if (buf->flags & TPM_BUF_OVERFLOW)
		return -E2BIG;
	rc = tpm_transmit_cmd(chip, buf, 0, what);
	if (rc)
		return rc;
	s2_rd_init(rd, buf->data, tpm_buf_length(buf));
	s2_rd_bytes(rd, TPM_HEADER_SIZE);
	return rd->bad ? -EIO : 0;
}
