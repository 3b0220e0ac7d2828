// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's TPM (see tpm.h).  Asked each time rather than once at
 * load: a TPM driver may bind after the module loads, or go away.
 */
#include <linux/device.h>
#include <linux/tpm.h>
#include "tpm.h"

const char *s2_tpm_version(void)
{
	struct tpm_chip *chip = tpm_default_chip();
	const char *version;
	int tpm2;

	if (!chip)
		return "none";
	/* Negative when the chip's driver is going away. */
	tpm2 = tpm_is_tpm2(chip);
	version = tpm2 < 0 ? "none" : tpm2 ? "2.0" : "1.2";
	/* tpm_default_chip() took a reference on the chip's device. */
	put_device(&chip->dev);
	return version;
}

#ifdef CONFIG_TCG_TPM2_HMAC
/*
 * The TPM core's start-of-day set-up of its HMAC sessions, exported but
 * declared only in drivers/char/tpm/tpm.h: it derives the null seed's key
 * again and records its name.
 */
int tpm2_sessions_init(struct tpm_chip *chip);
#endif

void s2_tpm_restored(void)
{
#ifdef CONFIG_TCG_TPM2_HMAC
	struct tpm_chip *chip = tpm_default_chip();
	int rc;

	if (!chip)
		return;
	if (tpm_is_tpm2(chip) > 0 && !tpm_try_get_ops(chip)) {
		/* A session from before the reset is gone with it. */
		tpm2_end_auth_session(chip);
		rc = tpm2_sessions_init(chip);
		tpm_put_ops(chip);
		if (rc)
			pr_warn("suspend2: the TPM's null key after the resume: error %d\n",
				rc);
	}
	put_device(&chip->dev);
#endif
}
