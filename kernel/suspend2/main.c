// SPDX-License-Identifier: GPL-2.0
/*
 * suspend2: hibernation driven through configfs.
 *
 * Loaded when a hibernation is about to happen, or by the initramfs to
 * resume; the rest of the time it is not in the kernel at all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/path.h>
#include <linux/sched.h>
#include "internal.h"
#include "core/stale.h"

static char *resume;
module_param(resume, charp, 0444);
MODULE_PARM_DESC(resume, "where to resume from when loaded: a swap partition (/dev/vda) or a resume location DEVICE:PAGE (/dev/vdb:34816); anything not starting with / is left to hibernate --resume");

/*
 * A resume at load is for the initramfs only: its root is the kernel's
 * rootfs until switch_root.  modprobe hands suspend2.resume= from the
 * kernel command line to every later load as well (by hand,
 * modules-load.d): restoring an image then would bring back a kernel
 * whose idea of the mounted filesystems is out of date, even of one
 * mounted read-only (ext4 and xfs replay their journal then), the
 * corruption hibernate --resume refuses too.  The name of the root's
 * filesystem type when it is another, else NULL.
 */
static const char *s2_root_in_use(void)
{
	const char *type = NULL;
	struct path root;

	get_fs_root(current->fs, &root);
	/* The type outlives the reference: our own root still holds it. */
	if (strcmp(root.mnt->mnt_sb->s_type->name, "rootfs"))
		type = root.mnt->mnt_sb->s_type->name;
	path_put(&root);
	return type;
}

static int __init suspend2_init(void)
{
	const char *root_type;
	int error;

	s2_abort_init();
	error = s2_configfs_init();
	if (error) {
		s2_abort_exit();
		return error;
	}
	pr_info("version %s, image format %d\n", S2_VERSION,
		S2_FORMAT_VERSION);
	s2_delegate_init();
	/*
	 * suspend2.resume= on the kernel command line reaches the module
	 * through modprobe too, but also carries what only the initramfs
	 * scripts read: no, yes, and UUID=...:PAGE, which only user space
	 * can resolve (hibernate --resume does).  A path is ours.  A missing
	 * or refused image must not stop the boot.
	 */
	if (resume && resume[0] == '/') {
		root_type = s2_root_in_use();
		if (root_type)
			pr_warn("resume=%s ignored: the root filesystem (%s) is mounted, and an image restored now would not match it; resume from the initramfs (hibernate --resume)\n",
				resume, root_type);
		else
			s2_resume_at_load(resume);
	} else if (resume && resume[0]) {
		pr_info("resume=%s is not a device path: left to hibernate --resume\n",
			resume);
	}
	return 0;
}

static void __exit suspend2_exit(void)
{
	s2_stale_exit();
	s2_delegate_exit();
	s2_configfs_exit();
	s2_abort_exit();
}

module_init(suspend2_init);
module_exit(suspend2_exit);

MODULE_DESCRIPTION("suspend2: modular hibernation driven through configfs");
MODULE_LICENSE("GPL");
MODULE_VERSION(S2_VERSION);
MODULE_IMPORT_NS(HIBERNATION_CORE);
