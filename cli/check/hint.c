// SPDX-License-Identifier: GPL-2.0
/*
 * Hints and stable device names.  What hibernate tells the user to copy
 * somewhere (a target, a resume parameter) must still name the same
 * device at the next boot, when /dev/sdX may be another disk: so it is
 * an LVM logical volume's name, UUID= or PARTUUID=, and only one that
 * resolves back to the device right now.
 */
#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "check/check.h"
#include "check/hint.h"
#include "check/lvm.h"
#include "conf/conf.h"
#include "lib/common.h"
#include "lib/strutil.h"
#include "lib/sysinfo.h"

static bool is_rdev(const char *path, dev_t rdev)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev;
}

/* NAME=VALUE names the device rdev, as libblkid (udev links or probing) sees it. */
static bool tag_is(const char *name, const char *value, dev_t rdev)
{
	char *dev = sys_evaluate_tag(name, value);
	bool ok = dev && is_rdev(dev, rdev);

	free(dev);
	return ok;
}

/*
 * UUID and PARTUUID of dev by probing it (root), else from the udev
 * links (anyone: a dry run as a user).
 */
static void probe_ids(const char *dev, dev_t rdev, char *uuid,
		      char *partuuid, size_t len)
{
	static const char *const dirs[2] = { HINT_SYS_BY_UUID,
					     HINT_SYS_BY_PARTUUID };
	char *outs[2] = { uuid, partuuid };
	char path[PATH_MAX];
	struct dirent *de;
	blkid_probe pr;
	const char *v;
	size_t i;
	DIR *d;

	uuid[0] = '\0';
	partuuid[0] = '\0';
	pr = blkid_new_probe_from_filename(dev);
	if (pr) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_UUID |
						  BLKID_SUBLKS_TYPE);
		blkid_probe_enable_partitions(pr, 1);
		blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
		if (!blkid_do_safeprobe(pr)) {
			if (!blkid_probe_lookup_value(pr, "UUID", &v, NULL))
				snprintf(uuid, len, "%s", v);
			if (!blkid_probe_lookup_value(pr, "PART_ENTRY_UUID",
						      &v, NULL))
				snprintf(partuuid, len, "%s", v);
		}
		blkid_free_probe(pr);
		if (*uuid || *partuuid)
			return;
	}
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		d = opendir(dirs[i]);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i],
				 de->d_name);
			if (is_rdev(path, rdev)) {
				snprintf(outs[i], len, "%s", de->d_name);
				break;
			}
		}
		closedir(d);
	}
}

/* The first line of file DIR/NAME, without its newline; false if none. */
static bool read_line(const char *dir, const char *name, char *out,
		      size_t len)
{
	char path[PATH_MAX];
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(out, len, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = '\0';
	return ok;
}

int hint_lvm_name(const char *sysdir, char *out, size_t len)
{
	char uuid[128], name[NAME_MAX + 1], path[PATH_MAX], vglv[PATH_MAX];
	size_t i;

	if (!read_line(sysdir, "dm/uuid", uuid, sizeof(uuid)) ||
	    !read_line(sysdir, "dm/name", name, sizeof(name)))
		return -ENOENT;
	/* "LVM-" and the VG's and LV's ids; a layer (-cow, -real) has more. */
	if (strncmp(uuid, "LVM-", 4) || strlen(uuid) != 4 + 64)
		return -ENOENT;
	for (i = 4; uuid[i]; i++)
		if (!isalnum((unsigned char)uuid[i]))
			return -ENOENT;
	if (strchr(name, '/'))
		return -ENOENT;
	snprintf(path, sizeof(path), "/dev/mapper/%s", name);
	if (lvm_volume_name(path, vglv, sizeof(vglv)) ||
	    (size_t)snprintf(out, len, "%s", path) >= len)
		return -ENOENT;
	return 0;
}

int hint_stable_name(const char *dev, bool by_content, char *out,
		     size_t len)
{
	char uuid[NAME_MAX + 1], partuuid[NAME_MAX + 1], lv[PATH_MAX];
	char sysdir[64];
	struct stat st;

	snprintf(out, len, "%s", dev);
	if (stat(dev, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	/*
	 * A logical volume by its name: it stays, it needs no content (a
	 * bdev target's), and hibernate --resume can activate it in an
	 * initramfs that did not (cli/check/lvm.c), where a UUID= would not be
	 * found.
	 */
	snprintf(sysdir, sizeof(sysdir), CHECK_SYS_BLOCK "/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	if (!hint_lvm_name(sysdir, lv, sizeof(lv)) && is_rdev(lv, st.st_rdev) &&
	    (size_t)snprintf(out, len, "%s", lv) < len)
		return 0;
	snprintf(out, len, "%s", dev);
	probe_ids(dev, st.st_rdev, uuid, partuuid, sizeof(uuid));
	if (by_content && *uuid && tag_is("UUID", uuid, st.st_rdev)) {
		snprintf(out, len, "UUID=%s", uuid);
		return 0;
	}
	if (*partuuid && tag_is("PARTUUID", partuuid, st.st_rdev)) {
		snprintf(out, len, "PARTUUID=%s", partuuid);
		return 0;
	}
	return -ENOENT;
}

/* Split "DEV:PAGE"; false when LOC does not end in ":digits". */
static bool split_location(const char *loc, char *dev, size_t len,
			   uint64_t *page)
{
	const char *colon = strrchr(loc, ':');
	size_t n;

	if (!colon || colon == loc || parse_u64(colon + 1, page))
		return false;
	n = colon - loc;
	if (n >= len)
		return false;
	memcpy(dev, loc, n);
	dev[n] = '\0';
	return true;
}

void hint_stable_location(const char *loc, bool by_content, char *out,
			  size_t len)
{
	char dev[PATH_MAX], name[PATH_MAX];
	uint64_t page;

	snprintf(out, len, "%s", loc);
	if (!split_location(loc, dev, sizeof(dev), &page) || dev[0] != '/')
		return;
	if (!hint_stable_name(dev, by_content, name, sizeof(name)))
		snprintf(out, len, "%s:%llu", name, (unsigned long long)page);
}

int hint_resolve_location(const char *spec, char *out, size_t len)
{
	char tag[PATH_MAX], dev[PATH_MAX];
	uint64_t page;
	int ret;

	if (spec[0] == '/' ||
	    !split_location(spec, tag, sizeof(tag), &page) ||
	    !strchr(tag, '='))
		return sys_resolve_target(spec, out, len);
	ret = sys_resolve_target(tag, dev, sizeof(dev));
	if (ret)
		return ret;
	if ((size_t)snprintf(out, len, "%s:%llu", dev,
			     (unsigned long long)page) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * target = DEVICE:PAGE (hibernate.conf(5), docs/configfs.md "Resume
 * locations"): a name that does not exist as a whole (a USB disk's
 * /dev/disk/by-id/usb-Foo_0:0 does) and ends in ":PAGE", its device a
 * path or UUID=, LABEL=, ... as resume_location's.  LOC gets it with the
 * device resolved; true when VAL is one.
 */
bool hint_target_location(const char *val, char *loc, size_t len)
{
	char whole[PATH_MAX], dev[PATH_MAX];
	struct stat st;
	uint64_t page;

	if (!sys_resolve_target(val, whole, sizeof(whole)) && !stat(whole, &st))
		return false;
	return !hint_resolve_location(val, loc, len) &&
	       !parse_location(loc, dev, sizeof(dev), &page);
}

void hint_target_example(const char *swaps, char *out, size_t len)
{
	char line[PATH_MAX + 128], name[PATH_MAX], type[32], stable[PATH_MAX];
	FILE *f = fopen(swaps, "re");

	snprintf(out, len,
		 "e.g. \"target = UUID=...\" naming a swap partition (none is active here: mkswap and swapon one, see swapon(8), or use writer = file)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s %31s", name, type) != 2 ||
		    name[0] != '/')
			continue;
		/* zram is memory: an image there is gone at power-off. */
		if (!strncmp(name, "/dev/zram", 9))
			continue;
		if (!strcmp(type, "file")) {
			snprintf(out, len,
				 "e.g. \"writer = swapfile\" and \"target = %s\" (active swap here)",
				 name);
			break;
		}
		hint_stable_name(name, true, stable, sizeof(stable));
		if (strcmp(stable, name))
			snprintf(out, len,
				 "e.g. \"target = %s\" (%s, active swap here)",
				 stable, name);
		else
			snprintf(out, len,
				 "e.g. \"target = %s\" (active swap here)",
				 name);
		break;
	}
	fclose(f);
}

int hint_no_target(const char *conf_path, bool conf_read, const char *profile)
{
	char example[2 * PATH_MAX + 128];

	hint_target_example(SYS_PROC_SWAPS, example, sizeof(example));
	if (!conf_read) {
		hib_err("no target: %s does not exist, so nothing says where the image goes",
			conf_path);
		hib_err("create it with a [%s] section that sets the target, %s; see hibernate.conf(5)",
			CONF_DEFAULT_PROFILE, example);
		return HIB_EXIT_CONFIG;
	}
	hib_err("no target: profile '%s' of %s does not say where the image goes",
		profile, conf_path);
	if (strcmp(profile, CONF_DEFAULT_PROFILE))
		hib_err("set \"target = ...\" in [%s] (or in [%s], which every profile inherits), %s; or try one with --set target=DEVICE",
			profile, CONF_DEFAULT_PROFILE, example);
	else
		hib_err("set \"target = ...\" in [%s], %s; or try one with --set target=DEVICE",
			profile, example);
	return HIB_EXIT_CONFIG;
}
