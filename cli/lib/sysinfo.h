/* SPDX-License-Identifier: GPL-2.0 */
/* What the system says about the target and memory: blkid, sysfs, /proc. */
#ifndef HIB_SYSINFO_H
#define HIB_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYS_PROC_SWAPS		"/proc/swaps"
#define SYS_PROC_MEMINFO	"/proc/meminfo"
#define SYS_PROC_CMDLINE	"/proc/cmdline"
#define SYS_PROC_MOUNTS		"/proc/mounts"

char *sys_evaluate_tag(const char *token, const char *value);
int sys_resolve_target(const char *spec, char *out, size_t len);
int sys_swap_free(const char *swaps, const char *dev, uint64_t *free_bytes);
int sys_image_estimate(const char *meminfo, const char *compressor,
		       uint64_t limit, uint64_t *bytes);
int sys_block_info(const char *dev, uint64_t *size, bool *ro);
bool sys_cmdline_noresume(const char *cmdline);
int sys_rw_block_mounts(const char *mounts, char *out, size_t len);
/*
 * Where a file's image starts: "DEVICE:PAGE" of its first block
 * (FIEMAP), in this kernel's pages.  0, else -errno.
 */
int sys_file_location(const char *path, char *out, size_t len);

#endif
