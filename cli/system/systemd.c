// SPDX-License-Identifier: GPL-2.0
/*
 * hibernate --install-systemd: make "systemctl hibernate",
 * "suspend-then-hibernate" and "hybrid-sleep" (and logind's lid and key
 * handling) go through suspend2 by replacing the ExecStart of
 * systemd-hibernate.service, systemd-suspend-then-hibernate.service and
 * systemd-hybrid-sleep.service with this command, its options and a
 * profile (with --suspend-then-hibernate for the second, and powerdown =
 * suspend, the image and then RAM, for the third).  That
 * ExecStart was systemd-sleep, which also runs the system-sleep hooks
 * (NVIDIA, TLP, ...): the drop-ins run them too, through hibernate
 * --system-sleep pre|post, once before and once after (with
 * suspend-then-hibernate, around both halves).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conf/caps.h"
#include "conf/profile.h"
#include "lib/cfs.h"
#include "lib/common.h"
#include "lib/perm.h"
#include "lib/spawn.h"
#include "lib/strutil.h"
#include "lib/sysroot.h"
#include "system/systemd.h"

/* Profile names as hibernate.conf(5) allows them; nothing to quote. */
static bool profile_name_ok(const char *p)
{
	size_t n = strlen(p);

	if (!n || n > 64)
		return false;
	return strspn(p, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

static int mkdir_p(const char *dir)
{
	char buf[PATH_MAX];
	char *s;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * One word of an ExecStart= line as systemd.service(5) reads it: plain
 * when it holds nothing systemd would interpret, else in double quotes
 * with \ and " escaped; % (specifiers) and $ (variables) are doubled
 * either way.  Returns false when it does not fit.
 */
bool sd_quote(const char *w, char *out, size_t len)
{
	bool plain = *w && strspn(w, "abcdefghijklmnopqrstuvwxyz"
				     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				     "/._+,:=@-%$") == strlen(w);
	size_t n = 0;

	if (len < 3)
		return false;
	if (!plain)
		out[n++] = '"';
	for (; *w; w++) {
		/* Room for an escape, the character, a closing quote, NUL. */
		if (n + 4 > len || *w == '\n')
			return false;
		if (*w == '%' || *w == '$')
			out[n++] = *w;
		else if (!plain && (*w == '\\' || *w == '"'))
			out[n++] = '\\';
		out[n++] = *w;
	}
	if (!plain)
		out[n++] = '"';
	out[n] = '\0';
	return true;
}

/*
 * The command systemd will run: this binary, found through
 * /proc/self/exe (so a symbolic link or a relative name is resolved),
 * when root alone may change it; else the canonical install path.
 */
static int self_path(char *out, size_t len)
{
	char why[2 * PATH_MAX + 256], why2[2 * PATH_MAX + 256];
	char *self = realpath("/proc/self/exe", NULL);

	if (self && !perm_path_trusted(self, why, sizeof(why))) {
		snprintf(out, len, "%s", self);
		free(self);
		return 0;
	}
	if (!self)
		snprintf(why, sizeof(why), "/proc/self/exe: %s",
			 strerror(errno));
	if (!perm_path_trusted(HIB_INSTALL_PATH, why2, sizeof(why2))) {
		hib_warn("--install-systemd: not using %s (%s); the drop-in runs %s",
			 self ? self : "this binary", why, HIB_INSTALL_PATH);
		snprintf(out, len, "%s", HIB_INSTALL_PATH);
		free(self);
		return 0;
	}
	hib_err("--install-systemd: systemd would run %s as root at every hibernation, but %s; install hibernate (make install, or the package) and run the installed one",
		self ? self : "this binary", why);
	free(self);
	return HIB_EXIT_PERM;
}

/* An option's path, absolute: systemd does not run in our directory. */
static int abs_path(const char *opt, const char *p, char *out, size_t len)
{
	char *r = realpath(p, NULL);
	char cwd[PATH_MAX];

	if (r) {
		snprintf(out, len, "%s", r);
		free(r);
		return 0;
	}
	hib_warn("--install-systemd: %s %s: %s", opt, p, strerror(errno));
	if (p[0] == '/') {
		snprintf(out, len, "%s", p);
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd)) ||
	    snprintf(out, len, "%s/%s", cwd, p) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* Append one quoted word (with a blank before it) to the line. */
static int add_word(char *line, size_t len, const char *w)
{
	char q[2 * PATH_MAX + 8];
	size_t n = strlen(line);

	if (!sd_quote(w, q, sizeof(q)) ||
	    snprintf(line + n, len - n, "%s%s", n ? " " : "", q) >=
	    (int)(len - n)) {
		hib_err("--install-systemd: cannot write '%s' into ExecStart=",
			w);
		return HIB_EXIT_USAGE;
	}
	return 0;
}

/* Append an option and its path, made absolute. */
static int add_path(char *line, size_t len, const char *opt, const char *path)
{
	char p[PATH_MAX];
	int ret = abs_path(opt, path, p, sizeof(p));

	if (!ret)
		ret = add_word(line, len, opt);
	return ret ? ret : add_word(line, len, p);
}

const struct systemd_dropin systemd_dropins[SYSTEMD_NR_DROPINS] = {
	{ "systemd-hibernate.service", "hibernate", false, NULL },
	{ "systemd-suspend-then-hibernate.service", "suspend-then-hibernate",
	  true, NULL },
	{ "systemd-hybrid-sleep.service", "hybrid-sleep", false,
	  "powerdown=suspend" },
};

#define DROPIN_FORMAT \
	"# Written by hibernate --install-systemd: systemctl %s\n" \
	"# runs suspend2 with profile %s.  Remove this file and run\n" \
	"# \"systemctl daemon-reload\" to go back to systemd's %s.\n" \
	"[Service]\n" \
	"# The hooks of system-sleep/ (systemd-sleep ran them): before, after.\n" \
	"ExecStartPre=-%s --system-sleep pre %s\n" \
	"ExecStart=\n" \
	"ExecStart=%s\n" \
	"ExecStopPost=-%s --system-sleep post %s\n"

int hib_dropin_text(const struct hib_ctl *ctl, const char *self,
		    const struct systemd_dropin *d, char *out, size_t len)
{
	char line[8192] = "", pre[PATH_MAX * 2 + 64] = "",
	     post[PATH_MAX * 2 + 64] = "";
	int i, ret;

	ret = add_word(line, sizeof(line), self);
	if (!ret && ctl->config_given)
		ret = add_path(line, sizeof(line), "-c", ctl->config);
	if (!ret && ctl->module)
		ret = add_path(line, sizeof(line), "--module", ctl->module);
	if (!ret && strcmp(ctl->configfs, CFS_DEFAULT_ROOT))
		ret = add_path(line, sizeof(line), "--configfs", ctl->configfs);
	for (i = 0; !ret && i < ctl->nsets; i++) {
		ret = add_word(line, sizeof(line), "--set");
		if (!ret)
			ret = add_word(line, sizeof(line), ctl->sets[i]);
	}
	if (!ret && d->set)
		ret = add_word(line, sizeof(line), "--set");
	if (!ret && d->set)
		ret = add_word(line, sizeof(line), d->set);
	if (!ret && ctl->force)
		ret = add_word(line, sizeof(line), "--force");
	if (!ret && d->suspend_first)
		ret = add_word(line, sizeof(line), "--suspend-then-hibernate");
	if (!ret)
		ret = add_word(line, sizeof(line), "-p");
	if (!ret)
		ret = add_word(line, sizeof(line), ctl->profile);
	if (!ret)
		ret = add_word(pre, sizeof(pre), self);
	if (!ret)
		ret = add_word(post, sizeof(post), self);
	if (ret)
		return ret;
	if ((size_t)snprintf(out, len, DROPIN_FORMAT, d->verb, ctl->profile,
			     d->verb, pre, d->verb, line, post, d->verb) >= len) {
		hib_err("--install-systemd: drop-in too long");
		return HIB_EXIT_USAGE;
	}
	return 0;
}

/*
 * Every --set as a dry run takes it, on profile P (the one installed when
 * it resolves, else the built-in defaults): the key and its value
 * (profile_override(), exit 2), a word no module offers (exit 3), an
 * encryption the --set leaves without a key (exit 3).  0, or that exit
 * status, said; a drop-in with a --set the run would refuse would only
 * fail in the journal at every hibernation.
 */
static int check_sets(const struct hib_ctl *ctl, struct profile *p)
{
	char err[CONF_MAX_LINE + 256], name[64];
	struct caps caps;
	int i, k;

	for (i = 0; i < ctl->nsets; i++) {
		if (profile_override(p, ctl->sets[i], err, sizeof(err))) {
			hib_err("%s; nothing was installed", err);
			return HIB_EXIT_USAGE;
		}
	}
	/* As check_words() in a dry run before the module is loaded. */
	caps_builtin(&caps);
	for (k = 0; k < CONF_KERNEL_KEYS; k++) {
		const char *list = caps_list_for_key(&caps, k);
		const char *val = p->owned[k];

		if (!val || !list)
			continue;
		if (k == K_COMPRESSOR)
			val = conf_compressor_name(val, name, sizeof(name));
		if (word_in_list(val, list))
			continue;
		hib_err("--set: key '%s': '%s' is not offered by the suspend2 module (it offers: %s); nothing was installed",
			conf_keys[k].name, val, list);
		return HIB_EXIT_CONFIG;
	}
	if ((p->owned[K_ENCRYPTION] || p->owned[K_KEY]) &&
	    profile_check_key(p, err, sizeof(err))) {
		hib_err("%s; nothing was installed", err);
		return HIB_EXIT_CONFIG;
	}
	return 0;
}

/*
 * The drop-in is written whatever the configuration says (it may be
 * fixed later), but a profile that cannot work now is worth a warning:
 * systemctl hibernate would only fail in the journal.  Not a
 * configuration others could write: root would run what it says at
 * every hibernation, so nothing is installed (HIB_EXIT_PERM); nor a
 * --set that a dry run would refuse (check_sets()).
 */
static int check_profile(const struct hib_ctl *ctl)
{
	char err[CONF_MAX_LINE + 256];
	struct profile p;
	struct conf c, none;
	bool target = false, resolved = false;
	int i, ret;

	for (i = 0; i < ctl->nsets; i++)
		target |= !strncmp(ctl->sets[i], "target=", 7);
	conf_init(&c);
	conf_init(&none);
	ret = conf_load(&c, ctl->config);
	if (ret == -EPERM) {
		conf_print_errors(&c);
		hib_err("--install-systemd: nothing was installed");
		conf_free(&c);
		return HIB_EXIT_PERM;
	}
	if (ret == -ENOENT && !ctl->config_given) {
		if (!target)
			hib_warn("%s does not exist, so no profile has a target: systemctl hibernate will fail until you create it (see hibernate.conf(5))",
				 ctl->config);
	} else if (ret) {
		hib_warn("%s has errors (hibernate -c %s --list-profiles shows them): systemctl hibernate will fail until they are fixed",
			 ctl->config, ctl->config);
	} else if (conf_resolve(&c, ctl->profile, &p, err, sizeof(err))) {
		hib_warn("%s: systemctl hibernate will fail until it exists",
			 err);
	} else {
		resolved = true;
		if (!p.v[K_TARGET].value && !target)
			hib_warn("profile '%s' of %s has no target: systemctl hibernate will fail until you set \"target = ...\" there (see hibernate.conf(5))",
				 ctl->profile, ctl->config);
	}
	/* The built-in defaults when the profile cannot be had. */
	if (!resolved)
		conf_resolve(&none, CONF_DEFAULT_PROFILE, &p, err, sizeof(err));
	ret = check_sets(ctl, &p);
	profile_free(&p);
	conf_free(&c);
	return ret;
}

/* Write TEXT to PATH.tmp, root's alone, for a rename to PATH. */
static int write_dropin(const char *path, const char *text)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 8], *slash;
	FILE *f;
	int fd, ret;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	ret = mkdir_p(dir);
	if (ret) {
		hib_err("%s: %s", dir, strerror(-ret));
		return HIB_EXIT_FAILURE;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/*
	 * systemd runs ExecStart as root: the drop-in is root's alone
	 * whatever the umask, and never written through a planted link.
	 */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		hib_err("%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return HIB_EXIT_FAILURE;
	}
	fputs(text, f);
	if (fchmod(fd, 0644) || fflush(f) || fsync(fd) || fclose(f)) {
		hib_err("%s: %s", tmp, strerror(errno));
		unlink(tmp);
		return HIB_EXIT_FAILURE;
	}
	return 0;
}

int hib_install_systemd(const struct hib_ctl *ctl)
{
	char self[PATH_MAX], path[ARRAY_SIZE(systemd_dropins)][PATH_MAX];
	char tmp[sizeof(path) + 8], text[16384], buf[PATH_MAX];
	const char *units = hib_path(SYSTEMD_UNIT_DIR, buf, sizeof(buf));
	const char *argv[] = { "systemctl", "daemon-reload", NULL };
	const struct spawn reload = { .file = argv[0], .argv = argv };
	size_t i, installed = 0;
	int ret;

	/* Another directory (tests, an image being built) is the user's. */
	if (!hib_sysroot() && !ctl->dry_run && !perm_is_root()) {
		hib_err("--install-systemd must be run as root: it writes %s/%s.d/%s (and the same for %s and %s) and runs systemctl daemon-reload (--dry-run prints the drop-ins)",
			units, systemd_dropins[0].unit, SYSTEMD_DROPIN_NAME,
			systemd_dropins[1].unit, systemd_dropins[2].unit);
		return HIB_EXIT_PERM;
	}
	if (!profile_name_ok(ctl->profile)) {
		hib_err("--install-systemd: bad profile name '%s'",
			str_escape(ctl->profile, text, sizeof(text)));
		return HIB_EXIT_USAGE;
	}
	/* The hybrid-sleep drop-in adds one, and hibernate takes no more. */
	if (ctl->nsets >= HIB_MAX_SETS) {
		hib_err("--install-systemd: at most %d --set (the hybrid-sleep drop-in adds powerdown=suspend)",
			HIB_MAX_SETS - 1);
		return HIB_EXIT_USAGE;
	}
	ret = self_path(self, sizeof(self));
	if (ret)
		return ret;
	ret = check_profile(ctl);
	if (ret)
		return ret;
	/* All written first, then all renamed: not one without the others. */
	for (i = 0; i < ARRAY_SIZE(systemd_dropins); i++) {
		const struct systemd_dropin *d = &systemd_dropins[i];

		ret = hib_dropin_text(ctl, self, d, text, sizeof(text));
		snprintf(path[i], sizeof(path[i]), "%s/%s.d/%s", units,
			 d->unit, SYSTEMD_DROPIN_NAME);
		if (!ret && ctl->dry_run) {
			if (i)
				putchar('\n');
			hib_print(stdout, "# %s\n", path[i]);
			/* Its words hold no newline (sd_quote): lines stay. */
			str_put_escaped(stdout, text, "\n");
		} else if (!ret) {
			ret = write_dropin(path[i], text);
		}
		if (ret) {
			while (i-- > 0 && !ctl->dry_run) {
				snprintf(tmp, sizeof(tmp), "%s.tmp", path[i]);
				unlink(tmp);
			}
			return ret;
		}
	}
	if (ctl->dry_run)
		return HIB_EXIT_OK;
	for (i = 0; i < ARRAY_SIZE(systemd_dropins); i++) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", path[i]);
		if (!rename(tmp, path[i])) {
			hib_info("installed %s (profile %s)", path[i],
				 ctl->profile);
			installed++;
			continue;
		}
		hib_err("%s: %s%s", path[i], strerror(errno),
			i == 1 ? "; the drop-in before it is installed: run --install-systemd again once this is fixed" :
			i ? "; the drop-ins before it are installed: run --install-systemd again once this is fixed" : "");
		/* Stop here: the rest is not installed either. */
		for (; i < ARRAY_SIZE(systemd_dropins); i++) {
			snprintf(tmp, sizeof(tmp), "%s.tmp", path[i]);
			unlink(tmp);
		}
		ret = HIB_EXIT_FAILURE;
	}
	/* Only a running systemd needs to reload; a chroot or image does not. */
	if (installed && !hib_sysroot() &&
	    access("/run/systemd/system", F_OK) == 0 &&
	    spawn_run(&reload) != 0)
		hib_err("systemctl daemon-reload failed");
	return ret;
}

/* --system-sleep: the executables systemd-sleep would have run. */

struct sleep_hook {
	char name[NAME_MAX + 1];
	char path[PATH_MAX];
	struct child c;
	bool running;
};

static int hook_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sleep_hook *)a)->name,
		      ((const struct sleep_hook *)b)->name);
}

/*
 * Every name in the directories, the first directory holding a name
 * winning (/etc over /usr/lib, as systemd's drop-in directories work),
 * sorted by name.  A directory seen twice (/lib is /usr/lib on a merged
 * /usr) is read once.
 */
static size_t collect_hooks(const char *dirlist, struct sleep_hook *h,
			    size_t max)
{
	char dirs[4096], seen[16][PATH_MAX], buf[PATH_MAX], *save = NULL;
	const char *d;
	char *real;
	size_t n = 0, nseen = 0, i;
	struct dirent *de;
	DIR *dp;

	snprintf(dirs, sizeof(dirs), "%s", dirlist);
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		d = hib_path(d, buf, sizeof(buf));
		real = realpath(d, NULL);
		if (!real)
			continue;
		for (i = 0; i < nseen && strcmp(seen[i], real); i++)
			;
		if (i < nseen || nseen == ARRAY_SIZE(seen)) {
			free(real);
			continue;
		}
		snprintf(seen[nseen++], PATH_MAX, "%s", real);
		free(real);
		dp = opendir(d);
		if (!dp)
			continue;
		while ((de = readdir(dp)) && n < max) {
			if (de->d_name[0] == '.')
				continue;
			for (i = 0; i < n && strcmp(h[i].name, de->d_name); i++)
				;
			if (i < n)
				continue;
			snprintf(h[n].name, sizeof(h[n].name), "%s",
				 de->d_name);
			snprintf(h[n].path, sizeof(h[n].path), "%s/%s", d,
				 de->d_name);
			h[n].running = false;
			n++;
		}
		closedir(dp);
	}
	qsort(h, n, sizeof(*h), hook_cmp);
	return n;
}

/*
 * systemd-sleep's arguments: the phase and the verb; SYSTEMD_SLEEP_ACTION
 * is the verb too, except for suspend-then-hibernate, where systemd names
 * each half.  The hooks run once around both halves here, and the machine
 * may end in hibernation: they are told to prepare for that.
 */
static const char *const sleep_verbs[][2] = {
	{ "hibernate", "SYSTEMD_SLEEP_ACTION=hibernate" },
	{ "hybrid-sleep", "SYSTEMD_SLEEP_ACTION=hybrid-sleep" },
	{ "suspend-then-hibernate", "SYSTEMD_SLEEP_ACTION=hibernate" },
};

static int start_hook(struct sleep_hook *h, const char *phase,
		      const char *const *verb)
{
	const char *argv[] = { h->path, phase, verb[0], NULL };
	const char *env[] = { verb[1], NULL };
	const struct spawn s = { .file = h->path, .argv = argv, .env = env,
				 .exact = true, .own_group = true,
				 .stdout_to_stderr = true, .say_exec_error = true };

	return spawn_start(&s, &h->c);
}

int hib_system_sleep(const char *phase, const char *verb_word, bool dry_run)
{
	const char *const *verb = NULL;
	struct sleep_hook *h;
	char why[2 * PATH_MAX + 256];
	long long deadline, now;
	size_t n, i;
	struct stat st;
	int r, ws, ret = HIB_EXIT_OK;

	if (strcmp(phase, "pre") && strcmp(phase, "post")) {
		hib_err("--system-sleep: expected 'pre' or 'post', got '%s'",
			phase);
		return HIB_EXIT_USAGE;
	}
	for (i = 0; i < ARRAY_SIZE(sleep_verbs); i++)
		if (!strcmp(verb_word ?: "hibernate", sleep_verbs[i][0]))
			verb = sleep_verbs[i];
	if (!verb) {
		hib_err("--system-sleep %s: expected hibernate, hybrid-sleep or suspend-then-hibernate after the phase, got '%s'",
			phase, verb_word);
		return HIB_EXIT_USAGE;
	}
	h = calloc(SYSTEM_SLEEP_MAX, sizeof(*h));
	if (!h)
		return HIB_EXIT_FAILURE;
	n = collect_hooks(SYSTEM_SLEEP_DIRS, h, SYSTEM_SLEEP_MAX);
	if (dry_run)
		hib_print(stdout, "# hibernate --dry-run: --system-sleep %s %s: %zu name%s in the system-sleep directories\n",
			  phase, verb[0], n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		/* A link to /dev/null masks a hook, as in systemd. */
		if (stat(h[i].path, &st) || !S_ISREG(st.st_mode) ||
		    access(h[i].path, X_OK)) {
			if (dry_run)
				hib_print(stdout, "# check: system-sleep hook %s: masked or not executable, not run\n",
					  h[i].path);
			continue;
		}
		/* Root runs it: the same rule as for pre_hibernate hooks. */
		if (perm_owner_mode(h[i].path, st.st_uid, st.st_mode, why,
				    sizeof(why))) {
			if (dry_run)
				hib_print(stdout, "# check: system-sleep hook %s: refused: %s\n",
					  h[i].path, why);
			else
				hib_warn("not running system-sleep hook %s: %s",
					 h[i].path, why);
			ret = HIB_EXIT_PERM;
			continue;
		}
		if (dry_run) {
			hib_print(stdout, "would run system-sleep hook %s %s %s (%s)\n",
				  h[i].path, phase, verb[0], verb[1]);
			continue;
		}
		hib_verbose("system-sleep hook: %s %s %s", h[i].path,
			    phase, verb[0]);
		r = start_hook(&h[i], phase, verb);
		if (r) {
			hib_warn("cannot run %s: %s", h[i].path, strerror(-r));
			ret = HIB_EXIT_FAILURE;
			continue;
		}
		h[i].running = true;
	}
	/* All at once, as systemd-sleep does, with one deadline for them all. */
	deadline = spawn_now_ms() + SYSTEM_SLEEP_TIMEOUT_S * 1000LL;
	for (i = 0; i < n; i++) {
		if (!h[i].running)
			continue;
		now = spawn_now_ms();
		r = spawn_wait(&h[i].c, now < deadline ? deadline - now : 0);
		if (r == -ETIMEDOUT) {
			hib_warn("system-sleep hook %s %s: killed after %d s",
				 h[i].path, phase, SYSTEM_SLEEP_TIMEOUT_S);
			spawn_kill(&h[i].c, SIGKILL);
			spawn_wait(&h[i].c, -1);
			ret = HIB_EXIT_FAILURE;
		} else if (r > 0) {
			ws = h[i].c.status;
			hib_warn("system-sleep hook %s %s %s failed (%s %d)",
				 h[i].path, phase, verb[0],
				 WIFEXITED(ws) ? "status" : "signal",
				 WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
			if (ret == HIB_EXIT_OK)
				ret = HIB_EXIT_FAILURE;
		}
	}
	free(h);
	return ret;
}
