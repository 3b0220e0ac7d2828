// SPDX-License-Identifier: GPL-2.0
/*
 * dmtable: device-mapper devices for the fault scenarios, through the
 * kernel's ioctls (the guest has no dmsetup and no udev).
 *
 *   dmtable create NAME TABLE    make /dev/mapper/NAME with TABLE
 *   dmtable load NAME TABLE      swap NAME's table for TABLE, live
 *   dmtable remove NAME
 *
 * TABLE is dmsetup's table format, one target a line or separated by
 * ';': "START LENGTH TYPE ARGS", in 512-byte sectors, for example
 * "0 8 flakey /dev/vda 0 0 1 1 error_writes; 8 262136 linear /dev/vda 8"
 * (the first page of vda failing every write, the rest passed through).
 * A load suspends the device, which waits for the I/O in flight, and
 * resumes it with the new table, as `dmsetup load` plus `dmsetup resume`.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define BUF_SIZE	16384
#define MAX_TARGETS	16

static int control = -1;

static void die(const char *what)
{
	fprintf(stderr, "dmtable: %s: %s\n", what, strerror(errno));
	exit(1);
}

static struct dm_ioctl *header(void *buf, const char *name)
{
	struct dm_ioctl *io = buf;

	memset(buf, 0, BUF_SIZE);
	io->version[0] = DM_VERSION_MAJOR;
	io->version[1] = 0;
	io->version[2] = 0;
	io->data_size = BUF_SIZE;
	io->data_start = sizeof(*io);
	if (strlen(name) >= sizeof(io->name)) {
		errno = ENAMETOOLONG;
		die(name);
	}
	strcpy(io->name, name);
	return io;
}

static void dm(unsigned long cmd, void *buf, const char *what)
{
	if (ioctl(control, cmd, buf) < 0)
		die(what);
}

/* One "START LENGTH TYPE ARGS" line into a target spec at @at. */
static size_t add_target(char *buf, size_t at, char *line)
{
	struct dm_target_spec *spec = (void *)(buf + at);
	unsigned long long start, length;
	char type[DM_MAX_TYPE_NAME];
	int used = 0;
	size_t len;

	if (sscanf(line, "%llu %llu %15s %n", &start, &length, type,
		   &used) < 3 || !used) {
		fprintf(stderr, "dmtable: not START LENGTH TYPE ARGS: '%s'\n",
			line);
		exit(2);
	}
	len = strlen(line + used);
	if (at + sizeof(*spec) + len + 8 > BUF_SIZE) {
		fprintf(stderr, "dmtable: table too long\n");
		exit(2);
	}
	memset(spec, 0, sizeof(*spec));
	spec->sector_start = start;
	spec->length = length;
	strcpy(spec->target_type, type);
	memcpy(spec + 1, line + used, len + 1);
	/* The next spec starts 8-byte aligned, counted from this one. */
	spec->next = (sizeof(*spec) + len + 1 + 7) & ~7UL;
	return at + spec->next;
}

static void load(const char *name, char *table)
{
	char *buf = malloc(BUF_SIZE), *line, *save = NULL;
	struct dm_ioctl *io;
	size_t at;

	if (!buf)
		die("malloc");
	io = header(buf, name);
	at = io->data_start;
	for (line = strtok_r(table, ";\n", &save); line;
	     line = strtok_r(NULL, ";\n", &save)) {
		while (*line == ' ')
			line++;
		if (!*line)
			continue;
		if (io->target_count == MAX_TARGETS) {
			fprintf(stderr, "dmtable: more than %d targets\n",
				MAX_TARGETS);
			exit(2);
		}
		at = add_target(buf, at, line);
		io->target_count++;
	}
	if (!io->target_count) {
		fprintf(stderr, "dmtable: empty table\n");
		exit(2);
	}
	dm(DM_TABLE_LOAD, buf, "load the table");
	header(buf, name)->flags = DM_SUSPEND_FLAG;
	dm(DM_DEV_SUSPEND, buf, "suspend");
	header(buf, name);
	dm(DM_DEV_SUSPEND, buf, "resume with the new table");
	free(buf);
}

/* /dev/mapper/NAME -> ../dm-N, which devtmpfs made. */
static void link_node(const char *name)
{
	char buf[BUF_SIZE], path[256], target[64];
	struct dm_ioctl *io = header(buf, name);

	dm(DM_DEV_STATUS, buf, "status");
	snprintf(target, sizeof(target), "../dm-%u", minor(io->dev));
	snprintf(path, sizeof(path), "/dev/mapper/%s", name);
	unlink(path);
	if (symlink(target, path) < 0)
		die(path);
	printf("%s\n", path);
}

int main(int argc, char **argv)
{
	char buf[BUF_SIZE], path[256];

	if (argc < 3 || (strcmp(argv[1], "remove") && argc != 4)) {
		fprintf(stderr, "usage: dmtable create|load NAME TABLE | remove NAME\n");
		return 2;
	}
	control = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (control < 0)
		die("/dev/mapper/control");
	if (!strcmp(argv[1], "create")) {
		dm(DM_DEV_CREATE, header(buf, argv[2]), "create");
		load(argv[2], argv[3]);
		link_node(argv[2]);
	} else if (!strcmp(argv[1], "load")) {
		load(argv[2], argv[3]);
	} else if (!strcmp(argv[1], "remove")) {
		dm(DM_DEV_REMOVE, header(buf, argv[2]), "remove");
		snprintf(path, sizeof(path), "/dev/mapper/%s", argv[2]);
		unlink(path);
	} else {
		fprintf(stderr, "dmtable: unknown command %s\n", argv[1]);
		return 2;
	}
	return 0;
}
