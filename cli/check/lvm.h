/* SPDX-License-Identifier: GPL-2.0 */
/* A target on an LVM logical volume the initramfs did not activate. */
#ifndef HIB_LVM_H
#define HIB_LVM_H

#include <stdbool.h>
#include <stddef.h>

int lvm_volume_name(const char *path, char *out, size_t len);
/*
 * Activate the logical volume PATH names when PATH is missing (a dry run
 * only asks lvm whether the volume exists).  0 when it is there now (in a
 * dry run: would be); 1 when PATH is there already or names no volume;
 * else a negative error, and WHY says it in words.
 */
int lvm_activate(const char *path, bool dry_run, char *why, size_t len);

#endif
