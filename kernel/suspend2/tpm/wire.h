/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TPM 2.0 marshalling for the sealed image key (tpm/seal.c): a bounded
 * reader for responses and stored blobs, and the pieces commands share.
 */
#ifndef _SUSPEND2_TPM_WIRE_H
#define _SUSPEND2_TPM_WIRE_H

#include <linux/types.h>

struct tpm_buf;
struct tpm_chip;

/* The owner hierarchy: the storage key and the image counter live there. */
#define TPM2_RH_OWNER		0x40000001

/* PCRs 0..23 of the SHA-256 bank: three bytes of selection bitmap. */
#define S2_PCR_SELECT_BYTES	3
/* A marshalled TPML_PCR_SELECTION of one bank. */
#define S2_PCR_SELECTION_LEN	(4 + 2 + 1 + S2_PCR_SELECT_BYTES)

struct s2_rd {
	const u8 *p;
	size_t len;
	size_t off;
	bool bad;		/* a read went past the end: all reads fail */
};

void s2_rd_init(struct s2_rd *rd, const u8 *p, size_t len);
const u8 *s2_rd_bytes(struct s2_rd *rd, size_t n);
u8 s2_rd_u8(struct s2_rd *rd);
u16 s2_rd_u16(struct s2_rd *rd);
u32 s2_rd_u32(struct s2_rd *rd);
const u8 *s2_rd_tpm2b(struct s2_rd *rd, u16 *len, size_t max);
const u8 *s2_rd_tpm2b_span(struct s2_rd *rd, size_t *span, size_t max);

void s2_wr_tpm2b(struct tpm_buf *buf, const u8 *p, u16 len);
void s2_wr_password_auth(struct tpm_buf *buf);
void s2_wr_policy_auth(struct tpm_buf *buf, u32 session);
void s2_wr_pcr_selection(struct tpm_buf *buf, u32 pcrs);
void s2_pcr_selection_bytes(u32 pcrs, u8 *out);

/*
 * A TPM error as an errno for the sealed key's callers: -EAGAIN when the
 * TPM gave no verdict (not started, in failure mode, busy, or no TPM 2.0
 * answering at all, as QEMU's backend answers once swtpm is gone), so
 * that an image is kept for a boot where it works; -EKEYREJECTED for any
 * other TPM error; a negative @rc (the transport's) as it is.
 */
int s2_tpm_errno(int rc);

int s2_tpm_send(struct tpm_chip *chip, struct tpm_buf *buf, struct s2_rd *rd,
		const char *what);
int s2_tpm_send_hmac(struct tpm_chip *chip, struct tpm_buf *buf,
		     struct s2_rd *rd, const char *what);

/*
 * tpm/seal.c: the default chip if it is a TPM 2.0 the kernel keeps PCR 23
 * of, with its ops lock held; else NULL and why not.
 */
struct tpm_chip *s2_tpm_get(const char **why);
void s2_tpm_put(struct tpm_chip *chip);

#endif /* _SUSPEND2_TPM_WIRE_H */
