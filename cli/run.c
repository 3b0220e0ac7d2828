// SPDX-License-Identifier: GPL-2.0
/*
 * What each action does, in order: configuration, profile, checks, lock,
 * module and configfs, more checks, profile writes, hooks, the action,
 * the report.  Nothing that changes the system happens before every check
 * passed, and in --dry-run mode nothing changes at all: cfs prints instead
 * of writing, and the module and mount steps only say what they would do.
 * A dry run goes through the same functions as a real run and stops at
 * the same failed check with the same exit status; only the writes differ.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "anchor.h"
#include "caps.h"
#include "cfs.h"
#include "check.h"
#include "common.h"
#include "conf.h"
#include "hint.h"
#include "hooks.h"
#include "lock.h"
#include "module.h"
#include "perm.h"
#include "profile.h"
#include "report.h"
#include "run.h"
#include "strutil.h"
#include "sysinfo.h"

struct run {
	const struct hib_ctl *ctl;
	struct cfs cfs;
	struct conf conf;
	struct profile prof;
	struct caps caps;
	char target[PATH_MAX];
	bool swapped_on;	/* swap_on_demand: we enabled the target */
	int lock_fd;
	FILE *plan;		/* dry run: stdout, or a buffer for --json */
};

/*
 * In a dry run checks are listed in the plan, as comments.  A failed
 * check returns the exit status the real run would return, in both
 * modes: the dry run stops where the real run would.
 */
static void note(struct run *r, const char *fmt, ...) HIB_PRINTF(2, 3);

static void note(struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->ctl->dry_run)
		return;
	va_start(ap, fmt);
	fputs("# ", r->plan);
	vfprintf(r->plan, fmt, ap);
	fputc('\n', r->plan);
	va_end(ap);
}

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

static int load_config(struct run *r)
{
	const struct hib_ctl *ctl = r->ctl;
	int ret;

	ret = conf_load(&r->conf, ctl->config);
	/* Without -c a missing file means the built-in defaults. */
	if (ret == -ENOENT && !ctl->config_given) {
		conf_free(&r->conf);
		r->conf.path = strdup(ctl->config);
		hib_verbose("%s not found: using built-in defaults",
			    ctl->config);
		return 0;
	}
	if (ret) {
		conf_print_errors(&r->conf);
		return HIB_EXIT_CONFIG;
	}
	return 0;
}

static int list_profiles(struct run *r)
{
	const struct conf *c = &r->conf;
	bool implicit = !conf_find(c, CONF_DEFAULT_PROFILE);
	size_t i;

	if (r->ctl->json) {
		fputs("{\"config\": ", stdout);
		json_string(stdout, c->path);
		fputs(", \"profiles\": [", stdout);
		if (implicit)
			json_string(stdout, CONF_DEFAULT_PROFILE);
		for (i = 0; i < c->nprof; i++) {
			if (i || implicit)
				fputs(", ", stdout);
			json_string(stdout, c->prof[i].name);
		}
		fputs("]}\n", stdout);
		return 0;
	}
	if (implicit)
		puts(CONF_DEFAULT_PROFILE);
	for (i = 0; i < c->nprof; i++) {
		const struct conf_profile *p = &c->prof[i];

		if (r->ctl->verbosity > 0 && p->v[K_INHERIT].value)
			printf("%s (inherits %s)\n", p->name,
			       p->v[K_INHERIT].value);
		else
			puts(p->name);
	}
	return 0;
}

static int show_status(struct run *r)
{
	struct status s;
	int ret;

	if (!cfs_exists(&r->cfs, NULL)) {
		hib_err("%s does not exist: is suspend2 loaded?",
			r->cfs.root);
		if (r->ctl->json)
			status_json_unloaded(stdout, r->cfs.root);
		return HIB_EXIT_FAILURE;
	}
	ret = status_read(&r->cfs, &s);
	if (ret) {
		hib_err("cannot read %s/state: %s", r->cfs.root,
			strerror(-ret));
		return HIB_EXIT_FAILURE;
	}
	if (r->ctl->json)
		status_json(stdout, &s);
	else
		status_text(stdout, &s);
	return 0;
}

static int resolve_profile(struct run *r)
{
	const struct hib_ctl *ctl = r->ctl;
	char err[CONF_MAX_LINE + 256];
	int i;

	if (conf_resolve(&r->conf, ctl->profile, &r->prof, err, sizeof(err))) {
		hib_err("%s", err);
		return HIB_EXIT_CONFIG;
	}
	for (i = 0; i < ctl->nsets; i++) {
		if (profile_override(&r->prof, ctl->sets[i], err,
				     sizeof(err))) {
			hib_err("%s", err);
			fputs("Try 'hibernate --help' for more information.\n",
			      stderr);
			return HIB_EXIT_USAGE;
		}
	}
	if (ctl->module) {
		r->prof.v[K_MODULE].value = ctl->module;
		r->prof.v[K_MODULE].file = "command line";
		r->prof.v[K_MODULE].line = 0;
	}
	if (!r->prof.v[K_TARGET].value)
		return hint_no_target(r->conf.path, r->conf.have_stat,
				      r->prof.name);
	return 0;
}

/*
 * Actions that change the system need root; without it they are refused
 * before the configuration is even read (hib_run).  Another --configfs
 * tree (tests, a chroot) needs no privileges.  A dry run changes nothing,
 * so it goes on and only says so: it is how a user checks a profile.
 */
static bool needs_root(const struct hib_ctl *ctl, const struct cfs *c)
{
	return cfs_is_default(c) && ctl->action != ACT_STATUS &&
	       ctl->action != ACT_LIST_PROFILES;
}

static void note_root(struct run *r)
{
	if (needs_root(r->ctl, &r->cfs) && !perm_is_root())
		note(r, "check: running as root: no, a real run would be refused (exit %d)",
		     HIB_EXIT_PERM);
}

/* The configuration file as it was read must be root's alone. */
static int conf_unsafe(const struct conf *c, char *why, size_t len)
{
	if (!c->have_stat) {
		snprintf(why, len, "cannot tell who owns %s", c->path);
		return -EPERM;
	}
	return perm_owner_mode(c->path, c->uid, c->mode, why, len);
}

/*
 * Root runs the hooks, so whoever may write the configuration or a
 * hook's program would run code as root: both must be root's alone.
 * Checked before the lock, the module and the hooks themselves, so a
 * refusal changes nothing.  Returns 0 when they may run (or there are
 * none), else why holds the reason.
 */
static int hooks_unsafe(const struct run *r, char *why, size_t len)
{
	const struct profile *p = &r->prof;
	size_t i;

	if (!p->npre && !p->npost)
		return 0;
	if (conf_unsafe(&r->conf, why, len))
		return -EPERM;
	for (i = 0; i < p->npre; i++)
		if (perm_hook_command(p->pre[i].cmd, why, len))
			return -EPERM;
	for (i = 0; i < p->npost; i++)
		if (perm_hook_command(p->post[i].cmd, why, len))
			return -EPERM;
	return 0;
}

/*
 * The same for a module given as a path: root loads it into the kernel,
 * so the .ko and the configuration naming it must be root's alone.
 */
static int module_unsafe(const struct run *r, char *why, size_t len)
{
	const struct prof_val *v = &r->prof.v[K_MODULE];
	struct stat st;

	if (!v->value || v->value[0] != '/')
		return 0;	/* a name: modprobe finds it in root's tree */
	if (v->file && v->line && conf_unsafe(&r->conf, why, len))
		return -EPERM;
	if (stat(v->value, &st))
		return 0;	/* missing: insmod says so */
	return perm_owner_mode(v->value, st.st_uid, st.st_mode, why, len);
}

static int check_module_trust(struct run *r)
{
	char why[2 * PATH_MAX + 256];

	if (!module_unsafe(r, why, sizeof(why)))
		return 0;
	note(r, "check: module %s: refused: %s", r->prof.v[K_MODULE].value,
	     why);
	hib_err("refusing to load %s: %s; nothing was changed",
		r->prof.v[K_MODULE].value, why);
	return HIB_EXIT_PERM;
}

/*
 * A module given as a path must be there when it has to be loaded:
 * insmod would fail, but only after the lock and the configfs mount.
 */
static int check_module_file(struct run *r)
{
	const struct prof_val *v = &r->prof.v[K_MODULE];
	char where[PATH_MAX + 32];
	const char *err;
	struct stat st;

	if (!cfs_is_default(&r->cfs) || cfs_exists(&r->cfs, NULL) ||
	    !strchr(v->value, '/'))
		return 0;
	if (stat(v->value, &st))
		err = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		err = "not a regular file";
	else
		return 0;
	hib_err("%s: key 'module': cannot load %s: %s",
		prof_where(v, where, sizeof(where)), v->value, err);
	note(r, "check: module file %s: missing: FAILED", v->value);
	return HIB_EXIT_FAILURE;
}

static int check_hooks(struct run *r)
{
	char why[2 * PATH_MAX + 256];
	enum hib_action a = r->ctl->action;

	if (a != ACT_HIBERNATE && a != ACT_TEST)
		return 0;	/* only a cycle runs hooks */
	if (!hooks_unsafe(r, why, sizeof(why)))
		return 0;
	note(r, "check: hooks of %s: refused: %s", r->conf.path, why);
	hib_err("refusing to run the hooks of %s: %s; nothing was frozen",
		r->conf.path, why);
	return HIB_EXIT_PERM;
}

static int take_lock(struct run *r)
{
	const char *path = lock_path();
	int ret;

	r->lock_fd = -1;
	ret = r->ctl->dry_run ? lock_probe(path) : lock_take(path, &r->lock_fd);
	if (ret == -EWOULDBLOCK) {
		hib_err("busy: another hibernate is running (%s is locked)",
			path);
		return HIB_EXIT_BUSY;
	}
	if (lock_strerror(ret)) {
		hib_err("refusing the lock file %s: %s", path,
			lock_strerror(ret));
		note(r, "check: lock %s: refused: %s", path,
		     lock_strerror(ret));
		return HIB_EXIT_PERM;
	}
	if (ret == -ENOENT || ret == -EROFS) {
		/* An initramfs may have no /run yet: one process, no race. */
		hib_verbose("no lock file %s: %s; going on without it", path,
			    strerror(-ret));
		return 0;
	}
	if (ret) {
		hib_err("cannot lock %s: %s", path, strerror(-ret));
		return HIB_EXIT_FAILURE;
	}
	note(r, "check: lock %s: free", path);
	return 0;
}

static int setup_module(struct run *r)
{
	const char *spec = r->prof.v[K_MODULE].value;
	const char *argv[4];
	bool dry = r->ctl->dry_run;
	int ret;

	if (!cfs_is_default(&r->cfs)) {
		if (!cfs_exists(&r->cfs, NULL)) {
			hib_err("%s does not exist", r->cfs.root);
			return HIB_EXIT_FAILURE;
		}
		return 0;
	}
	module_command(spec, argv, 4);
	if (!configfs_mounted(CFS_MOUNT_POINT)) {
		if (dry) {
			note(r, "would mount configfs on %s", CFS_MOUNT_POINT);
		} else if (configfs_mount(CFS_MOUNT_POINT)) {
			/* configfs may be a module that suspend2 pulls in. */
			if (module_load(spec))
				return HIB_EXIT_FAILURE;
			ret = configfs_mount(CFS_MOUNT_POINT);
			if (ret) {
				hib_err("cannot mount configfs on %s: %s",
					CFS_MOUNT_POINT, strerror(-ret));
				return HIB_EXIT_FAILURE;
			}
		}
	}
	if (cfs_exists(&r->cfs, NULL))
		return 0;
	if (dry) {
		note(r, "would load the module: %s %s %s", argv[0], argv[1],
		     argv[2]);
		return 0;
	}
	if (module_load(spec))
		return HIB_EXIT_FAILURE;
	if (!cfs_exists(&r->cfs, NULL)) {
		hib_err("%s %s succeeded but %s does not exist", argv[0],
			argv[1], r->cfs.root);
		return HIB_EXIT_FAILURE;
	}
	return 0;
}

/*
 * Every word of the profile (writer, compressor, checksum, powerdown)
 * must be one the module offers: its capabilities when it is loaded,
 * else the names it is built with (caps_builtin), a superset of what
 * any kernel offers.  So a word no module knows is refused before the
 * module is loaded, in a dry run as in a real run.
 */
static int check_words(struct run *r)
{
	char where[PATH_MAX + 32];
	int k;

	for (k = 0; k < CONF_KERNEL_KEYS; k++) {
		const char *list = caps_list_for_key(&r->caps, k);
		const char *val = r->prof.v[k].value;

		if (!list || !val || word_in_list(val, list))
			continue;
		hib_err("%s: key '%s': '%s' is not offered by the %s (it offers: %s)",
			prof_where(&r->prof.v[k], where, sizeof(where)),
			conf_keys[k].name, val,
			r->caps.from_module ? "module" : "suspend2 module",
			list);
		note(r, "check: key %s = %s: not offered: FAILED",
		     conf_keys[k].name, val);
		return HIB_EXIT_CONFIG;
	}
	note(r, "check: writer, compressor, checksum, powerdown: offered by the %s",
	     r->caps.from_module ? "module" : "suspend2 module (built-in list)");
	return 0;
}

static int check_module(struct run *r)
{
	char buf[1024];

	caps_builtin(&r->caps);
	if (!cfs_exists(&r->cfs, NULL))
		return 0;	/* dry run, module not loaded yet */
	if (!cfs_read(&r->cfs, "capabilities", buf, sizeof(buf)))
		caps_parse(&r->caps, buf);
	if (!cfs_read(&r->cfs, "state", buf, sizeof(buf)) &&
	    strcmp(buf, "idle")) {
		hib_err("busy: a cycle is running (state %s)", buf);
		return HIB_EXIT_BUSY;
	}
	note(r, "check: module state: idle");
	return check_words(r);
}

static bool file_writer(const struct run *r)
{
	const char *w = r->prof.v[K_WRITER].value;

	return !strcmp(w, "swapfile") || !strcmp(w, "file");
}

static bool swap_writer(const struct run *r)
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
static int swap_on_demand(struct run *r, bool on)
{
	char path[PATH_MAX], why[256];
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
	if (sys_resolve_target(r->prof.v[K_TARGET].value, path, sizeof(path))) {
		hib_err("swap_on_demand: cannot find %s",
			r->prof.v[K_TARGET].value);
		return HIB_EXIT_FAILURE;
	}
	if (!sys_swap_free(SYS_PROC_SWAPS, path, &room)) {
		note(r, "check: swap_on_demand: %s is already active swap, left as it is",
		     path);
		return 0;
	}
	/* swapon(2) would say only EINVAL; say what is missing. */
	if (check_has_swap_signature(path, why, sizeof(why))) {
		hib_err("swap_on_demand: %s %s", path, why);
		note(r, "check: swap_on_demand: %s: no swap signature: FAILED",
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
	char rel[160], dev[64], path[96], line[128];
	struct {
		struct fiemap fm;
		struct fiemap_extent ext;
	} q = { .fm = { .fm_length = 4096, .fm_flags = FIEMAP_FLAG_SYNC,
			.fm_extent_count = 1 } };
	struct stat st;
	FILE *f;
	int fd;

	snprintf(out, len, "unknown");
	if (!r->ctl->dry_run) {
		snprintf(rel, sizeof(rel), "profiles/%s/resume_location",
			 r->prof.name);
		if (cfs_read(&r->cfs, rel, out, len))
			snprintf(out, len, "unknown");
		return;
	}
	if (!file_writer(r)) {
		snprintf(out, len, "%s:0", r->target);
		return;
	}
	fd = open(r->target, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || ioctl(fd, FS_IOC_FIEMAP, &q) ||
	    q.fm.fm_mapped_extents != 1) {
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent",
		 major(st.st_dev), minor(st.st_dev));
	f = fopen(path, "r");
	if (!f)
		return;
	dev[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "DEVNAME=%63s", dev) == 1)
			break;
	fclose(f);
	if (dev[0])
		snprintf(out, len, "/dev/%s:%llu", dev,
			 (unsigned long long)(q.ext.fe_physical / 4096));
}

/*
 * The resume parameter names the device by UUID= or PARTUUID= (/dev/sdX
 * may be another disk at the next boot): the initramfs scripts take it
 * as suspend2.resume= and hand it to hibernate --resume, which resolves
 * it; resume_location takes the same value.  A bdev target keeps no
 * filesystem UUID once the image is written over it.
 */
static void print_resume_location(struct run *r)
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
 * override this.
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
	named = ov->value && !sys_resolve_target(ov->value, other,
						 sizeof(other)) &&
		!stat(other, &ost) && S_ISBLK(ost.st_mode) &&
		ost.st_rdev == st->st_rdev;
	if (named && !strcmp(force, "1")) {
		hib_warn("target %s is in use (%s); writing the image there anyway, as overwrite_in_use names it: what is on it is lost",
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
	else if (check_location(loc, dev, sizeof(dev), &page))
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

static int check_target(struct run *r, bool need_room)
{
	const struct prof_val *tv = &r->prof.v[K_TARGET];
	char where[PATH_MAX + 32], msg[PATH_MAX + 256], hint[PATH_MAX + 256];
	uint64_t size = 0, room;
	struct stat st;
	bool ro = false;
	int ret;

	prof_where(tv, where, sizeof(where));
	/* Resuming needs only the location (the file's filesystem is not mounted). */
	if (!need_room && r->prof.v[K_RESUME_LOCATION].value)
		return check_resume_location(r);
	ret = sys_resolve_target(tv->value, r->target, sizeof(r->target));
	if (ret) {
		hib_err("%s: key 'target': cannot find device %s", where,
			tv->value);
		note(r, "check: target %s: not found", tv->value);
		return HIB_EXIT_FAILURE;
	}
	if (stat(r->target, &st)) {
		hib_err("%s: key 'target': %s: %s", where, r->target,
			strerror(errno));
		note(r, "check: target %s: %s", r->target, strerror(errno));
		return HIB_EXIT_FAILURE;
	}
	note(r, "check: target %s%s%s: exists", tv->value,
	     strcmp(tv->value, r->target) ? " -> " : "",
	     strcmp(tv->value, r->target) ? r->target : "");
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

static void print_hooks(struct run *r, const char *key,
			const struct conf_cmd *cmds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		note(r, "would run %s hook: %s", key, cmds[i].cmd);
}

static void report(struct run *r, const struct results *res)
{
	if (r->ctl->json)
		report_json(stdout, res);
	else if (r->ctl->verbosity >= 0)
		report_text(stdout, res);
	fflush(stdout);
}

/* The action write failed: say why, and how the exit status reads. */
static int action_failed(struct run *r, const char *word, int err)
{
	struct results res;

	results_read(&r->cfs, &res);
	if (err == EBUSY && strcmp(res.status, "failed") &&
	    !*res.refused_tasks) {
		hib_err("busy: another cycle is running");
		return HIB_EXIT_BUSY;
	}
	if (err == EPERM || err == ENOENT || err == EINVAL) {
		/* EPERM names its reason (lockdown, nohibernate) in results. */
		hib_err("the kernel refused action '%s': %s%s%s", word,
			strerror(err), *res.error ? ": " : "", res.error);
		return HIB_EXIT_KERNEL;
	}
	hib_err("%s failed: %s%s%s", word, strerror(err),
		*res.error ? ": " : "", res.error);
	if (err == ENODEV)
		hib_err("the target %s is not an active swap area: enable it (swapon %s), or set swap_on_demand = yes in the profile",
			r->target, r->target);
	report(r, &res);
	return HIB_EXIT_CYCLE;
}

/*
 * The profile directories other than NAME, as "a b c" in BUF; false when
 * there are none (or profiles/ cannot be read).
 */
static bool other_profiles(const struct cfs *c, const char *name, char *buf,
			   size_t len)
{
	char path[PATH_MAX + 64];
	struct dirent *de;
	size_t used = 0;
	DIR *d;

	buf[0] = '\0';
	d = opendir(cfs_path(c, "profiles", path, sizeof(path)));
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, name))
			continue;
		if (used + strlen(de->d_name) + 2 > len)
			break;
		used += snprintf(buf + used, len - used, "%s%s",
				 used ? " " : "", de->d_name);
	}
	closedir(d);
	return used > 0;
}

static void unload(struct run *r)
{
	char rel[128], others[256];
	int ret;

	if (!r->prof.unload_module || !cfs_is_default(&r->cfs))
		return;
	/* configfs pins the module while a profile directory exists. */
	cfs_write(&r->cfs, "profile", "");
	snprintf(rel, sizeof(rel), "profiles/%s", r->prof.name);
	ret = cfs_rmdir(&r->cfs, rel);
	if (ret)
		hib_warn("cannot remove %s/%s: %s", r->cfs.root, rel,
			 strerror(-ret));
	/* Profiles made by others pin it too: say so rather than fail rmmod. */
	if (!r->ctl->dry_run &&
	    other_profiles(&r->cfs, r->prof.name, others, sizeof(others))) {
		hib_warn("not unloading %s: other profiles pin it (%s/profiles: %s)",
			 MODULE_NAME, r->cfs.root, others);
		return;
	}
	if (r->ctl->dry_run)
		note(r, "would unload the module: rmmod %s", MODULE_NAME);
	else
		module_unload();
}

/*
 * The profile is written (and each key read back) and selected before
 * any hook runs: a key the kernel refuses then stops the cycle while
 * the services the hooks would stop still run.
 */
static int do_cycle(struct run *r, const char *word)
{
	const struct profile *p = &r->prof;
	struct results res;
	int ret, post;

	ret = profile_apply(&r->cfs, p, r->target);
	if (!ret)
		ret = profile_select(&r->cfs, p->name);
	if (ret)
		return ret;
	print_resume_location(r);
	if (r->ctl->dry_run) {
		print_hooks(r, "pre_hibernate", p->pre, p->npre);
		ret = cfs_write(&r->cfs, "action", word);
		print_hooks(r, "post_resume", p->post, p->npost);
		unload(r);
		return ret;
	}
	if (hooks_run_all(p->pre, p->npre, "pre_hibernate", p->hook_file,
			  p->hook_timeout, p->name, true)) {
		hib_err("aborted by a pre_hibernate hook; nothing was frozen");
		/* Undo what the hooks that did run may have stopped. */
		hooks_run_all(p->post, p->npost, "post_resume", p->hook_file,
			      p->hook_timeout, p->name, false);
		return HIB_EXIT_CYCLE;
	}
	hib_info("%s with profile '%s' (target %s)",
		 strcmp(word, "test") ? "hibernating" : "testing", p->name,
		 r->target);
	ret = cfs_write(&r->cfs, "action", word);
	/* Here the write has returned: after resume, or failed. */
	if (ret) {
		ret = action_failed(r, word, -ret);
	} else {
		results_read(&r->cfs, &res);
		report(r, &res);
		/*
		 * Verified only where there was something to verify: not with
		 * checksum none, not when a pm_test level stopped the cycle
		 * before the image (status tested, the level in error).
		 */
		if (!strcmp(word, "test") && strcmp(res.status, "tested")) {
			hib_err("test finished with status '%s'", res.status);
			ret = HIB_EXIT_CYCLE;
		} else if (!strcmp(word, "test") && !res.verified &&
			   strcmp(res.checksum, "none") &&
			   strncmp(res.error, "pm_test ", 8)) {
			hib_err("test finished but the image was not verified");
			ret = HIB_EXIT_CYCLE;
		}
	}
	post = hooks_run_all(p->post, p->npost, "post_resume", p->hook_file,
			     p->hook_timeout, p->name, false);
	if (post)
		hib_warn("a post_resume hook failed");
	if (!ret)
		unload(r);
	return ret;
}

/*
 * Before a resume: a boot told not to resume (noresume) invalidates the
 * image, since the filesystems move on without it; and no image is
 * restored while a block device is mounted read-write (unless --force).
 * Returns -1 to go on with the resume, else the exit status.
 */
static int resume_checks(struct run *r)
{
	char mounts[1024];
	int n, ret;

	if (sys_cmdline_noresume(SYS_PROC_CMDLINE)) {
		note(r, "check: noresume on the kernel command line: invalidate instead");
		ret = cfs_write(&r->cfs, "action", "invalidate");
		if (r->ctl->dry_run)
			return ret ? HIB_EXIT_KERNEL : 0;
		if (ret) {
			hib_err("noresume: cannot invalidate the image on %s: %s",
				r->target, strerror(-ret));
			return errno_exit_code(-ret);
		}
		hib_info("noresume on the kernel command line: not resuming; any image on %s is invalidated and will never be restored",
			 r->target);
		return 0;
	}
	n = sys_rw_block_mounts(SYS_PROC_MOUNTS, mounts, sizeof(mounts));
	if (n <= 0)
		return -1;
	if (r->ctl->force) {
		hib_warn("%s mounted read-write; resuming anyway (--force)", mounts);
		note(r, "check: mounted read-write: %s: overridden by --force", mounts);
		return -1;
	}
	hib_err("refusing to resume: %s mounted read-write, and restoring the image would corrupt %s; unmount %s first, or use --force to resume anyway",
		mounts, n == 1 ? "it" : "them", n == 1 ? "it" : "them");
	note(r, "check: mounted read-write: %s: would refuse to resume", mounts);
	return HIB_EXIT_FAILURE;
}

/*
 * Whether the profile's resume location holds an image (1), not (0), or
 * cannot be told (-errno); LOC gets the location.  The module knows the
 * location (profiles/NAME/resume_location), once the profile is written.
 */
static int image_state(struct run *r, char *loc, size_t len)
{
	char rel[160];

	/* resume_location given: r->target is that location, resolved. */
	if (r->prof.v[K_RESUME_LOCATION].value) {
		snprintf(loc, len, "%s", r->target);
		return anchor_state(loc);
	}
	snprintf(rel, sizeof(rel), "profiles/%s/resume_location",
		 r->prof.name);
	if (cfs_read(&r->cfs, rel, loc, len) || !*loc) {
		snprintf(loc, len, "%s", r->target);
		return -ENOENT;
	}
	return anchor_state(loc);
}

/* --invalidate is done: say what it did, which the module does not tell. */
static int invalidated(struct run *r, int before, const char *loc)
{
	int after;

	if (before == 0) {
		hib_info("no image on %s (%s): nothing to invalidate",
			 r->target, loc);
		return 0;
	}
	if (before < 0) {
		hib_info("any image on %s is invalidated (could not read %s to tell whether there was one: %s)",
			 r->target, loc, strerror(-before));
		return 0;
	}
	after = anchor_state(loc);
	if (after > 0) {
		hib_err("the image on %s (%s) is still there after the module's invalidate",
			r->target, loc);
		return HIB_EXIT_FAILURE;
	}
	hib_info("image on %s (%s) invalidated: no boot will restore it%s",
		 r->target, loc,
		 swap_writer(r) ? "; the swap signature is back" : "");
	return 0;
}

static int do_resume(struct run *r, const char *word)
{
	char loc[PATH_MAX + 32];
	struct results res;
	int ret, before = -ENOENT;

	ret = profile_apply(&r->cfs, &r->prof, r->target);
	if (!ret)
		ret = profile_select(&r->cfs, r->prof.name);
	if (ret)
		return ret;
	if (!strcmp(word, "resume")) {
		ret = resume_checks(r);
		if (ret >= 0)
			return ret;
	}
	if (!strcmp(word, "invalidate") && !r->ctl->dry_run)
		before = image_state(r, loc, sizeof(loc));
	ret = cfs_write(&r->cfs, "action", word);
	if (r->ctl->dry_run)
		return ret;
	if (!strcmp(word, "invalidate")) {
		if (ret) {
			hib_err("the kernel refused action 'invalidate': %s",
				strerror(-ret));
			return errno_exit_code(-ret);
		}
		return invalidated(r, before, loc);
	}
	/* Boot must go on: no image and a refused image both exit 0. */
	if (ret == -ENODATA) {
		hib_info("no complete image on %s: nothing to resume",
			 r->target);
		return 0;
	}
	/*
	 * Refused image, or resume not allowed (lockdown): the module
	 * invalidated the image and the boot goes on.
	 */
	if (ret == -EBADMSG || ret == -EPERM) {
		results_read(&r->cfs, &res);
		hib_err("image on %s refused: %s", r->target,
			*res.error ? res.error : "see the kernel log");
		return 0;
	}
	if (ret) {
		hib_err("resume failed: %s", strerror(-ret));
		return ret == -EBUSY ? HIB_EXIT_BUSY : HIB_EXIT_CYCLE;
	}
	hib_err("the resume action returned without restoring an image");
	return HIB_EXIT_CYCLE;
}

int hib_run(const struct hib_ctl *ctl)
{
	struct run r = { .ctl = ctl, .lock_fd = -1, .plan = stdout };
	enum hib_action a = ctl->action;
	size_t plan_len = 0;
	char *plan = NULL;
	int ret;

	hib_verbosity = ctl->verbosity;
	conf_init(&r.conf);
	/* --dry-run --json: the plan is collected, then printed as JSON. */
	if (ctl->dry_run && ctl->json && a != ACT_STATUS &&
	    a != ACT_LIST_PROFILES) {
		r.plan = open_memstream(&plan, &plan_len);
		if (!r.plan) {
			hib_err("out of memory");
			return HIB_EXIT_FAILURE;
		}
	}
	if (cfs_init(&r.cfs, ctl->configfs, ctl->dry_run, r.plan)) {
		hib_err("--configfs: path too long");
		ret = HIB_EXIT_USAGE;
		goto out;
	}
	if (a == ACT_STATUS)
		return show_status(&r);
	if (!ctl->dry_run && needs_root(ctl, &r.cfs)) {
		ret = perm_need_root();
		if (ret)
			return ret;
	}
	ret = load_config(&r);
	if (ret)
		goto out;
	if (a == ACT_LIST_PROFILES) {
		ret = list_profiles(&r);
		goto out;
	}
	ret = resolve_profile(&r);
	if (ret)
		goto out;
	note(&r, "hibernate --dry-run: action '%s', profile '%s' from %s",
	     hib_action_word(a), r.prof.name, r.conf.path);
	note_root(&r);
	/* The same checks, in the same order, for a dry run and a real one. */
	caps_builtin(&r.caps);
	ret = check_hooks(&r);
	if (!ret)
		ret = check_module_trust(&r);
	if (!ret)
		ret = check_module_file(&r);
	if (!ret)
		ret = check_words(&r);
	if (!ret)
		ret = take_lock(&r);
	if (!ret)
		ret = setup_module(&r);
	if (!ret)
		ret = check_module(&r);
	if (!ret && (a == ACT_HIBERNATE || a == ACT_TEST))
		ret = swap_on_demand(&r, true);
	if (!ret)
		ret = check_target(&r, a == ACT_HIBERNATE || a == ACT_TEST);
	if (ret)
		goto out;
	if (a == ACT_HIBERNATE || a == ACT_TEST)
		ret = do_cycle(&r, hib_action_word(a));
	else
		ret = do_resume(&r, hib_action_word(a));
out:
	swap_on_demand(&r, false);
	lock_release(r.lock_fd);
	if (r.plan != stdout) {
		fclose(r.plan);
		plan_json(stdout, hib_action_word(a),
			  r.prof.name ? r.prof.name : ctl->profile,
			  r.conf.path ? r.conf.path : ctl->config,
			  plan ? plan : "", r.conf.errors, r.conf.nerr, ret);
		free(plan);
	}
	profile_free(&r.prof);
	conf_free(&r.conf);
	return ret;
}
