// SPDX-License-Identifier: GPL-2.0
/*
 * faultdisk: an nbdkit plugin (run by nbdkit's cc plugin) serving a file
 * as a disk that fails the way real disks do, on the guest's command.
 *
 *   nbdkit --unix SOCK cc faultdisk.c file=DISK.img
 *
 * The guest controls it in band: a write of one page to the disk's last
 * page is a command, not data (the guest keeps that page out of its use,
 * mkswap with a size one page short), one line:
 *
 *   lose-reply PAGE N   the next N writes that touch page PAGE reach the
 *                       file and then fail (EIO): the write is on the
 *                       medium, the reply that said so was lost
 *   fail-writes PAGE N  the next N writes that touch PAGE fail, unwritten
 *   drop-writes PAGE N  the next N writes that touch PAGE are reported
 *                       done and never written
 *   off                 none of these
 *
 * A read of the last page returns the state: the command in force and how
 * many writes it still applies to, and how many it has applied to.  Every
 * request is served in order (one at a time), so the count is exact.
 */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define THREAD_MODEL	NBDKIT_THREAD_MODEL_SERIALIZE_ALL_REQUESTS
#define PAGE		4096

enum mode { OFF, LOSE_REPLY, FAIL_WRITES, DROP_WRITES };
static const char * const mode_names[] = {
	[OFF] = "off", [LOSE_REPLY] = "lose-reply",
	[FAIL_WRITES] = "fail-writes", [DROP_WRITES] = "drop-writes",
};

static const char *file;
static int fd = -1;
static uint64_t size;		/* of the file; the last page is control */
static enum mode mode;
static uint64_t fault_page;
static unsigned long left, applied;

static int faultdisk_config(const char *key, const char *value)
{
	if (strcmp(key, "file")) {
		nbdkit_error("unknown parameter '%s'", key);
		return -1;
	}
	file = value;
	return 0;
}

static int faultdisk_get_ready(void)
{
	struct stat st;

	if (!file) {
		nbdkit_error("file= is required");
		return -1;
	}
	fd = open(file, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		nbdkit_error("%s: %m", file);
		return -1;
	}
	if (st.st_size < 2 * PAGE || st.st_size % PAGE) {
		nbdkit_error("%s: not a whole number of pages, at least two",
			     file);
		return -1;
	}
	size = st.st_size;
	return 0;
}

static void *faultdisk_open(int readonly)
{
	(void)readonly;
	return &fd;	/* one file for every connection */
}

static int64_t faultdisk_get_size(void *handle)
{
	(void)handle;
	return size;
}

static int faultdisk_can_fua(void *handle)
{
	(void)handle;
	return NBDKIT_FUA_NATIVE;
}

static int faultdisk_can_flush(void *handle)
{
	(void)handle;
	return 1;
}

static uint64_t control_offset(void)
{
	return size - PAGE;
}

static int control_write(const char *buf)
{
	char line[PAGE + 1], name[32];
	unsigned long long page;
	unsigned long n;

	memcpy(line, buf, PAGE);
	line[PAGE] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (!strcmp(line, "off")) {
		mode = OFF;
		left = 0;
		nbdkit_debug("faultdisk: off");
		return 0;
	}
	if (sscanf(line, "%31s %llu %lu", name, &page, &n) == 3) {
		enum mode m;

		for (m = LOSE_REPLY; m <= DROP_WRITES; m++) {
			if (strcmp(name, mode_names[m]))
				continue;
			mode = m;
			fault_page = page;
			left = n;
			applied = 0;
			nbdkit_debug("faultdisk: %s page %llu for %lu writes",
				     name, page, n);
			return 0;
		}
	}
	nbdkit_error("faultdisk: bad command '%.64s'", line);
	errno = EINVAL;
	return -1;
}

static int faultdisk_pread(void *handle, void *buf, uint32_t count,
			   uint64_t offset, uint32_t flags)
{
	ssize_t r;

	(void)handle;
	(void)flags;
	if (offset == control_offset() && count == PAGE) {
		memset(buf, 0, count);
		snprintf(buf, count, "%s %llu left %lu applied %lu\n",
			 mode_names[mode], (unsigned long long)fault_page,
			 left, applied);
		return 0;
	}
	while (count) {
		r = pread(fd, buf, count, offset);
		if (r <= 0) {
			nbdkit_error("pread: %m");
			if (!r)
				errno = EIO;
			return -1;
		}
		buf = (char *)buf + r;
		count -= r;
		offset += r;
	}
	return 0;
}

static int write_through(const void *buf, uint32_t count, uint64_t offset,
			 uint32_t flags)
{
	ssize_t r;

	while (count) {
		r = pwrite(fd, buf, count, offset);
		if (r < 0) {
			nbdkit_error("pwrite: %m");
			return -1;
		}
		buf = (const char *)buf + r;
		count -= r;
		offset += r;
	}
	if ((flags & NBDKIT_FLAG_FUA) && fdatasync(fd) < 0) {
		nbdkit_error("fdatasync: %m");
		return -1;
	}
	return 0;
}

static int faultdisk_pwrite(void *handle, const void *buf, uint32_t count,
			    uint64_t offset, uint32_t flags)
{
	uint64_t at = fault_page * PAGE;
	bool hit;

	(void)handle;
	if (offset == control_offset() && count == PAGE)
		return control_write(buf);
	if (offset + count > control_offset()) {
		nbdkit_error("write into the control page");
		errno = EIO;
		return -1;
	}
	hit = mode != OFF && left && offset < at + PAGE && at < offset + count;
	if (!hit)
		return write_through(buf, count, offset, flags);
	left--;
	applied++;
	switch (mode) {
	case LOSE_REPLY:
		if (write_through(buf, count, offset, flags))
			return -1;
		nbdkit_error("faultdisk: page %llu written, reply lost",
			     (unsigned long long)fault_page);
		break;
	case FAIL_WRITES:
		nbdkit_error("faultdisk: page %llu: write failed",
			     (unsigned long long)fault_page);
		break;
	default:
		nbdkit_debug("faultdisk: page %llu: write dropped",
			     (unsigned long long)fault_page);
		return 0;
	}
	errno = EIO;
	return -1;
}

static int faultdisk_flush(void *handle, uint32_t flags)
{
	(void)handle;
	(void)flags;
	if (fdatasync(fd) < 0) {
		nbdkit_error("fdatasync: %m");
		return -1;
	}
	return 0;
}

static struct nbdkit_plugin plugin = {
	.name = "faultdisk",
	.version = "1.0",
	.config = faultdisk_config,
	.config_help = "file=<FILENAME>  the disk image (required)",
	.get_ready = faultdisk_get_ready,
	.open = faultdisk_open,
	.get_size = faultdisk_get_size,
	.can_fua = faultdisk_can_fua,
	.can_flush = faultdisk_can_flush,
	.pread = faultdisk_pread,
	.pwrite = faultdisk_pwrite,
	.flush = faultdisk_flush,
};

NBDKIT_REGISTER_PLUGIN(plugin)
