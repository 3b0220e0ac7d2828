// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's initramfs (initramfs.h): where it is, and the
 * command that rebuilds that one and not another kernel's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "lib/common.h"
#include "lib/sysroot.h"
#include "system/initramfs.h"

/* Where initramfs-tools, then dracut (Fedora's name), put it. */
static const char *const initramfs_names[] = {
	"/boot/initrd.img-%s",
	"/boot/initramfs-%s.img",
};

bool timespec_newer(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

int initramfs_find(char *path, size_t len, struct stat *st)
{
	char name[PATH_MAX], buf[PATH_MAX];
	const char *img;
	struct utsname u;
	struct stat s;
	bool found = false;
	size_t i;

	if (uname(&u))
		return -errno;
	/*
	 * Both may be there (dracut installed over initramfs-tools, or a
	 * leftover): the bootloader's is the one rebuilt last.
	 */
	for (i = 0; i < ARRAY_SIZE(initramfs_names); i++) {
		snprintf(name, sizeof(name), initramfs_names[i], u.release);
		/* Moved under HIBERNATE_SYSROOT for tests, like the lock. */
		img = hib_path(name, buf, sizeof(buf));
		if (stat(img, &s) ||
		    (found && !timespec_newer(&s.st_mtim, &st->st_mtim)))
			continue;
		snprintf(path, len, "%s", img);
		*st = s;
		found = true;
	}
	return found ? 0 : -ENOENT;
}

const char *initramfs_rebuild(char *buf, size_t len)
{
	struct utsname u;

	/* dracut -f rebuilds the running kernel's by default. */
	snprintf(buf, len, "update-initramfs -u -k %s (or dracut -f)",
		 uname(&u) ? "$(uname -r)" : u.release);
	return buf;
}
