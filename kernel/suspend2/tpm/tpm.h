/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's TPM, for the image key sealed to it (docs/tpm-lockdown.md).
 * For now only what capabilities reports; the sealing comes next.
 */
#ifndef _SUSPEND2_TPM_H
#define _SUSPEND2_TPM_H

/* "none", "1.2" or "2.0": the default TPM chip, as the kernel sees it. */
const char *s2_tpm_version(void);

#endif /* _SUSPEND2_TPM_H */
