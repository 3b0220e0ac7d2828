// SPDX-License-Identifier: GPL-2.0
/*
 * The root the command's own paths are under: / on a real system, or
 * HIBERNATE_SYSROOT for the tests and an image being built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/common.h"
#include "lib/sysroot.h"

/*
 * HIBERNATE_SYSROOT=DIR (tests, an image being built) moves every path
 * the command writes or runs programs from (the lock file, the systemd
 * drop-in, the system-sleep hooks), and the initramfs it compares with
 * the key files, under DIR; NULL when unset.
 */
const char *hib_sysroot(void)
{
	const char *r = getenv("HIBERNATE_SYSROOT");

	return r && *r ? r : NULL;
}

/* An absolute directory short enough that no moved path is cut short. */
int hib_sysroot_check(void)
{
	const char *r = hib_sysroot();

	if (r && (r[0] != '/' || strlen(r) >= HIB_SYSROOT_MAX)) {
		fprintf(stderr,
			"hibernate: HIBERNATE_SYSROOT must be an absolute directory of fewer than %d bytes\n",
			HIB_SYSROOT_MAX);
		return HIB_EXIT_USAGE;
	}
	return 0;
}

/* PATH under HIBERNATE_SYSROOT, in BUF when there is one. */
const char *hib_path(const char *path, char *buf, size_t len)
{
	if (!hib_sysroot())
		return path;
	snprintf(buf, len, "%s%s", hib_sysroot(), path);
	return buf;
}
