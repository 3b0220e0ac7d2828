// SPDX-License-Identifier: GPL-2.0
/*
 * The lock is an flock(2) on /run/hibernate.lock: the kernel drops it
 * when the process dies, so a crashed run never leaves a stale lock.
 * HIBERNATE_LOCK_FILE moves it (tests, systems without /run).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include "lock.h"

const char *lock_path(void)
{
	const char *p = getenv("HIBERNATE_LOCK_FILE");

	return p && *p ? p : LOCK_DEFAULT_PATH;
}

/* 0 and *fd on success, -EWOULDBLOCK when another instance holds it. */
int lock_take(const char *path, int *fd)
{
	int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (f < 0)
		return -errno;
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
	int f = open(path, O_RDONLY | O_CLOEXEC), r = 0;

	if (f < 0)
		return errno == ENOENT ? 0 : -errno;
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
