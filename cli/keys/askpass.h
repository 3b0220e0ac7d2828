/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where passphrases come from: a file (--passphrase-file, one try per
 * line: tests, scripts); at boot, plymouth when its daemon answers, else
 * cryptsetup's askpass when installed (it knows plymouth, systemd and the
 * console); else the terminal with echo off, put back on even when
 * Ctrl-C or SIGTERM kills the process at the prompt.  Each passphrase
 * lands in memory from sodium_malloc() that the caller wipes.
 */
#ifndef HIB_ASKPASS_H
#define HIB_ASKPASS_H

#include <stdbool.h>
#include <stddef.h>

#define ASKPASS_MAX	1024	/* buffer size, the NUL included */

#define ASKPASS_PLYMOUTH	"/bin/plymouth"
#define ASKPASS_CRYPTSETUP	"/lib/cryptsetup/askpass"

struct askpass {
	int fd;			/* the file, or the terminal */
	bool tty;
	bool eof;
	const char *helper;	/* ASKPASS_PLYMOUTH or ASKPASS_CRYPTSETUP */
	bool plymouth;
	char path[4096];	/* the helper, under HIBERNATE_SYSROOT */
	char why[2 * 4096 + 256];	/* why FILE could not be used */
};

/*
 * FILE NULL: a helper when HELPERS (plymouth, cryptsetup's askpass; moved
 * under HIBERNATE_SYSROOT for tests), else /dev/tty, else /dev/console.
 * 0 or -errno with why set; -EINVAL: FILE is not a regular file (a FIFO,
 * a device), refused without waiting on it.
 */
int askpass_open(struct askpass *a, const char *file, bool helpers);
/*
 * The next passphrase, without its newline, into buf (ASKPASS_MAX
 * bytes): 0, -ENODATA when the file has no more lines, -E2BIG for a
 * line too long, -ECANCELED when a helper gave up, else -errno.  The
 * prompt goes to the terminal or the helper, not with a file.
 */
int askpass_get(struct askpass *a, const char *prompt, char *buf);
void askpass_close(struct askpass *a);

#endif
