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
 *
 * The structure-aware mutator (hostile images, scenario f-hostile):
 *
 *   s2img rearm DEV             put back the anchor of the image the
 *                               "test" action wrote and then invalidated
 *                               (finds the header by its magic and crc)
 *   s2img save DEV FILE         keep the image's own pages (anchor,
 *                               header, index, the pages of the first and
 *                               last chunk headers) in FILE
 *   s2img restore DEV FILE      write them back: the pristine image
 *   s2img list                  every mutation "PART FIELD VALUE WORDS":
 *                               each field of the anchor, header, first
 *                               and last index page, first and last chunk
 *                               header at its boundary values; WORDS
 *                               (a|b) are what the refusal must name
 *   s2img mutate DEV PART FIELD VALUE [PRISTINE]
 *                               (after restore DEV PRISTINE, when given)
 *                               set one field and reseal every checksum
 *                               (header crc and the anchor's copy, index
 *                               page crc) but the field's own, so only
 *                               the semantic checks can refuse it
 *
 * Tampering with an encrypted image (scenario s2-crypt): each keeps every
 * crc right, so only the image's tags and index digest can refuse it.
 *
 *   s2img getchunk DEV N FILE   save chunk N (its header and stored bytes)
 *   s2img putchunk DEV N FILE   write a saved chunk over chunk N (a
 *                               splice when FILE is from another image)
 *   s2img swap DEV A B          exchange chunks A and B whole
 *   s2img swapbody DEV A B      exchange their stored bytes and tags but
 *                               keep each header's seq and lengths
 *   s2img droplast DEV          zero the last chunk's header
 *   s2img swapentries DEV       exchange the first two block index
 *                               entries (index crc resealed)
 *   s2img created DEV           move the header's created_sec on by one
 *                               (header crc and anchor resealed)
 *   s2img crypt DEV             print the encryption fields, hex
 *   s2img sealflip DEV OFFSET   flip the byte OFFSET bytes into the sealed
 *                               image key's area of the header page
 *                               (key = tpm; nothing resealed: the area is
 *                               bound to the header by its digest)
 *   s2img sealget DEV FILE      write the sealed blob (blob_len bytes of
 *                               the area's blob) to FILE
 *   s2img sealput DEV FILE      put the bytes of FILE (at most 1024) in
 *                               the area as its blob, zeros after it,
 *                               blob_len set, the area's digest in the
 *                               header and the header crc (and the
 *                               anchor's copy) made right: A1's forgery
 *                               with a sealed object made by tpm2-tools.
 *                               The header tag stays the genuine one,
 *                               keyed with an image key root does not
 *                               know, so a kernel that unsealed root's
 *                               key would still refuse the image, at
 *                               the tag; s2-tpm checks that the refusal
 *                               comes before that, from the creation
 *                               check, before anything is unsealed (an
 *                               image re-encrypted and re-tagged with
 *                               root's key would meet the same check)
 *   s2img find DEV STRING       how many times STRING (or hex:BYTES) is
 *                               on the device: the confidentiality checks
 *
 * Every access is O_DIRECT: the kernel reads and writes the image with
 * bios, past the page cache.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* O_DIRECT */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

#include <sodium.h>

#include "crc32c.h"

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
#define HDR_CREATED	302
#define HDR_ENCRYPTION	354
#define HDR_CRC		514
#define HDR_SIZE	518
#define IDX_COUNT	8
#define IDX_ENTRIES	16
#define IDX_NR		510
#define CHUNK_HDR	40
#define CHUNK_MAGIC	0x4b4e4843
/* struct s2_header_tpm (format.h): blob_len, boot_pcrs, counter, blob. */
#define HDR_TPM_DIGEST	386	/* tpm_digest, where eph_pub is otherwise */
#define TPM_AREA	1024	/* S2_HEADER_TPM_OFFSET */
#define TPM_AREA_SIZE	1040
#define TPM_BLOB	(TPM_AREA + 16)
#define TPM_BLOB_MAX	1024	/* S2_TPM_BLOB_MAX */

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

#define ALIGNED __attribute__((aligned(PAGE)))

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));	/* the format is little endian, as x86 */
	return v;
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

/* ---- the structure-aware mutator ---------------------------------- */

#define ANCHOR_AT	(PAGE - ANCHOR_SIZE)
#define MAX_SAVE	4096

struct field {
	const char *part;	/* anchor, header, index, chunk */
	const char *name;
	unsigned int off, size;
};

/* Offsets of kernel/suspend2/image/format.h (KUnit s2_header_layout). */
static const struct field fields[] = {
	{ "anchor", "header_page", 0, 8 },
	{ "anchor", "header_crc", 8, 4 },
	{ "anchor", "reserved", 12, 4 },
	{ "header", "magic", 0, 8 },
	{ "header", "format_version", 8, 4 },
	{ "header", "header_size", 12, 4 },
	{ "header", "page_size", 16, 4 },
	{ "header", "checksum", 20, 4 },
	{ "header", "release", 24, 65 },
	{ "header", "version", 89, 65 },
	{ "header", "machine", 154, 65 },
	{ "header", "compressor", 219, 32 },
	{ "header", "pad", 251, 3 },
	{ "header", "image_pages", 254, 8 },
	{ "header", "data_bytes", 262, 8 },
	{ "header", "data_pages", 270, 8 },
	{ "header", "nr_chunks", 278, 8 },
	{ "header", "first_index_page", 286, 8 },
	{ "header", "index_pages", 294, 4 },
	{ "header", "chunk_pages", 298, 4 },
	{ "header", "threads", 342, 4 },
	{ "header", "write_crypt_us", 346, 4 },
	{ "header", "flags", 350, 4 },
	{ "header", "encryption", 354, 4 },
	{ "header", "key_scheme", 358, 4 },
	{ "header", "image_id", 362, 16 },
	{ "header", "key_id", 378, 8 },
	{ "header", "eph_pub", 386, 32 },
	{ "header", "wrapped_key", 418, 48 },
	{ "header", "index_digest", 466, 32 },
	{ "header", "header_tag", 498, 16 },
	{ "header", "header_crc", 514, 4 },
	{ "index", "next", 0, 8 },
	{ "index", "count", 8, 4 },
	{ "index", "crc", 12, 4 },
	{ "index", "entry[0]", 16, 8 },
	{ "index", "entry[last]", 0, 8 },
	{ "chunk", "magic", 0, 4 },
	{ "chunk", "seq", 4, 4 },
	{ "chunk", "raw_len", 8, 4 },
	{ "chunk", "stored_len", 12, 4 },
	{ "chunk", "crc", 16, 4 },
	{ "chunk", "reserved", 20, 4 },
	{ "chunk", "tag", 24, 16 },
};

/*
 * The mutations f-hostile runs: PART FIELD VALUES WORDS.  Values are
 * resolved against the image by value(); WORDS is what the refusal must
 * name.  Fields only reported (the timings) are left out: any value of
 * theirs is a valid image, which would be restored.
 */
static const char *const plan[] = {
	"anchor header_page 0,1,2^32+1,2^52+1,dev,dev+1,max,data header_page",
	"anchor header_crc 0,u32max,old+1 header_crc",
	"anchor reserved 1,u32max reserved",
	"header magic 0,1 magic",
	"header format_version 0,1,3,u32max format_version",
	"header header_size 0,old-1,old+1,u32max header_size",
	"header page_size 0,8192,u32max page_size",
	"header checksum 0,2,u32max checksum",
	"header release empty,unterminated,other release",
	"header version empty,unterminated,other version",
	"header machine empty,unterminated,other machine",
	"header compressor empty,unterminated,other compressor",
	"header pad 1,max pad",
	"header image_pages 0,1,old-1,old+32,u32max,2^32+1,2^52+1,ram+1,max image_pages",
	"header data_bytes 0,1,old-1,old+1,2^32+1,2^52+1,max data_bytes",
	"header data_pages 0,1,old-1,old+1,2^32+1,510*2^32+1,2^52+1,dev,dev+1,max data_pages",
	"header nr_chunks 0,1,old-1,old+1,2^32+1,max nr_chunks",
	"header first_index_page 0,1,2^32+1,dev,dev+1,max,header,data,old+1 first_index_page",
	"header index_pages 0,old-1,old+1,u32max index_pages",
	"header chunk_pages 0,1,31,33,u32max chunk_pages",
	"header threads 0,65,u32max threads",
	"header write_crypt_us 1,u32max write_crypt_us",
	"header flags 2,u32max flags",
	"header encryption 1,2 key_scheme|offers",
	"header encryption 3,u32max encryption",
	"header key_scheme 1,2,u32max crypt",
	"header image_id ones crypt",
	"header key_id max crypt",
	"header eph_pub ones crypt",
	"header wrapped_key ones crypt",
	"header index_digest ones crypt",
	"header header_tag ones crypt",
	"header header_crc 0,u32max,old+1 checksum",
	"index0 next 0,1,self,dev,dev+1,max,2^32+1,header next",
	"indexN next 1,self,back,dev,max,header next",
	"index0 count 0,1,old-1,511,u32max count",
	"indexN count 0,old+1,u32max count",
	"index0 crc 0,u32max checksum",
	"index0 entry[0] 0,dev,dev+1,max,2^32+1,header,index,data entry",
	"indexN entry[last] 0,dev,max,header,index,data entry",
	"chunk0 magic 0,u32max magic",
	"chunk0 seq 1,u32max seq",
	"chunk0 raw_len 0,1,4096,131073,u32max raw_len|stored_len",
	"chunk0 stored_len 0,1,4096,u32max stored_len",
	"chunk0 crc 0,old+1 checksum|crc",
	"chunk0 reserved 1,u32max reserved",
	"chunk0 tag ones tag",
	"chunkN seq 0,old+1 seq",
	"chunkN raw_len 0,131073 raw_len|stored_len",
	NULL
};

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint64_t device_pages(void)
{
	uint64_t bytes;
	struct stat st;

	/* A regular file too: the host's checks of this tool use one. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		return st.st_size / PAGE;
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		die("BLKGETSIZE64");
	return bytes / PAGE;
}

static uint64_t ram_pages(void)
{
	long n = sysconf(_SC_PHYS_PAGES);

	return n > 0 ? (uint64_t)n : 0;
}

static void seal_header(uint8_t *hdr)
{
	put32(hdr + HDR_CRC, crc_without(hdr, HDR_SIZE, HDR_CRC));
}

static void seal_index(uint8_t *ip)
{
	put32(ip + 12, crc_without(ip, PAGE, 12));
}

/*
 * The image the "test" action wrote, verified and then invalidated is
 * still on the device: find its header (magic and checksum) and point a
 * fresh anchor at it, as the writer did.
 */
static int rearm(uint8_t *anchor)
{
	static uint8_t buf[64 * PAGE] ALIGNED;
	uint64_t n = device_pages(), p, found = 0, best_sec = 0;
	uint32_t found_crc = 0;

	for (p = 1; p < n; p += 64) {
		uint64_t k, len = n - p < 64 ? n - p : 64;

		if (pread(fd, buf, len * PAGE, p * PAGE) != (ssize_t)(len * PAGE))
			die("read");
		for (k = 0; k < len; k++) {
			uint8_t *h = buf + k * PAGE;
			uint64_t sec = get64(h + 302);

			if (memcmp(h, "SUSPEND2", 8) ||
			    get32(h + HDR_CRC) != crc_without(h, HDR_SIZE, HDR_CRC))
				continue;
			if (!found || sec >= best_sec) {
				found = p + k;
				best_sec = sec;
				found_crc = get32(h + HDR_CRC);
			}
		}
	}
	if (!found) {
		fprintf(stderr, "s2img: no image header on the device\n");
		return 1;
	}
	if (memcmp(anchor + PAGE - 10, "S2SUSPEND", 10))
		memcpy(anchor + PAGE - 20, anchor + PAGE - 10, 10);
	memcpy(anchor + PAGE - 10, "S2SUSPEND", 10);
	put64(anchor + ANCHOR_AT, found);
	put32(anchor + ANCHOR_AT + 8, found_crc);
	put32(anchor + ANCHOR_AT + 12, 0);
	rw_page(0, anchor, 1);
	printf("anchor points at the header on page %llu\n",
	       (unsigned long long)found);
	return 0;
}

/* The image's layout, read from the (pristine) device. */
struct layout {
	uint64_t header_page, dev_pages;
	uint32_t nr_index;
	uint64_t *index_loc;
	uint8_t *index;		/* nr_index pages */
	uint64_t data_pages, nr_chunks;
	uint64_t last_chunk_off;	/* stream offset of the last chunk header */
};

static uint64_t data_page(const struct layout *l, uint64_t n)
{
	if (n >= l->data_pages)
		die("stream offset beyond the data pages");
	return get64(l->index + (n / IDX_NR) * PAGE + IDX_ENTRIES +
		     8 * (n % IDX_NR));
}

/* @len bytes of the data stream at @off, through the block index. */
static void stream_rw(const struct layout *l, uint64_t off, uint8_t *buf,
		      size_t len, int write)
{
	static uint8_t page[PAGE] ALIGNED;

	while (len) {
		uint64_t where = data_page(l, off / PAGE);
		size_t in = off % PAGE, n = PAGE - in < len ? PAGE - in : len;

		rw_page(where, page, 0);
		if (write) {
			memcpy(page + in, buf, n);
			rw_page(where, page, 1);
		} else {
			memcpy(buf, page + in, n);
		}
		off += n;
		buf += n;
		len -= n;
	}
}

/* @chunks: also find the last chunk header (reads one page a chunk). */
static void load_layout(struct layout *l, const uint8_t *anchor,
			const uint8_t *hdr, int chunks)
{
	uint64_t where = get64(hdr + HDR_FIRST_INDEX), off = 0, c;
	uint32_t i;

	l->header_page = get64(anchor + ANCHOR_AT);
	l->dev_pages = device_pages();
	l->nr_index = get32(hdr + 294);
	l->data_pages = get64(hdr + HDR_DATA_PAGES);
	l->nr_chunks = get64(hdr + HDR_NR_CHUNKS);
	if (!l->nr_index || l->nr_index > MAX_SAVE ||
	    l->data_pages > (uint64_t)l->nr_index * IDX_NR)
		die("layout");
	l->index_loc = calloc(l->nr_index, sizeof(*l->index_loc));
	if (posix_memalign((void **)&l->index, PAGE, (size_t)l->nr_index * PAGE) ||
	    !l->index_loc)
		die("memory");
	for (i = 0; i < l->nr_index; i++) {
		l->index_loc[i] = where;
		rw_page(where, l->index + (size_t)i * PAGE, 0);
		where = get64(l->index + (size_t)i * PAGE);
	}
	/* Walk the chunk headers to the last one. */
	for (c = 0; chunks && c + 1 < l->nr_chunks; c++) {
		uint8_t ch[CHUNK_HDR];

		stream_rw(l, off, ch, sizeof(ch), 0);
		if (get32(ch) != CHUNK_MAGIC || get32(ch + 4) != c)
			die("chunk walk");
		off += CHUNK_HDR + get32(ch + 12);
	}
	l->last_chunk_off = off;
}

static void free_layout(struct layout *l)
{
	free(l->index_loc);
	free(l->index);
}

/* Keeps the pages a mutation may touch, to put the image back later. */
static int save(const uint8_t *anchor, const uint8_t *hdr, const char *file)
{
	static uint8_t page[PAGE] ALIGNED;
	uint64_t pages[MAX_SAVE + 8];
	unsigned int n = 0, i;
	struct layout l;
	FILE *f;

	load_layout(&l, anchor, hdr, 1);
	pages[n++] = 0;
	pages[n++] = l.header_page;
	for (i = 0; i < l.nr_index; i++)
		pages[n++] = l.index_loc[i];
	/* A chunk header may straddle two pages. */
	pages[n++] = data_page(&l, 0);
	pages[n++] = data_page(&l, l.last_chunk_off / PAGE);
	if ((l.last_chunk_off + CHUNK_HDR - 1) / PAGE != l.last_chunk_off / PAGE)
		pages[n++] = data_page(&l, l.last_chunk_off / PAGE + 1);
	f = fopen(file, "w");
	if (!f)
		die(file);
	for (i = 0; i < n; i++) {
		rw_page(pages[i], page, 0);
		if (fwrite(&pages[i], 8, 1, f) != 1 ||
		    fwrite(page, PAGE, 1, f) != 1)
			die(file);
	}
	if (fclose(f))
		die(file);
	printf("saved %u pages: header %llu, %u index pages, %llu data pages, %llu chunks\n",
	       n, (unsigned long long)l.header_page, l.nr_index,
	       (unsigned long long)l.data_pages,
	       (unsigned long long)l.nr_chunks);
	free_layout(&l);
	return 0;
}

static int restore(const char *file)
{
	static uint8_t page[PAGE] ALIGNED;
	uint64_t where;
	FILE *f = fopen(file, "r");

	if (!f)
		die(file);
	while (fread(&where, 8, 1, f) == 1) {
		if (fread(page, PAGE, 1, f) != 1)
			die(file);
		rw_page(where, page, 1);
	}
	fclose(f);
	return 0;
}

static int list(void)
{
	int i;

	for (i = 0; plan[i]; i++) {
		char part[16], field[32], values[256], words[64], *v, *save;

		if (sscanf(plan[i], "%15s %31s %255s %63s", part, field, values,
			   words) != 4)
			return 2;
		for (v = strtok_r(values, ",", &save); v;
		     v = strtok_r(NULL, ",", &save))
			printf("%s %s %s %s\n", part, field, v, words);
	}
	return 0;
}

/* A value token of the plan, for a field holding @old. */
static int value(const char *tok, uint64_t old, const struct layout *l,
		 uint64_t self, uint64_t *v)
{
	static const struct { const char *tok; uint64_t v; } fixed[] = {
		{ "u32max", 0xffffffffULL }, { "2^32+1", 0x100000001ULL },
		{ "2^52+1", (1ULL << 52) + 1 }, { "max", ~0ULL },
		{ "510*2^32+1", 510ULL * (1ULL << 32) + 1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (!strcmp(tok, fixed[i].tok)) {
			*v = fixed[i].v;
			return 0;
		}
	}
	if (!strcmp(tok, "dev"))
		*v = l->dev_pages;
	else if (!strcmp(tok, "dev+1"))
		*v = l->dev_pages + 1;
	else if (!strcmp(tok, "ram+1"))
		*v = ram_pages() + 1;
	else if (!strcmp(tok, "old+1"))
		*v = old + 1;
	else if (!strcmp(tok, "old-1"))
		*v = old - 1;
	else if (!strcmp(tok, "old+32"))
		*v = old + 32;
	else if (!strcmp(tok, "self"))
		*v = self;
	else if (!strcmp(tok, "back"))
		*v = l->index_loc[0];
	else if (!strcmp(tok, "header"))
		*v = l->header_page;
	else if (!strcmp(tok, "index"))
		*v = l->index_loc[0];
	else if (!strcmp(tok, "data"))
		*v = data_page(l, 1);	/* listed already: a duplicate */
	else if (tok[0] >= '0' && tok[0] <= '9')
		*v = strtoull(tok, NULL, 0);
	else
		return -1;
	return 0;
}

/*
 * Sets PART's FIELD to VALUE and reseals the checksums that cover it (not
 * the field's own): exit 0, or 3 when the image already holds that value.
 */
static int mutate(uint8_t *anchor, uint8_t *hdr, const char *part,
		  const char *name, const char *tok)
{
	static uint8_t page[PAGE] ALIGNED;
	const struct field *f = NULL;
	uint64_t old = 0, v = 0, self = 0, where = 0, off = 0;
	uint8_t *p, chunk[CHUNK_HDR];
	struct layout l;
	unsigned int i;
	int k = -1;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strncmp(part, fields[i].part, strlen(fields[i].part)) &&
		    !strcmp(name, fields[i].name))
			f = &fields[i];
	if (!f) {
		fprintf(stderr, "s2img: no field %s %s\n", part, name);
		return 2;
	}
	load_layout(&l, anchor, hdr, !strcmp(part, "chunkN"));
	if (!strcmp(f->part, "anchor")) {
		p = anchor + ANCHOR_AT + f->off;
	} else if (!strcmp(f->part, "header")) {
		p = hdr + f->off;
	} else if (!strcmp(f->part, "index")) {
		k = !strcmp(part, "index0") ? 0 : (int)l.nr_index - 1;
		self = where = l.index_loc[k];
		memcpy(page, l.index + (size_t)k * PAGE, PAGE);
		p = page + f->off;
		if (!strcmp(name, "entry[last]"))
			p = page + IDX_ENTRIES + 8 * (get32(page + IDX_COUNT) - 1);
	} else {
		off = !strcmp(part, "chunk0") ? 0 : l.last_chunk_off;
		stream_rw(&l, off, chunk, sizeof(chunk), 0);
		p = chunk + f->off;
	}
	if (f->size <= 8) {
		memcpy(&old, p, f->size);
		if (value(tok, old, &l, self, &v)) {
			fprintf(stderr, "s2img: bad value %s\n", tok);
			free_layout(&l);
			return 2;
		}
		if (f->size < 8)
			v &= (1ULL << (8 * f->size)) - 1;
		if (v == old) {
			printf("skip: %s %s is %s already\n", part, name, tok);
			free_layout(&l);
			return 3;
		}
		memcpy(p, &v, f->size);
	} else if (!strcmp(tok, "empty")) {
		memset(p, 0, f->size);
	} else if (!strcmp(tok, "unterminated")) {
		memset(p, 'A', f->size);
	} else if (!strcmp(tok, "ones")) {
		memset(p, 0xff, f->size);
	} else {
		memset(p, 0, f->size);
		memcpy(p, tok, strlen(tok) < f->size ? strlen(tok) : f->size - 1);
	}

	if (!strcmp(f->part, "anchor")) {
		rw_page(0, anchor, 1);
	} else if (!strcmp(f->part, "header")) {
		if (strcmp(name, "header_crc"))
			seal_header(hdr);
		/* The anchor names the header by its checksum: follow it. */
		memcpy(anchor + ANCHOR_AT + 8, hdr + HDR_CRC, 4);
		rw_page(l.header_page, hdr, 1);
		rw_page(0, anchor, 1);
	} else if (!strcmp(f->part, "index")) {
		if (strcmp(name, "crc"))
			seal_index(page);
		rw_page(where, page, 1);
	} else {
		/* Chunk headers are under no checksum of their own. */
		stream_rw(&l, off, chunk, sizeof(chunk), 1);
	}
	printf("%s %s: %#llx -> %s (%#llx)\n", part, name,
	       (unsigned long long)old, tok, (unsigned long long)v);
	free_layout(&l);
	return 0;
}

/* ---- tampering with an encrypted image ---------------------------- */

/* Stream offset of chunk @n's header, walking the chunk headers. */
static uint64_t chunk_off(const struct layout *l, uint64_t n, uint32_t *len)
{
	uint64_t off = 0, c;
	uint8_t ch[CHUNK_HDR];

	if (n >= l->nr_chunks)
		die("no such chunk");
	/* By magic and length only: an edit may have moved a seq. */
	for (c = 0;; c++) {
		stream_rw(l, off, ch, sizeof(ch), 0);
		if (get32(ch) != CHUNK_MAGIC)
			die("chunk walk");
		if (c == n)
			break;
		off += CHUNK_HDR + get32(ch + 12);
	}
	*len = CHUNK_HDR + get32(ch + 12);
	return off;
}

static uint8_t *chunk_read(const struct layout *l, uint64_t n, uint64_t *off,
			   uint32_t *len)
{
	uint8_t *buf;

	*off = chunk_off(l, n, len);
	buf = malloc(*len);
	if (!buf)
		die("memory");
	stream_rw(l, *off, buf, *len, 0);
	return buf;
}

static int chunk_file(const uint8_t *anchor, const uint8_t *hdr, int put,
		      uint64_t n, const char *file)
{
	struct layout l;
	uint64_t off;
	uint32_t len;
	uint8_t *buf;
	FILE *f;

	load_layout(&l, anchor, hdr, 0);
	buf = chunk_read(&l, n, &off, &len);
	f = fopen(file, put ? "r" : "w");
	if (!f)
		die(file);
	if (put) {
		if (fread(buf, 1, len, f) != len)
			die("chunk file shorter than the chunk it replaces");
		stream_rw(&l, off, buf, len, 1);
	} else if (fwrite(buf, 1, len, f) != len) {
		die(file);
	}
	fclose(f);
	printf("chunk %llu: %u bytes %s %s\n", (unsigned long long)n, len,
	       put ? "from" : "to", file);
	free(buf);
	free_layout(&l);
	return 0;
}

/* @body: keep each chunk's magic, seq and lengths, exchange the rest. */
static int chunk_swap(const uint8_t *anchor, const uint8_t *hdr, uint64_t a,
		      uint64_t b, int body)
{
	uint64_t off_a, off_b;
	uint32_t len_a, len_b;
	uint8_t *ca, *cb;
	struct layout l;

	load_layout(&l, anchor, hdr, 0);
	ca = chunk_read(&l, a, &off_a, &len_a);
	cb = chunk_read(&l, b, &off_b, &len_b);
	if (len_a != len_b)
		die("chunks of different sizes");
	if (body) {
		/* magic, seq, raw_len, stored_len stay where they were */
		uint8_t keep[16];

		memcpy(keep, ca, sizeof(keep));
		memcpy(ca, cb, sizeof(keep));
		memcpy(cb, keep, sizeof(keep));
	}
	stream_rw(&l, off_a, cb, len_b, 1);
	stream_rw(&l, off_b, ca, len_a, 1);
	printf("chunks %llu and %llu exchanged%s\n", (unsigned long long)a,
	       (unsigned long long)b, body ? " (bodies and tags)" : "");
	free(ca);
	free(cb);
	free_layout(&l);
	return 0;
}

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (s[0] && s[1] && n < max && sscanf(s, "%2x", &b) == 1) {
		out[n++] = b;
		s += 2;
	}
	if (*s)
		die("bad hex string");
	return n;
}

/* Counts the places @what starts on the whole device (any alignment). */
static int find(const char *what)
{
	/* A page before the blocks read, for the tail of the last block. */
	static uint8_t buf[257 * PAGE] ALIGNED;
	uint8_t *blk = buf + PAGE, pat[256];
	uint64_t n = device_pages(), p, hits = 0;
	size_t len, keep = 0, i;

	if (!strncmp(what, "hex:", 4)) {
		len = unhex(what + 4, pat, sizeof(pat));
	} else {
		len = strlen(what);
		if (len > sizeof(pat))
			die("string too long");
		memcpy(pat, what, len);
	}
	if (!len)
		die("empty string");
	for (p = 0; p < n; p += 256) {
		uint64_t k = n - p < 256 ? n - p : 256;
		uint8_t *at = blk - keep;

		if (pread(fd, blk, k * PAGE, p * PAGE) != (ssize_t)(k * PAGE))
			die("read");
		/* Matches across two blocks start in the kept tail. */
		for (i = 0; i + len <= keep + k * PAGE; i++)
			if (at[i] == pat[0] && !memcmp(at + i, pat, len))
				hits++;
		keep = len - 1;
		memcpy(blk - keep, blk + k * PAGE - keep, keep);
	}
	printf("%llu\n", (unsigned long long)hits);
	return 0;
}

/* sealget: the blob the kernel sealed, for the attacker to read. */
static int seal_get(const uint8_t *hdr, const char *file)
{
	uint32_t len = get32(hdr + TPM_AREA);
	FILE *f;

	if (!len || len > TPM_BLOB_MAX) {
		fprintf(stderr, "s2img: no sealed blob (blob_len %u)\n", len);
		return 1;
	}
	f = fopen(file, "w");
	if (!f || fwrite(hdr + TPM_BLOB, 1, len, f) != len || fclose(f))
		die(file);
	return 0;
}

/*
 * sealput: the bytes of @file as the sealed blob, and everything that
 * needs no key made consistent with them: blob_len, zeros after the
 * blob (the kernel refuses anything there), tpm_digest, the header crc
 * and the anchor's copy of it.  boot_pcrs and counter are left as the
 * kernel wrote them, so that only the blob differs from the genuine
 * image.  The header tag stays the genuine image's: it is keyed with the
 * image key, which whoever forges the blob does not have, and the kernel
 * checks it only with the key it unsealed, i.e. after the checks a forged
 * blob must fail.  Only the header page and the anchor page are written.
 */
static int seal_put(uint8_t *anchor, uint8_t *hdr, uint64_t header_page,
		    const char *file)
{
	uint8_t blob[TPM_BLOB_MAX + 1];
	size_t len;
	FILE *f;

	f = fopen(file, "r");
	if (!f)
		die(file);
	/* One byte more than fits tells a blob too long from one that fits. */
	len = fread(blob, 1, sizeof(blob), f);
	if (ferror(f))
		die(file);
	fclose(f);
	if (!len || len > TPM_BLOB_MAX) {
		fprintf(stderr, "s2img: %s: a blob is 1 to %d bytes\n", file,
			TPM_BLOB_MAX);
		return 1;
	}
	memset(hdr + TPM_BLOB, 0, TPM_BLOB_MAX);
	memcpy(hdr + TPM_BLOB, blob, len);
	put32(hdr + TPM_AREA, len);
	if (sodium_init() < 0)
		die("sodium_init");
	crypto_hash_sha256(hdr + HDR_TPM_DIGEST, hdr + TPM_AREA,
			   TPM_AREA_SIZE);
	seal_header(hdr);
	memcpy(anchor + ANCHOR_AT + 8, hdr + HDR_CRC, 4);
	rw_page(header_page, hdr, 1);
	rw_page(0, anchor, 1);
	printf("sealed blob of %zu bytes put in the header\n", len);
	return 0;
}

static int drop_last(const uint8_t *anchor, const uint8_t *hdr)
{
	uint8_t zero[CHUNK_HDR] = { 0 };
	struct layout l;
	uint64_t off;
	uint32_t len;

	load_layout(&l, anchor, hdr, 0);
	off = chunk_off(&l, l.nr_chunks - 1, &len);
	stream_rw(&l, off, zero, sizeof(zero), 1);
	printf("chunk %llu dropped\n", (unsigned long long)l.nr_chunks - 1);
	free_layout(&l);
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t anchor[PAGE] ALIGNED, hdr[PAGE] ALIGNED, idx[PAGE] ALIGNED,
		data[PAGE] ALIGNED;
	uint64_t header_page, first_index, data_pages, target;
	uint32_t count, crc;

	if (argc == 2 && !strcmp(argv[1], "list"))
		return list();
	if (argc < 3) {
		fprintf(stderr, "usage: s2img info|flip|version|release|truncate|cut|rearm|save|restore|list|mutate|getchunk|putchunk|swap|swapbody|droplast|swapentries|created|crypt|sealflip|sealget|sealput|find DEV [ARG...]\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR | O_DIRECT | O_SYNC);
	/* A file on a filesystem without O_DIRECT (the host's checks). */
	if (fd < 0 && errno == EINVAL)
		fd = open(argv[2], O_RDWR | O_SYNC);
	if (fd < 0)
		die(argv[2]);
	/* mutate ... PRISTINE: put the pristine image back first. */
	if (!strcmp(argv[1], "mutate") && argc == 7)
		restore(argv[6]);
	rw_page(0, anchor, 0);
	if (!strcmp(argv[1], "rearm"))
		return rearm(anchor);
	if (!strcmp(argv[1], "find") && argc == 4)
		return find(argv[3]);
	if (!strcmp(argv[1], "restore") && argc == 4)
		return restore(argv[3]);
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

	if (!strcmp(argv[1], "save") && argc == 4)
		return save(anchor, hdr, argv[3]);
	if ((!strcmp(argv[1], "getchunk") || !strcmp(argv[1], "putchunk")) &&
	    argc == 5)
		return chunk_file(anchor, hdr, argv[1][0] == 'p',
				  strtoull(argv[3], NULL, 0), argv[4]);
	if ((!strcmp(argv[1], "swap") || !strcmp(argv[1], "swapbody")) &&
	    argc == 5)
		return chunk_swap(anchor, hdr, strtoull(argv[3], NULL, 0),
				  strtoull(argv[4], NULL, 0), argv[1][4] == 'b');
	if (!strcmp(argv[1], "droplast"))
		return drop_last(anchor, hdr);
	if (!strcmp(argv[1], "swapentries")) {
		uint8_t e[8];

		memcpy(e, idx + IDX_ENTRIES, 8);
		memcpy(idx + IDX_ENTRIES, idx + IDX_ENTRIES + 8, 8);
		memcpy(idx + IDX_ENTRIES + 8, e, 8);
		seal_index(idx);
		rw_page(first_index, idx, 1);
		return 0;
	}
	if (!strcmp(argv[1], "created")) {
		put64(hdr + HDR_CREATED, get64(hdr + HDR_CREATED) + 1);
		seal_header(hdr);
		memcpy(anchor + ANCHOR_AT + 8, hdr + HDR_CRC, 4);
		rw_page(header_page, hdr, 1);
		rw_page(0, anchor, 1);
		return 0;
	}
	if (!strcmp(argv[1], "sealflip") && argc == 4) {
		unsigned long off = strtoul(argv[3], NULL, 0);

		/* struct s2_header_tpm at S2_HEADER_TPM_OFFSET, 1040 bytes. */
		if (off >= 1040) {
			fprintf(stderr, "s2img: sealflip offset past the sealed key\n");
			return 1;
		}
		hdr[1024 + off] ^= 0x01;
		rw_page(header_page, hdr, 1);
		return 0;
	}
	if (!strcmp(argv[1], "sealget") && argc == 4)
		return seal_get(hdr, argv[3]);
	if (!strcmp(argv[1], "sealput") && argc == 4)
		return seal_put(anchor, hdr, header_page, argv[3]);
	if (!strcmp(argv[1], "crypt")) {
		static const struct { const char *name; unsigned int off, len; } cf[] = {
			{ "encryption", 354, 4 }, { "key_scheme", 358, 4 },
			{ "image_id", 362, 16 }, { "key_id", 378, 8 },
			{ "eph_pub", 386, 32 }, { "wrapped_key", 418, 48 },
			{ "tpm_blob_len", 1024, 4 }, { "tpm_boot_pcrs", 1028, 4 },
			{ "index_digest", 466, 32 }, { "header_tag", 498, 16 },
		};
		unsigned int i, j;

		for (i = 0; i < sizeof(cf) / sizeof(cf[0]); i++) {
			printf("%s ", cf[i].name);
			for (j = 0; j < cf[i].len; j++)
				printf("%02x", hdr[cf[i].off + j]);
			printf("\n");
		}
		return 0;
	}
	if (!strcmp(argv[1], "mutate") && (argc == 6 || argc == 7))
		return mutate(anchor, hdr, argv[3], argv[4], argv[5]);
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
