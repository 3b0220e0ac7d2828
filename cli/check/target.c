// SPDX-License-Identifier: GPL-2.0
/*
 * The target: what the module would refuse about it, said before anything
 * changed (its type, filesystem, use, room), swap enabled on demand, and
 * where resume will find the image.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "check/check.h"
#include "check/hint.h"
#include "check/lvm.h"
#include "check/target.h"
#include "lib/perm.h"
#include "lib/strutil.h"
#include "lib/sysinfo.h"

/*
 * A check --force may override: the target's type and free space.  HINT
 * says what to do instead where --force cannot help (the module refuses
 * such a target itself), so it is not suggested there.
 */
static int soft_fail_hint(struct run *r, const char *msg, const char *hint)
{
	/*
	 * With HINT the module itself refuses such a target, only later (at
	 * the target write, or in the cycle once the hooks ran), so against
	 * the real module --force cannot help and a real run would fail
	 * anyway: refused here, in a dry run as in a real run.  A --configfs
	 * tree (tests) refuses nothing, and there --force goes on.
	 */
	if (r->ctl->force && hint && cfs_is_default(&r->cfs)) {
		hib_err("%s: %s (--force cannot help: the module refuses it)",
			msg, hint);
		note(r, "check: %s: FAILED, the module refuses it even with --force",
		     msg);
		return HIB_EXIT_FAILURE;
	}
	if (r->ctl->force) {
		hib_warn("%s; going on (--force)%s", msg,
			 hint ? ", but the module will refuse it" : "");
		note(r, "check: %s: overridden by --force", msg);
		return 0;
	}
	if (hint)
		hib_err("%s: %s", msg, hint);
	else
		hib_err("%s (use --force to go on anyway)", msg);
	note(r, "check: %s: FAILED", msg);
	return HIB_EXIT_FAILURE;
}

static int soft_fail(struct run *r, const char *msg)
{
	return soft_fail_hint(r, msg, NULL);
}

/*
 * Whatever the writer: a block device that holds a mounted filesystem
 * (itself, a partition, a device stacked on it) is never the target,
 * and no hint for it may advise what would destroy that filesystem
 * (mkswap, swapon): refused first, with what is mounted where.  PATH
 * is the target resolved; 0 when it is no such device.
 */
static int refuse_mounted(struct run *r, const char *path)
{
	char why[1024];
	struct stat st;

	if (stat(path, &st) || !S_ISBLK(st.st_mode) ||
	    !check_dev_mounted(&check_sys_default, st.st_rdev, why,
			       sizeof(why)))
		return 0;
	hib_err("target %s is in use: %s; it holds a mounted filesystem, which the image would destroy: no overwrite_in_use, force = 1 or --force writes over it; choose another target (an unused partition, or one of the active swap areas swapon --show lists)",
		path, why);
	note(r, "check: target %s: %s: FAILED, overwrite_in_use cannot confirm a mounted filesystem",
	     path, why);
	return HIB_EXIT_FAILURE;
}

/*
 * A target whose pages no boot can read back, whatever the writer: a
 * loop device (or a file on a filesystem on one), zram, a brd RAM disk,
 * or a device stacked on one of them.  The image would be written and
 * the machine powered off, and the next boot would find nothing;
 * overwrite_in_use cannot change that, nor --force on the live module.  PATH is the target
 * resolved; 0 when it is none of those.
 */
static int refuse_volatile(struct run *r, const char *path)
{
	char why[2048];
	struct stat st;
	bool file;
	int kind;

	if (stat(path, &st) || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
		return 0;
	file = S_ISREG(st.st_mode);
	/* A file on tmpfs or btrfs (no device of its own): checked later. */
	if (file && !major(st.st_dev))
		return 0;
	kind = check_dev_volatile(&check_sys_default,
				  file ? st.st_dev : st.st_rdev,
				  file ? "its filesystem's device" : "it",
				  why, sizeof(why));
	if (!kind)
		return 0;
	/*
	 * A --configfs tree (tests, image builds) gets no image, so nothing
	 * is lost there and --force goes on, as for the module's refusals
	 * (soft_fail_hint()); against the live module it cannot help.
	 */
	if (r->ctl->force && !cfs_is_default(&r->cfs)) {
		hib_warn("target %s: %s, which no boot could read an image back from; going on (--force, and --configfs is not the live module)",
			 path, why);
		note(r, "check: target %s: %s: overridden by --force",
		     path, why);
		return 0;
	}
	if (kind == CHECK_VOLATILE_LOOP)
		hib_err("target %s: %s, which no boot could read an image back from: the initramfs sets up no loop devices, and the backing file lives on a filesystem that is not mounted while the image is read back, so the next boot would find no image; use the backing file itself (writer = swapfile for a swap file, writer = file for a plain file), or a partition",
			path, why);
	else
		hib_err("target %s: %s, which no boot could read an image back from: what is written there is gone when the power goes off; use a swap partition or a swap file on a disk (swapon --show lists the swap areas: zram, if there is one, is only for swapping)",
			path, why);
	note(r, "check: target %s: %s: FAILED, no boot could read the image back",
	     path, why);
	return HIB_EXIT_FAILURE;
}

/*
 * A target file holds the memory image: whoever may read it reads
 * root's memory (keys, passwords), whoever may write it changes what
 * the next resume restores as root.  It must be root's, open to no one
 * else, under directories root alone may change (swapon(8) warns about
 * the same).  --invalidate only clears the image and is not refused.
 * WHAT is the key or the check the target comes from; 0 when safe or
 * not a regular file, else HIB_EXIT_PERM.
 */
static int refuse_unsafe_file(struct run *r, const char *what,
			      const char *path)
{
	char why[2 * PATH_MAX + 256];
	struct stat st;

	if (r->ctl->action == ACT_INVALIDATE || stat(path, &st) ||
	    !S_ISREG(st.st_mode))
		return 0;
	if (st.st_uid || (st.st_mode & (S_IRWXG | S_IRWXO))) {
		snprintf(why, sizeof(why),
			 "it is owned by %s%u, mode %04o; it holds root's memory image and must be owned by root and open to no one else: chown root %s; chmod 0600 %s",
			 st.st_uid ? "uid " : "root, uid ",
			 (unsigned int)st.st_uid,
			 (unsigned int)(st.st_mode & 07777), path, path);
	} else if (perm_path_trusted(path, why, sizeof(why))) {
		/* why says which directory, and the fix. */
	} else {
		return 0;
	}
	hib_err("%s: refusing the target %s: %s; nothing was changed", what,
		path, why);
	note(r, "check: target %s: not root's alone: FAILED", path);
	return HIB_EXIT_PERM;
}

static bool file_writer(const struct run *r)
{
	const char *w = r->prof.v[K_WRITER].value;

	return !strcmp(w, "swapfile") || !strcmp(w, "file");
}

bool swap_writer(const struct run *r)
{
	const char *w = r->prof.v[K_WRITER].value;

	return !strcmp(w, "swap") || !strcmp(w, "swapfile");
}

/*
 * swap_on_demand = yes: the target (a swap partition or swap file) is
 * enabled only for the cycle, at the highest priority so nothing else
 * (zram) is preferred, and disabled again afterwards, resumed or failed.
 * A target that is already active swap is left alone.
 */
int swap_on_demand(struct run *r, bool on)
{
	char path[PATH_MAX], why[1024];
	struct stat st;
	uint64_t room;

	if (!r->prof.swap_on_demand || !swap_writer(r))
		return 0;
	if (!on) {
		if (!r->swapped_on)
			return 0;
		r->swapped_on = false;
		if (swapoff(r->target)) {
			hib_warn("swap_on_demand: swapoff %s: %s", r->target,
				 strerror(errno));
			return 0;
		}
		hib_verbose("swap_on_demand: %s disabled again", r->target);
		return 0;
	}
	/* swapon(2) takes a file or a device, not a page of one. */
	if (hint_target_location(r->prof.v[K_TARGET].value, path,
				 sizeof(path))) {
		hib_err("swap_on_demand: target %s is a resume location (DEVICE:PAGE), which swapon cannot enable; name the swap file or partition itself as target (and the location as resume_location, for hibernate --resume)",
			r->prof.v[K_TARGET].value);
		note(r, "check: swap_on_demand: target %s is a resume location: FAILED",
		     r->prof.v[K_TARGET].value);
		return HIB_EXIT_FAILURE;
	}
	if (sys_resolve_target(r->prof.v[K_TARGET].value, path, sizeof(path))) {
		hib_err("swap_on_demand: cannot find %s",
			r->prof.v[K_TARGET].value);
		return HIB_EXIT_FAILURE;
	}
	if (refuse_unsafe_file(r, "swap_on_demand", path))
		return HIB_EXIT_PERM;
	if (!sys_swap_free(SYS_PROC_SWAPS, path, &room)) {
		note(r, "check: swap_on_demand: %s is already active swap, left as it is",
		     path);
		return 0;
	}
	/* Never "run mkswap" for a mounted filesystem. */
	if (refuse_mounted(r, path) || refuse_volatile(r, path))
		return HIB_EXIT_FAILURE;
	/* swapon(2) would say only EINVAL; say what is missing. */
	if (check_has_swap_signature(path, why, sizeof(why))) {
		hib_err("swap_on_demand: %s %s", path, why);
		note(r, "check: swap_on_demand: %s: no swap signature: FAILED",
		     path);
		return HIB_EXIT_FAILURE;
	}
	/* The same EINVAL for a swap file with a hole anywhere in it. */
	if (!stat(path, &st) && S_ISREG(st.st_mode) &&
	    check_swapfile_header(path, why, sizeof(why)) == -EINVAL) {
		hib_err("swap_on_demand: %s %s", path, why);
		note(r, "check: swap_on_demand: %s: swapon(2) would refuse it: FAILED",
		     path);
		return HIB_EXIT_FAILURE;
	}
	note(r, "check: swap_on_demand: %s has a swap signature", path);
	if (r->ctl->dry_run) {
		note(r, "would enable swap %s for the cycle: swapon -p %d %s",
		     path, SWAP_FLAG_PRIO_MASK, path);
		return 0;
	}
	if (swapon(path, SWAP_FLAG_PREFER | SWAP_FLAG_PRIO_MASK)) {
		hib_err("swap_on_demand: swapon %s: %s", path, strerror(errno));
		return HIB_EXIT_FAILURE;
	}
	snprintf(r->target, sizeof(r->target), "%s", path);
	r->swapped_on = true;
	hib_info("swap_on_demand: %s enabled for the cycle (priority %d)",
		 path, SWAP_FLAG_PRIO_MASK);
	return 0;
}

/*
 * Where resume finds the image, as the module's profiles/NAME/
 * resume_location says it; in a dry run, worked out here: the device and
 * page of a file's first block (FIEMAP), or page 0 of a device.
 */
static void resume_location(struct run *r, char *out, size_t len)
{
	char rel[160];

	snprintf(out, len, "unknown");
	if (!r->ctl->dry_run) {
		snprintf(rel, sizeof(rel), "profiles/%s/resume_location",
			 r->prof.name);
		if (cfs_read(&r->cfs, rel, out, len))
			snprintf(out, len, "unknown");
		return;
	}
	/* A location is where the image's anchor is, whatever the writer. */
	if (r->target_location) {
		snprintf(out, len, "%s", r->target);
		return;
	}
	if (!file_writer(r)) {
		snprintf(out, len, "%s:0", r->target);
		return;
	}
	if (sys_file_location(r->target, out, len))
		snprintf(out, len, "unknown");
}

/*
 * The resume parameter names the device by a logical volume's name, UUID=
 * or PARTUUID= (/dev/sdX may be another disk at the next boot, and only a
 * volume's name lets the resume activate it): the initramfs scripts take it
 * as suspend2.resume= and hand it to hibernate --resume, which resolves
 * it; resume_location takes the same value.  A bdev target keeps no
 * filesystem UUID once the image is written over it.
 */
void print_resume_location(struct run *r)
{
	char loc[PATH_MAX + 32], stable[PATH_MAX + 32];

	resume_location(r, loc, sizeof(loc));
	hint_stable_location(loc, strcmp(r->prof.v[K_WRITER].value, "bdev"),
			     stable, sizeof(stable));
	if (r->ctl->dry_run) {
		note(r, "resume parameter: suspend2.resume=%s (%s; resume_location = %s)",
		     stable, loc, stable);
		return;
	}
	hib_info("resume parameter: suspend2.resume=%s (%s; on the kernel command line for the initramfs, or resume_location = %s for hibernate --resume)",
		 stable, loc, stable);
}

/*
 * The file writer writes the image to the file's blocks behind the
 * filesystem's back, so the module takes a file only on a filesystem
 * that never moves them (ext2/3/4, xfs) and says why in the kernel log.
 * Said here too, before anything changed, the user sees why and what to
 * use instead; --force cannot help, the module would refuse anyway.
 */
static int check_file_fs(struct run *r)
{
	struct statfs sf;

	if (statfs(r->target, &sf) || sf.f_type == EXT4_SUPER_MAGIC ||
	    sf.f_type == XFS_SUPER_MAGIC)
		return 0;
	if (sf.f_type == F2FS_SUPER_MAGIC)
		hib_err("target %s is on f2fs, whose garbage collector moves the blocks of a file that is not pinned: an image written there could be overwritten; use a swap file there with writer = swapfile (f2fs pins an active swap file), or a partition (writer = bdev or swap)",
			r->target);
	else
		hib_err("target %s is on a filesystem (type 0x%lx) the file writer does not trust to keep a file's blocks in place (it takes ext2, ext3, ext4 and xfs); use a swap file with writer = swapfile, or a partition (writer = bdev or swap)",
			r->target, (unsigned long)sf.f_type);
	note(r, "check: target %s: filesystem refused by the file writer: FAILED",
	     r->target);
	return HIB_EXIT_FAILURE;
}

/*
 * A device in use (mounted, active swap, held by device-mapper or md,
 * itself or one of its partitions) would be destroyed by the image.  The
 * module writes it with force = 1, and force = 1 is one key a user may
 * copy from an example; so the command refuses it unless the profile
 * also names that very device in overwrite_in_use.  --force does not
 * override this.  A mounted filesystem on it (on the device, a partition
 * of it or a device stacked on either: the root disk) is refused even
 * then: nothing in a configuration may have root write over it.
 */
static int check_in_use(struct run *r, const struct stat *st)
{
	const struct prof_val *ov = &r->prof.v[K_OVERWRITE_IN_USE];
	const char *force = r->prof.v[K_FORCE].value;
	char why[1024], other[PATH_MAX];
	struct stat ost;
	bool named;

	if (!check_dev_in_use(&check_sys_default, st->st_rdev, why,
			      sizeof(why))) {
		/*
		 * btrfs (mounted as an anonymous 0:N device, or as a second
		 * member), ZFS and others hold a device without showing it
		 * in mountinfo or holders/: the kernel's exclusive open says
		 * EBUSY for every such holder.
		 */
		int fd = open(r->target, O_RDONLY | O_EXCL | O_CLOEXEC);

		if (fd >= 0 || errno != EBUSY) {
			if (fd >= 0)
				close(fd);
			note(r, "check: target %s: not mounted, not swap, not held",
			     r->target);
			return 0;
		}
		snprintf(why, sizeof(why),
			 "the kernel says it is busy (a filesystem such as btrfs or ZFS, or a driver, holds it)");
	}
	if (refuse_mounted(r, r->target))
		return HIB_EXIT_FAILURE;
	named = ov->value && !sys_resolve_target(ov->value, other,
						 sizeof(other)) &&
		!stat(other, &ost) && S_ISBLK(ost.st_mode) &&
		ost.st_rdev == st->st_rdev;
	if (named && !strcmp(force, "1")) {
		hib_alert("target %s is in use (%s); writing the image there anyway, as overwrite_in_use names it: what is on it is lost",
			  r->target, why);
		note(r, "check: target %s in use (%s): confirmed by overwrite_in_use",
		     r->target, why);
		return 0;
	}
	if (named)
		hib_err("target %s is in use: %s; overwrite_in_use names it, but the module refuses it without force = 1",
			r->target, why);
	else if (ov->value)
		hib_err("target %s is in use: %s; overwrite_in_use = %s names another device, so it is not overwritten",
			r->target, why, ov->value);
	else
		hib_err("target %s is in use: %s; the image would destroy what is on it, so it is refused even with force = 1 and --force; to overwrite it anyway, set overwrite_in_use = %s and force = 1 in the profile",
			r->target, why, r->target);
	note(r, "check: target %s in use (%s): FAILED", r->target, why);
	return HIB_EXIT_FAILURE;
}

/*
 * resume_location is "DEVICE:PAGE" (the parser checked the form), the
 * device maybe named UUID= or PARTUUID= as the resume parameter prints
 * it; the module takes it only as the path of a block device.
 */
static int check_resume_location(struct run *r)
{
	const struct prof_val *v = &r->prof.v[K_RESUME_LOCATION];
	char where[PATH_MAX + 32], dev[PATH_MAX], loc[PATH_MAX];
	const char *err = NULL;
	struct stat st;
	uint64_t page;

	prof_where(v, where, sizeof(where));
	if (hint_resolve_location(v->value, loc, sizeof(loc)))
		err = "libblkid finds no device by that name";
	else if (parse_location(loc, dev, sizeof(dev), &page))
		err = "expected DEVICE:PAGE";
	else if (stat(dev, &st))
		err = strerror(errno);
	else if (!S_ISBLK(st.st_mode))
		err = "not a block device";
	/* A disk named like /dev/disk/by-id/usb-Foo_0:0 splits wrongly. */
	if (err && !stat(v->value, &st) && S_ISBLK(st.st_mode))
		err = "a whole device, not DEVICE:PAGE; add the page after one more colon (NAME:0 for page 0)";
	if (err) {
		hib_err("%s: key 'resume_location': %s: %s", where, v->value,
			err);
		note(r, "check: resume location %s: %s: FAILED", v->value,
		     err);
		return HIB_EXIT_FAILURE;
	}
	snprintf(r->target, sizeof(r->target), "%s", loc);
	note(r, "check: resume location %s%s%s (key resume_location): device %s exists",
	     v->value, strcmp(v->value, loc) ? " -> " : "",
	     strcmp(v->value, loc) ? loc : "", dev);
	return 0;
}

/* The estimated image (sys_image_estimate) must fit in ROOM bytes. */
static int check_room(struct run *r, uint64_t room, const char *what)
{
	char msg[PATH_MAX + 256];
	uint64_t image, limit = 0;
	int ret;

	parse_u64(r->prof.v[K_IMAGE_SIZE_LIMIT].value, &limit);
	ret = sys_image_estimate(SYS_PROC_MEMINFO,
				 r->prof.v[K_COMPRESSOR].value, limit, &image);
	if (ret) {
		hib_warn("cannot read %s (%s): not checking for room",
			 SYS_PROC_MEMINFO, strerror(-ret));
		return 0;
	}
	if (image > room) {
		snprintf(msg, sizeof(msg),
			 "not enough room on %s: about %llu MiB needed, %llu MiB free %s",
			 r->target, (unsigned long long)(image >> 20),
			 (unsigned long long)(room >> 20), what);
		return soft_fail(r, msg);
	}
	note(r, "check: room on %s: about %llu MiB needed, %llu MiB free",
	     r->target, (unsigned long long)(image >> 20),
	     (unsigned long long)(room >> 20));
	return 0;
}

/*
 * Resume and invalidate, in the initramfs: the logical volume that key
 * K (target, or resume_location's device) names may not be active yet
 * (cli/check/lvm.c).  Returns 1 when a dry run found it inactive: then the
 * checks that need its node cannot be made, and r->target is the name
 * the real run writes.
 */
static int activate_volume(struct run *r, enum conf_key k)
{
	const struct prof_val *v = &r->prof.v[k];
	char where[PATH_MAX + 32], why[PATH_MAX + 512], dev[PATH_MAX];
	const char *key = k == K_TARGET ? "target" : "resume_location";
	uint64_t page;
	int ret;

	/* resume_location is DEVICE:PAGE; by UUID= lvm cannot help. */
	if (k == K_TARGET)
		snprintf(dev, sizeof(dev), "%s", v->value);
	else if (parse_location(v->value, dev, sizeof(dev), &page))
		return 0;
	ret = lvm_activate(dev, r->ctl->dry_run, why, sizeof(why));
	if (!ret && r->ctl->dry_run) {
		note(r, "check: %s %s: a logical volume, not active; a real run activates it (lvm lvchange -aay) and then checks it",
		     key, dev);
		snprintf(r->target, sizeof(r->target), "%s", v->value);
		return 1;
	}
	if (!ret) {
		hib_info("activated the logical volume of %s %s", key, dev);
	} else if (ret < 0) {
		prof_where(v, where, sizeof(where));
		hib_warn("%s: key '%s': %s", where, key, why);
	}
	return 0;
}

/*
 * target = DEVICE:PAGE, resolved in r->target: resume and invalidate
 * read the anchor there, as with resume_location; an image is written to
 * one only by the swapfile writer (the active swap area that starts at
 * that page), as the module takes it (s2_writer_open()): the others need
 * the file or device itself.
 */
static int check_target_location(struct run *r, bool need_room)
{
	const struct prof_val *tv = &r->prof.v[K_TARGET];
	const char *writer = r->prof.v[K_WRITER].value;
	char where[PATH_MAX + 32], dev[PATH_MAX];
	const char *swap = "; the module writes to the active swap area starting at that page (room not checked)";
	const char *loc = r->target, *err = NULL;
	struct stat st;
	uint64_t page;

	prof_where(tv, where, sizeof(where));
	parse_location(loc, dev, sizeof(dev), &page);
	if (stat(dev, &st))
		err = strerror(errno);
	else if (!S_ISBLK(st.st_mode))
		err = "not a block device";
	if (err) {
		hib_err("%s: key 'target': resume location %s: device %s: %s",
			where, tv->value, dev, err);
		note(r, "check: target %s: a resume location, device %s: %s: FAILED",
		     tv->value, dev, err);
		return HIB_EXIT_FAILURE;
	}
	if (need_room && strcmp(writer, "swapfile")) {
		hib_err("%s: key 'target': %s is a resume location (DEVICE:PAGE): the %s writer needs the %s itself to write an image (only swapfile writes to a location, the active swap file starting there); name it as target, and the location as resume_location for hibernate --resume",
			where, tv->value, writer,
			file_writer(r) ? "file" : "device");
		note(r, "check: target %s: a resume location, which the %s writer cannot write an image to: FAILED",
		     tv->value, writer);
		return HIB_EXIT_FAILURE;
	}
	if (need_room && refuse_volatile(r, dev))
		return HIB_EXIT_FAILURE;
	r->target_location = true;
	note(r, "check: target %s%s%s: a resume location, device %s exists%s",
	     tv->value, strcmp(tv->value, loc) ? " -> " : "",
	     strcmp(tv->value, loc) ? loc : "", dev, need_room ? swap : "");
	return 0;
}

int check_target(struct run *r, bool need_room)
{
	const struct prof_val *tv = &r->prof.v[K_TARGET];
	char where[PATH_MAX + 32], msg[PATH_MAX + 256], hint[PATH_MAX + 256];
	uint64_t size = 0, room;
	struct stat st;
	bool ro = false;
	int ret;

	prof_where(tv, where, sizeof(where));
	/* Resuming needs only the location (the file's filesystem is not mounted). */
	if (!need_room && r->prof.v[K_RESUME_LOCATION].value) {
		if (activate_volume(r, K_RESUME_LOCATION))
			return 0;
		return check_resume_location(r);
	}
	if (!need_room && activate_volume(r, K_TARGET))
		return 0;
	if (hint_target_location(tv->value, r->target, sizeof(r->target)))
		return check_target_location(r, need_room);
	ret = sys_resolve_target(tv->value, r->target, sizeof(r->target));
	if (ret) {
		hib_err("%s: key 'target': cannot find device %s", where,
			tv->value);
		note(r, "check: target %s: not found: FAILED", tv->value);
		return HIB_EXIT_FAILURE;
	}
	if (stat(r->target, &st)) {
		hib_err("%s: key 'target': %s: %s", where, r->target,
			strerror(errno));
		note(r, "check: target %s: %s: FAILED", r->target,
		     strerror(errno));
		return HIB_EXIT_FAILURE;
	}
	note(r, "check: target %s%s%s: exists", tv->value,
	     strcmp(tv->value, r->target) ? " -> " : "",
	     strcmp(tv->value, r->target) ? r->target : "");
	/* bdev: check_in_use() below says more (swap, holders). */
	if (S_ISBLK(st.st_mode) && strcmp(r->prof.v[K_WRITER].value, "bdev")) {
		ret = refuse_mounted(r, r->target);
		if (ret)
			return ret;
	}

	if (!S_ISBLK(st.st_mode) && !(S_ISREG(st.st_mode) && file_writer(r))) {
		snprintf(msg, sizeof(msg), "target %s is not a %s", r->target,
			 file_writer(r) ? "regular file" : "block device");
		/* The module's target write refuses it (ENOTBLK, EINVAL). */
		snprintf(hint, sizeof(hint), "the %s writer writes only to %s",
			 r->prof.v[K_WRITER].value,
			 file_writer(r) ? "a regular file" :
			 "a block device (writer = file takes a regular file)");
		return soft_fail_hint(r, msg, hint);
	}
	if (S_ISREG(st.st_mode) && file_writer(r)) {
		snprintf(msg, sizeof(msg), "%s: key 'target'", where);
		ret = refuse_unsafe_file(r, msg, r->target);
		if (ret)
			return ret;
	}
	/* What the module refuses when the target is written: say it first. */
	if (S_ISREG(st.st_mode) && !strcmp(r->prof.v[K_WRITER].value, "file")) {
		if (check_file_target(&check_sys_default, r->target, msg,
				      sizeof(msg))) {
			hib_err("%s: key 'target': %s %s", where, r->target,
				msg);
			note(r, "check: target %s: refused by the file writer: FAILED",
			     r->target);
			return HIB_EXIT_FAILURE;
		}
		note(r, "check: target %s: every page written, not swap",
		     r->target);
	}
	if (S_ISBLK(st.st_mode) && !strcmp(r->prof.v[K_WRITER].value, "bdev")) {
		ret = check_in_use(r, &st);
		if (ret)
			return ret;
	}
	/* The module refuses it for every action, at the target write. */
	if (S_ISREG(st.st_mode) && !strcmp(r->prof.v[K_WRITER].value, "file")) {
		ret = check_file_fs(r);
		if (ret)
			return ret;
	}
	/* The module writes its signature there, as one page of the device. */
	if (S_ISREG(st.st_mode) &&
	    !strcmp(r->prof.v[K_WRITER].value, "swapfile")) {
		ret = check_swapfile_header(r->target, msg, sizeof(msg));
		/* mkswap makes it 0600: a user's dry run cannot look. */
		if (ret == -EACCES && r->ctl->dry_run && !perm_is_root()) {
			note(r, "check: target %s: first page not checked (%s)",
			     r->target, msg);
		} else if (ret) {
			hib_err("%s: key 'target': %s %s", where, r->target,
				msg);
			note(r, "check: target %s: %s: FAILED", r->target, msg);
			return HIB_EXIT_FAILURE;
		}
	}
	/* Only an image to write: resume and invalidate harm nothing. */
	if (need_room) {
		ret = refuse_volatile(r, r->target);
		if (ret)
			return ret;
	}
	if (!sys_block_info(r->target, &size, &ro)) {
		hib_verbose("target %s: %llu MiB%s", r->target,
			    (unsigned long long)(size >> 20),
			    ro ? ", read-only" : "");
		if (ro) {
			snprintf(msg, sizeof(msg), "target %s is read-only",
				 r->target);
			return soft_fail(r, msg);
		}
	}
	if (!need_room)
		return 0;
	/*
	 * file and bdev: the module checks their space only once the hooks
	 * ran, so the same estimate as for swap is made here, against the
	 * file or the device less its anchor page.
	 */
	if (!swap_writer(r)) {
		room = S_ISREG(st.st_mode) ?
		       (uint64_t)st.st_size / CHECK_PAGE * CHECK_PAGE : size;
		if (!room) {
			hib_verbose("cannot tell the size of %s: not checking for room",
				    r->target);
			return 0;
		}
		room = room > CHECK_PAGE ? room - CHECK_PAGE : 0;
		return check_room(r, room, "on the target");
	}
	ret = sys_swap_free(SYS_PROC_SWAPS, r->target, &room);
	if (ret == -ENOENT && r->prof.swap_on_demand && r->ctl->dry_run) {
		note(r, "check: room on %s: not checked, swap_on_demand enables it only for the cycle",
		     r->target);
		return 0;
	}
	if (ret == -ENOENT) {
		/* The module refuses it (ENODEV): --force cannot help. */
		snprintf(msg, sizeof(msg),
			 "target %s is not an active swap area, and the %s writer writes only to one",
			 r->target, r->prof.v[K_WRITER].value);
		snprintf(hint, sizeof(hint),
			 "enable it first (swapon %s, or an fstab line), or set swap_on_demand = yes in the profile so that hibernate enables it for the cycle only",
			 r->target);
		return soft_fail_hint(r, msg, hint);
	}
	if (ret) {
		hib_warn("cannot read %s (%s): not checking for room",
			 SYS_PROC_SWAPS, strerror(-ret));
		return 0;
	}
	return check_room(r, room, "swap");
}
