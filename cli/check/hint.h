/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hints: what to write where when something is missing, and names of
 * devices that stay the same from one boot to the next (a logical
 * volume's name, UUID=, PARTUUID=) for what the user copies into a
 * configuration or onto the kernel command line.
 */
#ifndef HIB_HINT_H
#define HIB_HINT_H

#include <stdbool.h>
#include <stddef.h>

#define HINT_SYS_BY_UUID	"/dev/disk/by-uuid"
#define HINT_SYS_BY_PARTUUID	"/dev/disk/by-partuuid"

/*
 * "/dev/mapper/VG-LV" when SYSDIR (a device's directory under
 * /sys/dev/block) is an LVM logical volume's, not one of its hidden
 * layers (-real, -cow, -tpool, ...); else -ENOENT.
 */
int hint_lvm_name(const char *sysdir, char *out, size_t len);

/*
 * A name of block device DEV that resolves back to DEV: an LVM logical
 * volume's /dev/mapper/VG-LV (hint_lvm_name), else UUID=... (a
 * filesystem's or a swap area's; it survives a suspend2 image on a swap
 * partition, which libblkid reports as "swsuspend" with the same UUID),
 * else PARTUUID=....  Without BY_CONTENT no UUID=: a bdev target's old
 * filesystem UUID is gone once an image is written over it.  Returns 0
 * with OUT set, else -errno with OUT a copy of DEV.
 */
int hint_stable_name(const char *dev, bool by_content, char *out,
		     size_t len);

/* "DEVICE:PAGE" with the device's stable name, else LOC unchanged. */
void hint_stable_location(const char *loc, bool by_content, char *out,
			  size_t len);

/*
 * The device path of a target or resume location as the kernel takes
 * it: "UUID=...:34816" becomes "/dev/sda2:34816", "LABEL=swap" becomes
 * "/dev/sda2", an absolute path stays as it is.  -ENOENT when libblkid
 * finds no such device.
 */
int hint_resolve_location(const char *spec, char *out, size_t len);

/*
 * target = DEVICE:PAGE: a name that does not exist as a whole and ends
 * in ":PAGE".  LOC gets it with the device resolved; true when VAL is one.
 */
bool hint_target_location(const char *val, char *loc, size_t len);

/*
 * What to put in the configuration for a target, from the active swap
 * areas listed in SWAPS (/proc/swaps): "target = UUID=... (/dev/vdb,
 * active swap here)" or, with none, where to find one.
 */
void hint_target_example(const char *swaps, char *out, size_t len);

/*
 * The profile has no target: say so and what to set where.  CONF_READ is
 * false when the configuration file did not exist.  Returns
 * HIB_EXIT_CONFIG.
 */
int hint_no_target(const char *conf_path, bool conf_read,
		   const char *profile);

#endif
