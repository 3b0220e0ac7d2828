/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hibernate --install-systemd: the drop-ins of systemd-hibernate.service
 * and systemd-suspend-then-hibernate.service;
 * hibernate --system-sleep: the system-sleep hooks it runs.
 */
#ifndef HIB_SYSTEMD_H
#define HIB_SYSTEMD_H

#include <stdbool.h>
#include <stddef.h>

#include "conf/options.h"

#define SYSTEMD_UNIT_DIR	"/etc/systemd/system"
#define SYSTEMD_DROPIN_NAME	"suspend2.conf"
/* Where make install and the package put the command. */
#define HIB_INSTALL_PATH "/usr/sbin/hibernate"

/*
 * Where systemd-sleep(8) finds its hooks; a name in an earlier directory
 * hides the same name in a later one.  HIBERNATE_SYSROOT moves them.
 */
#define SYSTEM_SLEEP_DIRS \
	"/etc/systemd/system-sleep:/usr/local/lib/systemd/system-sleep:" \
	"/usr/lib/systemd/system-sleep:/lib/systemd/system-sleep"
#define SYSTEM_SLEEP_MAX	256
/* systemd-sleep gives them its default timeout, 90 s, all together. */
#define SYSTEM_SLEEP_TIMEOUT_S	90

/*
 * Write the drop-ins that make systemd-hibernate.service run this
 * hibernate, and systemd-suspend-then-hibernate.service run it with
 * --suspend-then-hibernate, with the -c, --module, --configfs, --set and
 * --force of CTL and its profile, under SYSTEMD_UNIT_DIR (under
 * HIBERNATE_SYSROOT if set), then "systemctl daemon-reload" when systemd
 * runs.  With --dry-run, print them instead.  Returns an exit status.
 */
int hib_install_systemd(const struct hib_ctl *ctl);

/* A unit of systemd's that the drop-ins route through suspend2. */
struct systemd_dropin {
	const char *unit;	/* systemd-hibernate.service, ... */
	const char *verb;	/* what systemctl calls it */
	bool suspend_first;	/* with --suspend-then-hibernate */
	const char *set;	/* one more --set, after the user's */
};

#define SYSTEMD_NR_DROPINS	3
extern const struct systemd_dropin systemd_dropins[SYSTEMD_NR_DROPINS];

/* The drop-in D's text for command SELF; 0 or an exit status. */
int hib_dropin_text(const struct hib_ctl *ctl, const char *self,
		    const struct systemd_dropin *d, char *out, size_t len);

/* One word for an ExecStart= line, quoted as systemd reads it. */
bool sd_quote(const char *w, char *out, size_t len);

/*
 * Run the system-sleep hooks with PHASE ("pre" or "post") and
 * "hibernate", as systemd-sleep does: all at once, waited for together.
 * Returns 0 when every one succeeded, else an exit status.  DRY_RUN:
 * run none, print which would run (and which would be refused), and
 * return the exit status the refusals would give.
 */
int hib_system_sleep(const char *phase, const char *verb, bool dry_run);

#endif
