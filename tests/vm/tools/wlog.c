// SPDX-License-Identifier: GPL-2.0
/*
 * wlog: measure which write(2)s survive a hibernation that is never
 * resumed (fault scenario f-nosync).
 *
 *   wlog write FILE LOGDEV SLOT    append numbered records to FILE with
 *                                  plain write(2) (no fsync), forever; after
 *                                  each one, write its number to LOGDEV at
 *                                  SLOT (a 4 KiB slot) with O_DIRECT|O_SYNC,
 *                                  which is on the disk when it returns
 *   wlog check FILE LOGDEV SLOT    compare: every record up to the number in
 *                                  the slot must be in FILE, intact
 *
 * check prints "acked N on_disk M lost K" and exits 0 when K is 0, 1 when
 * records were lost, 2 on errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC	256
#define SLOT	4096

static void fill(char *rec, uint64_t n)
{
	int len = snprintf(rec, REC, "wlog record %012llu ",
			   (unsigned long long)n);
	int i;

	for (i = len; i < REC - 1; i++)
		rec[i] = 'a' + (n + i) % 26;
	rec[REC - 1] = '\n';
}

static int open_log(const char *dev, void **buf)
{
	int fd = open(dev, O_RDWR | O_DIRECT | O_SYNC);

	if (fd < 0 || posix_memalign(buf, SLOT, SLOT)) {
		perror(dev);
		exit(2);
	}
	return fd;
}

int main(int argc, char **argv)
{
	char rec[REC], got[REC];
	uint64_t n, acked;
	off_t slot;
	void *buf;
	int fd, lfd;

	if (argc != 5) {
		fprintf(stderr, "usage: wlog write|check FILE LOGDEV SLOT\n");
		return 2;
	}
	slot = (off_t)strtoul(argv[4], NULL, 0) * SLOT;
	lfd = open_log(argv[3], &buf);
	if (!strcmp(argv[1], "write")) {
		fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
		if (fd < 0) {
			perror(argv[2]);
			return 2;
		}
		for (n = 1;; n++) {
			fill(rec, n);
			if (write(fd, rec, REC) != REC) {
				perror("write");
				return 2;
			}
			memset(buf, 0, SLOT);
			memcpy(buf, &n, sizeof(n));
			if (pwrite(lfd, buf, SLOT, slot) != SLOT) {
				perror("log");
				return 2;
			}
		}
	}
	if (strcmp(argv[1], "check"))
		return 2;
	if (pread(lfd, buf, SLOT, slot) != SLOT) {
		perror("log");
		return 2;
	}
	memcpy(&acked, buf, sizeof(acked));
	fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		printf("acked %llu on_disk 0 lost %llu (%s: %s)\n",
		       (unsigned long long)acked, (unsigned long long)acked,
		       argv[2], strerror(errno));
		return acked ? 1 : 0;
	}
	for (n = 1;; n++) {
		ssize_t r = pread(fd, got, REC, (off_t)(n - 1) * REC);

		if (r != REC)
			break;
		fill(rec, n);
		if (memcmp(rec, got, REC))
			break;
	}
	n--;	/* intact records from the start of the file */
	printf("acked %llu on_disk %llu lost %llu\n", (unsigned long long)acked,
	       (unsigned long long)n,
	       (unsigned long long)(acked > n ? acked - n : 0));
	return acked > n ? 1 : 0;
}
