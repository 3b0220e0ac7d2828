// SPDX-License-Identifier: GPL-2.0
/*
 * The module is loaded with the system's own tools (modprobe resolves
 * dependencies and options; busybox provides insmod in an initramfs),
 * configfs is mounted with mount(2) so no mount binary is needed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "module.h"

#define CONFIGFS_MAGIC	0x62656570

/* fork + execvp; the program's exit status, 127 if it cannot run. */
int run_program(const char *const argv[])
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/*
 * A spec with a '/' is a file for insmod, anything else a modprobe name.
 * modprobe also passes suspend2.* options from the kernel command line, and
 * a suspend2.resume=DEVICE there makes the module resume as it loads: even
 * when this command was run to invalidate the image (a noresume boot) or to
 * hibernate.  "resume=" comes after those options and wins; hibernate
 * --resume does its own resume through configfs, with its checks.
 */
void module_command(const char *spec, const char **argv, int n)
{
	if (n < 4)
		return;
	argv[0] = strchr(spec, '/') ? "insmod" : "modprobe";
	argv[1] = spec;
	argv[2] = "resume=";
	argv[3] = NULL;
}

int module_load(const char *spec)
{
	const char *argv[4];
	int r;

	module_command(spec, argv, 4);
	hib_verbose("loading the module: %s %s %s", argv[0], argv[1], argv[2]);
	r = run_program(argv);
	if (r == 127)
		hib_err("cannot run %s", argv[0]);
	else if (r)
		hib_err("%s %s failed (status %d)", argv[0], argv[1], r);
	return r ? -EIO : 0;
}

int module_unload(void)
{
	const char *argv[] = { "rmmod", MODULE_NAME, NULL };
	int r = run_program(argv);

	if (r)
		hib_warn("rmmod %s failed (status %d)", MODULE_NAME, r);
	return r ? -EIO : 0;
}

bool configfs_mounted(const char *dir)
{
	struct statfs st;

	return !statfs(dir, &st) && st.f_type == CONFIGFS_MAGIC;
}

int configfs_mount(const char *dir)
{
	if (mount("none", dir, "configfs", 0, NULL))
		return -errno;
	return 0;
}
