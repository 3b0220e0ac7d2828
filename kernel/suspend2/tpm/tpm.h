/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's TPM: what capabilities reports, and the image key sealed
 * to it (docs/tpm-lockdown.md).
 */
#ifndef _SUSPEND2_TPM_H
#define _SUSPEND2_TPM_H

#include <linux/bits.h>
#include <linux/kexec.h>
#include <linux/types.h>
#include "../image/format.h"

/* "none", "1.2" or "2.0": the default TPM chip, as the kernel sees it. */
const char *s2_tpm_version(void);

/*
 * In the kernel that was just restored: the machine was off, so the TPM
 * was reset and its null seed changed.  The kernel salts its HMAC
 * sessions to the null seed's key and, finding that key's name other
 * than the one it learnt at boot, takes the TPM for an interposer and
 * turns it off for good.  This kernel booted before the reset: it ends
 * any session it had and learns the new name here, as a boot would, as
 * soon as the cycle code runs again (a kernel thread that used the TPM
 * in between would still trip the check: docs/tpm-lockdown.md, Limits).
 * Harmless when the TPM was not reset: the same seed gives the same name.
 */
void s2_tpm_restored(void);

/*
 * A sealed secret as stored (at most S2_TPM_BLOB_MAX bytes): the sealed
 * object's TPM2B_PUBLIC and TPM2B_PRIVATE, its TPM2B_CREATION_DATA and
 * its TPMT_TK_CREATION.
 */
#define S2_TPM_SECRET_MAX	64
/* The boot PCRs a policy may name: PCR 23 is the kernel's own. */
#define S2_TPM_BOOT_PCRS_VALID	(BIT(23) - 1)
/*
 * The boot PCRs key = tpm seals to, and the only ones it unseals with:
 * firmware (0), option ROMs (2), boot loader and kernel (4), Secure Boot
 * state (7), and the kernel command line wherever a boot chain measures
 * it, since lockdown may come from it: GRUB's commands (8), the kernel's
 * EFI stub's LoadOptions and GRUB's files (9), systemd-stub's command
 * line (12).  A chain that measures nothing into one seals it at its
 * reset value, which a boot that measures a command line there cannot
 * reach.  Not PCR 11: systemd-pcrphase extends it while the system runs.
 * Never taken from an image: one sealed to fewer PCRs could come from
 * any boot chain.
 */
#define S2_TPM_BOOT_PCRS	(BIT(0) | BIT(2) | BIT(4) | BIT(7) | BIT(8) | \
				 BIT(9) | BIT(12))
/*
 * The PCR patch 0007 moves, unlogged, when a kexec kernel is loaded: a
 * kernel that finds it off the event log was started by kexec.
 */
#define S2_KEXEC_PCR		4
static_assert(S2_TPM_BOOT_PCRS & BIT(S2_KEXEC_PCR));
#ifdef CONFIG_KEXEC_EXTEND_PCR
static_assert(KEXEC_PCR == S2_KEXEC_PCR);
#endif

/*
 * tpm/eventlog.c: replay the SHA-256 bank of @pcr from a crypto-agile
 * event log; 0, or -EINVAL and why not.
 */
int s2_tpm_log_replay(const u8 *log, size_t len, u32 pcr, u8 *value,
		      const char **why);

/*
 * Whether @error, from sealing, unsealing or the counter, leaves the key
 * undecided: the TPM gave no verdict (not started, in failure mode, busy:
 * -EAGAIN), was not there or not usable (-ENODEV), or did not answer
 * (transport errors, memory).  A key so left is not refused.
 */
bool s2_tpm_no_verdict(int error);

/* A TPM 2.0 the image key can be sealed to; else why not, in @why. */
bool s2_tpm_usable(const char **why);

/*
 * The same from the chip's flags alone, without talking to the TPM: for
 * /sys/power/state, which anyone may read as often as they like.
 */
bool s2_tpm_present(void);

/*
 * tpm/seal.c.  Both need user space frozen, and give a reason in @why
 * when they fail: -ENODEV when there is no usable TPM 2.0,
 * -EKEYREJECTED when the TPM or the checks refuse a blob, -EINVAL when
 * a blob is malformed.
 */
int s2_tpm_seal(const u8 *secret, size_t secret_len, u32 boot_pcrs,
		u8 *blob, size_t *blob_len, const char **why);
int s2_tpm_unseal(const u8 *blob, size_t blob_len, u32 boot_pcrs,
		  u8 *secret, size_t secret_len, const char **why);
/*
 * tpm/counter.c: the image counter.  Hibernating moves it on and gives
 * its new value; resuming accepts an image only with the counter still
 * at its value (-EKEYREJECTED otherwise) and, with @bump, moves it on.
 */
int s2_tpm_counter_next(u64 *value, const char **why);
int s2_tpm_counter_claim(u64 expected, bool bump, const char **why);
/*
 * An image sealed with counter value @retired stops being the one to
 * resume: the counter moves on if it is still at that value, so that
 * its key never opens an image again.  0 once it is past it.
 */
int s2_tpm_counter_retire(u64 retired, const char **why);
/*
 * Every image sealed so far stops being the one to resume (a boot goes
 * on without one): the counter moves on if the TPM has one.  For when
 * the value comes from a header, which nothing has checked yet.
 */
int s2_tpm_counter_retire_all(const char **why);
/*
 * Sealing with PCR 23 left as it is, not in the kernel's state: what
 * root could do through /dev/tpmrm0, for the tests.
 */
int __s2_tpm_seal(const u8 *secret, size_t secret_len, u32 boot_pcrs,
		  bool kernel_state, u8 *blob, size_t *blob_len,
		  const char **why);

#endif /* _SUSPEND2_TPM_H */
