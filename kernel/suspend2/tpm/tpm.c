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
