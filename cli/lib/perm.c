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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
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
 * Words that make the shell run another program than themselves: a
 * program named after one of them escapes the check below, so a hook
 * may not start with one.  Name the program itself, or put the command
 * in a script of root's and name that.
 */
static const char *const hook_runners[] = {
	"!", ".", "{", "builtin", "bash", "busybox", "case", "chroot",
	"command", "coproc", "dash", "do", "doas", "elif", "else", "env",
	"eval", "exec", "for", "function", "if", "ionice", "ksh", "nice",
	"nohup", "runuser", "select", "setsid", "sh", "source", "stdbuf",
	"su", "sudo", "then", "time", "timeout", "until", "while", "xargs",
	"zsh",
};

/*
 * Characters the shell quotes or expands in a word (or that make it an
 * assignment, VAR=x /prog): the program that runs is then not the text
 * written, so a first word holding one is refused, not guessed at.
 */
#define HOOK_SHELL_CHARS "'\"\\$`*?[]~{}=!#%"

/*
 * 0 when the hook's program may run as root, else -EPERM and why.  The
 * program is the command's first word, up to a blank or a shell
 * operator.  A word the shell would rewrite, or one that runs another
 * program, is refused; a bare name is found through PATH, as root's
 * commands are; a word with a '/' must be an absolute path to an
 * existing regular, executable file that root alone may change, with
 * every directory above it (perm_path_trusted()).
 */
int perm_hook_command(const char *cmd, char *why, size_t len)
{
	char path[4096];
	struct stat st;
	size_t i, n;
	int r;

	cmd += strspn(cmd, " \t\n");
	n = strcspn(cmd, " \t\n;&|<>()");
	if (!n) {
		snprintf(why, len,
			 "the command \"%s\" does not start with a program; name the program by its absolute path first",
			 cmd);
		return -EPERM;
	}
	if (n >= sizeof(path)) {
		snprintf(why, len, "the program of \"%.64s...\" is too long",
			 cmd);
		return -EPERM;
	}
	memcpy(path, cmd, n);
	path[n] = '\0';
	if (strpbrk(path, HOOK_SHELL_CHARS)) {
		snprintf(why, len,
			 "the program \"%s\" holds shell quoting or expansion, so the file that runs is not the one named; write its absolute path plainly",
			 path);
		return -EPERM;
	}
	for (i = 0; i < sizeof(hook_runners) / sizeof(hook_runners[0]); i++) {
		if (strcmp(path, hook_runners[i]))
			continue;
		snprintf(why, len,
			 "\"%s\" runs another program, which would not be checked; name that program by its absolute path, or put the command in a script of root's",
			 path);
		return -EPERM;
	}
	if (!strchr(path, '/'))
		return 0;	/* found through PATH, as root's commands are */
	if (path[0] != '/') {
		snprintf(why, len,
			 "the program %s is not an absolute path; hooks do not run in a known directory",
			 path);
		return -EPERM;
	}
	if (stat(path, &st)) {
		r = errno;
		snprintf(why, len, "the program %s: %s", path, strerror(r));
		return -EPERM;
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
		snprintf(why, len, "the program %s is %s", path,
			 S_ISREG(st.st_mode) ? "not executable" :
			 perm_file_type(st.st_mode));
		return -EPERM;
	}
	if (perm_owner_mode(path, st.st_uid, st.st_mode, why, len))
		return -EPERM;
	return perm_program_trusted(path, why, len) ? -EPERM : 0;
}

/*
 * PATH, then every directory above it as written, up to /: root's alone
 * (or the invoking user's: perm_owner_mode()), else -EPERM (-errno when
 * one cannot be looked at) and why.  sticky_ok: a sticky directory of
 * root's such as /tmp passes (perm_path_trusted()).  Each component is
 * looked at through stat(), so a symbolic link counts as what it names,
 * and also as itself: a link owned by another user (who may point it
 * elsewhere at will) is refused.
 */
static int walk_up(const char *path, bool sticky_ok, char *why, size_t len)
{
	char buf[PATH_MAX], *slash;
	struct stat st;
	bool sticky;
	int r;

	snprintf(buf, sizeof(buf), "%s", path);
	for (;;) {
		if (!lstat(buf, &st) && S_ISLNK(st.st_mode) && st.st_uid &&
		    st.st_uid != geteuid()) {
			snprintf(why, len,
				 "%s is a symbolic link owned by uid %u, who may point it anywhere",
				 buf, (unsigned int)st.st_uid);
			return -EPERM;
		}
		if (stat(buf, &st)) {
			r = errno;
			snprintf(why, len, "%s: %s", buf, strerror(r));
			return -r;
		}
		sticky = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX);
		if (!sticky_ok && sticky &&
		    (st.st_mode & (S_IWGRP | S_IWOTH))) {
			/* chmod go-w /tmp would be no fix: say what is. */
			snprintf(why, len,
				 "%s is mode %04o (%s, sticky as /tmp is): others may make names in it, so nothing under it is trusted; use a directory outside it",
				 buf, (unsigned int)(st.st_mode & 07777),
				 writers_text(st.st_mode));
			return -EPERM;
		}
		if (!(sticky_ok && sticky && st.st_uid == 0) &&
		    perm_owner_mode(buf, st.st_uid, st.st_mode, why, len))
			return -EPERM;
		if (!strcmp(buf, "/"))
			return 0;
		slash = strrchr(buf, '/');
		if (!slash)
			return 0;	/* relative: realpath() never gives one */
		if (slash == buf)
			buf[1] = '\0';
		else
			*slash = '\0';
	}
}

/*
 * walk_up() along PATH as written (relative to the working directory)
 * and along the path it resolves to, so a symbolic link on the way
 * cannot lead past a directory others may change.
 */
static int walk_both(const char *path, bool sticky_ok, char *why, size_t len)
{
	char abs[PATH_MAX], *real;
	int r;

	if (path[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", path);
	} else {
		if (!getcwd(abs, sizeof(abs))) {
			r = errno;
			snprintf(why, len, "%s: %s", path, strerror(r));
			return -r;
		}
		if (strlen(abs) + 1 + strlen(path) >= sizeof(abs)) {
			snprintf(why, len, "%s: %s", path,
				 strerror(ENAMETOOLONG));
			return -ENAMETOOLONG;
		}
		strcat(abs, "/");
		strcat(abs, path);
	}
	r = walk_up(abs, sticky_ok, why, len);
	if (r)
		return r;
	real = realpath(abs, NULL);
	if (!real) {
		r = errno;
		snprintf(why, len, "%s: %s", path, strerror(r));
		return -r;
	}
	r = strcmp(real, abs) ? walk_up(real, sticky_ok, why, len) : 0;
	free(real);
	return r;
}

/*
 * 0 when PATH and every directory above it are root's alone (or the
 * invoking user's: perm_owner_mode()), else -EPERM (-errno when one
 * cannot be looked at) and why.  A sticky directory of root's such as
 * /tmp passes: others may add names there, not replace ours.
 */
int perm_path_trusted(const char *path, char *why, size_t len)
{
	return walk_up(path, true, why, len);
}

/*
 * A file root runs or loads (a hook's program, a module by path): the
 * file, every directory above it and every symbolic link on the way
 * root's alone, both along PATH as written (relative to the working
 * directory) and along the path it resolves to.  0, or -EPERM or
 * -errno with why.
 */
int perm_program_trusted(const char *path, char *why, size_t len)
{
	return walk_both(path, true, why, len);
}

/*
 * As perm_program_trusted(), but a sticky directory others may write,
 * such as /tmp, does not pass either.  This is the rule OpenSSH applies
 * to the directories above authorized_keys (safe_path(), StrictModes):
 * every one owned by root or the user and writable by neither group nor
 * others, sticky or not.  Sticky, root's /tmp keeps others from renaming
 * our names, but not from taking a name first: a directory not made yet
 * could be theirs before we make it, between the check and the use.
 * Under directories no one else may write, nothing can appear or be
 * replaced between the two.
 */
int perm_path_strict(const char *path, char *why, size_t len)
{
	return walk_both(path, false, why, len);
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
