// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a resume location holds an image: the anchor page ends with
 * the signature, where mkswap puts its own.  hibernate --invalidate
 * looks before and after the module's invalidate, which succeeds
 * whether or not there was an image, so that it can say which it was.
 * The anchor also leads to the image header, which a resume reads to
 * tell whether the image is encrypted (imghdr.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/anchor.h"
#include "check/hint.h"
#include "check/imghdr.h"

/* The device of LOC open for reading, and the anchor's page number. */
static int open_loc(const char *loc, unsigned long long *page)
{
	char dev[PATH_MAX], *colon;
	int fd, ret;

	ret = hint_resolve_location(loc, dev, sizeof(dev));
	if (ret)
		return ret;
	colon = strrchr(dev, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	*page = strtoull(colon + 1, NULL, 10);
	/*
	 * The module writes with bios, past the page cache of the device:
	 * only a direct read is sure to see what it wrote.  A plain file
	 * (tests) on a filesystem without O_DIRECT is read normally.
	 */
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(dev, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Page PAGE of fd into buf (ANCHOR_PAGE bytes): 0, -ENODATA, -errno. */
static int read_page(int fd, unsigned long long page, void *buf)
{
	void *tmp;
	ssize_t n;

	if (page > (unsigned long long)INT64_MAX / ANCHOR_PAGE)
		return -ENODATA;
	if (posix_memalign(&tmp, ANCHOR_PAGE, ANCHOR_PAGE))
		return -ENOMEM;
	n = pread(fd, tmp, ANCHOR_PAGE, (off_t)(page * ANCHOR_PAGE));
	if (n == ANCHOR_PAGE)
		memcpy(buf, tmp, ANCHOR_PAGE);
	free(tmp);
	return n < 0 ? -errno : n != ANCHOR_PAGE ? -ENODATA : 0;
}

static bool has_sig(const uint8_t *page)
{
	return !memcmp(page + ANCHOR_PAGE - ANCHOR_SIG_LEN, ANCHOR_SIG,
		       ANCHOR_SIG_LEN);
}

int anchor_state(const char *loc)
{
	unsigned long long page;
	uint8_t *buf;
	int fd, ret;

	fd = open_loc(loc, &page);
	if (fd < 0)
		return fd;
	buf = malloc(ANCHOR_PAGE);
	ret = buf ? read_page(fd, page, buf) : -ENOMEM;
	if (!ret)
		ret = has_sig(buf);
	free(buf);
	close(fd);
	return ret;
}

/*
 * The anchor's header_page, the first field of struct s2_anchor at the
 * end of the page (kernel/suspend2/image/format.h), then that page.
 */
int imghdr_read(const char *loc, uint8_t *buf)
{
	unsigned long long page, hdr = 0;
	int fd, ret, i;

	fd = open_loc(loc, &page);
	if (fd < 0)
		return fd;
	ret = read_page(fd, page, buf);
	if (!ret && has_sig(buf)) {
		for (i = 7; i >= 0; i--)
			hdr = hdr << 8 | buf[ANCHOR_PAGE - ANCHOR_SIZE + i];
		ret = read_page(fd, hdr, buf);
		if (!ret)
			ret = 1;
	}
	close(fd);
	return ret;
}
