// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/power/state under kernel lockdown.  Lockdown makes the kernel stop
 * offering "disk" there, and systemd's logind then refuses "systemctl
 * hibernate" before it starts systemd-hibernate.service, whose drop-in
 * would run our cycle.  A sealed image is one lockdown can allow
 * (docs/tpm-lockdown.md), so the module registers as the kernel's
 * hibernation delegate (kernel patch 0006): while the selected profile
 * would make a sealed image and a TPM 2.0 is there to seal it to, the
 * kernel offers "disk" again, and a write of "disk" hibernates with that
 * profile.  s2_check_allowed() still refuses anything but key = tpm with
 * an encryption, with the reason in results/error, in case the profile
 * changed between the read and the write.
 *
 * Without lockdown the kernel hibernates by itself and never calls here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/suspend.h>
#include "../internal.h"
#include "../tpm/tpm.h"

/* On every read of /sys/power/state: no TPM command, only flags. */
static bool s2_delegate_available(void)
{
	return s2_selected_is_sealed() && s2_tpm_present();
}

/*
 * The kernel asks only for write access to /sys/power/state; the action
 * file asks for CAP_SYS_ADMIN, and so does this way to the same cycle.
 */
static int s2_delegate_hibernate(void)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return s2_run_selected(S2_ACT_HIBERNATE);
}

static const struct hibernation_delegate s2_delegate = {
	.owner = THIS_MODULE,
	.available = s2_delegate_available,
	.hibernate = s2_delegate_hibernate,
};

void s2_delegate_init(void)
{
	const char *why;
	int error;

	/*
	 * available() may not talk to the TPM; a kernel started by kexec
	 * learns here, once, that PCR 4 is off the event log, so that it
	 * never offers disk (tpm/seal.c keeps the answer).
	 */
	s2_tpm_usable(&why);
	error = hibernation_set_delegate(&s2_delegate);

	/* Only /sys/power/state under lockdown depends on it. */
	if (error)
		pr_warn("another driver hibernates under lockdown (error %d): /sys/power/state will not offer disk for sealed images\n",
			error);
}

void s2_delegate_exit(void)
{
	hibernation_clear_delegate(&s2_delegate);
}
