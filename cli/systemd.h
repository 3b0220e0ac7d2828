/* SPDX-License-Identifier: GPL-2.0 */
/* hibernate --install-systemd: the systemd-hibernate.service drop-in. */
#ifndef HIB_SYSTEMD_H
#define HIB_SYSTEMD_H

#include <stdbool.h>

#define SYSTEMD_DROPIN_DIR \
	"/etc/systemd/system/systemd-hibernate.service.d"
#define SYSTEMD_DROPIN_NAME "suspend2.conf"

/*
 * Write the drop-in that makes systemd-hibernate.service run this
 * hibernate with PROFILE into $HIBERNATE_SYSTEMD_DIR (default
 * SYSTEMD_DROPIN_DIR), then "systemctl daemon-reload" when systemd runs.
 * With dry_run, print it instead.  Returns an exit status.
 */
int hib_install_systemd(const char *profile, bool dry_run);

#endif
