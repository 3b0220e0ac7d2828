// SPDX-License-Identifier: GPL-2.0
/*
 * Passphrases read a byte at a time with read(2), so that no stdio
 * buffer keeps a copy; the terminal's echo is off while one is typed.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "askpass.h"

int askpass_open(struct askpass *a, const char *file)
{
	memset(a, 0, sizeof(*a));
	if (file) {
		a->fd = open(file, O_RDONLY | O_CLOEXEC);
		return a->fd < 0 ? -errno : 0;
	}
	a->fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (a->fd < 0)
		a->fd = open("/dev/console", O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (a->fd < 0)
		return -errno;
	if (!isatty(a->fd)) {
		close(a->fd);
		a->fd = -1;
		return -ENOTTY;
	}
	a->tty = true;
	return 0;
}

/* One line into buf; the rest of a line too long is read and dropped. */
static int read_line(struct askpass *a, char *buf)
{
	size_t n = 0;
	bool any = false, big = false;
	char c;

	for (;;) {
		ssize_t r = read(a->fd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r) {
			a->eof = true;
			break;
		}
		any = true;
		if (c == '\n')
			break;
		if (n + 1 < ASKPASS_MAX)
			buf[n++] = c;
		else
			big = true;
	}
	c = 0;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\r')
		buf[--n] = '\0';
	if (!any)
		return -ENODATA;
	return big ? -E2BIG : 0;
}

int askpass_get(struct askpass *a, const char *prompt, char *buf)
{
	struct termios old, quiet;
	int ret;

	buf[0] = '\0';
	if (a->fd < 0 || a->eof)
		return -ENODATA;
	if (!a->tty)
		return read_line(a, buf);
	if (tcgetattr(a->fd, &old))
		return -errno;
	quiet = old;
	quiet.c_lflag &= ~(ECHO | ECHOE | ECHOK | ECHONL);
	quiet.c_lflag |= ICANON;
	if (tcsetattr(a->fd, TCSAFLUSH, &quiet))
		return -errno;
	if (write(a->fd, prompt, strlen(prompt)) < 0) {
		ret = -errno;
	} else {
		ret = read_line(a, buf);
		/* A typed line may end the input only with Ctrl-D. */
		a->eof = false;
	}
	tcsetattr(a->fd, TCSAFLUSH, &old);
	if (write(a->fd, "\n", 1) < 0 && !ret)
		ret = -errno;
	return ret;
}

void askpass_close(struct askpass *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}
