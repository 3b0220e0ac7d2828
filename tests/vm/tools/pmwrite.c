// SPDX-License-Identifier: GPL-2.0
/*
 * The ways into hibernation, or around it, that kernel lockdown must keep
 * closed or guard, or that must ask for CAP_SYS_ADMIN, tried as root's
 * programs would:
 *
 *   pmwrite swsuspend
 *	reboot(2) with LINUX_REBOOT_CMD_SW_SUSPEND: the kernel's own
 *	hibernation, which the kernel calls holding the lock that a
 *	hibernation delegate's cycle takes too
 *   pmwrite nocap FILE WORD
 *	write WORD to FILE as root without CAP_SYS_ADMIN (dropped from the
 *	bounding, effective, permitted and inheritable sets first)
 *   pmwrite kexecload KERNEL INITRD CMDLINE
 *	kexec_file_load(2) KERNEL with INITRD and CMDLINE, as kexec -s does
 *	(under lockdown the kernel must be signed by a trusted key)
 *   pmwrite kexecrun
 *	reboot(2) with LINUX_REBOOT_CMD_KEXEC: start the loaded kernel
 *
 * Prints "ok" or "refused: <errno text>".  Exit 0 (done), 1 (refused),
 * 3 (usage or setup failed).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int done(int err)
{
	if (!err) {
		puts("ok");
		return 0;
	}
	printf("refused: %s\n", strerror(err));
	return 1;
}

/* CAP_SYS_ADMIN out of every set of this process, without libcap. */
static int drop_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0))
		return -1;
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (i = 0; i < 2; i++) {
		unsigned int bit = CAP_SYS_ADMIN - 32 * i;

		if (bit < 32) {
			data[i].effective &= ~(1u << bit);
			data[i].permitted &= ~(1u << bit);
			data[i].inheritable &= ~(1u << bit);
		}
	}
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "swsuspend")) {
		long r = syscall(SYS_reboot, LINUX_REBOOT_MAGIC1,
				 LINUX_REBOOT_MAGIC2,
				 LINUX_REBOOT_CMD_SW_SUSPEND, NULL);

		return done(r ? errno : 0);
	}
	if (argc == 4 && !strcmp(argv[1], "nocap")) {
		size_t n = strlen(argv[3]);
		ssize_t w;
		int fd;

		if (drop_sys_admin()) {
			printf("cannot drop CAP_SYS_ADMIN: %s\n",
			       strerror(errno));
			return 3;
		}
		fd = open(argv[2], O_WRONLY);
		if (fd < 0)
			return done(errno);
		w = write(fd, argv[3], n);
		if (w < 0)
			return done(errno);
		close(fd);
		return done(0);
	}
	if (argc == 5 && !strcmp(argv[1], "kexecload")) {
		int kfd = open(argv[2], O_RDONLY | O_CLOEXEC);
		int ifd = open(argv[3], O_RDONLY | O_CLOEXEC);
		long r;

		if (kfd < 0 || ifd < 0) {
			printf("cannot open %s or %s: %s\n", argv[2], argv[3],
			       strerror(errno));
			return 3;
		}
		/* The length counts the terminating NUL. */
		r = syscall(SYS_kexec_file_load, kfd, ifd,
			    strlen(argv[4]) + 1, argv[4], 0UL);
		return done(r ? errno : 0);
	}
	if (argc == 2 && !strcmp(argv[1], "kexecrun")) {
		long r;

		sync();
		r = syscall(SYS_reboot, LINUX_REBOOT_MAGIC1,
			    LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_KEXEC, NULL);
		return done(r ? errno : 0);
	}
	fputs("usage: pmwrite swsuspend | pmwrite nocap FILE WORD |\n"
	      "       pmwrite kexecload KERNEL INITRD CMDLINE | pmwrite kexecrun\n",
	      stderr);
	return 3;
}
