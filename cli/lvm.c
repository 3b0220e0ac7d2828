// SPDX-License-Identifier: GPL-2.0
/*
 * A target on an LVM logical volume that is not active yet.
 *
 * In Debian 12's initramfs a volume becomes active when udev's lvm rules
 * see the last PV of its VG (so, for "guided, encrypted LVM", once
 * cryptsetup unlocked the LUKS device), and only then; with
 * event_activation = 0 in lvm.conf nothing activates it there, and older
 * lvm2 activated only the volumes of the root filesystem and of RESUME=,
 * which suspend2 sets to none.  The resume and a noresume boot's
 * invalidate must find the image all the same, so they activate the
 * volume themselves when its node is missing: lvchange -aay --sysinit, as
 * lvm2's own initramfs script did (auto-activation, so lvm.conf's
 * auto_activation_volume_list still rules), then wait for udev to make
 * the node.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "lvm.h"
#include "spawn.h"

/* How long udev may take to make the node after lvchange returned. */
#define LVM_NODE_WAIT_MS	5000
/* lvchange reads every PV's metadata; a slow disk must not hang the boot. */
#define LVM_RUN_TIMEOUT_MS	60000

/*
 * "VG/LV" of /dev/VG/LV or /dev/mapper/VG-LV (where a '-' inside a name
 * is doubled), in OUT; -EINVAL for any other path, and for a name lvm
 * would take as an option (LVM names never start with '-').
 */
int lvm_volume_name(const char *path, char *out, size_t len)
{
	const char *p, *dash = NULL;
	size_t n = 0;

	if (!strncmp(path, "/dev/mapper/", 12)) {
		p = path + 12;
		/* The first single '-' separates VG and LV. */
		for (const char *c = p; *c; c++) {
			if (*c != '-')
				continue;
			if (c[1] == '-') {
				c++;
				continue;
			}
			dash = c;
			break;
		}
		if (!dash || dash == p || !dash[1] || strchr(p, '/'))
			return -EINVAL;
		for (const char *c = p; *c; c++) {
			char ch = *c;

			if (c == dash)
				ch = '/';
			else if (*c == '-' && c[1] == '-')
				c++;
			if (n + 1 >= len)
				return -EINVAL;
			out[n++] = ch;
		}
		out[n] = '\0';
		return out[0] == '-' ? -EINVAL : 0;
	}
	if (strncmp(path, "/dev/", 5))
		return -EINVAL;
	p = path + 5;
	dash = strchr(p, '/');
	/* /dev/VG/LV: exactly two names, and not a udev directory. */
	if (!dash || dash == p || !dash[1] || strchr(dash + 1, '/') ||
	    !strncmp(p, "disk/", 5) || !strncmp(p, "block/", 6) ||
	    !strncmp(p, "char/", 5) || p[0] == '.' || p[0] == '-')
		return -EINVAL;
	if (strlen(p) >= len)
		return -EINVAL;
	memcpy(out, p, strlen(p) + 1);
	return 0;
}

static bool have_node(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

int lvm_activate(const char *path, bool dry_run, char *why, size_t len)
{
	char vglv[256];
	const char *lvs[] = { "lvm", "lvs", "--noheadings", "-o", "lv_name",
			      vglv, NULL };
	const char *act[] = { "lvm", "lvchange", "-aay", "-y", "--sysinit",
			      vglv, NULL };
	struct spawn s = { .file = "lvm", .stdout_to_stderr = true };
	struct child c;
	long long until;
	int ret;

	if (have_node(path) || lvm_volume_name(path, vglv, sizeof(vglv)))
		return 1;
	s.argv = dry_run ? lvs : act;
	ret = spawn_start(&s, &c);
	if (!ret)
		ret = spawn_wait(&c, LVM_RUN_TIMEOUT_MS);
	if (ret == -ETIMEDOUT) {
		spawn_kill(&c, SIGKILL);
		spawn_wait(&c, -1);
		snprintf(why, len, "lvm %s %s did not finish in %d s", s.argv[1],
			 vglv, LVM_RUN_TIMEOUT_MS / 1000);
		return -ETIMEDOUT;
	}
	if (ret == 127) {
		snprintf(why, len, "no lvm command here to activate %s", vglv);
		return -ENOENT;
	}
	if (ret) {
		snprintf(why, len,
			 "lvm %s %s failed (exit status %d): no logical volume %s here",
			 s.argv[1], vglv, ret, vglv);
		return -EIO;
	}
	if (dry_run)
		return 0;
	until = spawn_now_ms() + LVM_NODE_WAIT_MS;
	while (!have_node(path)) {
		if (spawn_now_ms() >= until) {
			snprintf(why, len,
				 "lvm activated %s, but %s did not appear within %d s",
				 vglv, path, LVM_NODE_WAIT_MS / 1000);
			return -ENODEV;
		}
		usleep(50 * 1000);
	}
	return 0;
}
