/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's initramfs: the one that will have to unlock an
 * image written now, since an image resumes only on the kernel that
 * wrote it.
 */
#ifndef HIB_INITRAMFS_H
#define HIB_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/*
 * The newest of the running kernel's /boot/initrd.img-RELEASE
 * (initramfs-tools) and /boot/initramfs-RELEASE.img (dracut), under
 * HIBERNATE_SYSROOT, into path and st: 0, or -ENOENT when there is none.
 */
int initramfs_find(char *path, size_t len, struct stat *st);
/* a later than b. */
bool timespec_newer(const struct timespec *a, const struct timespec *b);
/*
 * The command that rebuilds the running kernel's initramfs, for a
 * message: "update-initramfs -u -k RELEASE (or dracut -f)".  A bare
 * update-initramfs -u would rebuild the newest installed kernel's only.
 */
const char *initramfs_rebuild(char *buf, size_t len);

#endif
