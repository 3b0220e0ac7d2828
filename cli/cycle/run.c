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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "check/anchor.h"
#include "check/hint.h"
#include "check/target.h"
#include "check/trust.h"
#include "conf/step.h"
#include "cycle/cfs_profile.h"
#include "cycle/module.h"
#include "cycle/report.h"
#include "cycle/run.h"
#include "cycle/status.h"
#include "keys/imgkey.h"
#include "lib/lock.h"
#include "lib/perm.h"
#include "lib/plan.h"
#include "lib/strutil.h"
#include "lib/sysinfo.h"
#include "lib/sysroot.h"
#include "system/hooks.h"
#include "system/sleep.h"
#include "system/systemd.h"

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
		if (ret == -EPERM)
			note(r, "check: configuration %s: refused: someone other than root could have written it (exit %d): FAILED",
			     ctl->config, HIB_EXIT_PERM);
		return ret == -EPERM ? HIB_EXIT_PERM : HIB_EXIT_CONFIG;
	}
	return 0;
}

static int list_profiles(struct run *r)
{
	const struct conf *c = &r->conf;
	bool implicit = !conf_find(c, CONF_DEFAULT_PROFILE);
	size_t i;

	if (r->ctl->json) {
		profiles_json(stdout, c, implicit);
		r->json_out = true;
		return 0;
	}
	if (implicit)
		puts(CONF_DEFAULT_PROFILE);
	/* The parser allows no control in a name; escaped all the same. */
	for (i = 0; i < c->nprof; i++) {
		const struct conf_profile *p = &c->prof[i];

		if (r->ctl->verbosity > 0 && p->v[K_INHERIT].value)
			hib_print(stdout, "%s (inherits %s)\n", p->name,
				  p->v[K_INHERIT].value);
		else
			hib_print(stdout, "%s\n", p->name);
	}
	return 0;
}

/* --status: the configuration's profile, when it resolves; quietly. */
static bool status_profile(struct run *r)
{
	char err[CONF_MAX_LINE + 256];

	return (!conf_load(&r->conf, r->ctl->config) ||
		!r->ctl->config_given) &&
	       !conf_resolve(&r->conf, r->ctl->profile, &r->prof, err,
			     sizeof(err));
}

static int show_status(struct run *r)
{
	const struct profile *p = status_profile(r) ? &r->prof : NULL;
	char next[1024] = "";
	struct status s;
	int ret = HIB_EXIT_FAILURE;

	if (!cfs_exists(&r->cfs, NULL)) {
		hib_err("%s does not exist: is suspend2 loaded?",
			r->cfs.root);
		status_image(&r->cfs, p, &s.img);
		status_next(&r->cfs, p, next, sizeof(next));
		if (r->ctl->json)
			status_json_failed(stdout, r->cfs.root, false,
					   "the configfs directory does not exist: is suspend2 loaded?",
					   next, &s.img);
		else
			status_failed_text(stdout, r->cfs.root, next, &s.img);
		goto out;
	}
	ret = status_read(&r->cfs, &s);
	if (ret) {
		hib_err("cannot read %s/state: %s", r->cfs.root,
			strerror(-ret));
		status_image(&r->cfs, p, &s.img);
		if (r->ctl->json)
			status_json_failed(stdout, r->cfs.root, true,
					   hib_first_error(), "", &s.img);
		ret = HIB_EXIT_FAILURE;
		goto out;
	}
	status_image(&r->cfs, p, &s.img);
	status_keys(p, &s.keys);
	if (r->ctl->json)
		status_json(stdout, &s);
	else
		status_text(stdout, &s);
out:
	profile_free(&r->prof);
	conf_free(&r->conf);
	return ret;
}

static int resolve_profile(struct run *r)
{
	const struct hib_ctl *ctl = r->ctl;
	char err[CONF_MAX_LINE + 256];
	int ret;

	if (conf_resolve(&r->conf, ctl->profile, &r->prof, err, sizeof(err))) {
		hib_err("%s", err);
		return HIB_EXIT_CONFIG;
	}
	ret = apply_sets(r);
	if (ret)
		return ret;
	if (profile_check_key(&r->prof, err, sizeof(err))) {
		hib_err("%s", err);
		return HIB_EXIT_CONFIG;
	}
	if (ctl->module) {
		r->prof.v[K_MODULE].value = ctl->module;
		r->prof.v[K_MODULE].file = "command line";
		r->prof.v[K_MODULE].line = 0;
	}
	if (!r->prof.v[K_TARGET].value) {
		ret = hint_no_target(r->conf.path, r->conf.have_stat,
				     r->prof.name);
		/*
		 * Resuming or invalidating with a profile that exists, was
		 * read without error and names no target: nothing was ever
		 * hibernated with it, which the initramfs scripts tell apart
		 * from a mistake (status 3) by this status of its own.
		 */
		if (r->conf.have_stat && !r->prof.v[K_RESUME_LOCATION].value &&
		    (ctl->action == ACT_RESUME ||
		     ctl->action == ACT_INVALIDATE))
			ret = HIB_EXIT_UNSET;
		return ret;
	}
	return 0;
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
		note(r, "check: lock %s: refused: %s: FAILED", path,
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

/* The profile says unload_module = yes: the module loaded here goes. */
static void setup_tpm_unload(struct run *r)
{
	if (!r->prof.unload_module || !cfs_is_default(&r->cfs))
		return;
	if (r->ctl->dry_run)
		note(r, "would unload the module: rmmod %s", MODULE_NAME);
	else
		module_unload();
}

/*
 * --setup-key for key = tpm (setup_key_profile()): there is no key to
 * make, only the question whether this kernel and TPM seal images, which
 * only the module can answer.  It is loaded as for a cycle (the
 * profile's module or --module, --configfs, under the lock), its
 * capabilities read, and nothing else written; a dry run loads nothing
 * and asks a module that is already there.
 */
static int setup_tpm(struct run *r)
{
	const struct hib_ctl *ctl = r->ctl;
	bool was_loaded;
	int ret;

	/* As hib_run() refuses for every other action on the live module. */
	if (cfs_is_default(&r->cfs) && hib_sysroot()) {
		hib_err("HIBERNATE_SYSROOT is set (%s): it is for tests and image builds, not for a run against the live configfs; unset it",
			hib_sysroot());
		return HIB_EXIT_USAGE;
	}
	if (!ctl->dry_run && cfs_is_default(&r->cfs)) {
		ret = perm_need_root();
		if (ret)
			return ret;
	}
	if (ctl->module) {
		r->prof.v[K_MODULE].value = ctl->module;
		r->prof.v[K_MODULE].file = "command line";
		r->prof.v[K_MODULE].line = 0;
	}
	note(r, "hibernate --dry-run: --setup-key for key tpm, profile '%s' from %s: no key file is made",
	     r->prof.name, r->conf.path);
	note_root(r);
	if (ctl->force)
		hib_info("--force: key tpm has no key file to replace; it changes nothing");
	caps_builtin(&r->caps);
	ret = check_module_trust(r);
	if (!ret)
		ret = check_module_file(r);
	if (!ret)
		ret = take_lock(r);
	if (ret)
		return ret;
	was_loaded = cfs_exists(&r->cfs, NULL);
	ret = setup_module(r);
	if (ret)
		return ret;
	read_caps(r);
	ret = setup_tpm_say(r);
	if (!was_loaded)
		setup_tpm_unload(r);
	return ret;
}

static void print_hooks(struct run *r, const char *key,
			const struct conf_cmd *cmds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		note(r, "would run %s hook: %s", key, cmds[i].cmd);
}

static void report(struct run *r, struct results *res)
{
	/* Not in results/: the key of the profile this run wrote. */
	res->key_tpm = r->tpm;
	if (r->ctl->json) {
		report_json(stdout, res);
		r->json_out = true;
	} else if (r->ctl->verbosity >= 0) {
		report_text(stdout, res);
	}
	fflush(stdout);
}

/* results/aborted_by, for "the cycle was aborted ...". */
static const char *aborted_by_words(const char *by)
{
	if (!strcmp(by, "key"))
		return "from the keyboard";
	if (!strcmp(by, "lid"))
		return "by opening the lid";
	if (!strcmp(by, "ac"))
		return "by plugging in external power";
	return "by the user";
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
	if (err == ECANCELED && !strcmp(res.status, "aborted")) {
		hib_err("%s aborted %s: %s; everything is thawed and no boot will restore this image",
			word, aborted_by_words(res.aborted_by), res.error);
		report(r, &res);
		return HIB_EXIT_CYCLE;
	}
	/* Encrypted profile: the module found no public key to wrap for. */
	if (err == ENOKEY) {
		hib_err("the kernel refused action '%s': no public key for the encrypted image%s%s; nothing was frozen",
			word, *res.error ? ": " : "", res.error);
		return HIB_EXIT_KERNEL;
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
 * --suspend-then-hibernate: the machine must be able to suspend to RAM
 * and to set a wake alarm, checked before anything changes.
 */
static int check_sleep(struct run *r)
{
	char why[PATH_MAX + 256], buf[PATH_MAX];
	int ret = sleep_check(hib_path(SLEEP_POWER_STATE, buf, sizeof(buf)),
			      why, sizeof(why));

	if (ret == -EPERM && r->ctl->dry_run && !perm_is_root()) {
		note(r, "check: suspend to RAM with a wake alarm: not checked (%s)",
		     why);
		return 0;
	}
	if (ret) {
		hib_err("--suspend-then-hibernate: %s; nothing was changed (plain hibernate still works)",
			why);
		note(r, "check: suspend to RAM with a wake alarm: FAILED");
		return HIB_EXIT_FAILURE;
	}
	note(r, "check: suspend to RAM with a wake alarm: possible");
	return 0;
}

/*
 * powerdown = suspend: after the image is written, the kernel suspends to
 * RAM, and powers off if it cannot; better to say so before anything
 * changes, in a dry run too.
 */
static int check_powerdown(struct run *r)
{
	const char *powerdown = r->prof.v[K_POWERDOWN].value;
	char why[PATH_MAX + 256], buf[PATH_MAX];

	if (!powerdown || strcmp(powerdown, "suspend"))
		return 0;
	/* After its alarm the machine has slept in RAM long enough. */
	if (r->ctl->suspend_first) {
		hib_err("--suspend-then-hibernate: profile '%s' has powerdown = suspend, which would go back to RAM with no alarm after the image; nothing was changed (--set powerdown=shutdown or platform)",
			r->prof.name);
		note(r, "check: suspend to RAM after writing the image: FAILED");
		return HIB_EXIT_USAGE;
	}
	if (sleep_check_ram(hib_path(SLEEP_POWER_STATE, buf, sizeof(buf)),
			    why, sizeof(why))) {
		hib_err("profile '%s': powerdown = suspend: %s; nothing was changed (choose shutdown or platform)",
			r->prof.name, why);
		note(r, "check: suspend to RAM after writing the image: FAILED");
		return HIB_EXIT_FAILURE;
	}
	note(r, "check: suspend to RAM after writing the image: possible");
	return 0;
}

/*
 * --suspend-then-hibernate: sleep in RAM first.  Returns -1 to hibernate
 * now (the wake alarm woke the machine, or it did not suspend: an image
 * loses nothing), else the exit status (something else woke it before
 * the alarm: the user is back, nothing more to do).
 */
static int suspend_first(struct run *r)
{
	char why[PATH_MAX + 256], buf[PATH_MAX], cbuf[PATH_MAX];
	uint64_t delay = 0, slept;
	int ret;

	parse_u64(r->prof.v[K_HIBERNATE_DELAY].value, &delay);
	if (r->ctl->dry_run) {
		note(r, "would suspend to RAM with a wake alarm %llu s ahead (hibernate_delay), then hibernate if the alarm wakes the machine, and nothing more if something else does first",
		     (unsigned long long)delay);
		return -1;
	}
	hib_info("suspending to RAM; a wake alarm in %llu s (hibernate_delay) hibernates with profile '%s'",
		 (unsigned long long)delay, r->prof.name);
	ret = sleep_until_alarm(hib_path(SLEEP_POWER_STATE, buf, sizeof(buf)),
				hib_path(SLEEP_WAKEUP_COUNT, cbuf, sizeof(cbuf)),
				delay, &slept, why, sizeof(why));
	if (ret == -EBUSY) {
		/* A key, the lid, a button: someone is there. */
		hib_info("%s (a wakeup event stopped the suspend): not hibernating",
			 why);
	} else if (ret < 0) {
		hib_warn("%s: hibernating now instead", why);
		return -1;
	} else if (ret) {
		hib_info("the wake alarm woke the machine after %llu s in RAM: hibernating",
			 (unsigned long long)slept);
		return -1;
	} else {
		hib_info("woken after %llu s in RAM, %s the wake alarm (%llu s): not hibernating",
			 (unsigned long long)slept,
			 slept < delay ? "before" : "not by",
			 (unsigned long long)delay);
	}
	if (r->ctl->json) {
		printf("{\"action\": \"suspend-then-hibernate\", \"hibernated\": false, \"slept_s\": %llu, \"hibernate_delay_s\": %llu}\n",
		       (unsigned long long)slept, (unsigned long long)delay);
		r->json_out = true;
	}
	return HIB_EXIT_OK;
}

/*
 * The hibernation after the alarm failed: back to RAM, without an alarm,
 * rather than stay awake in a bag (systemd does the same); not when
 * someone is there: an abort (a key, the lid, power), or a wakeup event
 * that stopped the freeze, the atomic copy or the power down, as
 * results/error says (CYCLE_RAN: the results are this attempt's).
 */
static void sleep_after_failure(struct run *r, bool cycle_ran)
{
	char buf[PATH_MAX];
	struct results res;
	int ret;

	if (cycle_ran) {
		results_read(&r->cfs, &res);
		if (!strcmp(res.status, "aborted") ||
		    strstr(res.error, "wakeup event"))
			return;
	}
	hib_warn("the hibernation failed: suspending to RAM again, with no wake alarm");
	ret = sleep_again(hib_path(SLEEP_POWER_STATE, buf, sizeof(buf)));
	if (ret)
		hib_err("cannot suspend to RAM either: %s", strerror(-ret));
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

	ret = cfs_write_profile(&r->cfs, p, r->target);
	if (!ret)
		ret = cfs_select_profile(&r->cfs, p->name);
	if (!ret)
		ret = load_pubkey(r);
	if (ret)
		return ret;
	print_resume_location(r);
	if (r->ctl->suspend_first && !strcmp(word, "hibernate")) {
		ret = suspend_first(r);
		if (ret >= 0) {
			unload(r);
			return ret;
		}
	}
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
		if (r->ctl->suspend_first)
			sleep_after_failure(r, false);
		return HIB_EXIT_CYCLE;
	}
	hib_info("%s with profile '%s' (target %s%s%s%s)",
		 strcmp(word, "test") ? "hibernating" : "testing", p->name,
		 r->target, r->encrypted ? ", encryption " : "",
		 r->encrypted ? p->v[K_ENCRYPTION].value : "",
		 r->tpm ? ", key sealed to the TPM" : "");
	ret = cfs_write(&r->cfs, "action", word);
	/* Here the write has returned: after resume, or failed. */
	if (ret) {
		ret = action_failed(r, word, -ret);
		if (r->ctl->suspend_first && ret != HIB_EXIT_BUSY)
			sleep_after_failure(r, true);
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
	note(r, "check: mounted read-write: %s: would refuse to resume: FAILED", mounts);
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
	int ret, st, before = -ENOENT;
	int32_t key_serial = 0;

	ret = cfs_write_profile(&r->cfs, &r->prof, r->target);
	if (!ret)
		ret = cfs_select_profile(&r->cfs, r->prof.name);
	if (ret)
		return ret;
	if (!strcmp(word, "resume")) {
		ret = resume_checks(r);
		if (ret >= 0)
			return ret;
	}
	if (!strcmp(word, "invalidate") && !r->ctl->dry_run)
		before = image_state(r, loc, sizeof(loc));
	/* An encrypted image: its key into the keyring first (not tpm's). */
	if (!strcmp(word, "resume") && image_state(r, loc, sizeof(loc)) > 0) {
		ret = unlock_image(r, loc, &key_serial);
		if (ret)
			return ret;
	}
	ret = cfs_write(&r->cfs, "action", word);
	/* Here the resume failed, or there was none: the key goes. */
	drop_image_key(key_serial);
	if (r->ctl->dry_run)
		return ret;
	if (!strcmp(word, "invalidate")) {
		/*
		 * The module clears the anchor even when the TPM could not
		 * retire a sealed image's key: with the anchor gone from the
		 * medium, no boot finds the image, and that is what the boot
		 * waiting on this needs; the key is said, not failed on.
		 */
		if (ret && before > 0 && anchor_state(loc) == 0) {
			hib_warn("image on %s (%s) invalidated, but the kernel said: %s; if its key was sealed to the TPM it is not retired, so the image could be restored with its anchor written back until the next image is sealed",
				 r->target, loc, strerror(-ret));
			return 0;
		}
		if (ret) {
			hib_err("the kernel refused action 'invalidate': %s",
				strerror(-ret));
			return errno_exit_code(-ret);
		}
		return invalidated(r, before, loc);
	}
	/*
	 * Encrypted, and the module found no key for it (status locked):
	 * the image is intact, as when the passphrase was not given.
	 */
	if (ret == -ENOKEY) {
		results_read(&r->cfs, &res);
		hib_err("image on %s is encrypted and the kernel found no key for it%s%s; the image is left as it is",
			r->target, *res.error ? ": " : "", res.error);
		return HIB_EXIT_LOCKED;
	}
	/* Boot must go on: no image and a refused image both exit 0. */
	if (ret == -ENODATA) {
		hib_info("no complete image on %s: nothing to resume",
			 r->target);
		return 0;
	}
	/*
	 * Refused image, or resume not allowed (lockdown): the module
	 * invalidated the image and the boot goes on.  Unless the anchor
	 * could not be cleared (a failing device): then a later boot would
	 * restore the image over what this one changes, and the caller (the
	 * initramfs) must not go on as if nothing were there.
	 */
	if (ret == -EBADMSG || ret == -EPERM) {
		results_read(&r->cfs, &res);
		hib_err("image on %s refused: %s", r->target,
			*res.error ? res.error : "see the kernel log");
		/*
		 * A location that fails reads may still hold the image, and
		 * give it back to a later boot: as good as an image there.
		 */
		st = image_state(r, loc, sizeof(loc));
		/*
		 * A sealed image whose key the module retired on the TPM is
		 * refused by every boot, whatever its anchor says (the words
		 * are results/error's, docs/configfs.md).
		 */
		if (st != 0 && strstr(res.error, "retired on the TPM")) {
			hib_warn("the refused image is still on %s (%s), but its key is retired on the TPM: no boot can restore it; the module keeps trying to clear its anchor",
				 r->target, loc);
			return 0;
		}
		if (st > 0 || st == -EIO) {
			hib_err("the refused image is still on %s (%s%s): a later boot would restore it over what this boot changes; the module keeps trying to clear it while this boot runs",
				r->target, loc,
				st > 0 ? "" : ", which fails reads");
			return HIB_EXIT_STALE;
		}
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
	/* Key files and the image key wrap (keyfile.c, wrap.c). */
	if (sodium_init() < 0) {
		hib_err("cannot initialise libsodium");
		ret = HIB_EXIT_FAILURE;
		goto out;
	}
	ret = hib_sysroot_check();
	if (ret)
		goto out;
	/* Neither needs the configuration's profile or the module. */
	if (a == ACT_INSTALL_SYSTEMD)
		return hib_install_systemd(ctl);
	if (a == ACT_SYSTEM_SLEEP)
		return hib_system_sleep(ctl->sleep_phase, ctl->sleep_verb,
					ctl->dry_run);
	conf_init(&r.conf);
	/* --dry-run --json: the plan is collected, then printed as JSON. */
	if (ctl->dry_run && ctl->json && a != ACT_STATUS &&
	    a != ACT_LIST_PROFILES) {
		r.plan = open_memstream(&plan, &plan_len);
		if (!r.plan) {
			r.plan = stdout;
			hib_err("out of memory");
			ret = HIB_EXIT_FAILURE;
			goto out;
		}
	}
	if (cfs_init(&r.cfs, ctl->configfs, ctl->dry_run, r.plan)) {
		hib_err("--configfs: path too long");
		ret = HIB_EXIT_USAGE;
		goto out;
	}
	r.cfs.framed = r.plan != stdout;
	if (a == ACT_STATUS)
		return show_status(&r);
	/*
	 * The lock moved under HIBERNATE_SYSROOT would not exclude another
	 * hibernate, or the ACPI script, working on the live module.
	 */
	if (needs_root(ctl, &r.cfs) && hib_sysroot()) {
		hib_err("HIBERNATE_SYSROOT is set (%s): it is for tests and image builds, not for a run against the live configfs; unset it",
			hib_sysroot());
		ret = HIB_EXIT_USAGE;
		goto out;
	}
	if (needs_root(ctl, &r.cfs) && getenv("HIBERNATE_KEYDIR")) {
		hib_err("HIBERNATE_KEYDIR is set (%s): it is for tests, not for a run against the live configfs; unset it",
			getenv("HIBERNATE_KEYDIR"));
		ret = HIB_EXIT_USAGE;
		goto out;
	}
	if (!ctl->dry_run && needs_root(ctl, &r.cfs)) {
		ret = perm_need_root();
		if (ret)
			goto out;
	}
	ret = load_config(&r);
	if (ret)
		goto out;
	if (a == ACT_SETUP_KEY) {
		bool tpm;

		ret = setup_key_profile(&r, &tpm);
		if (!ret)
			ret = tpm ? setup_tpm(&r) : setup_key(&r);
		goto out;
	}
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
	if (!ret && (a == ACT_HIBERNATE || a == ACT_TEST))
		ret = check_encryption(&r);
	if (!ret && a == ACT_HIBERNATE)
		ret = check_powerdown(&r);
	if (!ret && a == ACT_HIBERNATE && ctl->suspend_first)
		ret = check_sleep(&r);
	if (!ret)
		ret = take_lock(&r);
	if (!ret)
		ret = setup_module(&r);
	if (!ret)
		ret = check_module(&r);
	if (!ret && (a == ACT_HIBERNATE || a == ACT_TEST))
		ret = check_key_tpm(&r);
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
			  plan ? plan : "", plan ? plan_len : 0,
			  r.conf.errors, r.conf.nerr, ret, r.real_refused);
		free(plan);
	} else if (ctl->json && !r.json_out) {
		result_json(stdout, hib_action_word(a),
			    r.prof.name ? r.prof.name : ctl->profile,
			    r.conf.path ? r.conf.path : ctl->config,
			    r.conf.errors, r.conf.nerr, ret);
	}
	profile_free(&r.prof);
	conf_free(&r.conf);
	return ret;
}
