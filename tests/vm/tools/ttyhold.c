// SPDX-License-Identifier: GPL-2.0
/*
 * ttyhold: redirect the console to a pseudo-terminal that takes nothing,
 * as a frozen plymouth's would.  Opens a pty, redirects /dev/console to
 * its slave (TIOCCONS), stops the slave's output (TCOOFF) so that every
 * write to /dev/console blocks, prints "held" and sleeps until killed;
 * closing the master at the kill hangs the slave up, which wakes every
 * writer blocked on it with EIO.
 *
 * Exit 3 when the setup fails, with the step that failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static int fail(const char *what)
{
	printf("ttyhold: %s: %s\n", what, strerror(errno));
	return 3;
}

int main(void)
{
	int master, slave;
	char *name;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0)
		return fail("posix_openpt");
	if (grantpt(master) || unlockpt(master))
		return fail("grantpt/unlockpt");
	name = ptsname(master);
	if (!name)
		return fail("ptsname");
	slave = open(name, O_RDWR | O_NOCTTY);
	if (slave < 0)
		return fail(name);
	if (ioctl(slave, TIOCCONS))
		return fail("TIOCCONS");
	if (tcflow(slave, TCOOFF))
		return fail("tcflow TCOOFF");
	printf("held %s\n", name);
	fflush(stdout);
	for (;;)
		pause();
}
