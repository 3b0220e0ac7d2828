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
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/lvm.h"
#include "lib/common.h"
#include "lib/spawn.h"

/* How long udev may take to make the node after lvchange returned. */
#define LVM_NODE_WAIT_MS	5000
/* lvchange reads every PV's metadata; a slow disk must not hang the boot. */
#define LVM_RUN_TIMEOUT_MS	60000
/* After SIGKILL: a task stuck in the kernel may never go; do not wait. */
#define LVM_KILL_WAIT_MS	2000

/*
 * A VG or LV name as lvm(8) takes it: [A-Za-z0-9+_.-], not starting with
 * '-' (an option), not "." or "..".  Nothing else reaches lvm: '@' would
 * make it a tag, which selects every volume carrying it.
 */
static bool lvm_name_ok(const char *s, size_t n)
{
	if (!n || s[0] == '-' || (n == 1 && s[0] == '.') ||
	    (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("+_.-", s[i]))
			return false;
	return true;
}

/* Directories of /dev that udev or the kernel make: never a VG. */
static const char *const dev_dirs[] = {
	"block", "bsg", "bus", "char", "cpu", "disk", "dma_heap", "dri",
	"hugepages", "input", "mapper", "md", "mqueue", "net", "pts", "shm",
	"snd", "usb", "vfio", "virtio-ports", NULL
};

/*
 * "VG/LV" of /dev/VG/LV or /dev/mapper/VG-LV (where a '-' inside either
 * name is doubled, and a single '-' after the LV's name starts a layer
 * such as -real or -cow: no volume to activate), in OUT; -EINVAL for any
 * other path.
 */
int lvm_volume_name(const char *path, char *out, size_t len)
{
	char vg[128], lv[128];
	size_t nvg = 0, nlv = 0;
	const char *p, *slash;
	bool in_lv = false;

	if (!strncmp(path, "/dev/mapper/", 12)) {
		for (p = path + 12; *p; p++) {
			char *name = in_lv ? lv : vg;
			size_t *n = in_lv ? &nlv : &nvg;

			if (*p == '-' && p[1] == '-') {
				p++;
			} else if (*p == '-') {
				/* The VG's end, or the LV's layer suffix. */
				if (in_lv)
					return -EINVAL;
				in_lv = true;
				continue;
			}
			if (*n + 1 >= sizeof(vg))
				return -EINVAL;
			name[(*n)++] = *p;
		}
	} else if (!strncmp(path, "/dev/", 5)) {
		p = path + 5;
		slash = strchr(p, '/');
		if (!slash || strchr(slash + 1, '/'))
			return -EINVAL;
		nvg = slash - p;
		nlv = strlen(slash + 1);
		if (nvg >= sizeof(vg) || nlv >= sizeof(lv))
			return -EINVAL;
		memcpy(vg, p, nvg);
		memcpy(lv, slash + 1, nlv);
		in_lv = true;
		for (const char *const *d = dev_dirs; *d; d++)
			if (strlen(*d) == nvg && !memcmp(*d, vg, nvg))
				return -EINVAL;
	}
	if (!in_lv || !lvm_name_ok(vg, nvg) || !lvm_name_ok(lv, nlv) ||
	    nvg + 1 + nlv + 1 > len)
		return -EINVAL;
	snprintf(out, len, "%.*s/%.*s", (int)nvg, vg, (int)nlv, lv);
	return 0;
}

static bool have_node(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* What went wrong with lvm, in words: RET as spawn_wait() gave it. */
static int lvm_failed(int ret, const char *verb, const char *vglv,
		      char *why, size_t len)
{
	if (ret < 0)
		snprintf(why, len, "cannot run lvm %s %s: %s", verb, vglv,
			 strerror(-ret));
	else if (ret == 127)
		snprintf(why, len, "no lvm command here to activate %s", vglv);
	else if (ret > 128)
		snprintf(why, len, "lvm %s %s was killed by signal %d", verb,
			 vglv, ret - 128);
	else
		snprintf(why, len,
			 "lvm %s %s failed with exit status %d (its messages are above)",
			 verb, vglv, ret);
	return ret == 127 ? -ENOENT : -EIO;
}

int lvm_activate(const char *path, bool dry_run, char *why, size_t len)
{
	char vglv[256];
	const char *lvs[] = { "lvm", "lvs", "--noheadings", "-o", "lv_name",
			      vglv, NULL };
	const char *act[] = { "lvm", "lvchange", "-aay", "-y", "--sysinit",
			      vglv, NULL };
	/* With no udev to make the nodes, lvm must make them itself. */
	const char *no_udev[] = { "DM_DISABLE_UDEV=1", NULL };
	struct spawn s = { .file = "lvm", .stdout_to_stderr = true };
	struct child c;
	long long until;
	int ret;

	if (have_node(path) || lvm_volume_name(path, vglv, sizeof(vglv)))
		return 1;
	s.argv = dry_run ? lvs : act;
	if (access("/run/udev/control", F_OK))
		s.env = no_udev;
	ret = spawn_start(&s, &c);
	if (!ret)
		ret = spawn_wait(&c, LVM_RUN_TIMEOUT_MS);
	if (ret == -ETIMEDOUT) {
		spawn_kill(&c, SIGKILL);
		spawn_wait(&c, LVM_KILL_WAIT_MS);
		snprintf(why, len, "lvm %s %s did not finish in %d s", s.argv[1],
			 vglv, LVM_RUN_TIMEOUT_MS / 1000);
		return -ETIMEDOUT;
	}
	if (ret)
		return lvm_failed(ret, s.argv[1], vglv, why, len);
	if (dry_run)
		return 0;
	until = spawn_now_ms() + LVM_NODE_WAIT_MS;
	while (!have_node(path)) {
		if (spawn_now_ms() >= until) {
			snprintf(why, len,
				 "lvm lvchange -aay %s returned, but %s did not appear within %d s (a volume can be kept from auto-activation: activation skip, --setautoactivation n, lvm.conf's auto_activation_volume_list)",
				 vglv, path, LVM_NODE_WAIT_MS / 1000);
			return -ENODEV;
		}
		usleep(50 * 1000);
	}
	return 0;
}
