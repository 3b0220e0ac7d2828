/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where passphrases come from: a file (--passphrase-file, one try per
 * line: tests, scripts) or the terminal with echo off.  Each passphrase
 * lands in memory from sodium_malloc() that the caller wipes.
 */
#ifndef HIB_ASKPASS_H
#define HIB_ASKPASS_H

#include <stdbool.h>
#include <stddef.h>

#define ASKPASS_MAX	1024	/* buffer size, the NUL included */

struct askpass {
	int fd;			/* the file, or the terminal */
	bool tty;
	bool eof;
};

/* FILE NULL: /dev/tty, else /dev/console.  0 or -errno. */
int askpass_open(struct askpass *a, const char *file);
/*
 * The next passphrase, without its newline, into buf (ASKPASS_MAX
 * bytes): 0, -ENODATA when the file has no more lines, -E2BIG for a
 * line too long, else -errno.  The prompt goes to the terminal only.
 */
int askpass_get(struct askpass *a, const char *prompt, char *buf);
void askpass_close(struct askpass *a);

#endif
