/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A structure-aware fuzzer for the image parser of format.c, shared by the
 * KUnit suite (format_kunit.c, in the kernel, under KASAN in the fault
 * suite) and the host unit tests (tests/unit/test_format.c).
 *
 * It keeps a small valid image in memory: a device of FZ_DEV_PAGES pages
 * with the anchor on page 0, the header on page 1, FZ_DATA_PAGES data
 * pages and three chained index pages.  A parse runs the same checks, in
 * the same order, as s2_image_find() in core/image_read.c: anchor, header,
 * then the walk of the block index (at most index_pages steps, each page
 * read from where the last one's next pointed) and the overlap check.
 *
 * Two ways to damage it, with every checksum resealed afterwards so that
 * only the semantic checks stand between the image and the reader:
 *  - fz_boundary_pass(): every field of the anchor, the header, each index
 *    page and a chunk header set in turn to each boundary value (0, 1,
 *    max, 2^32 - 1, 2^32 + 1, 2^52 + 1, the device size and one more, a
 *    next pointer to its own page or back, ...).  A mutation of a field
 *    the parser checks must be refused, with a message naming the field;
 *    fields that are only reported (timings) must be accepted.
 *  - fz_random(): a seeded stream of images with 1-4 random fields set to
 *    boundary or random values.
 * Whatever the parser accepts must satisfy what the reader relies on
 * (fz_accepted_ok()): every size fits the device and memory, the index
 * covers data_pages, no entry leaves the device or lands on another part
 * of the image.
 *
 * The overlap check has cases of its own (fz_overlap_cases()), and a
 * reference: the sort it once was, which fz_overlap_random() holds its
 * verdicts to, words included, over random pages of small and huge
 * devices and maps of any size.
 *
 * The includer defines FZ_ZALLOC(size), FZ_FREE(ptr) and
 * FZ_FAIL(ctx, fmt, ...) and includes format.c first.
 */
#ifndef _SUSPEND2_FORMAT_FUZZ_H
#define _SUSPEND2_FORMAT_FUZZ_H

#define FZ_DEV_PAGES	2000ULL
#define FZ_RAM_PAGES	BIT_ULL(18)
#define FZ_IMAGE_PAGES	1200ULL
#define FZ_DATA_PAGES	(2 * S2_INDEX_ENTRIES + 100)
#define FZ_DATA_FIRST	10ULL
#define FZ_NR_INDEX	3
#define FZ_INDEX_FIRST	1500ULL

static const char * const fz_compressors[] = { "none", "lz4", NULL };

static const struct s2_kernel_id fz_kid = {
	.release = "6.12.0-fuzz",
	.version = "#1 SMP fuzz",
	.machine = "x86_64",
	.compressors = fz_compressors,
};

struct fz_image {
	struct s2_image_limits lim;	/* anchor_page, dev_pages, ram_pages */
	u8 anchor_page[PAGE_SIZE];
	u8 header_page[PAGE_SIZE];
	struct s2_index_page idx[FZ_NR_INDEX];
	u64 idx_loc[FZ_NR_INDEX];
	struct s2_chunk_header chunk;
	/* What the parse saw, for fz_accepted_ok(). */
	const struct s2_index_page *walked[FZ_DEV_PAGES];
	u64 locs[FZ_DEV_PAGES];
	unsigned long map[BITS_TO_LONGS(FZ_DEV_PAGES)];
	u32 nr_walked;
};

static const u8 fz_zero_page[PAGE_SIZE];

static struct s2_anchor *fz_anchor(struct fz_image *im)
{
	return (struct s2_anchor *)(im->anchor_page + PAGE_SIZE -
				    sizeof(struct s2_anchor));
}

static struct s2_image_header *fz_header(struct fz_image *im)
{
	return (struct s2_image_header *)im->header_page;
}

/* What reading page @page of the device gives. */
static const void *fz_read(const struct fz_image *im, u64 page)
{
	int k;

	if (page == 0)
		return im->anchor_page;
	if (page == 1)
		return im->header_page;
	for (k = 0; k < FZ_NR_INDEX; k++)
		if (page == im->idx_loc[k])
			return &im->idx[k];
	return fz_zero_page;
}

static void fz_reseal_index(struct fz_image *im, int k)
{
	struct s2_index_page *ip = &im->idx[k];

	ip->crc = cpu_to_le32(index_crc(ip));
}

/* Header checksum, and the anchor's copy of it, match the header again. */
static void fz_reseal_header(struct fz_image *im)
{
	struct s2_image_header *h = fz_header(im);

	h->header_crc = cpu_to_le32(header_crc(h));
	fz_anchor(im)->header_crc = h->header_crc;
}

static void fz_build(struct fz_image *im)
{
	struct s2_image_info info = {
		.release = fz_kid.release,
		.version = fz_kid.version,
		.machine = fz_kid.machine,
		.compressor = "none",
		.checksum = S2_CHECKSUM_CRC32C,
		.image_pages = FZ_IMAGE_PAGES,
		.data_pages = FZ_DATA_PAGES,
		.data_bytes = FZ_DATA_PAGES * PAGE_SIZE - 50,
		.nr_chunks = s2_max_chunks_for(FZ_IMAGE_PAGES),
		.first_index_page = FZ_INDEX_FIRST,
		.created_sec = 1700000000,
		.snapshot_us = 1000,
		.write_us = 50000,
		.threads = 2,
	};
	u64 d = 0;
	int k;

	memset(im->anchor_page, 0, PAGE_SIZE);
	memset(im->header_page, 0, PAGE_SIZE);
	memset(im->idx, 0, sizeof(im->idx));
	im->lim.dev_pages = FZ_DEV_PAGES;
	im->lim.ram_pages = FZ_RAM_PAGES;
	im->lim.anchor_page = 0;
	im->lim.header_page = 0;
	memcpy(fz_anchor(im)->sig, "SWAPSPACE2", S2_SIG_LEN);
	s2_header_seal(fz_header(im), &info);
	s2_anchor_set(fz_anchor(im), 1, le32_to_cpu(fz_header(im)->header_crc));
	for (k = 0; k < FZ_NR_INDEX; k++)
		im->idx_loc[k] = FZ_INDEX_FIRST + k;
	for (k = 0; k < FZ_NR_INDEX; k++) {
		u32 count = min_t(u64, S2_INDEX_ENTRIES, FZ_DATA_PAGES - d);
		u32 j;

		for (j = 0; j < count; j++, d++)
			im->idx[k].entry[j] = cpu_to_le64(FZ_DATA_FIRST + d);
		s2_index_seal(&im->idx[k],
			      k + 1 < FZ_NR_INDEX ? im->idx_loc[k + 1] : 0, count);
	}
	s2_chunk_seal(&im->chunk, 0, S2_CHUNK_BYTES, S2_CHUNK_BYTES, 0x1234,
		      NULL);
}

/*
 * The parse of core/image_read.c (s2_image_find()) over the in-memory
 * device: 0 for an image the reader would go on to load, -ENODATA for no
 * image, -EINVAL with *why.
 */
static int fz_parse(struct fz_image *im, const char **why)
{
	struct s2_image_header h;
	struct s2_index_walk iw;
	const struct s2_anchor *a;
	int error;

	*why = "";
	im->nr_walked = 0;
	a = (const void *)((const u8 *)fz_read(im, im->lim.anchor_page) +
			   PAGE_SIZE - sizeof(*a));
	if (!s2_anchor_is_image(a))
		return -ENODATA;
	error = s2_anchor_check(a, &im->lim, why);
	if (error)
		return error;
	im->lim.header_page = le64_to_cpu(a->header_page);
	memcpy(&h, fz_read(im, im->lim.header_page), sizeof(h));
	error = s2_header_check(&h, &fz_kid, &im->lim, why);
	if (error)
		return error;
	if (le32_to_cpu(h.header_crc) != le32_to_cpu(a->header_crc)) {
		*why = "anchor header_crc does not match the image header (stale image)";
		return -EINVAL;
	}
	/* The header check bounded index_pages by the device. */
	if (le32_to_cpu(h.index_pages) > FZ_DEV_PAGES) {
		*why = "FUZZ: header check let index_pages past the device";
		return -E2BIG;
	}
	s2_index_walk_start(&iw, &h, &im->lim, im->locs);
	while (iw.done < iw.nr) {
		const struct s2_index_page *ip = fz_read(im, iw.where);

		im->walked[im->nr_walked++] = ip;
		error = s2_index_walk_page(&iw, ip, why);
		if (error)
			return error;
	}
	/* The map of a device of FZ_DEV_PAGES, whatever lim says. */
	return s2_index_overlaps(&iw, im->walked, im->map,
				 min_t(u64, s2_overlap_map_bits(&im->lim),
				       FZ_DEV_PAGES), why);
}

/* What the reader relies on, for an image fz_parse() accepted. */
static const char *fz_accepted_ok(struct fz_image *im)
{
	const struct s2_image_header *h = fz_read(im, im->lim.header_page);
	u64 data_pages = le64_to_cpu(h->data_pages);
	u64 index_pages = le32_to_cpu(h->index_pages);
	u64 image_pages = le64_to_cpu(h->image_pages);
	u64 data_bytes = le64_to_cpu(h->data_bytes);
	u64 i, j;

	if (!data_pages || data_pages > im->lim.dev_pages)
		return "data_pages accepted beyond the device";
	if (data_pages + index_pages + 2 > im->lim.dev_pages)
		return "image accepted that does not fit on the device";
	if (!image_pages || image_pages > im->lim.ram_pages)
		return "image_pages accepted beyond memory";
	if (data_bytes > data_pages * PAGE_SIZE ||
	    data_bytes <= (data_pages - 1) * PAGE_SIZE)
		return "data_bytes accepted that the data pages cannot hold";
	if (index_pages != im->nr_walked ||
	    index_pages * S2_INDEX_ENTRIES < data_pages ||
	    (data_pages - 1) / S2_INDEX_ENTRIES >= index_pages)
		return "index accepted that does not cover data_pages";
	/* Every data page the reader will locate, and no page twice. */
	for (i = 0; i < data_pages; i++) {
		const struct s2_index_page *ip = im->walked[i / S2_INDEX_ENTRIES];
		u64 loc = le64_to_cpu(ip->entry[i % S2_INDEX_ENTRIES]);

		if (!loc || loc >= im->lim.dev_pages ||
		    loc == im->lim.anchor_page || loc == im->lim.header_page)
			return "data page accepted outside the device or on the anchor or header";
		for (j = 0; j < im->nr_walked; j++)
			if (loc == im->locs[j])
				return "data page accepted on an index page";
	}
	for (i = 0; i < im->nr_walked; i++)
		for (j = i + 1; j < im->nr_walked; j++)
			if (im->locs[i] == im->locs[j])
				return "index accepted that visits a page twice";
	return NULL;
}

/* A field the fuzzer mutates. */
enum fz_part { FZ_ANCHOR, FZ_HEADER, FZ_INDEX, FZ_CHUNK };

/* The parser must refuse any other value, or must accept any value. */
enum fz_kind { FZ_CHECKED, FZ_INFO };

struct fz_field {
	const char *name;
	enum fz_part part;
	size_t off, size;
	enum fz_kind kind;
	const char *names;	/* words one of which the refusal names, '|' */
};

/* Sizes as the format defines them (s2_header_layout checks offsets). */
#define FZ_H(f, size, kind, names)					\
	{ #f, FZ_HEADER, offsetof(struct s2_image_header, f), size, kind, names }
#define FZ_A(f, size, names)						\
	{ #f, FZ_ANCHOR, offsetof(struct s2_anchor, f), size, FZ_CHECKED, names }
#define FZ_I(f, off, size, names)					\
	{ f, FZ_INDEX, off, size, FZ_CHECKED, names }
#define FZ_C(f, names)							\
	{ #f, FZ_CHUNK, offsetof(struct s2_chunk_header, f), 4, FZ_CHECKED, names }

static const struct fz_field fz_fields[] = {
	FZ_A(header_page, 8, "header_page"),
	FZ_A(header_crc, 4, "header_crc"),
	FZ_A(reserved, 4, "reserved"),
	FZ_H(magic, 8, FZ_CHECKED, "magic"),
	FZ_H(format_version, 4, FZ_CHECKED, "format_version"),
	FZ_H(header_size, 4, FZ_CHECKED, "header_size"),
	FZ_H(page_size, 4, FZ_CHECKED, "page_size"),
	FZ_H(checksum, 4, FZ_CHECKED, "checksum"),
	FZ_H(release, S2_NAME_LEN, FZ_CHECKED, "release"),
	FZ_H(version, S2_NAME_LEN, FZ_CHECKED, "version"),
	FZ_H(machine, S2_NAME_LEN, FZ_CHECKED, "machine"),
	FZ_H(compressor, S2_ALGO_LEN, FZ_CHECKED, "compressor"),
	FZ_H(pad, 3, FZ_CHECKED, "pad"),
	FZ_H(image_pages, 8, FZ_CHECKED, "image_pages"),
	FZ_H(data_bytes, 8, FZ_CHECKED, "data_bytes"),
	FZ_H(data_pages, 8, FZ_CHECKED, "data_pages"),
	FZ_H(nr_chunks, 8, FZ_CHECKED, "nr_chunks"),
	FZ_H(first_index_page, 8, FZ_CHECKED, "first_index_page"),
	FZ_H(index_pages, 4, FZ_CHECKED, "index_pages"),
	FZ_H(chunk_pages, 4, FZ_CHECKED, "chunk_pages"),
	FZ_H(created_sec, 8, FZ_INFO, ""),
	FZ_H(snapshot_us, 8, FZ_INFO, ""),
	FZ_H(write_us, 8, FZ_INFO, ""),
	FZ_H(write_cpu_wait_us, 8, FZ_INFO, ""),
	FZ_H(write_io_wait_us, 8, FZ_INFO, ""),
	FZ_H(threads, 4, FZ_CHECKED, "threads"),
	FZ_H(write_crypt_us, 4, FZ_CHECKED, "write_crypt_us"),
	FZ_H(flags, 4, FZ_CHECKED, "flags"),
	FZ_H(header_crc, 4, FZ_CHECKED, "checksum"),
	FZ_I("next", 0, 8, "next"),
	FZ_I("count", 8, 4, "count"),
	FZ_I("crc", 12, 4, "checksum"),
	FZ_I("entry[0]", 16, 8, "entry"),
	FZ_I("entry[last]", 0 /* set per page */, 8, "entry"),
	FZ_C(magic, "magic"),
	FZ_C(seq, "seq"),
	FZ_C(raw_len, "raw_len|stored_len"),
	FZ_C(stored_len, "stored_len"),
	FZ_C(crc, "crc|checksum"),
	FZ_C(reserved, "reserved"),
};

#define FZ_NR_VALUES	24

/*
 * Boundary values for a field of the image of @im, index page @k: the
 * edges of every integer width, what the device and memory allow, and
 * page numbers that are parts of the image itself.
 */
static unsigned int fz_values(const struct fz_image *im, int k, u64 *v)
{
	unsigned int n = 0;

	v[n++] = 0;
	v[n++] = 1;
	v[n++] = 2;
	v[n++] = 0xffffffffULL;
	v[n++] = 0x100000000ULL;
	v[n++] = 0x100000001ULL;
	v[n++] = BIT_ULL(52) + 1;
	v[n++] = 510 * BIT_ULL(32) + 1;
	v[n++] = BIT_ULL(63);
	v[n++] = ~0ULL;
	v[n++] = ~0ULL - 1;
	v[n++] = im->lim.dev_pages - 1;
	v[n++] = im->lim.dev_pages;
	v[n++] = im->lim.dev_pages + 1;
	v[n++] = im->lim.ram_pages + 1;
	v[n++] = im->idx_loc[k];			/* next: its own page */
	v[n++] = im->idx_loc[0];			/* next: back to the first */
	v[n++] = FZ_DATA_FIRST;				/* a data page */
	v[n++] = PAGE_SIZE;
	v[n++] = S2_CHUNK_BYTES + PAGE_SIZE;
	v[n++] = S2_INDEX_ENTRIES;
	v[n++] = S2_INDEX_ENTRIES + 1;
	v[n++] = 0x8000000000000000ULL + 1;
	v[n++] = 0x7fffffffULL;
	return n;
}

static void *fz_field_ptr(struct fz_image *im, const struct fz_field *f, int k)
{
	switch (f->part) {
	case FZ_ANCHOR:
		return (u8 *)fz_anchor(im) + f->off;
	case FZ_HEADER:
		return im->header_page + f->off;
	case FZ_INDEX:
		/* The valid image's last entry: count may be mutated already. */
		if (!f->off && !strcmp(f->name, "entry[last]"))
			return &im->idx[k].entry[min_t(u64, S2_INDEX_ENTRIES,
				FZ_DATA_PAGES - k * S2_INDEX_ENTRIES) - 1];
		return (u8 *)&im->idx[k] + f->off;
	default:
		return (u8 *)&im->chunk + f->off;
	}
}

/*
 * Sets the field to @v (strings and byte arrays: to @v repeated, or, for
 * @v 0, to all zeros; 1: unterminated) and reseals every checksum but the
 * field's own when the field is a checksum.
 */
static void fz_set(struct fz_image *im, const struct fz_field *f, int k, u64 v)
{
	u8 *p = fz_field_ptr(im, f, k);

	if (f->size <= 8) {
		memcpy(p, &v, f->size);	/* little endian, as the format */
	} else if (v == 1) {
		memset(p, 'A', f->size);
	} else {
		memset(p, 0, f->size);
		if (v)
			memcpy(p, "other", 5);
	}
	switch (f->part) {
	case FZ_ANCHOR:
		break;
	case FZ_HEADER:
		if (strcmp(f->name, "header_crc")) {
			fz_reseal_header(im);
		} else {
			/* The anchor's copy follows, so only the header's is wrong. */
			fz_anchor(im)->header_crc = fz_header(im)->header_crc;
		}
		break;
	case FZ_INDEX:
		if (strcmp(f->name, "crc"))
			fz_reseal_index(im, k);
		break;
	default:
		break;
	}
}

static bool fz_names(const char *why, const char *names)
{
	char word[32];
	const char *p = names;

	while (*p) {
		size_t n = strcspn(p, "|");

		if (n >= sizeof(word))
			return false;
		memcpy(word, p, n);
		word[n] = '\0';
		if (strstr(why, word))
			return true;
		p += n + (p[n] == '|');
	}
	return false;
}

/* Is @v a value the field may legitimately hold (no refusal expected)? */
static bool fz_legal(const struct fz_image *im, const struct fz_field *f,
		     u64 v)
{
	int k;

	if (f->kind == FZ_INFO)
		return true;
	/*
	 * An entry may name any free page of the device: only the data's
	 * checksums, when the image is read, can tell it is the wrong one.
	 */
	if (f->part == FZ_INDEX && !strncmp(f->name, "entry", 5)) {
		if (!v || v >= im->lim.dev_pages || v == 1 ||
		    (v >= FZ_DATA_FIRST && v < FZ_DATA_FIRST + FZ_DATA_PAGES))
			return false;
		for (k = 0; k < FZ_NR_INDEX; k++)
			if (v == im->idx_loc[k])
				return false;
		return true;
	}
	if (f->part == FZ_HEADER && !strcmp(f->name, "flags"))
		return v <= S2_FLAG_PLATFORM;
	if (f->part == FZ_HEADER && !strcmp(f->name, "threads"))
		return v >= 1 && v <= S2_MAX_THREADS;
	/* Checked against the chunks' own checksums, when the image is read. */
	if (f->part == FZ_HEADER && !strcmp(f->name, "checksum"))
		return v <= S2_CHECKSUM_CRC32C;
	return false;
}

struct fz_stats {
	unsigned long tried;
	unsigned long refused;
	unsigned long accepted;
	unsigned long failures;
};

/*
 * One chunk header against s2_chunk_check() (chunk 0 of an uncompressed
 * image with checksums): a refusal must name the field, an acceptance
 * must leave sizes the reader's buffers hold.
 */
static const char *fz_chunk_verdict(struct fz_image *im, const char **why)
{
	u32 raw = le32_to_cpu(im->chunk.raw_len);
	u32 stored = le32_to_cpu(im->chunk.stored_len);

	*why = "";
	if (s2_chunk_check(&im->chunk, 0, false, true, false, why))
		return NULL;
	/* The pipeline's check of the stored bytes (pipeline.c). */
	if (le32_to_cpu(im->chunk.crc) != 0x1234) {
		*why = "chunk checksum mismatch (corrupt data block)";
		return NULL;
	}
	if (!raw || raw > S2_CHUNK_BYTES || raw % PAGE_SIZE || !stored ||
	    stored > raw)
		return "chunk accepted with sizes beyond the buffers";
	return NULL;
}

/*
 * Sets every field of every part in turn to every boundary value, each on
 * a fresh valid image.  Returns the failures; calls FZ_FAIL for each.
 */
static void fz_boundary_pass(void *ctx, struct fz_image *im,
			     struct fz_stats *st)
{
	u64 values[FZ_NR_VALUES];
	unsigned int fi, vi, nv;
	int k;

	for (fi = 0; fi < ARRAY_SIZE(fz_fields); fi++) {
		const struct fz_field *f = &fz_fields[fi];
		int pages = f->part == FZ_INDEX ? FZ_NR_INDEX : 1;

		for (k = 0; k < pages; k++) {
			fz_build(im);
			nv = fz_values(im, k, values);
			for (vi = 0; vi < nv; vi++) {
				u64 v = values[vi], old = 0;
				const char *why, *bad = NULL;
				bool changed;
				int error;

				fz_build(im);
				if (f->size <= 8) {
					memcpy(&old, fz_field_ptr(im, f, k), f->size);
					if (f->size < 8)
						v &= (1ULL << (8 * f->size)) - 1;
					changed = v != old;
				} else {
					changed = vi < 3;	/* zeros, unterminated, other */
				}
				if (!changed)
					continue;
				fz_set(im, f, k, v);
				st->tried++;
				if (f->part == FZ_CHUNK) {
					bad = fz_chunk_verdict(im, &why);
					error = *why ? -EINVAL : 0;
				} else {
					error = fz_parse(im, &why);
				}
				if (error)
					st->refused++;
				else
					st->accepted++;
				if (!error && !bad && f->part != FZ_CHUNK)
					bad = fz_accepted_ok(im);
				if (!bad && !error && !fz_legal(im, f, v))
					bad = "mutated image accepted";
				if (!bad && error && fz_legal(im, f, v))
					bad = "a legal value made the image refused";
				if (!bad && error == -ENODATA)
					bad = "mutated image not found at all";
				if (!bad && error && !fz_names(why, f->names))
					bad = "the refusal does not name the field";
				if (bad) {
					st->failures++;
					FZ_FAIL(ctx, "%s %s (page %d) = %#llx: %s (why: %s)",
						f->part == FZ_ANCHOR ? "anchor" :
						f->part == FZ_HEADER ? "header" :
						f->part == FZ_INDEX ? "index" : "chunk",
						f->name, k, (unsigned long long)v, bad,
						why);
				}
			}
		}
	}
}

/*
 * How many images fz_boundary_pass() must try, counted apart from its loop
 * and its statistics: for each field on each page it is on, 3 for a string
 * (zeros, unterminated, other), and for an integer every boundary value
 * but those that, cut to the field's width, are what the valid image holds
 * there already.  0 when fz_values() gives another number of values.
 */
static unsigned long fz_boundary_count(struct fz_image *im)
{
	u64 values[FZ_NR_VALUES];
	unsigned long n = 0;
	unsigned int fi, vi;
	int k, pages;

	fz_build(im);
	for (fi = 0; fi < ARRAY_SIZE(fz_fields); fi++) {
		const struct fz_field *f = &fz_fields[fi];
		u64 mask = f->size < 8 ? BIT_ULL(8 * f->size) - 1 : ~0ULL;

		pages = f->part == FZ_INDEX ? FZ_NR_INDEX : 1;
		if (f->size > 8) {
			n += 3 * pages;
			continue;
		}
		for (k = 0; k < pages; k++) {
			u64 held = 0;

			if (fz_values(im, k, values) != FZ_NR_VALUES)
				return 0;
			memcpy(&held, fz_field_ptr(im, f, k), f->size);
			for (vi = 0; vi < FZ_NR_VALUES; vi++)
				if ((values[vi] & mask) != held)
					n++;
		}
	}
	return n;
}

/* xorshift64*: a failing seed reproduces. */
static u64 fz_rand(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * @rounds images, each with 1-4 fields (not informational ones) set to a
 * boundary value, a random value or a neighbour of the valid one, and its
 * checksums resealed.  Whatever is accepted must be what the reader
 * relies on; a refusal must say something.
 */
static void fz_random(void *ctx, struct fz_image *im, u64 seed,
		      unsigned long rounds, struct fz_stats *st)
{
	u64 values[FZ_NR_VALUES];
	unsigned long r;

	for (r = 0; r < rounds; r++) {
		unsigned int m, nm = 1 + fz_rand(&seed) % 4;
		const char *why, *bad = NULL;
		int error;

		fz_build(im);
		for (m = 0; m < nm; m++) {
			const struct fz_field *f;
			int k = fz_rand(&seed) % FZ_NR_INDEX;
			unsigned int nv = fz_values(im, k, values);
			u64 v, old = 0;

			f = &fz_fields[fz_rand(&seed) % ARRAY_SIZE(fz_fields)];
			if (f->part == FZ_CHUNK || f->kind == FZ_INFO)
				continue;
			if (f->size <= 8)
				memcpy(&old, fz_field_ptr(im, f, k), f->size);
			switch (fz_rand(&seed) % 3) {
			case 0:
				v = values[fz_rand(&seed) % nv];
				break;
			case 1:
				v = fz_rand(&seed) >> (fz_rand(&seed) % 64);
				break;
			default:
				v = old + (fz_rand(&seed) % 5) - 2;
				break;
			}
			fz_set(im, f, k, v);
		}
		st->tried++;
		error = fz_parse(im, &why);
		if (error) {
			st->refused++;
			if (error == -E2BIG)
				bad = why;
			else if (error != -ENODATA && !*why)
				bad = "refused without a reason";
		} else {
			st->accepted++;
			bad = fz_accepted_ok(im);
		}
		if (bad) {
			st->failures++;
			FZ_FAIL(ctx, "random round %lu: %s (why: %s)", r, bad, why);
		}
	}
}

/*
 * The overlap check as it was: every page of the image with its kind in
 * the low two bits, sorted, the first two equal pages naming the fault.
 * fz_overlap_random() holds s2_index_overlaps() to its verdicts, words
 * included.  @keys: room for data_pages + index_pages + 2.
 */
static int fz_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int fz_overlaps_sorted(const struct s2_index_walk *iw,
			      const struct s2_index_page * const *index,
			      u64 *keys, const char **why)
{
	u64 n = 0, i, left = iw->data_pages;
	u32 k, e;

	keys[n++] = iw->lim->anchor_page << 2 | S2_AT_ANCHOR;
	keys[n++] = iw->lim->header_page << 2 | S2_AT_HEADER;
	for (i = 0; i < iw->done; i++)
		keys[n++] = iw->locs[i] << 2 | S2_AT_INDEX;
	for (k = 0; left; k++)
		for (e = 0; e < S2_INDEX_ENTRIES && left; e++, left--)
			keys[n++] = le64_to_cpu(index[k]->entry[e]) << 2 |
				    S2_AT_DATA;
	sort(keys, n, sizeof(*keys), fz_cmp_u64, NULL);
	for (i = 1; i < n; i++) {
		if (keys[i] >> 2 != keys[i - 1] >> 2)
			continue;
		switch (keys[i - 1] & 3) {
		case S2_AT_INDEX:
			if ((keys[i] & 3) == S2_AT_DATA)
				return refuse(why, "block index entry points at an index page");
			return refuse(why, S2_INDEX_LOOP);
		case S2_AT_DATA:
			return refuse(why, "block index entry lists a data page twice");
		default:
			return refuse(why, "block index points at the anchor or the image header");
		}
	}
	return 0;
}

#define FZ_OV_INDEX	3
#define FZ_OV_KEYS	(FZ_OV_INDEX * S2_INDEX_ENTRIES + FZ_OV_INDEX + 2)
#define FZ_OV_MAP_BITS	4096U

/* A walked image of random pages, for fz_overlap_random(). */
struct fz_overlap {
	struct s2_image_limits lim;
	struct s2_index_walk iw;
	struct s2_index_page idx[FZ_OV_INDEX];
	const struct s2_index_page *walked[FZ_OV_INDEX];
	u64 locs[FZ_OV_INDEX];
	u64 keys[FZ_OV_KEYS];
	unsigned long map[BITS_TO_LONGS(FZ_OV_MAP_BITS)];
};

/* Page @i of the image: anchor, header, index pages, data pages. */
static u64 fz_ov_get(const struct fz_overlap *o, u32 i)
{
	u32 j = i - 2 - (u32)o->iw.done;

	if (i < 2)
		return i ? o->lim.header_page : o->lim.anchor_page;
	if (i < 2 + o->iw.done)
		return o->locs[i - 2];
	return le64_to_cpu(o->idx[j / S2_INDEX_ENTRIES].entry[j % S2_INDEX_ENTRIES]);
}

static void fz_ov_set(struct fz_overlap *o, u32 i, u64 page)
{
	u32 j = i - 2 - (u32)o->iw.done;

	if (i == 0)
		o->lim.anchor_page = page;
	else if (i == 1)
		o->lim.header_page = page;
	else if (i < 2 + o->iw.done)
		o->locs[i - 2] = page;
	else
		o->idx[j / S2_INDEX_ENTRIES].entry[j % S2_INDEX_ENTRIES] =
			cpu_to_le64(page);
}

/*
 * 1 to 3 index pages listing random pages, or distinct ones, of a device
 * of 4 to 2^24 pages (crowded, or spread over many windows of the map),
 * half the time 1 to 3 of them then copied over others; the map 1 to
 * FZ_OV_MAP_BITS bits.  Returns them.
 */
static unsigned int fz_ov_build(struct fz_overlap *o, u64 *seed)
{
	u32 nr = 1 + (u32)fz_rand(seed) % FZ_OV_INDEX;
	u32 data = (nr - 1) * S2_INDEX_ENTRIES + 1 +
		   (u32)fz_rand(seed) % S2_INDEX_ENTRIES;
	u32 shift = 8 + (u32)fz_rand(seed) % 24;
	u32 dev = 4 + ((u32)fz_rand(seed) >> shift), i, n, dups;

	memset(o, 0, sizeof(*o));
	o->lim.dev_pages = dev;
	o->iw.lim = &o->lim;
	o->iw.data_pages = data;
	o->iw.nr = nr;
	o->iw.done = nr;
	o->iw.locs = o->locs;
	for (i = 0; i < nr; i++)
		o->walked[i] = &o->idx[i];
	n = 2 + nr + data;
	if (fz_rand(seed) & 1) {
		/* Any pages: a crowded device has many twice. */
		for (i = 0; i < n; i++)
			fz_ov_set(o, i, (u32)fz_rand(seed) % dev);
	} else {
		/* Distinct pages, shuffled. */
		u32 first = (u32)fz_rand(seed);

		dev = max_t(u32, dev, n);
		o->lim.dev_pages = dev;
		for (i = 0; i < n; i++)
			fz_ov_set(o, i, (first + i) % dev);
		for (i = n - 1; i; i--) {
			u32 j = (u32)fz_rand(seed) % (i + 1);
			u64 t = fz_ov_get(o, i);

			fz_ov_set(o, i, fz_ov_get(o, j));
			fz_ov_set(o, j, t);
		}
	}
	for (dups = fz_rand(seed) & 1 ? 0 : 1 + (u32)fz_rand(seed) % 3; dups;
	     dups--)
		fz_ov_set(o, (u32)fz_rand(seed) % n,
			  fz_ov_get(o, (u32)fz_rand(seed) % n));
	return 1 + (u32)fz_rand(seed) % min_t(u32, dev, FZ_OV_MAP_BITS);
}

/*
 * @rounds random images through both checks: the same verdict, and the
 * same words, from the map as from the sort.
 */
static void fz_overlap_random(void *ctx, struct fz_overlap *o, u64 seed,
			      unsigned long rounds, struct fz_stats *st)
{
	unsigned long r;

	for (r = 0; r < rounds; r++) {
		unsigned int bits = fz_ov_build(o, &seed);
		const char *want = "", *got = "";
		int sorted, mapped;

		sorted = fz_overlaps_sorted(&o->iw, o->walked, o->keys, &want);
		mapped = s2_index_overlaps(&o->iw, o->walked, o->map, bits,
					   &got);
		st->tried++;
		if (mapped)
			st->refused++;
		else
			st->accepted++;
		if (sorted != mapped || (sorted && strcmp(want, got))) {
			st->failures++;
			FZ_FAIL(ctx, "overlaps %lu (%llu pages, %u bits): %d %s; sort: %d %s",
				r, (unsigned long long)o->lim.dev_pages, bits,
				mapped, got, sorted, want);
		}
	}
}

/* One verdict against what was wanted; 1 on a failure. */
static unsigned int fz_expect(void *ctx, const char *what, int error,
			      const char * const *why, int want,
			      const char *words)
{
	if (error == want && (!want || strstr(*why, words)))
		return 0;
	FZ_FAIL(ctx, "overlap case \"%s\": %d \"%s\", wanted %d \"%s\"",
		what, error, error ? *why : "", want, want ? words : "");
	return 1;
}

/* Moves the index of fz_build()'s image to pages @first on. */
static void fz_move_index(struct fz_image *im, u64 first)
{
	int k;

	for (k = 0; k < FZ_NR_INDEX; k++)
		im->idx_loc[k] = first + k;
	for (k = 0; k < FZ_NR_INDEX; k++) {
		im->idx[k].next = cpu_to_le64(k + 1 < FZ_NR_INDEX ?
					      im->idx_loc[k + 1] : 0);
		fz_reseal_index(im, k);
	}
	fz_header(im)->first_index_page = cpu_to_le64(first);
	fz_reseal_header(im);
}

static void fz_set_entry(struct fz_image *im, int k, u32 e, u64 page)
{
	im->idx[k].entry[e] = cpu_to_le64(page);
	fz_reseal_index(im, k);
}

/* The last entry of fz_build()'s image, on index page FZ_NR_INDEX - 1. */
#define FZ_LAST_ENTRY	(FZ_DATA_PAGES - (FZ_NR_INDEX - 1) * S2_INDEX_ENTRIES - 1)

/*
 * The overlap check's cases, through the whole parse of fz_parse() and
 * straight on a walk made by hand: a page listed twice, an entry on an
 * index page, the lowest of two faults named (whatever kind comes first
 * in the image), an entry on the device's last page and one past it, and
 * a device of 2^40 pages, far more than the map covers at once.  Returns
 * the failures; calls FZ_FAIL for each.
 */
static unsigned int fz_overlap_cases(void *ctx, struct fz_image *im,
				     struct fz_overlap *o)
{
	const u64 huge = 1ULL << 40;
	unsigned int bad = 0, bits;
	const char *why = "";
	u32 i;

	fz_build(im);
	fz_set_entry(im, 1, 5, le64_to_cpu(im->idx[0].entry[3]));
	bad += fz_expect(ctx, "data page twice", fz_parse(im, &why), &why,
			 -EINVAL, "lists a data page twice");
	fz_build(im);
	fz_set_entry(im, 2, 0, im->idx_loc[1]);
	bad += fz_expect(ctx, "entry on an index page", fz_parse(im, &why),
			 &why, -EINVAL, "points at an index page");
	/* Page 20 twice, and an entry on page 1500: 20 is named. */
	fz_build(im);
	fz_set_entry(im, 0, 9, FZ_DATA_FIRST + 10);
	fz_set_entry(im, 1, 0, im->idx_loc[0]);
	bad += fz_expect(ctx, "data twice below an index page",
			 fz_parse(im, &why), &why, -EINVAL,
			 "lists a data page twice");
	/* Page 1700 twice, after the entry on page 1500 in the sort. */
	fz_build(im);
	fz_set_entry(im, 0, 0, 1700);
	fz_set_entry(im, 2, 0, 1700);
	fz_set_entry(im, 1, 0, im->idx_loc[0]);
	bad += fz_expect(ctx, "index page below data twice",
			 fz_parse(im, &why), &why, -EINVAL,
			 "points at an index page");
	fz_build(im);
	fz_set_entry(im, FZ_NR_INDEX - 1, FZ_LAST_ENTRY, FZ_DEV_PAGES - 1);
	bad += fz_expect(ctx, "entry on the last page", fz_parse(im, &why),
			 &why, 0, "");
	fz_set_entry(im, FZ_NR_INDEX - 1, FZ_LAST_ENTRY, FZ_DEV_PAGES);
	bad += fz_expect(ctx, "entry past the device", fz_parse(im, &why),
			 &why, -EINVAL, "outside the device");
	/* The index and the last entries at the end of 2^40 pages. */
	fz_build(im);
	im->lim.dev_pages = huge;
	fz_move_index(im, huge - FZ_NR_INDEX);
	for (i = 0; i < 8; i++)
		fz_set_entry(im, FZ_NR_INDEX - 1, FZ_LAST_ENTRY - i,
			     huge - FZ_NR_INDEX - 1 - i);
	bad += fz_expect(ctx, "huge device", fz_parse(im, &why), &why, 0, "");
	fz_set_entry(im, 1, 0, huge - FZ_NR_INDEX - 1);
	bad += fz_expect(ctx, "huge device, a page twice at its end",
			 fz_parse(im, &why), &why, -EINVAL,
			 "lists a data page twice");
	fz_build(im);

	/* By hand: one index page of 10 entries on a device of 100 pages. */
	memset(o, 0, sizeof(*o));
	o->lim.dev_pages = 100;
	o->lim.header_page = 1;
	o->iw.lim = &o->lim;
	o->iw.data_pages = 10;
	o->iw.nr = 1;
	o->iw.done = 1;
	o->iw.locs = o->locs;
	o->locs[0] = 2;
	o->walked[0] = &o->idx[0];
	for (i = 0; i < 10; i++)
		fz_ov_set(o, 3 + i, 10 + i);
	bits = s2_overlap_map_bits(&o->lim);
	bad += fz_expect(ctx, "by hand", s2_index_overlaps(&o->iw, o->walked,
			 o->map, bits, &why), &why, 0, "");
	fz_ov_set(o, 12, 99);
	bad += fz_expect(ctx, "by hand, the last page",
			 s2_index_overlaps(&o->iw, o->walked, o->map, bits,
					   &why), &why, 0, "");
	fz_ov_set(o, 12, 100);
	bad += fz_expect(ctx, "by hand, past the device",
			 s2_index_overlaps(&o->iw, o->walked, o->map, bits,
					   &why), &why, -EINVAL,
			 "block index entry points outside the device");
	o->locs[0] = 100;
	bad += fz_expect(ctx, "by hand, an index page past the device",
			 s2_index_overlaps(&o->iw, o->walked, o->map, bits,
					   &why), &why, -EINVAL,
			 "index page next points outside the device");
	/* 2^40 pages: the map stays bounded, one window of one bit too. */
	o->locs[0] = 2;
	o->lim.dev_pages = huge;
	fz_ov_set(o, 12, huge - 1);
	if (s2_overlap_map_bits(&o->lim) != S2_OVERLAP_MAP_BITS) {
		FZ_FAIL(ctx, "map of %u bits for 2^40 pages",
			s2_overlap_map_bits(&o->lim));
		bad++;
	}
	for (bits = 1; bits <= FZ_OV_MAP_BITS; bits *= 64) {
		fz_ov_set(o, 11, 18);
		bad += fz_expect(ctx, "by hand, 2^40 pages",
				 s2_index_overlaps(&o->iw, o->walked, o->map,
						   bits, &why), &why, 0, "");
		fz_ov_set(o, 11, huge - 1);
		bad += fz_expect(ctx, "by hand, 2^40 pages, its last twice",
				 s2_index_overlaps(&o->iw, o->walked, o->map,
						   bits, &why), &why, -EINVAL,
				 "lists a data page twice");
	}
	return bad;
}

#endif /* _SUSPEND2_FORMAT_FUZZ_H */
