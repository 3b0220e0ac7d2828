// SPDX-License-Identifier: GPL-2.0
/*
 * hibernate --install-systemd: make "systemctl hibernate" (and logind's
 * lid and key handling) go through suspend2 by replacing the ExecStart of
 * systemd-hibernate.service with this command and a profile.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "perm.h"
#include "systemd.h"

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

int hib_install_systemd(const char *profile, bool dry_run)
{
	const char *dir = getenv("HIBERNATE_SYSTEMD_DIR");
	char self[PATH_MAX], path[PATH_MAX], tmp[PATH_MAX + 8];
	ssize_t n;
	FILE *f;
	int ret;

	/* Another directory (tests, an image being built) is the user's. */
	if (!dir || !*dir) {
		dir = SYSTEMD_DROPIN_DIR;
		ret = dry_run ? 0 : perm_need_root();
		if (ret)
			return ret;
	}
	if (!profile_name_ok(profile)) {
		fprintf(stderr, "hibernate: --install-systemd: bad profile name '%s'\n",
			profile);
		return HIB_EXIT_USAGE;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || strchr(self, ' '))
		strcpy(self, "/usr/sbin/hibernate");
	else
		self[n] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, SYSTEMD_DROPIN_NAME);

	if (dry_run) {
		f = stdout;
		printf("# %s\n", path);
	} else {
		ret = mkdir_p(dir);
		if (ret) {
			fprintf(stderr, "hibernate: %s: %s\n", dir, strerror(-ret));
			return HIB_EXIT_FAILURE;
		}
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		f = fopen(tmp, "w");
		if (!f) {
			fprintf(stderr, "hibernate: %s: %s\n", tmp, strerror(errno));
			return HIB_EXIT_FAILURE;
		}
	}
	fprintf(f,
		"# Written by hibernate --install-systemd: systemctl hibernate\n"
		"# runs suspend2 with profile %s.  Remove this file and run\n"
		"# \"systemctl daemon-reload\" to go back to systemd's hibernation.\n"
		"[Service]\n"
		"ExecStart=\n"
		"ExecStart=%s -p %s\n", profile, self, profile);
	if (dry_run)
		return HIB_EXIT_OK;
	if (fclose(f) || rename(tmp, path)) {
		fprintf(stderr, "hibernate: %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return HIB_EXIT_FAILURE;
	}
	printf("hibernate: installed %s (profile %s)\n", path, profile);
	/* Only a running systemd needs to reload; a chroot or image does not. */
	if (!getenv("HIBERNATE_SYSTEMD_DIR") &&
	    access("/run/systemd/system", F_OK) == 0 &&
	    system("systemctl daemon-reload") != 0)
		fputs("hibernate: systemctl daemon-reload failed\n", stderr);
	return HIB_EXIT_OK;
}
