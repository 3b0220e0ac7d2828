// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware's TPM event log, replayed for one PCR.
 *
 * A kernel started by kexec finds the PCRs as the kernel that loaded it
 * left them, and may be any kernel signed by a trusted key.  Kernel patch
 * 0007 extends PCR 4 when a kexec kernel is loaded, an extend no event
 * log records; so a kernel whose PCR 4 is not what its event log replays
 * to was not started by the boot chain the log describes, and must not
 * seal or unseal (docs/tpm-lockdown.md, "kexec").
 *
 * The log is the crypto-agile one of the TCG PC Client specification: a
 * TCG_PCR_EVENT header whose Spec ID Event03 lists the banks and their
 * digest sizes, then TCG_PCR_EVENT2 records.  Everything in it is read
 * through bounds checks, little-endian as the specification says.
 */
#include <crypto/sha2.h>
#include <linux/string.h>
#include <linux/tpm.h>
#include <linux/tpm_eventlog.h>
#include <linux/unaligned.h>
#include "tpm.h"

#define EV_NO_ACTION_TYPE	3
#define SPEC_ID_SIGNATURE	"Spec ID Event03"
#define SPEC_ID_MAX_ALGS	16

struct log_rd {
	const u8 *p;
	size_t len;
	size_t off;
};

static const u8 *take(struct log_rd *rd, size_t n)
{
	const u8 *p;

	if (n > rd->len - rd->off)
		return NULL;
	p = rd->p + rd->off;
	rd->off += n;
	return p;
}

static bool take_le32(struct log_rd *rd, u32 *v)
{
	const u8 *p = take(rd, 4);

	if (p)
		*v = get_unaligned_le32(p);
	return p;
}

static bool take_le16(struct log_rd *rd, u16 *v)
{
	const u8 *p = take(rd, 2);

	if (p)
		*v = get_unaligned_le16(p);
	return p;
}

/* The digest size of every bank the log has, from its Spec ID event. */
struct log_banks {
	u32 count;
	u16 alg[SPEC_ID_MAX_ALGS];
	u16 size[SPEC_ID_MAX_ALGS];
};

static int read_spec_id(struct log_rd *rd, struct log_banks *b,
			const char **why)
{
	u32 pcr, type, event_size, i;
	struct log_rd ev;
	const u8 *sig;

	/* TCG_PCR_EVENT: pcr, type, a SHA-1 digest, the event. */
	if (!take_le32(rd, &pcr) || !take_le32(rd, &type) ||
	    !take(rd, TPM_DIGEST_SIZE) || !take_le32(rd, &event_size) ||
	    type != EV_NO_ACTION_TYPE) {
		*why = "the TPM event log does not start with a Spec ID event";
		return -EINVAL;
	}
	ev.p = take(rd, event_size);
	ev.len = event_size;
	ev.off = 0;
	/* signature[16], platformClass, four version bytes, numberOfAlgorithms */
	sig = ev.p ? take(&ev, 16) : NULL;
	if (!sig || memcmp(sig, SPEC_ID_SIGNATURE, sizeof(SPEC_ID_SIGNATURE)) ||
	    !take(&ev, 4 + 4) || !take_le32(&ev, &b->count) ||
	    !b->count || b->count > SPEC_ID_MAX_ALGS) {
		*why = "the TPM event log is not in the crypto-agile format";
		return -EINVAL;
	}
	for (i = 0; i < b->count; i++) {
		u32 j;

		if (!take_le16(&ev, &b->alg[i]) ||
		    !take_le16(&ev, &b->size[i]) ||
		    b->size[i] > SHA512_DIGEST_SIZE ||
		    (b->alg[i] == TPM_ALG_SHA256 &&
		     b->size[i] != SHA256_DIGEST_SIZE))
			goto bad;
		/* A bank listed twice: which size would its digests have? */
		for (j = 0; j < i; j++)
			if (b->alg[j] == b->alg[i])
				goto bad;
	}
	return 0;
bad:
	*why = "the TPM event log's Spec ID event is malformed";
	return -EINVAL;
}

/*
 * Replay the SHA-256 bank of @pcr (below 24) from the event log @log of
 * @len bytes into @value: what the PCR holds if nothing but the logged
 * events extended it.  0, or -EINVAL and why not.
 */
int s2_tpm_log_replay(const u8 *log, size_t len, u32 pcr, u8 *value,
		      const char **why)
{
	struct log_rd rd = { .p = log, .len = len };
	struct log_banks b;
	u8 both[2 * SHA256_DIGEST_SIZE];
	bool sha256_bank = false;
	int rc, i;

	if (!log || pcr >= 24) {
		*why = "there is no TPM event log";
		return -EINVAL;
	}
	rc = read_spec_id(&rd, &b, why);
	if (rc)
		return rc;
	for (i = 0; i < b.count; i++)
		if (b.alg[i] == TPM_ALG_SHA256)
			sha256_bank = true;
	if (!sha256_bank) {
		*why = "the TPM event log has no SHA-256 bank";
		return -EINVAL;
	}

	/* Locality 0 start-up: every PCR from zeros (PCR 0 aside, below). */
	memset(value, 0, SHA256_DIGEST_SIZE);
	while (rd.off < rd.len) {
		const u8 *digest = NULL, *event;
		u32 ev_pcr, type, count, event_size, j;

		/*
		 * A log read from an ACPI log area fills the whole area: the
		 * rest is zeros.  Zeros anywhere else are no event.
		 */
		if (!memchr_inv(rd.p + rd.off, 0, rd.len - rd.off))
			break;
		if (!take_le32(&rd, &ev_pcr) || !take_le32(&rd, &type) ||
		    !take_le32(&rd, &count) || !count || count > b.count)
			goto bad;
		for (j = 0; j < count; j++) {
			const u8 *d;
			u16 alg;
			int k;

			if (!take_le16(&rd, &alg))
				goto bad;
			for (k = 0; k < b.count && b.alg[k] != alg; k++)
				;
			if (k == b.count)	/* its size is unknown */
				goto bad;
			d = take(&rd, b.size[k]);
			if (!d)
				goto bad;
			if (alg == TPM_ALG_SHA256)
				digest = d;
		}
		if (!take_le32(&rd, &event_size))
			goto bad;
		event = take(&rd, event_size);
		if (!event)
			goto bad;
		if (ev_pcr != pcr)
			continue;
		if (type == EV_NO_ACTION_TYPE) {
			/* StartupLocality: PCR 0 starts at the locality. */
			if (pcr == 0 && event_size == 17 &&
			    !memcmp(event, "StartupLocality", 16))
				value[SHA256_DIGEST_SIZE - 1] = event[16];
			continue;
		}
		if (!digest)
			goto bad;
		memcpy(both, value, SHA256_DIGEST_SIZE);
		memcpy(both + SHA256_DIGEST_SIZE, digest, SHA256_DIGEST_SIZE);
		sha256(both, sizeof(both), value);
	}
	return 0;
bad:
	*why = "the TPM event log is cut short or malformed";
	return -EINVAL;
}
