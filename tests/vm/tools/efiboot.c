// SPDX-License-Identifier: GPL-2.0
/*
 * efiboot: the firmware's boot entries, written through efivarfs, for the
 * UEFI scenarios (tests/vm/lib.sh UEFI_ENTRY=1):
 *
 *   efiboot entry NUM PATH ARGS...   Boot<NUM> (hex, 4 digits) starts the
 *                                    file PATH (\EFI\...) of whichever
 *                                    file system holds it, with ARGS as
 *                                    its command line
 *   efiboot order NUM                BootOrder becomes NUM alone
 *   efiboot next NUM                 BootNext: the next boot, once, starts
 *                                    Boot<NUM>
 *
 * The entry is an EFI_LOAD_OPTION (UEFI 2.10, 3.1.3) whose device path is
 * a short-form file path (a File Path media node alone): the firmware
 * looks for the file on every file system.  The command line is the
 * entry's optional data in UCS-2, which the firmware hands the kernel's
 * EFI stub as its LoadOptions (and the stub measures into PCR 9).
 * Variables efivarfs made immutable are made writable first, as
 * efibootmgr does.  Exit 0, or 1 with the reason on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define VARS		"/sys/firmware/efi/efivars"
#define GLOBAL		"8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define ATTRS		0x7	/* NON_VOLATILE, BOOTSERVICE, RUNTIME */
#define LOAD_OPTION_ACTIVE	0x1

static uint8_t buf[8192];
static size_t len;

static int put(const void *p, size_t n)
{
	if (n > sizeof(buf) - len)
		return -1;
	memcpy(buf + len, p, n);
	len += n;
	return 0;
}

static int put16(unsigned int v)
{
	uint8_t b[2] = { v & 0xff, v >> 8 };

	return put(b, 2);
}

static int put32(uint32_t v)
{
	return put16(v & 0xffff) || put16(v >> 16);
}

/* ASCII only: what the scenarios write. */
static int put_ucs2(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s > 0x7e || put16((unsigned char)*s))
			return -1;
	return put16(0);
}

/* Make an existing variable writable: efivarfs sets FS_IMMUTABLE_FL. */
static void unlock(const char *path)
{
	int fd = open(path, O_RDONLY), flags;

	if (fd < 0)
		return;
	if (!ioctl(fd, FS_IOC_GETFLAGS, &flags) && (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
}

/* buf[0..len) (attributes first) into the variable NAME. */
static int write_var(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s-%s", VARS, name, GLOBAL);
	unlock(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd)) {
		fprintf(stderr, "efiboot: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int parse_num(const char *s, unsigned int *num)
{
	char *end;
	unsigned long v = strtoul(s, &end, 16);

	if (!*s || *end || v > 0xffff)
		return -1;
	*num = v;
	return 0;
}

static int entry(unsigned int num, const char *file, int argc, char **argv)
{
	size_t path_len, node;
	char name[16];
	int i, bad;

	len = 0;
	bad = put32(ATTRS) || put32(LOAD_OPTION_ACTIVE);
	path_len = 4 + 2 * (strlen(file) + 1) + 4;
	bad = bad || path_len > 0xffff || put16(path_len) ||
	      put_ucs2("suspend2 test");
	/* File Path media node, then End of Hardware Device Path. */
	node = 4 + 2 * (strlen(file) + 1);
	bad = bad || put(&(uint8_t){ 0x04 }, 1) || put(&(uint8_t){ 0x04 }, 1) ||
	      put16(node) || put_ucs2(file);
	bad = bad || put(&(uint8_t){ 0x7f }, 1) || put(&(uint8_t){ 0xff }, 1) ||
	      put16(4);
	/* The arguments, a space between two: the command line. */
	for (i = 0; i < argc && !bad; i++) {
		bad = i && put16(' ');
		for (const char *c = argv[i]; *c && !bad; c++)
			bad = (unsigned char)*c > 0x7e || put16((unsigned char)*c);
	}
	if (bad) {
		fprintf(stderr, "efiboot: the entry is too long or not ASCII\n");
		return 1;
	}
	snprintf(name, sizeof(name), "Boot%04X", num);
	return write_var(name);
}

/* A variable holding one boot entry number: BootOrder, BootNext. */
static int write_num(const char *name, unsigned int num)
{
	len = 0;
	put32(ATTRS);
	put16(num);
	return write_var(name);
}

int main(int argc, char **argv)
{
	unsigned int num;

	if (argc >= 4 && !strcmp(argv[1], "entry") && !parse_num(argv[2], &num))
		return entry(num, argv[3], argc - 4, argv + 4);
	if (argc == 3 && !strcmp(argv[1], "order") && !parse_num(argv[2], &num))
		return write_num("BootOrder", num);
	if (argc == 3 && !strcmp(argv[1], "next") && !parse_num(argv[2], &num))
		return write_num("BootNext", num);
	fprintf(stderr, "usage: efiboot entry NUM PATH ARGS... | efiboot order NUM | efiboot next NUM\n");
	return 1;
}
