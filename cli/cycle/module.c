// SPDX-License-Identifier: GPL-2.0
/*
 * The module is loaded with the system's own tools (modprobe resolves
 * dependencies and options; busybox provides insmod in an initramfs),
 * configfs is mounted with mount(2) so no mount binary is needed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "conf/caps.h"
#include "cycle/module.h"
#include "lib/common.h"
#include "lib/spawn.h"
#include "lib/strutil.h"

#define CONFIGFS_MAGIC	0x62656570

/* The program's exit status, 127 if it cannot run. */
int run_program(const char *const argv[])
{
	const struct spawn s = { .file = argv[0], .argv = argv };

	return spawn_run(&s);
}

/*
 * A spec with a '/' is a file for insmod, anything else a modprobe name.
 * modprobe also passes suspend2.* options from the kernel command line, and
 * a suspend2.resume=DEVICE there makes the module resume as it loads: even
 * when this command was run to invalidate the image (a noresume boot) or to
 * hibernate.  "resume=" comes after those options and wins; hibernate
 * --resume does its own resume through configfs, with its checks.
 */
void module_command(const char *spec, const char **argv, int n)
{
	if (n < 4)
		return;
	argv[0] = strchr(spec, '/') ? "insmod" : "modprobe";
	argv[1] = spec;
	argv[2] = "resume=";
	argv[3] = NULL;
}

int module_load(const char *spec)
{
	const char *argv[4];
	int r;

	module_command(spec, argv, 4);
	hib_verbose("loading the module: %s %s %s", argv[0], argv[1], argv[2]);
	r = run_program(argv);
	if (r == 127)
		hib_err("cannot run %s", argv[0]);
	else if (r)
		hib_err("%s %s failed (status %d)", argv[0], argv[1], r);
	return r ? -EIO : 0;
}

int module_unload(void)
{
	const char *argv[] = { "rmmod", MODULE_NAME, NULL };
	int r = run_program(argv);

	if (r)
		hib_warn("rmmod %s failed (status %d)", MODULE_NAME, r);
	return r ? -EIO : 0;
}

bool configfs_mounted(const char *dir)
{
	struct statfs st;

	return !statfs(dir, &st) && st.f_type == CONFIGFS_MAGIC;
}

int configfs_mount(const char *dir)
{
	if (mount("none", dir, "configfs", 0, NULL))
		return -errno;
	return 0;
}

/*
 * A module given as a path must be there when it has to be loaded:
 * insmod would fail, but only after the lock and the configfs mount.
 */
int check_module_file(struct run *r)
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

int setup_module(struct run *r)
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
 * Every word of the profile (writer, compressor, checksum, powerdown,
 * encryption) must be one the module offers: its capabilities when it is
 * loaded, else the names it is built with (caps_builtin), a superset of
 * what any kernel offers.  So a word no module knows is refused before the
 * module is loaded, in a dry run as in a real run.
 */
int check_words(struct run *r)
{
	char where[PATH_MAX + 32];
	int k;

	for (k = 0; k < CONF_KERNEL_KEYS; k++) {
		const char *list = caps_list_for_key(&r->caps, k);
		const char *val = r->prof.v[k].value;
		char name[64];

		/*
		 * zstd:1 is offered when zstd is and the module takes its
		 * levels; the range was checked with the file.
		 */
		if (val && k == K_COMPRESSOR && strchr(val, ':')) {
			val = conf_compressor_name(val, name, sizeof(name));
			if (word_in_list(val, list) &&
			    !word_in_list(val, r->caps.levels)) {
				hib_err("%s: key 'compressor': '%s' takes no level in the loaded module (levels: %s); a module loaded before levels existed takes none: unload it, or set the compressor without a level",
					prof_where(&r->prof.v[k], where,
						   sizeof(where)),
					val, *r->caps.levels ?
					r->caps.levels : "none");
				note(r, "check: key compressor = %s: no level here: FAILED",
				     r->prof.v[k].value);
				return HIB_EXIT_CONFIG;
			}
		}
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
	note(r, "check: writer, compressor, checksum, powerdown, encryption: offered by the %s",
	     r->caps.from_module ? "module" : "suspend2 module (built-in list)");
	return 0;
}

/*
 * The module's capabilities into r->caps, else the built-in list (not
 * loaded yet in a dry run, or no capabilities file).  Read bounded: a
 * line cut short by the buffer is dropped, not read as a shorter word.
 */
void read_caps(struct run *r)
{
	char buf[CAPS_FILE_MAX];

	caps_builtin(&r->caps);
	if (cfs_exists(&r->cfs, NULL) &&
	    !cfs_read(&r->cfs, "capabilities", buf, sizeof(buf))) {
		caps_drop_partial(buf, sizeof(buf));
		caps_parse(&r->caps, buf);
	}
}

int check_module(struct run *r)
{
	char buf[CAPS_FILE_MAX];

	read_caps(r);
	if (!cfs_exists(&r->cfs, NULL))
		return 0;	/* dry run, module not loaded yet */
	if (!cfs_read(&r->cfs, "state", buf, sizeof(buf)) &&
	    strcmp(buf, "idle")) {
		hib_err("busy: a cycle is running (state %s)", buf);
		return HIB_EXIT_BUSY;
	}
	note(r, "check: module state: idle");
	return check_words(r);
}

void unload(struct run *r)
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
	    cfs_other_profiles(&r->cfs, r->prof.name, others,
			       sizeof(others))) {
		hib_warn("not unloading %s: other profiles pin it (%s/profiles: %s)",
			 MODULE_NAME, r->cfs.root, others);
		return;
	}
	if (r->ctl->dry_run)
		note(r, "would unload the module: rmmod %s", MODULE_NAME);
	else
		module_unload();
}
