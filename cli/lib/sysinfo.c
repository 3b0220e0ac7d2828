// SPDX-License-Identifier: GPL-2.0
/*
 * System lookups for the checks before a cycle.  Block device facts come
 * from sysfs through libsysfs; UUID= and LABEL= go through libblkid,
 * which also knows the udev symlinks; swap and memory only exist in /proc.
 */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sysfs/libsysfs.h>
#include <unistd.h>

#include "../kernel/suspend2/names.h"
#include "lib/strutil.h"
#include "lib/sysinfo.h"

/*
 * libblkid's shared cache (/run/blkid/blkid.tab) may still say what a
 * device held before it was reused (a loop device, a recreated swap
 * area), and it skips a new scan for 200 s after the last one; a tag
 * then finds nothing or the old holder.  A private, empty cache makes
 * every look-up a fresh scan (after the udev links, which udev keeps
 * current), as "blkid -c /dev/null" does.
 */
char *sys_evaluate_tag(const char *token, const char *value)
{
	blkid_cache cache = NULL;
	char *dev;

	if (blkid_get_cache(&cache, "/dev/null"))
		return NULL;
	dev = blkid_evaluate_tag(token, value, &cache);
	blkid_put_cache(cache);
	return dev;
}

int sys_resolve_target(const char *spec, char *out, size_t len)
{
	char *dev;

	if (spec[0] == '/') {
		if (strlen(spec) >= len)
			return -ENAMETOOLONG;
		strcpy(out, spec);
		return 0;
	}
	/* NAME=value: the udev links, else libblkid probes every device. */
	dev = sys_evaluate_tag(spec, NULL);
	if (!dev)
		return -ENOENT;
	if (strlen(dev) >= len) {
		free(dev);
		return -ENAMETOOLONG;
	}
	strcpy(out, dev);
	free(dev);
	return 0;
}

static bool same_device(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	if (stat(a, &sa) || stat(b, &sb))
		return false;
	if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
		return sa.st_rdev == sb.st_rdev;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Free bytes on dev as an active swap area, from /proc/swaps ("Filename
 * Type Size Used Priority", sizes in KiB).  -ENOENT: not active swap.
 */
int sys_swap_free(const char *swaps, const char *dev, uint64_t *free_bytes)
{
	char line[PATH_MAX + 128], name[PATH_MAX], type[32];
	unsigned long long size, used;
	FILE *f = fopen(swaps, "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s %31s %llu %llu", name, type, &size,
			   &used) != 4)
			continue;
		str_unoctal(name);
		if (!same_device(name, dev))
			continue;
		*free_bytes = (size > used ? size - used : 0) * 1024ULL;
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

static int meminfo_get(FILE *f, const char *key, uint64_t *kib)
{
	char line[256];
	size_t n = strlen(key);
	unsigned long long v;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, n) || line[n] != ':')
			continue;
		if (sscanf(line + n + 1, "%llu", &v) != 1)
			return -EINVAL;
		*kib = v;
		return 0;
	}
	return -ENOENT;
}

/*
 * A deliberately simple estimate of the image: memory in use (MemTotal -
 * MemAvailable, or MemTotal - MemFree - Buffers - Cached on kernels
 * without MemAvailable) divided by 2 when compressing, the ratio lzo and
 * lz4 reach on typical memory; capped by image_size_limit.  It is what
 * the image needs: the page cache it may keep on top (image_size) is
 * capped by the module at the room the target has, so it never makes a
 * target this estimate approves too small.
 */
int sys_image_estimate(const char *meminfo, const char *compressor,
		       uint64_t limit, uint64_t *bytes)
{
	uint64_t total, avail, mfree, buffers = 0, cached = 0, used;
	FILE *f = fopen(meminfo, "re");
	int ret;

	if (!f)
		return -errno;
	ret = meminfo_get(f, "MemTotal", &total);
	if (ret)
		goto out;
	if (!meminfo_get(f, "MemAvailable", &avail)) {
		used = total > avail ? total - avail : 0;
	} else {
		ret = meminfo_get(f, "MemFree", &mfree);
		if (ret)
			goto out;
		meminfo_get(f, "Buffers", &buffers);
		meminfo_get(f, "Cached", &cached);
		used = total > mfree + buffers + cached ?
		       total - mfree - buffers - cached : 0;
	}
	used *= 1024;
	if (strcmp(compressor, "none"))
		used /= S2_COMPRESSED_DIVISOR;
	if (limit && used > limit)
		used = limit;
	*bytes = used;
out:
	fclose(f);
	return ret;
}

/* Size in bytes and read-only flag of a block device, from sysfs. */
int sys_block_info(const char *dev, uint64_t *size, bool *ro)
{
	struct sysfs_class_device *cdev;
	struct sysfs_attribute *attr;
	char real[PATH_MAX], *name;
	unsigned long long sectors;
	int ret = -ENOENT;

	if (!realpath(dev, real))
		return -errno;
	name = basename(real);
	cdev = sysfs_open_class_device("block", name);
	if (!cdev)
		return -ENOENT;
	attr = sysfs_get_classdev_attr(cdev, "size");
	if (attr && attr->value && sscanf(attr->value, "%llu", &sectors) == 1) {
		/* sysfs counts 512-byte sectors whatever the device uses. */
		*size = sectors * 512ULL;
		ret = 0;
	}
	attr = sysfs_get_classdev_attr(cdev, "ro");
	*ro = attr && attr->value && attr->value[0] == '1';
	sysfs_close_class_device(cdev);
	return ret;
}

/* Does the kernel command line in CMDLINE say not to resume this boot? */
bool sys_cmdline_noresume(const char *cmdline)
{
	char buf[4096], *w, *save = NULL;
	FILE *f = fopen(cmdline, "re");
	bool no = false;

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	for (w = strtok_r(buf, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save))
		if (!strcmp(w, "noresume") || !strcmp(w, "suspend2.resume=no") ||
		    !strcmp(w, "suspend2.resume=0"))
			no = true;
	return no;
}

/*
 * The block devices mounted read-write according to MOUNTS, as
 * "DEV on DIR, ..." in OUT; returns how many (a negative errno if MOUNTS
 * cannot be read).  Restoring an image while one is mounted read-write
 * would put back a kernel whose idea of that filesystem is out of date.
 */
int sys_rw_block_mounts(const char *mounts, char *out, size_t len)
{
	char line[2 * PATH_MAX], dev[PATH_MAX], dir[PATH_MAX], type[64],
		opts[1024];
	size_t used = 0;
	struct stat st;
	int n = 0;
	FILE *f = fopen(mounts, "re");

	if (len)
		out[0] = '\0';
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s %4095s %63s %1023s", dev, dir, type,
			   opts) != 4)
			continue;
		str_unoctal(dev);
		str_unoctal(dir);
		if (strncmp(opts, "rw", 2) || (opts[2] && opts[2] != ','))
			continue;
		if (stat(dev, &st) || !S_ISBLK(st.st_mode))
			continue;
		n++;
		if (used < len)
			used += snprintf(out + used, len - used, "%s%s on %s",
					 used ? ", " : "", dev, dir);
	}
	fclose(f);
	return n;
}

int sys_file_location(const char *path, char *out, size_t len)
{
	/* The module counts in its kernel's pages: 64 KiB on some arm64. */
	uint64_t page = sysconf(_SC_PAGESIZE);
	struct {
		struct fiemap fm;
		struct fiemap_extent ext;
	} q = { .fm = { .fm_length = page, .fm_flags = FIEMAP_FLAG_SYNC,
			.fm_extent_count = 1 } };
	struct stat st;
	char *dev;
	int fd, ret = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || ioctl(fd, FS_IOC_FIEMAP, &q))
		ret = -errno;
	else if (q.fm.fm_mapped_extents != 1)
		ret = -ENODATA;
	close(fd);
	if (ret)
		return ret;
	dev = blkid_devno_to_devname(st.st_dev);
	if (!dev)
		return -ENODEV;
	snprintf(out, len, "%s:%llu", dev,
		 (unsigned long long)(q.ext.fe_physical / page));
	free(dev);
	return 0;
}
