// SPDX-License-Identifier: GPL-2.0
/*
 * The key files are trusted like the configuration (perm.c): whoever
 * could write NAME.pub, or the key directory, would have the next image
 * wrapped for a key of their own, and whoever could read NAME.sec or
 * NAME.auth would have a secret (the .sec to guess the passphrase
 * offline, the .auth to forge an image that resumes).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "keys/keyfile.h"
#include "keys/keytrust.h"
#include "lib/common.h"
#include "lib/perm.h"
#include "system/initramfs.h"

int keytrust_files(const char *name, char *why, size_t len)
{
	static const char *const exts[] = { ".pub", ".sec", ".auth" };
	char dir[PATH_MAX], path[PATH_MAX];
	struct stat st;
	size_t i;

	/*
	 * The directory itself, as --setup-key judges it (dir_trusted()):
	 * a symbolic link is refused, whatever it names now, since the
	 * files are read through it again later.
	 */
	keyfile_dir(dir, sizeof(dir));
	if (lstat(dir, &st))
		return 0;
	if (S_ISLNK(st.st_mode)) {
		snprintf(why, len,
			 "key directory %s is a symbolic link; it must be a directory of root's alone: replace the link with the directory it names",
			 dir);
		return -EPERM;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a directory", dir);
		return -EPERM;
	}
	if (perm_owner_mode(dir, st.st_uid, st.st_mode, why, len))
		return -EPERM;
	/* And the directories above it: whoever may replace one, may it. */
	if (keyfile_parents_trusted(dir, why, len))
		return -EPERM;
	for (i = 0; i < ARRAY_SIZE(exts); i++) {
		if (keyfile_path(name, exts[i], path, sizeof(path)) ||
		    lstat(path, &st))
			continue;
		/* The readers open none through a link: say so here. */
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, len, "%s is not a regular file (mode %06o); key files must be regular files owned by root",
				 path, (unsigned int)st.st_mode);
			return -EPERM;
		}
		if (i ? perm_secret(path, st.st_uid, st.st_mode, why, len) :
			perm_owner_mode(path, st.st_uid, st.st_mode, why, len))
			return -EPERM;
	}
	return 0;
}

static void when(const struct timespec *t, char *buf, size_t len)
{
	struct tm tm;

	if (!localtime_r(&t->tv_sec, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "%lld", (long long)t->tv_sec);
}

int keytrust_initramfs(const char *name, char *why, size_t len)
{
	static const char *const exts[] = { ".pub", ".sec" };
	char img[PATH_MAX], path[PATH_MAX], cmd[128];
	char img_when[32], key_when[32];
	struct stat ist, kst;
	size_t i;

	/* None: nothing to compare (a boot without one, a test). */
	if (initramfs_find(img, sizeof(img), &ist))
		return 0;
	for (i = 0; i < ARRAY_SIZE(exts); i++) {
		/*
		 * The status change time, not the modification time: the
		 * initramfs copies the files with their owner and mode,
		 * and a chmod or chown after it was built (as a refusal
		 * of keytrust_files() asks for) leaves the old ones there.
		 * It moves on a write too, and on the renames of
		 * --setup-key.
		 */
		if (keyfile_path(name, exts[i], path, sizeof(path)) ||
		    stat(path, &kst) || !timespec_newer(&kst.st_ctim, &ist.st_mtim))
			continue;
		when(&ist.st_mtim, img_when, sizeof(img_when));
		when(&kst.st_ctim, key_when, sizeof(key_when));
		snprintf(why, len,
			 "the initramfs %s (%s) is older than %s (changed %s): it does not have this key as it is now, and an image written for it could not be unlocked at resume; run %s first",
			 img, img_when, path, key_when,
			 initramfs_rebuild(cmd, sizeof(cmd)));
		return -ESTALE;
	}
	return 0;
}
