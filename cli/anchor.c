// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a resume location holds an image: the anchor page ends with
 * the signature, where mkswap puts its own.  hibernate --invalidate
 * looks before and after the module's invalidate, which succeeds
 * whether or not there was an image, so that it can say which it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anchor.h"
#include "hint.h"

int anchor_state(const char *loc)
{
	char dev[PATH_MAX], *colon;
	unsigned long long page;
	void *buf;
	ssize_t n;
	int fd, ret;

	ret = hint_resolve_location(loc, dev, sizeof(dev));
	if (ret)
		return ret;
	colon = strrchr(dev, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	page = strtoull(colon + 1, NULL, 10);
	/*
	 * The module writes with bios, past the page cache of the device:
	 * only a direct read is sure to see what it wrote.  A plain file
	 * (tests) on a filesystem without O_DIRECT is read normally.
	 */
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (posix_memalign(&buf, ANCHOR_PAGE, ANCHOR_PAGE)) {
		close(fd);
		return -ENOMEM;
	}
	n = pread(fd, buf, ANCHOR_PAGE, (off_t)(page * ANCHOR_PAGE));
	ret = n < 0 ? -errno : n != ANCHOR_PAGE ? -ENODATA : 0;
	if (!ret)
		ret = !memcmp((char *)buf + ANCHOR_PAGE - ANCHOR_SIG_LEN,
			      ANCHOR_SIG, ANCHOR_SIG_LEN);
	free(buf);
	close(fd);
	return ret;
}
