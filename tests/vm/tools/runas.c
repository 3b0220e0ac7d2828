// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID GID CMD [ARGS...] -- run CMD as that user and group, with no
 * supplementary groups: the guest's busybox su wants a password file and
 * its setpriv cannot change ids, and the permission scenarios need a
 * plain non-root process.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int id_arg(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || !*s || *end ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long uid, gid;

	if (argc < 4 || id_arg(argv[1], &uid) || id_arg(argv[2], &gid)) {
		fprintf(stderr, "usage: runas UID GID CMD [ARGS...]\n");
		return 125;
	}
	/* Groups first: once the uid is dropped they can no longer change. */
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		fprintf(stderr, "runas: %s\n", strerror(errno));
		return 125;
	}
	if (setuid(0) == 0) {
		fprintf(stderr, "runas: still able to become root\n");
		return 125;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "runas: %s: %s\n", argv[3], strerror(errno));
	return 127;
}
