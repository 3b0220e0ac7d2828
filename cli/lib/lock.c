// SPDX-License-Identifier: GPL-2.0
/*
 * The lock is an flock(2) on /run/hibernate.lock: the kernel drops it
 * when the process dies, so a crashed run never leaves a stale lock.
 * HIBERNATE_SYSROOT moves it (tests).
 *
 * Root opens, truncates and writes this file, so the path must not lead
 * anywhere else: a symbolic link is never followed (O_NOFOLLOW), and
 * whatever was opened must be a plain file of our own with one name (a
 * hard link to /etc/shadow would be truncated otherwise).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lock.h"
#include "lib/sysroot.h"

#define LOCK_OPEN_FLAGS	(O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)

const char *lock_path(void)
{
	static char buf[PATH_MAX];

	return hib_path(LOCK_DEFAULT_PATH, buf, sizeof(buf));
}

/* 0 when the opened file is one we may lock and write, else -LOCK_E*. */
static int lock_check_fd(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -LOCK_ENOTREG;
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return -LOCK_EOWNER;
	if (st.st_nlink > 1)
		return -LOCK_ELINKS;
	return 0;
}

/* The reason behind a -LOCK_E* error of lock_take() or lock_probe(). */
const char *lock_strerror(int err)
{
	switch (-err) {
	case LOCK_ESYMLINK:
		return "it is a symbolic link (remove it)";
	case LOCK_ENOTREG:
		return "it is not a regular file (remove it)";
	case LOCK_EOWNER:
		return "it is not owned by root (remove it)";
	case LOCK_ELINKS:
		return "it has other hard links (remove it)";
	}
	return NULL;
}

/* Open path for lock_take (create) or lock_probe, refusing unsafe files. */
static int lock_open(const char *path, int flags)
{
	int f = open(path, flags | LOCK_OPEN_FLAGS, 0600), r;

	if (f < 0 && errno == ELOOP)
		return -LOCK_ESYMLINK;
	if (f < 0)
		return errno == EISDIR ? -LOCK_ENOTREG : -errno;
	r = lock_check_fd(f);
	if (r) {
		close(f);
		return r;
	}
	return f;
}

/* 0 and *fd on success, -EWOULDBLOCK when another instance holds it. */
int lock_take(const char *path, int *fd)
{
	int f = lock_open(path, O_RDWR | O_CREAT);

	if (f < 0)
		return f;
	if (flock(f, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(f);
		return e == EWOULDBLOCK ? -EWOULDBLOCK : -e;
	}
	/* The pid is only for people looking; the flock is the lock. */
	if (!ftruncate(f, 0))
		dprintf(f, "%d\n", (int)getpid());
	*fd = f;
	return 0;
}

/* Is it held?  Creates nothing, for --dry-run.  0 free, -EWOULDBLOCK. */
int lock_probe(const char *path)
{
	int f = lock_open(path, O_RDONLY), r = 0;

	if (f < 0)
		return f == -ENOENT ? 0 : f;
	if (flock(f, LOCK_EX | LOCK_NB))
		r = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;
	close(f);
	return r;
}

void lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
