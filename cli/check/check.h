/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks on a target that the kernel (or swapon) would otherwise make
 * only in the real run.  A dry run and a real run call the same functions,
 * so both refuse the same targets with the same exit status.  Each
 * returns 0 when the target is fine, else a negative errno with WHY
 * saying what is wrong in words a user can act on.
 */
#ifndef HIB_CHECK_H
#define HIB_CHECK_H

#include <linux/fiemap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CHECK_PAGE		4096ULL
#define CHECK_SYS_BLOCK		"/sys/dev/block"
#define CHECK_MOUNTINFO		"/proc/self/mountinfo"

/* Where the system facts come from; tests point these at a fake tree. */
struct check_sys {
	const char *swaps;	/* /proc/swaps */
	const char *mountinfo;	/* /proc/self/mountinfo */
	const char *sys_block;	/* /sys/dev/block */
};

extern const struct check_sys check_sys_default;

/* Pure parts. */
int check_extents(const struct fiemap_extent *ext, size_t n, uint64_t size,
		  char *why, size_t len);
/*
 * The first SIZE bytes of a file map page by page onto whole pages of
 * the device, as the module maps a target file: with blocks smaller
 * than a page, a page may start inside one of the device's or be split.
 */
int check_extents_aligned(const struct fiemap_extent *ext, size_t n,
			  uint64_t size, char *why, size_t len);
/*
 * A swap file's first SIZE bytes hold no hole, and nothing else
 * swapon(2) refuses (unwritten extents are fine): -EINVAL with WHY.
 */
int check_extents_swap(const struct fiemap_extent *ext, size_t n,
		       uint64_t size, char *why, size_t len);
bool check_swap_signature(const unsigned char *page, size_t len);

/* Against the system. */
int check_file_target(const struct check_sys *sys, const char *path,
		      char *why, size_t len);
int check_dev_in_use(const struct check_sys *sys, dev_t dev, char *why,
		     size_t len);
/*
 * Is a filesystem mounted from block device DEV, one of its partitions,
 * or a device stacked on either (device-mapper, md: holders/), at any
 * depth?  Returns 1 with WHY naming the first found ("its partition
 * sda1 is mounted on /", "its holder dm-0 is mounted on /home"), else 0.
 * No overwrite_in_use can confirm such a target.
 */
int check_dev_mounted(const struct check_sys *sys, dev_t dev, char *why,
		      size_t len);
/*
 * Does block device DEV keep what is written to it where no boot can
 * read it back: a loop device (the initramfs sets up none, and its
 * backing file lives on a filesystem that is not mounted while the image
 * is read), zram or a brd RAM disk (RAM, gone with the power)?  DEV
 * itself, the disk of a partition, or a device it is stacked on
 * (slaves/, dm-crypt over zram), at any depth.  Returns
 * CHECK_VOLATILE_LOOP or CHECK_VOLATILE_RAM with WHY naming it after
 * LABEL ("is zram0, a compressed disk in RAM", "its underlying device
 * loop0 is a loop device (loop0) over /swap.img"), else 0.
 */
#define CHECK_VOLATILE_LOOP	1
#define CHECK_VOLATILE_RAM	2
#define CHECK_LOOP_MAJOR	7
#define CHECK_RAMDISK_MAJOR	1
int check_dev_volatile(const struct check_sys *sys, dev_t dev,
		       const char *label, char *why, size_t len);
int check_has_swap_signature(const char *path, char *why, size_t len);
/*
 * A swap file's first page, where the swapfile writer puts its signature,
 * is written and one whole page of the device (the rest is swap's own
 * map, which swapon(2) makes of whole pages), and the file has no hole
 * anywhere (check_extents_swap()), which swapon(2) would refuse.
 */
int check_swapfile_header(const char *path, char *why, size_t len);

#endif
