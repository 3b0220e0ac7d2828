// SPDX-License-Identifier: GPL-2.0
/*
 * The pure parts of the checks a dry run and a real run share: file
 * extents, swap signature, DEVICE:PAGE, a device in use (against a fake
 * sysfs and mountinfo), the configuration keys they rely on, and JSON
 * strings that stay valid UTF-8 whatever bytes they are given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "check/check.h"
#include "conf/conf.h"
#include "cycle/report.h"
#include "lib/common.h"
#include "lib/json.h"
#include "lib/plan.h"
#include "lib/strutil.h"
#include "test_util.h"

#define P CHECK_PAGE

static void ext_set(struct fiemap_extent *e, uint64_t logical, uint64_t len,
		    uint32_t flags)
{
	memset(e, 0, sizeof(*e));
	e->fe_logical = logical;
	e->fe_physical = 1000 * P + logical;
	e->fe_length = len;
	e->fe_flags = flags;
}

static void test_extents(void **state)
{
	struct fiemap_extent e[3];
	char why[256];

	(void)state;
	/* Written in full, in two extents; the partial last page is not mapped. */
	ext_set(&e[0], 0, 4 * P, 0);
	ext_set(&e[1], 4 * P, 4 * P, FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents(e, 2, 8 * P + 100, why, sizeof(why)), 0);
	/* A hole in the middle. */
	ext_set(&e[1], 5 * P, 3 * P, FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents(e, 2, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "hole at byte 16384"));
	/* Sparse from the start, and no extent at all. */
	ext_set(&e[0], P, 7 * P, 0);
	assert_int_equal(check_extents(e, 1, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "hole at byte 0"));
	assert_int_equal(check_extents(e, 0, 8 * P, why, sizeof(why)), -EINVAL);
	/* Shorter than the file: the tail is a hole. */
	ext_set(&e[0], 0, 6 * P, FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents(e, 1, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "hole at byte 24576"));
	/* Fallocated: unwritten. */
	ext_set(&e[0], 0, 8 * P, FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents(e, 1, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "unwritten"));
	/* Reflinked. */
	ext_set(&e[0], 0, 4 * P, 0);
	ext_set(&e[1], 4 * P, 4 * P, FIEMAP_EXTENT_SHARED | FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents(e, 2, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "shared"));
	assert_non_null(strstr(why, "16384"));
	/* Inline data. */
	ext_set(&e[0], 0, 8 * P, FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents(e, 1, 8 * P, why, sizeof(why)), -EINVAL);
	/* A bad extent past the mapped pages does not matter. */
	ext_set(&e[0], 0, 8 * P, 0);
	ext_set(&e[1], 8 * P, P, FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents(e, 2, 8 * P + 10, why, sizeof(why)), 0);
}

/* 1 KiB blocks: each page of the file must still be one page of the device. */
static void test_extents_aligned(void **state)
{
	struct fiemap_extent e[3];
	char why[512];

	(void)state;
	/* Two extents, each page-aligned on the device, split on a page. */
	ext_set(&e[0], 0, 4 * P, 0);
	ext_set(&e[1], 4 * P, 4 * P, FIEMAP_EXTENT_LAST);
	e[1].fe_physical = 5000 * P;
	assert_int_equal(check_extents(e, 2, 8 * P, why, sizeof(why)), 0);
	/* The first page starts 1 KiB into a page of the device. */
	e[0].fe_physical = 1000 * P + 1024;
	assert_int_equal(check_extents(e, 2, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "page at byte 0 on no whole page"));
	assert_non_null(strstr(why, "4 KiB blocks"));
	/* Only the header page matters to the swapfile writer's check... */
	ext_set(&e[0], 0, P, 0);
	ext_set(&e[1], P, 7 * P, FIEMAP_EXTENT_LAST);
	e[1].fe_physical = 3 * P + 1024;
	assert_int_equal(check_extents_aligned(e, 2, P, why, sizeof(why)), 0);
	/* ...and to the file writer's every page. */
	assert_int_equal(check_extents(e, 2, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "page at byte 4096 "));
	/* A page split over two extents that are not one after the other. */
	ext_set(&e[0], 0, P + 2048, 0);
	ext_set(&e[1], P + 2048, 6 * P + 2048, FIEMAP_EXTENT_LAST);
	e[1].fe_physical = 9000 * P + 2048;
	assert_int_equal(check_extents(e, 2, 8 * P, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "page at byte 4096 "));
	/* The same split, contiguous on the device: one page after all. */
	e[1].fe_physical = e[0].fe_physical + P + 2048;
	assert_int_equal(check_extents(e, 2, 8 * P, why, sizeof(why)), 0);
	/* A split page at the end, past what is mapped: no matter. */
	ext_set(&e[0], 0, 2 * P + 1024, FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents_aligned(e, 1, 2 * P, why, sizeof(why)),
			 0);
	assert_int_equal(check_extents_aligned(e, 1, 3 * P, why, sizeof(why)),
			 -EINVAL);
}

static void test_swap_signature(void **state)
{
	unsigned char page[P];

	(void)state;
	memset(page, 0, sizeof(page));
	assert_false(check_swap_signature(page, sizeof(page)));
	memcpy(page + P - 10, "SWAPSPACE2", 10);
	assert_true(check_swap_signature(page, sizeof(page)));
	assert_false(check_swap_signature(page, P - 1));
	memcpy(page + P - 10, "SWAP-SPACE", 10);
	assert_true(check_swap_signature(page, sizeof(page)));
	memcpy(page + P - 10, "SWAPSPACE3", 10);
	assert_false(check_swap_signature(page, sizeof(page)));
}

static void test_location(void **state)
{
	char dev[64];
	uint64_t page = 0;

	(void)state;
	assert_int_equal(parse_location("/dev/sda2:34816", dev, sizeof(dev),
					&page), 0);
	assert_string_equal(dev, "/dev/sda2");
	assert_int_equal(page, 34816);
	assert_int_equal(parse_location("/dev/disk/by-id/a:b:7", dev,
					sizeof(dev), &page), 0);
	assert_string_equal(dev, "/dev/disk/by-id/a:b");
	assert_int_equal(page, 7);
	assert_int_equal(parse_location("/dev/sda2", dev, sizeof(dev), &page),
			 -EINVAL);
	assert_int_equal(parse_location("/dev/sda2:", dev, sizeof(dev), &page),
			 -EINVAL);
	assert_int_equal(parse_location("/dev/sda2:x1", dev, sizeof(dev),
					&page), -EINVAL);
	assert_int_equal(parse_location("/dev/sda2:-1", dev, sizeof(dev),
					&page), -EINVAL);
	assert_int_equal(parse_location("dev/sda2:1", dev, sizeof(dev), &page),
			 -EINVAL);
	assert_int_equal(parse_location("/:1", dev, sizeof(dev), &page),
			 -EINVAL);
	assert_int_equal(parse_location("/dev/a:1/b", dev, sizeof(dev), &page),
			 -EINVAL);
	assert_int_equal(parse_location("/dev/sda2:99999999999999999999", dev,
					sizeof(dev), &page), -EINVAL);
	assert_int_equal(parse_location("/dev/very/long/name:1", dev, 8, &page),
			 -EINVAL);
}

/*
 * A fake /sys/dev/block: 8:0 (a disk) with partitions sda1 (8:1) and
 * sda2 (8:2), 8:16 (a disk held by dm-0), 8:32 (free); mountinfo mounts
 * 8:1 on / and 8:48 on /data.
 */
static char *fake_sys(struct check_sys *sys, char *mi, char *sw, char *sb,
		      size_t len)
{
	char *d = tmp_tree();

	put_file(d, "mountinfo",
		 "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		 "23 22 0:21 / /proc rw - proc proc rw\n"
		 "24 22 8:48 / /data rw - ext4 /dev/sdd rw\n");
	put_file(d, "swaps", "Filename\tType\tSize\tUsed\tPriority\n");
	mk(d, "block/8:0/sda1/holders");
	mk(d, "block/8:0/sda2/holders");
	mk(d, "block/8:0/holders");
	put_file(d, "block/8:0/sda1/partition", "1\n");
	put_file(d, "block/8:0/sda1/dev", "8:1\n");
	put_file(d, "block/8:0/sda2/partition", "2\n");
	put_file(d, "block/8:0/sda2/dev", "8:2\n");
	mk(d, "block/8:0/queue");
	mk(d, "block/8:16/holders/dm-0");
	mk(d, "block/8:32/holders");
	mk(d, "block/8:48/holders");
	snprintf(mi, len, "%s/mountinfo", d);
	snprintf(sw, len, "%s/swaps", d);
	snprintf(sb, len, "%s/block", d);
	sys->mountinfo = mi;
	sys->swaps = sw;
	sys->sys_block = sb;
	return d;
}

static void test_dev_in_use(void **state)
{
	char mi[4200], sw[4200], sb[4200], why[1024];
	struct check_sys sys;
	char *d = fake_sys(&sys, mi, sw, sb, sizeof(mi));

	(void)state;
	/* The disk whose partition is the root filesystem. */
	assert_int_equal(check_dev_in_use(&sys, makedev(8, 0), why,
					  sizeof(why)), 1);
	assert_string_equal(why, "its partition sda1 is mounted on /");
	/* That partition itself; the other one is free. */
	assert_int_equal(check_dev_in_use(&sys, makedev(8, 1), why,
					  sizeof(why)), 1);
	assert_string_equal(why, "is mounted on /");
	assert_int_equal(check_dev_in_use(&sys, makedev(8, 2), why,
					  sizeof(why)), 0);
	assert_string_equal(why, "");
	/* Held by device-mapper. */
	assert_int_equal(check_dev_in_use(&sys, makedev(8, 16), why,
					  sizeof(why)), 1);
	assert_non_null(strstr(why, "is held by dm-0"));
	/* Free, and mounted without partitions. */
	assert_int_equal(check_dev_in_use(&sys, makedev(8, 32), why,
					  sizeof(why)), 0);
	assert_int_equal(check_dev_in_use(&sys, makedev(8, 48), why,
					  sizeof(why)), 1);
	assert_string_equal(why, "is mounted on /data");
	/* A reason cut to the buffer still ends in a NUL. */
	assert_int_equal(check_dev_in_use(&sys, makedev(8, 0), why, 8), 1);
	assert_int_equal(strlen(why), 7);
	rm_tree(d);
}

/*
 * Mounted, at any depth: 8:0's partition sda1 is /; 8:16 is held by dm-0
 * (253:0), mounted on /home; 8:32 by dm-1 (253:1), whose partition
 * dm-1p1... is held by dm-2 (253:2) on /srv; 8:64 is held by dm-3, not
 * mounted; 8:80 is active swap only.
 */
static void test_dev_mounted(void **state)
{
	char mi[4200], sw[4200], sb[4200], why[1024];
	struct check_sys sys;
	char *d = tmp_tree();

	(void)state;
	if (!d)
		abort();
	put_file(d, "mountinfo",
		 "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		 "23 22 253:0 / /home rw - ext4 /dev/mapper/home rw\n"
		 "24 22 253:2 / /srv rw - xfs /dev/mapper/srv rw\n");
	put_file(d, "swaps", "Filename\tType\tSize\tUsed\tPriority\n");
	mk(d, "block/8:0/sda1/holders");
	put_file(d, "block/8:0/sda1/partition", "1\n");
	put_file(d, "block/8:0/sda1/dev", "8:1\n");
	mk(d, "block/8:0/queue");
	mk(d, "block/8:16/holders/dm-0");
	put_file(d, "block/8:16/holders/dm-0/dev", "253:0\n");
	mk(d, "block/253:0/holders");
	mk(d, "block/8:32/holders/dm-1");
	put_file(d, "block/8:32/holders/dm-1/dev", "253:1\n");
	mk(d, "block/253:1/dm-1p1/holders/dm-2");
	put_file(d, "block/253:1/dm-1p1/partition", "1\n");
	put_file(d, "block/253:1/dm-1p1/dev", "259:1\n");
	mk(d, "block/259:1/holders/dm-2");
	put_file(d, "block/259:1/holders/dm-2/dev", "253:2\n");
	mk(d, "block/8:64/holders/dm-3");
	put_file(d, "block/8:64/holders/dm-3/dev", "253:3\n");
	mk(d, "block/253:3/holders");
	mk(d, "block/8:80/holders");
	/* A holder that names itself is not followed for ever. */
	mk(d, "block/8:96/holders/loop");
	put_file(d, "block/8:96/holders/loop/dev", "8:96\n");
	snprintf(mi, sizeof(mi), "%s/mountinfo", d);
	snprintf(sw, sizeof(sw), "%s/swaps", d);
	snprintf(sb, sizeof(sb), "%s/block", d);
	sys.mountinfo = mi;
	sys.swaps = sw;
	sys.sys_block = sb;

	assert_int_equal(check_dev_mounted(&sys, makedev(8, 0), why,
					   sizeof(why)), 1);
	assert_string_equal(why, "its partition sda1 is mounted on /");
	assert_int_equal(check_dev_mounted(&sys, makedev(8, 1), why,
					   sizeof(why)), 1);
	assert_string_equal(why, "is mounted on /");
	assert_int_equal(check_dev_mounted(&sys, makedev(8, 16), why,
					   sizeof(why)), 1);
	assert_string_equal(why, "its holder dm-0 is mounted on /home");
	assert_int_equal(check_dev_mounted(&sys, makedev(8, 32), why,
					   sizeof(why)), 1);
	assert_string_equal(why,
			    "its holder dm-1's partition dm-1p1's holder dm-2 is mounted on /srv");
	/* Held, or swap, but no filesystem mounted: overwrite_in_use may. */
	assert_int_equal(check_dev_mounted(&sys, makedev(8, 64), why,
					   sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(check_dev_mounted(&sys, makedev(8, 80), why,
					   sizeof(why)), 0);
	assert_int_equal(check_dev_mounted(&sys, makedev(8, 96), why,
					   sizeof(why)), 0);
	/* No sysfs at all: the device's own mount still counts. */
	sys.sys_block = "/nonexistent";
	assert_int_equal(check_dev_mounted(&sys, makedev(253, 0), why,
					   sizeof(why)), 1);
	assert_string_equal(why, "is mounted on /home");
	rm_tree(d);
}

/*
 * What swapon(2) refuses in a swap file, anywhere in it: a hole past the
 * first page too (checking the first page only let a sparse swap file
 * through the dry run, and swap_on_demand's swapon then failed).
 */
static void test_extents_swap(void **state)
{
	struct fiemap_extent e[2];
	char why[512];

	(void)state;
	ext_set(&e[0], 0, 8 * P, FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents_swap(e, 1, 8 * P, why, sizeof(why)),
			 0);
	/* Preallocated is swap like any other. */
	ext_set(&e[0], 0, P, 0);
	ext_set(&e[1], P, 7 * P, FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents_swap(e, 2, 8 * P, why, sizeof(why)),
			 0);
	/* The first page written, the rest a hole: mkswap on truncate's file. */
	ext_set(&e[0], 0, P, FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents_swap(e, 1, 8 * P, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "has a hole at byte 4096"));
	assert_non_null(strstr(why, "swapon(2) refuses a swap file with holes"));
	assert_non_null(strstr(why, "dd if=/dev/zero"));
	/* A hole in the middle. */
	ext_set(&e[0], 0, 2 * P, 0);
	ext_set(&e[1], 5 * P, 3 * P, FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents_swap(e, 2, 8 * P, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "hole at byte 8192"));
	/* Shared (reflinked). */
	ext_set(&e[0], 0, P, 0);
	ext_set(&e[1], P, 7 * P, FIEMAP_EXTENT_SHARED | FIEMAP_EXTENT_LAST);
	assert_int_equal(check_extents_swap(e, 2, 8 * P, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "shared"));
}

/*
 * check_swapfile_header() on a real file: mkswap's first page written,
 * the rest a hole (truncate), as swapon(2) refuses it.
 */
static void test_swapfile_holes(void **state)
{
	char *d = tmp_tree(), path[4200], why[512], page[P];
	FILE *f;

	(void)state;
	if (!d)
		abort();
	snprintf(path, sizeof(path), "%s/swap", d);
	memset(page, 0, sizeof(page));
	memcpy(page + P - 10, "SWAPSPACE2", 10);
	f = fopen(path, "w");
	if (!f || fwrite(page, 1, P, f) != P || fclose(f))
		abort();
	if (truncate(path, 64 * P))
		abort();
	if (check_swapfile_header(path, why, sizeof(why)) == -EOPNOTSUPP) {
		/* No FIEMAP on this filesystem: nothing to check here. */
		rm_tree(d);
		skip();
	}
	assert_int_equal(check_swapfile_header(path, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "has a hole at byte 4096"));
	/* Written in full: taken. */
	f = fopen(path, "r+");
	if (!f)
		abort();
	fseek(f, P, SEEK_SET);
	memset(page, 0, sizeof(page));
	for (int i = 1; i < 64; i++)
		if (fwrite(page, 1, P, f) != P)
			abort();
	if (fclose(f))
		abort();
	sync();
	assert_int_equal(check_swapfile_header(path, why, sizeof(why)), 0);
	rm_tree(d);
}

/*
 * Devices no boot reads an image back from, in a fake /sys/dev/block:
 * loop0 (7:0) over /var/swap.img, its partition loop0p1 (259:0, inside
 * loop0's directory as sysfs has it), zram0 (252:0), ram0 (1:0, brd),
 * dm-0 (253:0) stacked on zram0, dm-1 (253:1) on sda (8:0) only, and
 * 8:16 naming itself as its slave.
 */
static void test_dev_volatile(void **state)
{
	char sb[4200], why[1024], link[4300];
	struct check_sys sys = { .swaps = "/nonexistent",
				 .mountinfo = "/nonexistent" };
	char *d = tmp_tree();

	(void)state;
	if (!d)
		abort();
	mk(d, "devices/loop0/loop");
	put_file(d, "devices/loop0/uevent",
		 "MAJOR=7\nMINOR=0\nDEVNAME=loop0\nDEVTYPE=disk\n");
	put_file(d, "devices/loop0/dev", "7:0\n");
	put_file(d, "devices/loop0/loop/backing_file", "/var/swap.img\n");
	mk(d, "devices/loop0/loop0p1");
	put_file(d, "devices/loop0/loop0p1/uevent",
		 "MAJOR=259\nMINOR=0\nDEVNAME=loop0p1\nDEVTYPE=partition\n");
	put_file(d, "devices/loop0/loop0p1/partition", "1\n");
	put_file(d, "devices/loop0/loop0p1/dev", "259:0\n");
	mk(d, "block");
	snprintf(link, sizeof(link), "%s/block/7:0", d);
	if (symlink("../devices/loop0", link))
		abort();
	snprintf(link, sizeof(link), "%s/block/259:0", d);
	if (symlink("../devices/loop0/loop0p1", link))
		abort();
	mk(d, "block/252:0");
	put_file(d, "block/252:0/uevent", "MAJOR=252\nMINOR=0\nDEVNAME=zram0\n");
	mk(d, "block/1:0");
	put_file(d, "block/1:0/uevent", "MAJOR=1\nMINOR=0\nDEVNAME=ram0\n");
	mk(d, "block/253:0/slaves/zram0");
	put_file(d, "block/253:0/uevent", "MAJOR=253\nMINOR=0\nDEVNAME=dm-0\n");
	put_file(d, "block/253:0/slaves/zram0/dev", "252:0\n");
	mk(d, "block/253:1/slaves/sda");
	put_file(d, "block/253:1/uevent", "MAJOR=253\nMINOR=1\nDEVNAME=dm-1\n");
	put_file(d, "block/253:1/slaves/sda/dev", "8:0\n");
	mk(d, "block/8:0");
	put_file(d, "block/8:0/uevent", "MAJOR=8\nMINOR=0\nDEVNAME=sda\n");
	mk(d, "block/8:16/slaves/sdb");
	put_file(d, "block/8:16/uevent", "MAJOR=8\nMINOR=16\nDEVNAME=sdb\n");
	put_file(d, "block/8:16/slaves/sdb/dev", "8:16\n");
	snprintf(sb, sizeof(sb), "%s/block", d);
	sys.sys_block = sb;

	assert_int_equal(check_dev_volatile(&sys, makedev(7, 0), "it", why,
					    sizeof(why)), CHECK_VOLATILE_LOOP);
	assert_string_equal(why, "it is a loop device (loop0) over /var/swap.img");
	assert_int_equal(check_dev_volatile(&sys, makedev(259, 0), "it", why,
					    sizeof(why)), CHECK_VOLATILE_LOOP);
	assert_string_equal(why,
			    "its disk is a loop device (loop0) over /var/swap.img");
	assert_int_equal(check_dev_volatile(&sys, makedev(252, 0), "it", why,
					    sizeof(why)), CHECK_VOLATILE_RAM);
	assert_string_equal(why, "it is zram0, a compressed disk in RAM");
	assert_int_equal(check_dev_volatile(&sys, makedev(1, 0), "it", why,
					    sizeof(why)), CHECK_VOLATILE_RAM);
	assert_string_equal(why, "it is ram0, a RAM disk (brd)");
	assert_int_equal(check_dev_volatile(&sys, makedev(253, 0),
					    "its filesystem's device", why,
					    sizeof(why)), CHECK_VOLATILE_RAM);
	assert_string_equal(why,
			    "its filesystem's device's underlying device zram0 is zram0, a compressed disk in RAM");
	/* A disk, and a device stacked on one only: fine. */
	assert_int_equal(check_dev_volatile(&sys, makedev(8, 0), "it", why,
					    sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(check_dev_volatile(&sys, makedev(253, 1), "it", why,
					    sizeof(why)), 0);
	assert_int_equal(check_dev_volatile(&sys, makedev(8, 16), "it", why,
					    sizeof(why)), 0);
	/* Without sysfs the loop and brd majors still tell. */
	sys.sys_block = "/nonexistent";
	assert_int_equal(check_dev_volatile(&sys, makedev(7, 3), "it", why,
					    sizeof(why)), CHECK_VOLATILE_LOOP);
	assert_int_equal(check_dev_volatile(&sys, makedev(1, 2), "it", why,
					    sizeof(why)), CHECK_VOLATILE_RAM);
	assert_int_equal(check_dev_volatile(&sys, makedev(8, 0), "it", why,
					    sizeof(why)), 0);
	rm_tree(d);
}

static void test_conf_keys(void **state)
{
	struct conf c;

	(void)state;
	/* image_size_limit: 2^63 - 1 at most (the kernel's s64). */
	assert_int_equal(parse_text(&c, "[default]\nimage_size_limit = 9223372036854775807\n"), 0);
	conf_free(&c);
	assert_int_equal(parse_text(&c, "[default]\nimage_size_limit = 9223372036854775808\n"), -EINVAL);
	assert_non_null(strstr(c.errors[0], "t.conf:2: key 'image_size_limit': expected a value from 0 to 9223372036854775807"));
	conf_free(&c);
	assert_int_equal(parse_text(&c, "[default]\nimage_size_limit = 8388608T\n"), -EINVAL);
	conf_free(&c);
	/* resume_location: DEVICE:PAGE only. */
	assert_int_equal(parse_text(&c, "[default]\nresume_location = /dev/vdb:34816\n"), 0);
	conf_free(&c);
	assert_int_equal(parse_text(&c, "[default]\nresume_location = /dev/vdb\n"), -EINVAL);
	assert_non_null(strstr(c.errors[0], "t.conf:2: key 'resume_location': expected DEVICE:PAGE"));
	conf_free(&c);
	/* A device by UUID= (as the resume parameter prints it) needs a page too. */
	assert_int_equal(parse_text(&c, "[default]\nresume_location = UUID=abc:1\n"), 0);
	conf_free(&c);
	assert_int_equal(parse_text(&c, "[default]\nresume_location = UUID=abc\n"), -EINVAL);
	conf_free(&c);
	/* [acpi] names profiles that exist (default always does). */
	assert_int_equal(parse_text(&c, "[default]\n[battery]\n[acpi]\nac_profile = default\nbattery_profile = battery\n"), 0);
	conf_free(&c);
	assert_int_equal(parse_text(&c, "[default]\n[battery]\n[acpi]\nac_profile = default\nbattery_profile = batery\n"), -EINVAL);
	assert_int_equal(c.nerr, 1);
	assert_string_equal(c.errors[0], "t.conf:5: key 'battery_profile': no profile 'batery' (did you mean 'battery'?)");
	conf_free(&c);
	/* overwrite_in_use: a device, like target. */
	assert_int_equal(parse_text(&c, "[default]\noverwrite_in_use = /dev/vda\n"), 0);
	conf_free(&c);
	assert_int_equal(parse_text(&c, "[default]\noverwrite_in_use = vda\n"), -EINVAL);
	conf_free(&c);
}

/* json_string of S, as a malloc'ed string. */
static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_string(f, s);
	fclose(f);
	return buf;
}

static void test_json_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "\"plain\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		/* A task name cut inside a character. */
		{ "kworker\xc3", "\"kworker\\ufffd\"" },
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },
		/* Stray bytes, overlong forms, surrogates, beyond U+10FFFF. */
		{ "a\xffz", "\"a\\ufffdz\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		/* Quotes, backslashes and controls escaped. */
		{ "q\"b\\n\nt\tc\x01\x7f", "\"q\\\"b\\\\n\\nt\\tc\\u0001\\u007f\"" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *j = json_of(cases[i].in);

		assert_string_equal(j, cases[i].out);
		assert_true(utf8_valid(j, strlen(j)));
		free(j);
	}
}

static void test_utf8_cut(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "abc", "abc" },
		{ "ab\xc3", "ab" },
		{ "ab\xc3\xa9", "ab\xc3\xa9" },
		{ "a\xe2\x82", "a" },
		{ "a\xe2", "a" },
		{ "a\xe2\x82\xac", "a\xe2\x82\xac" },
		{ "a\xf0\x9f\x98", "a" },
		{ "a\xf0\x9f\x98\x80", "a\xf0\x9f\x98\x80" },
		/* Not a cut character: left for the JSON writer to replace. */
		{ "a\x80", "a\x80" },
		{ "", "" },
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(buf, sizeof(buf), "%s", cases[i].in);
		utf8_cut_partial(buf);
		assert_string_equal(buf, cases[i].out);
	}
}

/*
 * The plan as plan.h's records: what each step is comes from the code,
 * so a path holding a newline and "# check: " or " = " (a configuration
 * named so, a --configfs directory) stays the one string it is.
 */
static void test_plan_json(void **state)
{
	char *buf = NULL, *plan = NULL, *errs[1] = { "c.conf:2: bad \xff byte" };
	size_t len = 0, plen = 0;
	FILE *f = open_memstream(&plan, &plen);

	(void)state;
	plan_put(f, true, PLAN_HEAD,
		 "hibernate --dry-run: action 'hibernate', profile 'p' from c\n# check: forged: FAILED\n", NULL);
	plan_put(f, true, PLAN_CHECK, "target /dev/vdb: exists", NULL);
	plan_put(f, true, PLAN_MKDIR, "/cfs\n# check: forged/profiles/p", NULL);
	plan_put(f, true, PLAN_WRITE, "/cfs/profiles/p/target", "/dev/vdb");
	plan_put(f, true, PLAN_WRITE, "/a = b\n/cfs/action", "x\ny = z");
	plan_put(f, true, PLAN_RESUME,
		 "resume=/dev/vdb:0 (resume_location = /dev/vdb:0)", NULL);
	plan_put(f, true, PLAN_NOTE, "would run pre_hibernate hook: echo \"hi\"",
		 NULL);
	plan_put(f, true, PLAN_WRITE, "/cfs/action", "hibernate");
	fclose(f);
	f = open_memstream(&buf, &len);
	plan_json(f, "hibernate", "p\xc3", "c.conf", plan, plen, errs, 1, 0, 0);
	fclose(f);
	assert_true(utf8_valid(buf, len));
	assert_non_null(strstr(buf, "\"profile\": \"p\\ufffd\""));
	assert_non_null(strstr(buf, "\"exit_status\": 0,\n  \"would_run\": true"));
	assert_non_null(strstr(buf, "\"config_errors\": [\"c.conf:2: bad \\ufffd byte\"]"));
	assert_non_null(strstr(buf, "\"checks\": [\n    \"target /dev/vdb: exists\"\n  ]"));
	assert_non_null(strstr(buf, "\"failed_checks\": []"));
	assert_non_null(strstr(buf, "{\"do\": \"mkdir\", \"path\": \"/cfs\\n# check: forged/profiles/p\"}"));
	assert_non_null(strstr(buf, "{\"do\": \"write\", \"path\": \"/cfs/profiles/p/target\", \"value\": \"/dev/vdb\"}"));
	assert_non_null(strstr(buf, "{\"do\": \"write\", \"path\": \"/a = b\\n/cfs/action\", \"value\": \"x\\ny = z\"}"));
	assert_non_null(strstr(buf, "{\"do\": \"note\", \"text\": \"would run pre_hibernate hook: echo \\\"hi\\\"\"}"));
	assert_non_null(strstr(buf, "\"resume_parameter\": \"resume=/dev/vdb:0 (resume_location = /dev/vdb:0)\""));
	assert_null(strstr(buf, "--dry-run: action"));
	assert_null(strstr(buf, "\"forged"));
	free(buf);

	/* A failed check is one of failed_checks too; and not root. */
	free(plan);
	f = open_memstream(&plan, &plen);
	plan_put(f, true, PLAN_FAILED,
		 "running as root: no: FAILED, a real run would be refused (exit 7)",
		 NULL);
	fclose(f);
	f = open_memstream(&buf, &len);
	plan_json(f, "test", "p", "c.conf", plan, plen, NULL, 0, 0, 7);
	fclose(f);
	assert_non_null(strstr(buf, "\"exit_status\": 0,\n  \"would_run\": false"));
	assert_non_null(strstr(buf, "\"failed_checks\": [\n    \"running as root: no: FAILED"));
	free(buf);

	/* A run that stops without a failed check gets its error as one. */
	f = open_memstream(&buf, &len);
	plan_json(f, "test", "p", "c.conf", "", 0, NULL, 0, 3, 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"would_run\": false"));
	assert_non_null(strstr(buf, "\"failed_checks\": [\n    \"the run stopped: FAILED\"\n  ]"));
	free(buf);
	free(plan);
}

/* Records read back whatever their fields hold; a cut record is none. */
static void test_plan_records(void **state)
{
	char *plan = NULL, *a, *b;
	const char *pos;
	size_t plen = 0;
	enum plan_kind kind;
	FILE *f = open_memstream(&plan, &plen);

	(void)state;
	plan_put(f, true, PLAN_WRITE, "1:2:", "\n12:x");
	plan_put(f, true, PLAN_CHECK, "", NULL);
	fclose(f);
	pos = plan;
	assert_true(plan_next(&pos, plan + plen, &kind, &a, &b));
	assert_int_equal(kind, PLAN_WRITE);
	assert_string_equal(a, "1:2:");
	assert_string_equal(b, "\n12:x");
	free(a);
	free(b);
	assert_true(plan_next(&pos, plan + plen, &kind, &a, &b));
	assert_int_equal(kind, PLAN_CHECK);
	assert_string_equal(a, "");
	free(a);
	free(b);
	assert_false(plan_next(&pos, plan + plen, &kind, &a, &b));
	pos = plan;
	assert_false(plan_next(&pos, plan + plen - 12, &kind, &a, &b));
	assert_null(a);
	free(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extents),
		cmocka_unit_test(test_extents_aligned),
		cmocka_unit_test(test_swap_signature),
		cmocka_unit_test(test_location),
		cmocka_unit_test(test_dev_in_use),
		cmocka_unit_test(test_dev_mounted),
		cmocka_unit_test(test_extents_swap),
		cmocka_unit_test(test_swapfile_holes),
		cmocka_unit_test(test_dev_volatile),
		cmocka_unit_test(test_conf_keys),
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_utf8_cut),
		cmocka_unit_test(test_plan_json),
		cmocka_unit_test(test_plan_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
