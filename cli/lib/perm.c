// SPDX-License-Identifier: GPL-2.0
/*
 * hibernate runs as root and executes what its configuration says (the
 * pre_hibernate and post_resume hooks), so a file anyone but root can
 * write would hand root to that someone.  The rules here say which files
 * are trusted: owned by root (or by the user running hibernate, who
 * gives nothing away by trusting their own files) and not writable by
 * group or others.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/common.h"
#include "lib/perm.h"

bool perm_is_root(void)
{
	return geteuid() == 0;
}

/* Early, before anything is read or loaded: HIB_EXIT_PERM or 0. */
int perm_need_root(void)
{
	if (perm_is_root())
		return 0;
	hib_err(PERM_ROOT_MSG);
	return HIB_EXIT_PERM;
}

static const char *writers_text(mode_t mode)
{
	if ((mode & S_IWGRP) && (mode & S_IWOTH))
		return "writable by group and others";
	if (mode & S_IWGRP)
		return "writable by its group";
	return "writable by others";
}

/*
 * 0 when a file owned by uid with this mode is trusted, else -EPERM and
 * why: what is wrong and the command that fixes it.
 */
int perm_owner_mode(const char *file, uid_t uid, mode_t mode, char *why,
		    size_t len)
{
	bool owner_ok = uid == 0 || uid == geteuid();
	bool mode_ok = !(mode & (S_IWGRP | S_IWOTH));

	if (owner_ok && mode_ok)
		return 0;
	snprintf(why, len,
		 "%s is owned by %s%u, mode %04o (%s); it must be owned by root and writable by no one else: %s%s%s%s%s",
		 file, uid ? "uid " : "root, uid ", (unsigned int)uid,
		 (unsigned int)(mode & 07777),
		 mode_ok ? "not root" : writers_text(mode),
		 owner_ok ? "" : "chown root ", owner_ok ? "" : file,
		 owner_ok || mode_ok ? "" : "; ",
		 mode_ok ? "" : "chmod go-w ", mode_ok ? "" : file);
	return -EPERM;
}

/*
 * 0 when a file owned by uid with this mode may hold a secret: trusted
 * as perm_owner_mode() says, and neither readable nor writable by group
 * or others.  Else -EPERM and why, with the fix.
 */
int perm_secret(const char *file, uid_t uid, mode_t mode, char *why,
		size_t len)
{
	bool owner_ok = uid == 0 || uid == geteuid();
	mode_t open = mode & (S_IRWXG | S_IRWXO);

	if (owner_ok && !open)
		return 0;
	snprintf(why, len,
		 "%s is owned by %s%u, mode %04o (%s); it holds a secret and must be owned by root and open to no one else: %s%s%s%s%s",
		 file, uid ? "uid " : "root, uid ", (unsigned int)uid,
		 (unsigned int)(mode & 07777),
		 !open ? "not root" :
		 (open & S_IRWXG) && (open & S_IRWXO) ? "open to group and others" :
		 open & S_IRWXG ? "open to its group" : "open to others",
		 owner_ok ? "" : "chown root ", owner_ok ? "" : file,
		 owner_ok || !open ? "" : "; ",
		 open ? "chmod 600 " : "", open ? file : "");
	return -EPERM;
}

/*
 * The program a hook runs, when it names one by absolute path: the
 * first word of the command, up to a blank or a shell operator.
 */
static bool hook_program(const char *cmd, char *path, size_t len)
{
	size_t n;

	cmd += strspn(cmd, " \t");
	if (*cmd != '/')
		return false;
	n = strcspn(cmd, " \t;&|<>()`");
	if (n >= len)
		return false;
	memcpy(path, cmd, n);
	path[n] = '\0';
	return true;
}

/*
 * 0 when the hook's program (if it names one by absolute path) is
 * trusted.  stat() follows symbolic links on purpose: the file that runs
 * is the target, and a link is only as safe as its directory, which the
 * administrator chose.  A missing program is left to fail as the hook.
 */
int perm_hook_command(const char *cmd, char *why, size_t len)
{
	char path[4096];
	struct stat st;

	if (!hook_program(cmd, path, sizeof(path)) || stat(path, &st))
		return 0;
	return perm_owner_mode(path, st.st_uid, st.st_mode, why, len);
}

const char *perm_file_type(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISREG(mode))
		return "a regular file";
	return "not a file";
}

/*
 * A file root reads what to do from (the configuration, a passphrase
 * file) is a regular file: its type is looked at before it is opened (a
 * device is not even opened), and again on the descriptor, opened
 * without blocking, so a FIFO put there in between cannot make the read
 * wait for ever.
 */
int perm_open_regular(const char *path, char *why, size_t len)
{
	struct stat st;
	int fd, flags;

	if (stat(path, &st)) {
		fd = -errno;
		snprintf(why, len, "%s", strerror(errno));
		return fd;
	}
	if (!S_ISREG(st.st_mode))
		goto notreg;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		fd = -errno;
		snprintf(why, len, "%s", strerror(errno));
		return fd;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		goto notreg;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	return fd;
notreg:
	snprintf(why, len, "not a regular file (%s)",
		 perm_file_type(st.st_mode));
	return -EINVAL;
}
