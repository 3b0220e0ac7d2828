// SPDX-License-Identifier: GPL-2.0
/*
 * s2img: inspect or damage a suspend2 image on a device, for the fault
 * scenarios.  It reads the on-disk format (kernel/suspend2/image/format.h)
 * by byte offsets so that it needs no kernel headers.
 *
 *   s2img info DEV              print where the image's parts are, and
 *                               the release and format version
 *   s2img flip DEV PART         flip one byte: data | header | index
 *   s2img version DEV N         rewrite the format version (and the
 *                               checksums, so only the version is wrong)
 *   s2img release DEV STRING    rewrite the kernel release the image was
 *                               written by (and the checksums): an image
 *                               from another kernel
 *   s2img truncate DEV          zero the second half of the data pages
 *   s2img cut DEV               a truncated image: the header promises
 *                               twice the chunks (and pages) the data
 *                               stream holds, as if the stream had been
 *                               cut off halfway; checksums fixed
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE		4096
#define ANCHOR_SIZE	36	/* struct s2_anchor */
#define HDR_VERSION	8
#define HDR_RELEASE	24	/* char[65], as struct new_utsname */
#define NAME_LEN	65
#define HDR_IMAGE_PAGES	254
#define HDR_DATA_PAGES	270
#define HDR_NR_CHUNKS	278
#define CHUNK_PAGES	32
#define HDR_FIRST_INDEX	286
#define HDR_CRC		354
#define HDR_SIZE	358
#define IDX_COUNT	8
#define IDX_ENTRIES	16

static int fd;

static void die(const char *what)
{
	fprintf(stderr, "s2img: %s: %s\n", what, errno ? strerror(errno) : "bad image");
	exit(1);
}

static void rw_page(uint64_t page, uint8_t *buf, int write)
{
	ssize_t n = write ? pwrite(fd, buf, PAGE, page * PAGE) :
			    pread(fd, buf, PAGE, page * PAGE);

	if (n != PAGE)
		die(write ? "write" : "read");
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));	/* the format is little endian, as x86 */
	return v;
}

static uint32_t crc32c(const uint8_t *p, size_t len)
{
	uint32_t crc = ~0U;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78U & -(crc & 1));
	}
	return ~crc;
}

/* crc32c over @len bytes with the 4 at @field taken as zero. */
static uint32_t crc_without(uint8_t *buf, size_t len, size_t field)
{
	uint8_t saved[4];
	uint32_t crc;

	memcpy(saved, buf + field, 4);
	memset(buf + field, 0, 4);
	crc = crc32c(buf, len);
	memcpy(buf + field, saved, 4);
	return crc;
}

int main(int argc, char **argv)
{
	static uint8_t anchor[PAGE], hdr[PAGE], idx[PAGE], data[PAGE];
	uint64_t header_page, first_index, data_pages, target;
	uint32_t count, crc;

	if (argc < 3) {
		fprintf(stderr, "usage: s2img info|flip|version|release|truncate|cut DEV [ARG]\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR);
	if (fd < 0)
		die(argv[2]);
	rw_page(0, anchor, 0);
	if (memcmp(anchor + PAGE - 10, "S2SUSPEND", 10)) {
		fprintf(stderr, "s2img: no suspend2 image on %s\n", argv[2]);
		return 1;
	}
	header_page = get64(anchor + PAGE - ANCHOR_SIZE);
	rw_page(header_page, hdr, 0);
	first_index = get64(hdr + HDR_FIRST_INDEX);
	data_pages = get64(hdr + HDR_DATA_PAGES);
	rw_page(first_index, idx, 0);
	memcpy(&count, idx + IDX_COUNT, 4);

	if (!strcmp(argv[1], "info")) {
		uint32_t ver;

		memcpy(&ver, hdr + HDR_VERSION, 4);
		printf("header %llu index %llu data_pages %llu first_data %llu release %.64s format %u\n",
		       (unsigned long long)header_page,
		       (unsigned long long)first_index,
		       (unsigned long long)data_pages,
		       (unsigned long long)get64(idx + IDX_ENTRIES),
		       (const char *)hdr + HDR_RELEASE, ver);
		return 0;
	}
	if (!strcmp(argv[1], "flip") && argc == 4) {
		if (!strcmp(argv[3], "header")) {
			hdr[100] ^= 0x01;
			rw_page(header_page, hdr, 1);
		} else if (!strcmp(argv[3], "index")) {
			idx[IDX_ENTRIES + 8 * (count / 2) + 1] ^= 0x01;
			rw_page(first_index, idx, 1);
		} else if (!strcmp(argv[3], "data")) {
			/* A page in the middle of the stream, past its chunk header. */
			target = get64(idx + IDX_ENTRIES + 8 * (count / 2));
			rw_page(target, data, 0);
			data[PAGE / 2] ^= 0x01;
			rw_page(target, data, 1);
		} else {
			return 2;
		}
		return 0;
	}
	if (((!strcmp(argv[1], "version") || !strcmp(argv[1], "release")) &&
	     argc == 4) || !strcmp(argv[1], "cut")) {
		if (!strcmp(argv[1], "cut")) {
			uint64_t chunks = get64(hdr + HDR_NR_CHUNKS);
			uint64_t pages = get64(hdr + HDR_IMAGE_PAGES) +
					 chunks * CHUNK_PAGES;

			chunks *= 2;
			memcpy(hdr + HDR_NR_CHUNKS, &chunks, 8);
			memcpy(hdr + HDR_IMAGE_PAGES, &pages, 8);
		} else if (!strcmp(argv[1], "version")) {
			uint32_t v = strtoul(argv[3], NULL, 0);

			memcpy(hdr + HDR_VERSION, &v, 4);
		} else {
			if (strlen(argv[3]) >= NAME_LEN) {
				fprintf(stderr, "s2img: release too long\n");
				return 2;
			}
			memset(hdr + HDR_RELEASE, 0, NAME_LEN);
			memcpy(hdr + HDR_RELEASE, argv[3], strlen(argv[3]));
		}
		crc = crc_without(hdr, HDR_SIZE, HDR_CRC);
		memcpy(hdr + HDR_CRC, &crc, 4);
		rw_page(header_page, hdr, 1);
		/* The anchor names the header by its checksum too. */
		memcpy(anchor + PAGE - ANCHOR_SIZE + 8, &crc, 4);
		rw_page(0, anchor, 1);
		return 0;
	}
	if (!strcmp(argv[1], "truncate")) {
		uint32_t i;

		memset(data, 0, PAGE);
		for (i = count / 2; i < count; i++)
			rw_page(get64(idx + IDX_ENTRIES + 8 * i), data, 1);
		return 0;
	}
	fprintf(stderr, "s2img: unknown command %s\n", argv[1]);
	return 2;
}
