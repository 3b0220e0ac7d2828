// SPDX-License-Identifier: GPL-2.0
/*
 * Whether root may act on what others could have written: the
 * configuration, the hooks it names and a module given as a path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/trust.h"
#include "lib/perm.h"
#include "lib/sysroot.h"

/*
 * Actions that change the system need root; without it they are refused
 * before the configuration is even read (hib_run).  Another --configfs
 * tree (tests, a chroot) needs no privileges.  A dry run changes nothing,
 * so it goes on and only says so: it is how a user checks a profile.
 */
bool needs_root(const struct hib_ctl *ctl, const struct cfs *c)
{
	/*
	 * Keys go to /etc unless the tests move them; --setup-key tpm makes
	 * none and loads the module instead, as a cycle.
	 */
	if (ctl->action == ACT_SETUP_KEY &&
	    (!ctl->key_name || strcmp(ctl->key_name, CONF_KEY_TPM)))
		return !getenv("HIBERNATE_KEYDIR") && !hib_sysroot();
	return cfs_is_default(c) && ctl->action != ACT_STATUS &&
	       ctl->action != ACT_LIST_PROFILES;
}

/*
 * A dry run goes on without root, but the real run would stop here:
 * said as a failed check, and --json says would_run false.
 */
void note_root(struct run *r)
{
	if (!needs_root(r->ctl, &r->cfs) || perm_is_root())
		return;
	note(r, "check: running as root: no: FAILED, a real run would be refused (exit %d)",
	     HIB_EXIT_PERM);
	r->real_refused = HIB_EXIT_PERM;
}

/*
 * Root runs the hooks, so whoever may write the configuration or a
 * hook's program would run code as root: both must be root's alone.
 * conf_load() read no configuration others could write; the programs
 * are checked here, before the lock, the module and the hooks
 * themselves, so a refusal changes nothing.  Returns 0 when they may run
 * (or there are none), else why holds the reason.
 */
/* One hook; why starts with the file and line of its key. */
static int hook_unsafe(const struct profile *p, const char *key,
		       const struct conf_cmd *h, char *why, size_t len)
{
	char what[PATH_MAX + 256];

	if (!perm_hook_command(h->cmd, what, sizeof(what)))
		return 0;
	snprintf(why, len, "%s:%d: %s: %s", p->hook_file ? p->hook_file : "-",
		 h->line, key, what);
	return -EPERM;
}

static int hooks_unsafe(const struct run *r, char *why, size_t len)
{
	const struct profile *p = &r->prof;
	size_t i;

	for (i = 0; i < p->npre; i++)
		if (hook_unsafe(p, "pre_hibernate", &p->pre[i], why, len))
			return -EPERM;
	for (i = 0; i < p->npost; i++)
		if (hook_unsafe(p, "post_resume", &p->post[i], why, len))
			return -EPERM;
	return 0;
}

/*
 * The same for a module given as a path, absolute or relative (--module
 * ./suspend2.ko): root loads it into the kernel,
 * so the .ko (and the configuration naming it, which conf_load() took
 * only as root's alone) must be root's alone.
 */
static int module_unsafe(const struct run *r, char *why, size_t len)
{
	const struct prof_val *v = &r->prof.v[K_MODULE];
	struct stat st;

	/* A path is any value with a '/', as insmod takes it (module.c). */
	if (!v->value || !strchr(v->value, '/'))
		return 0;	/* a name: modprobe finds it in root's tree */
	if (stat(v->value, &st))
		return 0;	/* missing: insmod says so */
	if (perm_owner_mode(v->value, st.st_uid, st.st_mode, why, len))
		return -EPERM;
	/* Its directories and the links on the way too. */
	return perm_program_trusted(v->value, why, len) ? -EPERM : 0;
}

int check_module_trust(struct run *r)
{
	char why[2 * PATH_MAX + 256];

	if (!module_unsafe(r, why, sizeof(why)))
		return 0;
	note(r, "check: module %s: refused: %s: FAILED", r->prof.v[K_MODULE].value,
	     why);
	hib_err("refusing to load %s: %s; nothing was changed",
		r->prof.v[K_MODULE].value, why);
	return HIB_EXIT_PERM;
}

int check_hooks(struct run *r)
{
	char why[2 * PATH_MAX + 256];
	enum hib_action a = r->ctl->action;

	if (a != ACT_HIBERNATE && a != ACT_TEST)
		return 0;	/* only a cycle runs hooks */
	if (!hooks_unsafe(r, why, sizeof(why)))
		return 0;
	note(r, "check: hooks of %s: refused: %s: FAILED", r->conf.path, why);
	hib_err("refusing to run the hooks of %s: %s; nothing was frozen",
		r->conf.path, why);
	return HIB_EXIT_PERM;
}
