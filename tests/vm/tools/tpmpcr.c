// SPDX-License-Identifier: GPL-2.0
/*
 * tpmpcr DEVICE extend|event|reset|read PCR: one TPM 2.0 command on a PCR,
 * written to DEVICE (/dev/tpm0 or /dev/tpmrm0) as root's tools would
 * write it, with an empty password session.  Prints "ok" (and the SHA-256
 * value for read), "refused: <errno text>" when the kernel refuses the
 * write, or "tpm rc 0x..." when the TPM answers with an error.
 * Exit 0, 1 (kernel refused), 2 (TPM error), 3 (usage or I/O).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t cmd[256];
static size_t len;

static void put16(unsigned int v)
{
	cmd[len++] = v >> 8;
	cmd[len++] = v;
}

static void put32(uint32_t v)
{
	put16(v >> 16);
	put16(v & 0xffff);
}

static void password_session(void)
{
	put32(9);
	put32(0x40000009);	/* TPM_RS_PW */
	put16(0);
	cmd[len++] = 0;
	put16(0);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

int main(int argc, char **argv)
{
	uint8_t rsp[4096];
	unsigned long pcr;
	const char *op;
	ssize_t n;
	int fd, i;

	if (argc != 4 || (pcr = strtoul(argv[3], NULL, 0)) > 31) {
		fprintf(stderr, "usage: tpmpcr DEVICE extend|event|reset|read PCR\n");
		return 3;
	}
	op = argv[2];
	len = 10;
	if (!strcmp(op, "extend")) {
		put32(pcr);
		password_session();
		put32(1);
		put16(0x000b);		/* SHA-256 */
		for (i = 0; i < 32; i++)
			cmd[len++] = 0x5a;
	} else if (!strcmp(op, "event")) {
		put32(pcr);
		password_session();
		put16(4);
		put32(0x73326576);
	} else if (!strcmp(op, "reset")) {
		put32(pcr);
		password_session();
	} else if (!strcmp(op, "read")) {
		put32(1);
		put16(0x000b);
		cmd[len++] = 3;
		cmd[len++] = pcr < 8 ? 1 << pcr : 0;
		cmd[len++] = pcr >= 8 && pcr < 16 ? 1 << (pcr - 8) : 0;
		cmd[len++] = pcr >= 16 && pcr < 24 ? 1 << (pcr - 16) : 0;
	} else {
		fprintf(stderr, "tpmpcr: unknown command %s\n", op);
		return 3;
	}
	/* The header: tag, size, command code. */
	cmd[0] = 0x80;
	cmd[1] = strcmp(op, "read") ? 0x02 : 0x01;
	cmd[2] = len >> 24;
	cmd[3] = len >> 16;
	cmd[4] = len >> 8;
	cmd[5] = len;
	i = !strcmp(op, "extend") ? 0x182 : !strcmp(op, "event") ? 0x13c :
	    !strcmp(op, "reset") ? 0x13d : 0x17e;
	cmd[6] = 0;
	cmd[7] = 0;
	cmd[8] = i >> 8;
	cmd[9] = i;

	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "tpmpcr: %s: %s\n", argv[1], strerror(errno));
		return 3;
	}
	if (write(fd, cmd, len) != (ssize_t)len) {
		printf("refused: %s\n", strerror(errno));
		return 1;
	}
	n = read(fd, rsp, sizeof(rsp));
	if (n < 10) {
		fprintf(stderr, "tpmpcr: short response\n");
		return 3;
	}
	if (get32(rsp + 6)) {
		printf("tpm rc 0x%x\n", get32(rsp + 6));
		return 2;
	}
	printf("ok");
	/* read: counter, selection (10 bytes), count, then one TPM2B. */
	if (!strcmp(op, "read") && n >= 10 + 4 + 10 + 4 + 2 + 32) {
		putchar(' ');
		for (i = 0; i < 32; i++)
			printf("%02x", rsp[10 + 4 + 10 + 4 + 2 + i]);
	}
	putchar('\n');
	return 0;
}
