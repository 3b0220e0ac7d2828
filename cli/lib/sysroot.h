/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HIBERNATE_SYSROOT: the directory every path the command writes, runs
 * or compares with is moved under, for the tests and an image being
 * built.  Apart from the options: the helpers below them (the lock, the
 * key files, the initramfs) move their paths too.
 */
#ifndef HIB_SYSROOT_H
#define HIB_SYSROOT_H

#include <stddef.h>

/* Room left in a PATH_MAX buffer for the longest path moved under it. */
#define HIB_SYSROOT_MAX	1024
const char *hib_sysroot(void);
int hib_sysroot_check(void);
const char *hib_path(const char *path, char *buf, size_t len);

#endif
