// SPDX-License-Identifier: GPL-2.0
/*
 * Target checks that mirror what the module, or swapon(2), refuses, made
 * before anything changes.  Without them a dry run would say yes to a
 * target the real run loses only after the hooks ran or, with force = 1,
 * to a mounted disk the real run would overwrite.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check/check.h"
#include "lib/common.h"
#include "lib/strutil.h"
#include "lib/sysinfo.h"

const struct check_sys check_sys_default = {
	.swaps = SYS_PROC_SWAPS,
	.mountinfo = CHECK_MOUNTINFO,
	.sys_block = CHECK_SYS_BLOCK,
};

/*
 * Extents whose device blocks the module cannot write behind the
 * filesystem's back: not allocated yet, allocated but never written
 * (reads as zeroes, a write would be lost on the next fsck or converted
 * by the filesystem), shared with another file, or not plain blocks.
 */
#define CHECK_BAD_EXTENT (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | \
			  FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_NOT_ALIGNED | \
			  FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL | \
			  FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_SHARED)

static const char *extent_problem(uint32_t flags)
{
	if (flags & FIEMAP_EXTENT_UNWRITTEN)
		return "an unwritten (preallocated, never written) extent";
	if (flags & FIEMAP_EXTENT_SHARED)
		return "a shared (reflinked) extent";
	if (flags & (FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN))
		return "an extent with no blocks yet";
	return "an extent that is not plain blocks (inline, encoded or unaligned)";
}

/*
 * The extents of a file, in file order, must cover its first SIZE bytes
 * (whole pages: the module maps size / 4096 pages) with plain written
 * blocks.  Returns 0, or -EINVAL with WHY naming the first bad byte.
 */
int check_extents(const struct fiemap_extent *ext, size_t n, uint64_t size,
		  char *why, size_t len)
{
	uint64_t need = size / CHECK_PAGE * CHECK_PAGE, next = 0;
	size_t i;

	for (i = 0; i < n && next < need; i++) {
		const struct fiemap_extent *e = &ext[i];

		if (e->fe_logical > next) {
			snprintf(why, len,
				 "has a hole at byte %llu (a sparse file); write the whole file first, e.g. with dd",
				 (unsigned long long)next);
			return -EINVAL;
		}
		if (e->fe_flags & CHECK_BAD_EXTENT) {
			snprintf(why, len,
				 "has %s at byte %llu; write the whole file first, e.g. with dd",
				 extent_problem(e->fe_flags),
				 (unsigned long long)e->fe_logical);
			return -EINVAL;
		}
		if (e->fe_logical + e->fe_length > next)
			next = e->fe_logical + e->fe_length;
	}
	if (next < need) {
		snprintf(why, len,
			 "has a hole at byte %llu (a sparse file); write the whole file first, e.g. with dd",
			 (unsigned long long)next);
		return -EINVAL;
	}
	return check_extents_aligned(ext, n, need, why, len);
}

int check_extents_aligned(const struct fiemap_extent *ext, size_t n,
			  uint64_t size, char *why, size_t len)
{
	uint64_t end, shift, bad;
	size_t i;

	for (i = 0; i < n && ext[i].fe_logical < size; i++) {
		const struct fiemap_extent *e = &ext[i];
		const struct fiemap_extent *next = i + 1 < n ? &ext[i + 1] : NULL;

		shift = e->fe_physical - e->fe_logical;
		end = e->fe_logical + e->fe_length;
		/*
		 * Each page of the file must be one page of the device: the
		 * extent starts on a page of the device where it starts on
		 * a page of the file, and one that ends inside a page is
		 * followed by the rest of that page, right behind it.
		 */
		if (shift % CHECK_PAGE)
			bad = e->fe_logical;
		else if (end % CHECK_PAGE && end < size &&
			 (!next || next->fe_logical != end ||
			  next->fe_physical - next->fe_logical != shift))
			bad = end;
		else
			continue;
		snprintf(why, len,
			 "has its page at byte %llu on no whole page of the device (a filesystem with blocks smaller than a page, such as ext4 made with 1 KiB blocks, which mke2fs does below 512 MiB); the module writes whole pages, so make the file on a filesystem with 4 KiB blocks",
			 (unsigned long long)(bad / CHECK_PAGE * CHECK_PAGE));
		return -EINVAL;
	}
	return 0;
}

/* swapon(2) wants mkswap's signature at the end of the first page. */
bool check_swap_signature(const unsigned char *page, size_t len)
{
	if (len < CHECK_PAGE)
		return false;
	return !memcmp(page + CHECK_PAGE - 10, "SWAPSPACE2", 10) ||
	       !memcmp(page + CHECK_PAGE - 10, "SWAP-SPACE", 10);
}

/*
 * The extents of FD up to byte END (FIEMAP, synced first), in *EXT; the
 * count or -errno.
 */
static long file_extents(int fd, uint64_t end, struct fiemap_extent **ext)
{
	enum { BATCH = 256, MAX_EXTENTS = 1 << 20 };
	struct fiemap *fm;
	size_t n = 0, cap = 0;
	uint64_t start = 0;
	bool last = false;

	*ext = NULL;
	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (!fm)
		return -ENOMEM;
	while (!last && n < MAX_EXTENTS && start < end) {
		struct fiemap_extent *grown;
		unsigned int i;

		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = end - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			free(fm);
			return -errno;
		}
		if (!fm->fm_mapped_extents)
			break;
		if (n + fm->fm_mapped_extents > cap) {
			cap = (n + fm->fm_mapped_extents) * 2;
			grown = realloc(*ext, cap * sizeof(**ext));
			if (!grown) {
				free(fm);
				return -ENOMEM;
			}
			*ext = grown;
		}
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			(*ext)[n++] = *e;
			start = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
		}
	}
	free(fm);
	return n;
}

/* PATH opened to read its mapping: the fd, or -errno with WHY said. */
static int open_target(const char *path, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		fd = -errno;
		snprintf(why, len, "cannot open it: %s", strerror(-fd));
	}
	return fd;
}

/*
 * What swapon(2) refuses in a swap file (iomap_swapfile_activate()): a
 * hole, blocks not allocated yet, inline or shared (reflinked) data,
 * anywhere in its first SIZE bytes.  Unwritten (preallocated) extents are
 * swap like any other: swap writes them through the block device.
 */
int check_extents_swap(const struct fiemap_extent *ext, size_t n,
		       uint64_t size, char *why, size_t len)
{
	const uint32_t bad = CHECK_BAD_EXTENT & ~FIEMAP_EXTENT_UNWRITTEN;
	uint64_t need = size / CHECK_PAGE * CHECK_PAGE, next = 0;
	size_t i;

	for (i = 0; i < n && next < need; i++) {
		const struct fiemap_extent *e = &ext[i];

		if (e->fe_logical > next)
			break;
		if (e->fe_flags & bad) {
			snprintf(why, len,
				 "has %s at byte %llu, which swapon(2) refuses in a swap file; make the swap file again without it: dd if=/dev/zero of=FILE bs=1M count=MIB, then mkswap FILE",
				 extent_problem(e->fe_flags),
				 (unsigned long long)e->fe_logical);
			return -EINVAL;
		}
		if (e->fe_logical + e->fe_length > next)
			next = e->fe_logical + e->fe_length;
	}
	if (next >= need)
		return 0;
	snprintf(why, len,
		 "has a hole at byte %llu (a sparse file, as truncate or cp --sparse make it), and swapon(2) refuses a swap file with holes; make it again written in full: dd if=/dev/zero of=FILE bs=1M count=MIB, then mkswap FILE",
		 (unsigned long long)next);
	return -EINVAL;
}

int check_swapfile_header(const char *path, char *why, size_t len)
{
	struct fiemap_extent *ext = NULL;
	struct stat st;
	long n;
	int fd, ret;

	fd = open_target(path, why, len);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(why, len, "cannot stat it: %s", strerror(errno));
		close(fd);
		return ret;
	}
	/* The whole file: a hole past the first page fails swapon too. */
	n = file_extents(fd, FIEMAP_MAX_OFFSET, &ext);
	close(fd);
	if (n < 0) {
		snprintf(why, len,
			 "has no block mapping its first page could be written through (FIEMAP: %s)",
			 strerror((int)-n));
		free(ext);
		return (int)n;
	}
	ret = check_extents(ext, n, CHECK_PAGE, why, len);
	if (!ret)
		ret = check_extents_swap(ext, n, st.st_size, why, len);
	free(ext);
	return ret;
}

/*
 * The file writer's target: a regular file of at least two pages, on a
 * filesystem with a block device and a stable mapping, not active swap,
 * every page written (no holes, unwritten or shared extents).
 */
int check_file_target(const struct check_sys *sys, const char *path,
		      char *why, size_t len)
{
	struct fiemap_extent *ext = NULL;
	struct statfs sfs;
	struct stat st;
	uint64_t room;
	long n;
	int fd, ret;

	fd = open_target(path, why, len);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || fstatfs(fd, &sfs)) {
		ret = -errno;
		snprintf(why, len, "cannot stat it: %s", strerror(errno));
		goto out;
	}
	ret = -EINVAL;
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "is not a regular file");
		goto out;
	}
	ret = -ENOSPC;
	if ((uint64_t)st.st_size < 2 * CHECK_PAGE) {
		snprintf(why, len,
			 "is a file of %lld bytes, which cannot hold an image (at least %llu bytes, written in full)",
			 (long long)st.st_size, 2 * CHECK_PAGE);
		goto out;
	}
	ret = -EOPNOTSUPP;
	if (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC) {
		snprintf(why, len,
			 "is on tmpfs (memory), which has no block device: the image would be lost with the memory");
		goto out;
	}
	if (!major(st.st_dev)) {
		snprintf(why, len,
			 "is on a filesystem without a block device of its own (device %u:%u): its blocks cannot be mapped",
			 major(st.st_dev), minor(st.st_dev));
		goto out;
	}
	ret = -EBUSY;
	if (!sys_swap_free(sys->swaps, path, &room)) {
		snprintf(why, len,
			 "is an active swap file: use the swapfile writer, or swapoff it");
		goto out;
	}
	n = file_extents(fd, FIEMAP_MAX_OFFSET, &ext);
	if (n < 0) {
		ret = n == -EOPNOTSUPP ? -EOPNOTSUPP : (int)n;
		snprintf(why, len,
			 "has no block mapping the image could be written behind (FIEMAP: %s)",
			 strerror((int)-n));
		goto out;
	}
	ret = check_extents(ext, n, st.st_size, why, len);
out:
	free(ext);
	close(fd);
	return ret;
}

/* Appends one reason to WHY, "; " between reasons. */
static void add_reason(char *why, size_t len, size_t *used, const char *fmt,
		       ...) HIB_PRINTF(4, 5);

static void add_reason(char *why, size_t len, size_t *used, const char *fmt,
		       ...)
{
	va_list ap;

	if (*used >= len)
		return;
	if (*used)
		*used += snprintf(why + *used, len - *used, "; ");
	if (*used >= len)
		return;
	va_start(ap, fmt);
	*used += vsnprintf(why + *used, len - *used, fmt, ap);
	va_end(ap);
}

/* Is DEV an active swap area according to SWAPS?  Its name in NAME. */
static bool dev_is_swap(const char *swaps, dev_t dev, char *name, size_t len)
{
	char line[PATH_MAX + 128], path[PATH_MAX];
	struct stat st;
	FILE *f = fopen(swaps, "re");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", path) != 1 || path[0] != '/')
			continue;
		str_unoctal(path);
		if (!stat(path, &st) && S_ISBLK(st.st_mode) &&
		    st.st_rdev == dev) {
			snprintf(name, len, "%s", path);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/*
 * A filesystem on an anonymous device (major 0: btrfs, and others that
 * span devices) shows its device only as the mount source: the block
 * device under /dev that it names, when it names one.
 */
static bool source_is(const char *line, dev_t dev)
{
	const char *sep = strstr(line, " - ");
	char src[PATH_MAX];
	struct stat st;

	if (!sep || sscanf(sep + 3, "%*s %4095s", src) != 1)
		return false;
	str_unoctal(src);
	return !strncmp(src, "/dev/", 5) && !stat(src, &st) &&
	       S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

/* Where DEV is mounted according to MOUNTINFO (the first), in DIR. */
static bool dev_is_mounted(const char *mountinfo, dev_t dev, char *dir,
			   size_t len)
{
	char line[2 * PATH_MAX + 256], mnt[PATH_MAX];
	unsigned int ma, mi;
	FILE *f = fopen(mountinfo, "re");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi,
			   mnt) != 3)
			continue;
		str_unoctal(mnt);
		if (makedev(ma, mi) == dev || (!ma && source_is(line, dev))) {
			snprintf(dir, len, "%s", mnt);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* The first holder of the device at sysfs directory DIR, in NAME. */
static bool dev_is_held(const char *dir, char *name, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/holders", dir);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(name, len, "%s", de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

static int read_devno(const char *path, dev_t *dev)
{
	unsigned int ma, mi;
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*dev = makedev(ma, mi);
	return 0;
}

/* One device (LABEL: "" for the target, "its partition NAME " else). */
static void dev_reasons(const struct check_sys *sys, const char *dir,
			dev_t dev, const char *label, char *why, size_t len,
			size_t *used)
{
	char name[PATH_MAX];

	if (dev_is_swap(sys->swaps, dev, name, sizeof(name)))
		add_reason(why, len, used, "%sis active swap (%s)", label,
			   name);
	if (dev_is_mounted(sys->mountinfo, dev, name, sizeof(name)))
		add_reason(why, len, used, "%sis mounted on %s", label, name);
	if (dev_is_held(dir, name, sizeof(name)))
		add_reason(why, len, used,
			   "%sis held by %s (device-mapper, md or another driver stacked on it)",
			   label, name);
}

/*
 * Is block device DEV in use: mounted, active swap, or held by a stacking
 * driver (device-mapper, md, bcache), itself or, for a whole disk, any of
 * its partitions (the root disk is "free" while its partitions are all
 * busy)?  Returns 1 with the reasons in WHY, 0 when free.
 */
int check_dev_in_use(const struct check_sys *sys, dev_t dev, char *why,
		     size_t len)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300], label[300];
	struct dirent *de;
	size_t used = 0;
	dev_t part = 0;
	DIR *d;

	if (len)
		why[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/%u:%u", sys->sys_block, major(dev),
		 minor(dev));
	dev_reasons(sys, dir, dev, "", why, len, &used);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, de->d_name);
		if (access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", dir, de->d_name);
		if (read_devno(sub, &part))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		snprintf(label, sizeof(label), "its partition %s ", de->d_name);
		dev_reasons(sys, sub, part, label, why, len, &used);
	}
	if (d)
		closedir(d);
	return used > 0;
}

/* Devices stacked deeper than this are not followed (a loop). */
#define CHECK_STACK_MAX	8

/*
 * Whether DEV (its sysfs directory under SYS->sys_block), or a partition
 * of it, or a device stacked on either (holders/), at any depth, is
 * mounted.  LABEL names DEV from the target ("" for the target itself,
 * "its partition sda1", "its partition sda2's holder dm-0").
 */
static int mounted_walk(const struct check_sys *sys, dev_t dev,
			const char *label, int depth, char *why, size_t len)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300], lab[1024], mnt[PATH_MAX];
	const char *subdirs[] = { "", "holders/" };
	struct dirent *de;
	dev_t next;
	size_t i;
	DIR *d;

	if (dev_is_mounted(sys->mountinfo, dev, mnt, sizeof(mnt))) {
		snprintf(why, len, "%s%sis mounted on %s", label,
			 *label ? " " : "", mnt);
		return 1;
	}
	if (depth >= CHECK_STACK_MAX)
		return 0;
	for (i = 0; i < ARRAY_SIZE(subdirs); i++) {
		snprintf(dir, sizeof(dir), "%s/%u:%u/%s", sys->sys_block,
			 major(dev), minor(dev), subdirs[i]);
		d = opendir(dir);
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			/* A partition has "partition"; a holder is one. */
			snprintf(sub, sizeof(sub), "%s%s/partition", dir,
				 de->d_name);
			if (!i && access(sub, F_OK))
				continue;
			snprintf(sub, sizeof(sub), "%s%s/dev", dir, de->d_name);
			if (read_devno(sub, &next) || next == dev)
				continue;
			snprintf(lab, sizeof(lab), "%s%s%s %s", label,
				 *label ? "'s " : "its ",
				 i ? "holder" : "partition", de->d_name);
			if (mounted_walk(sys, next, lab, depth + 1, why, len)) {
				closedir(d);
				return 1;
			}
		}
		if (d)
			closedir(d);
	}
	return 0;
}

int check_dev_mounted(const struct check_sys *sys, dev_t dev, char *why,
		      size_t len)
{
	if (len)
		why[0] = '\0';
	return mounted_walk(sys, dev, "", 0, why, len);
}

int check_has_swap_signature(const char *path, char *why, size_t len)
{
	unsigned char page[CHECK_PAGE];
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, len, "cannot open it: %s", strerror(errno));
		return ret;
	}
	n = pread(fd, page, sizeof(page), 0);
	if (n < 0) {
		ret = -errno;
		snprintf(why, len, "cannot read it: %s", strerror(errno));
	} else if (!check_swap_signature(page, n)) {
		ret = -EINVAL;
		snprintf(why, len,
			 "has no swap signature, so swapon(2) would refuse it (run mkswap on it first)");
	}
	close(fd);
	return ret;
}

/* How deep check_dev_volatile() follows partitions and slaves/. */
#define CHECK_VOLATILE_MAX	8

/* The kernel's name of the device at sysfs directory DIR (uevent). */
static bool dev_name(const char *dir, char *name, size_t len)
{
	char path[PATH_MAX + 16], line[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uevent", dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(name, len, "%.*s", (int)(len - 1), line + 8);
		found = true;
	}
	fclose(f);
	return found;
}

/* PREFIX and a number: zram0, ram0 (brd), loop0, but not loop0p1. */
static bool name_is(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && name[n] &&
	       strspn(name + n, "0123456789") == strlen(name + n);
}

/* "its WHAT" after LABEL "" or "it", else "LABEL's WHAT". */
static void owner(const char *label, char *buf, size_t len, const char *what)
{
	if (!*label || !strcmp(label, "it"))
		snprintf(buf, len, "its %s", what);
	else
		snprintf(buf, len, "%s's %s", label, what);
}

/*
 * One device of check_dev_volatile(), LABEL naming it from the target:
 * itself, then the disk of a partition (sysfs puts a partition's
 * directory inside its disk's), then what it is stacked on (slaves/).
 */
static int volatile_walk(const struct check_sys *sys, dev_t dev,
			 const char *label, int depth, char *why, size_t len)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300], lab[1024], name[300];
	char backing[PATH_MAX];
	const char *sp = *label ? " " : "";
	struct dirent *de;
	dev_t next;
	FILE *f;
	DIR *d;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s/%u:%u", sys->sys_block, major(dev),
		 minor(dev));
	if (!dev_name(dir, name, sizeof(name)))
		snprintf(name, sizeof(name), "%u:%u", major(dev), minor(dev));
	snprintf(sub, sizeof(sub), "%s/loop", dir);
	if (major(dev) == CHECK_LOOP_MAJOR || name_is(name, "loop") ||
	    !access(sub, F_OK)) {
		snprintf(sub, sizeof(sub), "%s/loop/backing_file", dir);
		f = fopen(sub, "re");
		if (!f || !fgets(backing, sizeof(backing), f))
			snprintf(backing, sizeof(backing), "a file");
		if (f)
			fclose(f);
		backing[strcspn(backing, "\n")] = '\0';
		snprintf(why, len, "%s%sis a loop device (%s) over %s", label,
			 sp, name, backing);
		return CHECK_VOLATILE_LOOP;
	}
	if (name_is(name, "zram")) {
		snprintf(why, len, "%s%sis %s, a compressed disk in RAM",
			 label, sp, name);
		return CHECK_VOLATILE_RAM;
	}
	if (major(dev) == CHECK_RAMDISK_MAJOR || name_is(name, "ram")) {
		snprintf(why, len, "%s%sis %s, a RAM disk (brd)", label, sp,
			 name);
		return CHECK_VOLATILE_RAM;
	}
	if (depth >= CHECK_VOLATILE_MAX)
		return 0;
	snprintf(sub, sizeof(sub), "%s/partition", dir);
	if (!access(sub, F_OK)) {
		snprintf(sub, sizeof(sub), "%s/../dev", dir);
		if (!read_devno(sub, &next) && next != dev) {
			owner(label, lab, sizeof(lab), "disk");
			ret = volatile_walk(sys, next, lab, depth + 1, why,
					    len);
			if (ret)
				return ret;
		}
	}
	snprintf(sub, sizeof(sub), "%s/slaves", dir);
	d = opendir(sub);
	while (d && !ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/slaves/%s/dev", dir,
			 de->d_name);
		if (read_devno(sub, &next) || next == dev)
			continue;
		snprintf(name, sizeof(name), "underlying device %s",
			 de->d_name);
		owner(label, lab, sizeof(lab), name);
		ret = volatile_walk(sys, next, lab, depth + 1, why, len);
	}
	if (d)
		closedir(d);
	return ret;
}

int check_dev_volatile(const struct check_sys *sys, dev_t dev,
		       const char *label, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	return volatile_walk(sys, dev, label, 0, why, len);
}
