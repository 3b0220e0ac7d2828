// SPDX-License-Identifier: GPL-2.0
/*
 * Every kernel key is written, defaults included, so the kernel's profile
 * is exactly what the configuration says whatever it held before.  writer
 * goes first because the kernel validates target against the writer.
 * Each value is read back: the contract says a stored value reads back
 * exactly as written, so a difference is a bug worth stopping for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cycle/cfs_profile.h"
#include "lib/common.h"

/* EBUSY on a configuration write means a cycle runs; the rest refusals. */
int errno_exit_code(int err)
{
	return err == EBUSY ? HIB_EXIT_BUSY : HIB_EXIT_KERNEL;
}

int cfs_write_profile(const struct cfs *c, const struct profile *p,
		      const char *target_dev)
{
	char rel[128], back[512], where[PATH_MAX + 32];
	const char *val;
	int k, r;

	snprintf(rel, sizeof(rel), "profiles/%s", p->name);
	if (!cfs_exists(c, rel)) {
		r = cfs_mkdir(c, rel);
		if (r) {
			hib_err("cannot create profile '%s' (mkdir %s/%s): %s",
				p->name, c->root, rel, strerror(-r));
			return errno_exit_code(-r);
		}
	}
	for (k = 0; k < CONF_KERNEL_KEYS; k++) {
		val = k == K_TARGET && target_dev ? target_dev : p->v[k].value;
		/* No key: cleared, not left as an earlier run set it. */
		if (!val && k == K_KEY)
			val = "";
		if (!val)
			continue;
		snprintf(rel, sizeof(rel), "profiles/%s/%s", p->name,
			 conf_keys[k].name);
		prof_where(&p->v[k], where, sizeof(where));
		r = cfs_write(c, rel, val);
		if (r == -EBUSY) {
			hib_err("busy: another cycle is running (the kernel refuses profile changes until it ends)");
			return HIB_EXIT_BUSY;
		}
		if (r) {
			hib_err("%s: key '%s' = '%s': the kernel refused it: %s",
				where, conf_keys[k].name, val, strerror(-r));
			return errno_exit_code(-r);
		}
		if (c->dry_run)
			continue;
		r = cfs_read(c, rel, back, sizeof(back));
		if (r) {
			hib_err("%s: key '%s': cannot read it back: %s", where,
				conf_keys[k].name, strerror(-r));
			return HIB_EXIT_KERNEL;
		}
		if (strcmp(back, val)) {
			hib_err("%s: key '%s': wrote '%s' but it reads back as '%s'",
				where, conf_keys[k].name, val, back);
			return HIB_EXIT_KERNEL;
		}
		hib_verbose("%s/%s = %s (%s)", c->root, rel, val, where);
	}
	return 0;
}

int cfs_select_profile(const struct cfs *c, const char *name)
{
	char back[128];
	int r = cfs_write(c, "profile", name);

	if (r) {
		hib_err("cannot select profile '%s': %s", name, strerror(-r));
		return errno_exit_code(-r);
	}
	if (c->dry_run)
		return 0;
	r = cfs_read(c, "profile", back, sizeof(back));
	if (r || strcmp(back, name)) {
		hib_err("selected profile '%s' but 'profile' reads back as '%s'",
			name, r ? strerror(-r) : back);
		return HIB_EXIT_KERNEL;
	}
	return 0;
}
