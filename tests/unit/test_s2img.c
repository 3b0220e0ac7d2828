// SPDX-License-Identifier: GPL-2.0
/*
 * The guest tool's mutator (tests/vm/tools/s2img.c) against the parser
 * (kernel/suspend2/image/format.c, built with tests/unit/kshim): a valid
 * image file is written with format.c's own sealing functions, then every
 * mutation of "s2img list" is applied by the real s2img and the image run
 * through the checks of the resume path (s2_image_find(), and a model of
 * s2_image_load()'s stream checks).  Each must be refused naming the field
 * the plan says, as f-hostile checks in the VM with the real kernel.
 */
#include "../../kernel/suspend2/image/format.c"

#define main s2img_main
#include "../vm/tools/s2img.c"
#undef main

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

#define IMG_DEV_PAGES	4096
#define IMG_PAGES	2000ULL
#define IMG_FIRST_DATA	100

static const char * const img_compressors[] = { "none", "lz4", NULL };
static const struct s2_kernel_id img_kid = {
	.release = "6.12.0-host", .version = "#1 host", .machine = "x86_64",
	.compressors = img_compressors,
};

static int img_fd;
static u64 img_pages[8192], img_np, img_next = IMG_FIRST_DATA, img_bytes;
static u8 img_pg[PAGE];
static size_t img_fill;

static void img_write(u64 page, const void *buf)
{
	assert_int_equal(pwrite(img_fd, buf, PAGE, page * PAGE), PAGE);
}

static void img_flush(void)
{
	img_write(img_next, img_pg);
	img_pages[img_np++] = img_next++;
	memset(img_pg, 0, PAGE);
	img_fill = 0;
}

static void img_put(const void *d, size_t n)
{
	const u8 *p = d;

	img_bytes += n;
	while (n) {
		size_t k = PAGE - img_fill < n ? PAGE - img_fill : n;

		memcpy(img_pg + img_fill, p, k);
		img_fill += k;
		p += k;
		n -= k;
		if (img_fill == PAGE)
			img_flush();
	}
}

/* As core/image_write.c lays an uncompressed image out, with checksums. */
static void make_image(const char *path)
{
	static u8 raw[S2_CHUNK_BYTES], anchor[PAGE], hdr[PAGE];
	static struct s2_index_page ip;
	struct s2_image_info info = {
		.release = img_kid.release, .version = img_kid.version,
		.machine = img_kid.machine, .compressor = "none",
		.checksum = S2_CHECKSUM_CRC32C, .image_pages = IMG_PAGES,
		.threads = 4,
	};
	u64 done = 0, nr = 0, nidx, first, i, j, hp;

	img_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(img_fd >= 0);
	assert_int_equal(ftruncate(img_fd, (off_t)IMG_DEV_PAGES * PAGE), 0);
	while (done < IMG_PAGES) {
		u32 n = IMG_PAGES - done < 32 ? IMG_PAGES - done : 32;
		struct s2_chunk_header ch;

		for (i = 0; i < n * PAGE; i++)
			raw[i] = (u8)(i * 7 + nr);
		s2_chunk_seal(&ch, nr, n * PAGE, n * PAGE, s2_crc32c(raw, n * PAGE),
			      NULL);
		img_put(&ch, sizeof(ch));
		img_put(raw, n * PAGE);
		done += n;
		nr++;
	}
	if (img_fill)
		img_flush();
	nidx = s2_index_pages_for(img_np);
	first = img_next;
	for (i = 0; i < nidx; i++) {
		u32 c = 0;

		memset(&ip, 0, sizeof(ip));
		for (j = i * S2_INDEX_ENTRIES; j < img_np && c < S2_INDEX_ENTRIES; j++)
			ip.entry[c++] = img_pages[j];
		s2_index_seal(&ip, i + 1 < nidx ? first + i + 1 : 0, c);
		img_write(first + i, &ip);
	}
	hp = first + nidx;
	info.data_bytes = img_bytes;
	info.data_pages = img_np;
	info.nr_chunks = nr;
	info.first_index_page = first;
	s2_header_seal((void *)hdr, &info);
	img_write(hp, hdr);
	memcpy(anchor + PAGE - 10, "SWAPSPACE2", 10);
	s2_anchor_set((void *)(anchor + PAGE - sizeof(struct s2_anchor)), hp,
		      le32_to_cpu(((struct s2_image_header *)hdr)->header_crc));
	img_write(0, anchor);
	close(img_fd);
}

static void rd(int f, u64 page, void *buf)
{
	assert_int_equal(pread(f, buf, PAGE, page * PAGE), PAGE);
}

/*
 * The checks of core/image_read.c over the image file: 0 to restore,
 * -ENODATA for none, else -EINVAL with *why.
 */
static int sim_resume(const char *path, const char **why)
{
	static struct s2_index_page idx[64];
	static const struct s2_index_page *walked[64];
	static u64 locs[IMG_DEV_PAGES];
	static unsigned long map[BITS_TO_LONGS(IMG_DEV_PAGES)];
	static u8 a[PAGE], hp[PAGE], page[PAGE], stored[S2_CHUNK_BYTES];
	struct s2_image_limits lim = { IMG_DEV_PAGES, 1 << 20, 0, 0 };
	const struct s2_anchor *an = (void *)(a + PAGE - sizeof(*an));
	u64 left, pos = 0, pages = 0, pgno = ~0ULL, s;
	struct s2_image_header h;
	struct s2_index_walk iw;
	int f = open(path, O_RDONLY), e;

	assert_true(f >= 0);
	*why = "";
	rd(f, 0, a);
	e = -ENODATA;
	if (!s2_anchor_is_image(an))
		goto out;
	e = s2_anchor_check(an, &lim, why);
	if (e)
		goto out;
	lim.header_page = le64_to_cpu(an->header_page);
	rd(f, lim.header_page, hp);
	memcpy(&h, hp, sizeof(h));
	e = s2_header_check(&h, &img_kid, &lim, why);
	if (!e && h.header_crc != an->header_crc) {
		*why = "anchor header_crc does not match the image header";
		e = -EINVAL;
	}
	if (e)
		goto out;
	assert_true(le32_to_cpu(h.index_pages) <= 64);
	s2_index_walk_start(&iw, &h, &lim, locs);
	while (iw.done < iw.nr) {
		rd(f, iw.where, &idx[iw.done]);
		walked[iw.done] = &idx[iw.done];
		e = s2_index_walk_page(&iw, &idx[iw.done], why);
		if (e)
			goto out;
	}
	e = s2_index_overlaps(&iw, walked, map, IMG_DEV_PAGES, why);
	if (e)
		goto out;
	/* s2_image_load(): the chunks, in order, from data_bytes of stream. */
	e = -EINVAL;
	left = le64_to_cpu(h.data_bytes);
	for (s = 0; s < le64_to_cpu(h.nr_chunks); s++) {
		struct s2_chunk_header ch;
		u8 *dst[2] = { (u8 *)&ch, stored };
		size_t len[2] = { sizeof(ch), 0 };
		int part;

		for (part = 0; part < 2; part++) {
			size_t l = len[part];
			u8 *d = dst[part];

			if (l > left) {
				*why = "data stream ends early (truncated image, or data_bytes too small)";
				goto out;
			}
			left -= l;
			while (l) {
				u64 pn = pos / PAGE;
				size_t in = pos % PAGE, k = PAGE - in < l ? PAGE - in : l;

				if (pn != pgno) {
					rd(f, le64_to_cpu(walked[pn / S2_INDEX_ENTRIES]->entry[pn % S2_INDEX_ENTRIES]), page);
					pgno = pn;
				}
				memcpy(d, page + in, k);
				d += k;
				l -= k;
				pos += k;
			}
			if (part == 0) {
				if (s2_chunk_check(&ch, s, strcmp(h.compressor, "none"),
						   h.checksum == S2_CHECKSUM_CRC32C,
						   s2_header_encrypted(&h), why))
					goto out;
				len[1] = le32_to_cpu(ch.stored_len);
			}
		}
		if (h.checksum == S2_CHECKSUM_CRC32C &&
		    s2_crc32c(stored, ch.stored_len) != ch.crc) {
			*why = "chunk checksum mismatch (corrupt data block)";
			goto out;
		}
		if (pages + ch.raw_len / PAGE > le64_to_cpu(h.image_pages)) {
			*why = "chunks hold more pages than the header's image_pages";
			goto out;
		}
		pages += ch.raw_len / PAGE;
	}
	if (pages != le64_to_cpu(h.image_pages)) {
		*why = "chunks hold fewer pages than the header's image_pages";
		goto out;
	}
	if (left) {
		*why = "data stream goes on after the last chunk (data_bytes too large)";
		goto out;
	}
	e = 0;
out:
	close(f);
	return e;
}

static bool names(const char *why, const char *words)
{
	char w[64], *p, *save;

	snprintf(w, sizeof(w), "%s", words);
	for (p = strtok_r(w, "|", &save); p; p = strtok_r(NULL, "|", &save))
		if (strstr(why, p))
			return true;
	return false;
}

static int run_s2img(int argc, char **argv)
{
	int rc;

	fflush(stdout);
	rc = s2img_main(argc, argv);
	if (fd >= 0)
		close(fd);
	fd = -1;
	return rc;
}

static void every_mutation_refused(void **state)
{
	char img[] = "/var/tmp/s2img-test-XXXXXX", pristine[64];
	unsigned int tried = 0, skipped = 0, bad = 0;
	const char *why;
	int i, t;

	(void)state;
	t = mkstemp(img);
	assert_true(t >= 0);
	close(t);
	snprintf(pristine, sizeof(pristine), "%s.pristine", img);
	make_image(img);
	/* The pristine image is one the resume path would restore. */
	assert_int_equal(sim_resume(img, &why), 0);
	assert_int_equal(run_s2img(4, (char *[]){ "s2img", "save", img, pristine, NULL }), 0);
	for (i = 0; plan[i]; i++) {
		char part[16], field[32], values[256], words[64], *v, *sv;

		assert_int_equal(sscanf(plan[i], "%15s %31s %255s %63s", part,
					field, values, words), 4);
		for (v = strtok_r(values, ",", &sv); v; v = strtok_r(NULL, ",", &sv)) {
			int rc, e;

			assert_int_equal(run_s2img(4, (char *[]){ "s2img", "restore", img, pristine, NULL }), 0);
			rc = run_s2img(6, (char *[]){ "s2img", "mutate", img, part, field, v, NULL });
			if (rc == 3) {
				skipped++;
				continue;
			}
			assert_int_equal(rc, 0);
			tried++;
			e = sim_resume(img, &why);
			if (e != -EINVAL || !names(why, words)) {
				bad++;
				printf("NOT REFUSED BY NAME: %s %s %s (want %s): %d %s\n",
				       part, field, v, words, e, why);
			}
		}
	}
	assert_int_equal(run_s2img(4, (char *[]){ "s2img", "restore", img, pristine, NULL }), 0);
	assert_int_equal(sim_resume(img, &why), 0);
	printf("s2img mutations: %u tried, %u refused naming the field, %u skipped\n",
	       tried, tried - bad, skipped);
	unlink(img);
	unlink(pristine);
	assert_true(tried > 100);
	assert_int_equal(bad, 0);
}

static void write_file(const char *path, const u8 *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/*
 * sealput (s2-tpm's forgery with tpm2-tools): the blob lands in struct
 * s2_header_tpm with zeros after it, its length set, the area's digest
 * in the header and every crc made right, so the resume path finds the
 * header whole; sealget reads it back.  A blob longer than the area is
 * refused with nothing written, and only the header and anchor pages
 * change.
 */
static void sealput_reseals(void **state)
{
	char img[] = "/var/tmp/s2img-seal-XXXXXX", blob[64], back[64], big[64];
	static u8 before[IMG_DEV_PAGES * PAGE], after[sizeof(before)];
	static u8 buf[S2_TPM_BLOB_MAX + 1], hp[PAGE], a[PAGE];
	u8 digest[S2_DIGEST_LEN];
	const struct s2_image_header *h = (const void *)hp;
	const struct s2_header_tpm *t = (const void *)(hp + S2_HEADER_TPM_OFFSET);
	const struct s2_anchor *an;
	const char *why;
	size_t len, i, hpage;
	FILE *f;
	int rfd;

	(void)state;
	rfd = mkstemp(img);
	assert_true(rfd >= 0);
	close(rfd);
	snprintf(blob, sizeof(blob), "%s.blob", img);
	snprintf(back, sizeof(back), "%s.back", img);
	snprintf(big, sizeof(big), "%s.big", img);
	/* make_image() lays out after what it laid out last. */
	img_np = 0;
	img_next = IMG_FIRST_DATA;
	img_bytes = 0;
	img_fill = 0;
	make_image(img);
	assert_int_equal(sim_resume(img, &why), 0);
	assert_int_equal(run_s2img(4, (char *[]){ "s2img", "sealget", img, back, NULL }), 1);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)(i * 13 + 1);
	write_file(big, buf, S2_TPM_BLOB_MAX + 1);
	for (len = 435; len <= S2_TPM_BLOB_MAX; len += S2_TPM_BLOB_MAX - 435) {
		rfd = open(img, O_RDONLY);
		assert_int_equal(pread(rfd, before, sizeof(before), 0),
				 sizeof(before));
		close(rfd);
		assert_int_equal(run_s2img(4, (char *[]){ "s2img", "sealput", img, big, NULL }), 1);
		rfd = open(img, O_RDONLY);
		assert_int_equal(pread(rfd, after, sizeof(after), 0),
				 sizeof(after));
		assert_memory_equal(before, after, sizeof(before));

		write_file(blob, buf, len);
		assert_int_equal(run_s2img(4, (char *[]){ "s2img", "sealput", img, blob, NULL }), 0);
		/*
		 * This image is unencrypted, so a tpm_digest is refused, but
		 * only once the anchor and the header crc have passed.
		 */
		assert_int_equal(sim_resume(img, &why), -EINVAL);
		assert_string_equal(why, "image header crypt fields set in an unencrypted image");
		rd(rfd, 0, a);
		an = (const void *)(a + PAGE - sizeof(*an));
		hpage = le64_to_cpu(an->header_page);
		rd(rfd, hpage, hp);
		assert_int_equal(le32_to_cpu(h->header_crc), header_crc(h));
		assert_int_equal(an->header_crc, h->header_crc);
		assert_int_equal(pread(rfd, after, sizeof(after), 0),
				 sizeof(after));
		close(rfd);
		/* Nothing but the anchor and header pages changed. */
		for (i = 0; i < sizeof(before) / PAGE; i++)
			if (i && i != hpage)
				assert_memory_equal(before + i * PAGE,
						    after + i * PAGE, PAGE);
		assert_int_equal(le32_to_cpu(t->blob_len), len);
		assert_memory_equal(t->blob, buf, len);
		for (i = len; i < S2_TPM_BLOB_MAX; i++)
			assert_int_equal(t->blob[i], 0);
		crypto_hash_sha256(digest, (const u8 *)t, sizeof(*t));
		assert_memory_equal(h->crypt.tpm_digest, digest, sizeof(digest));

		assert_int_equal(run_s2img(4, (char *[]){ "s2img", "sealget", img, back, NULL }), 0);
		f = fopen(back, "r");
		assert_non_null(f);
		assert_int_equal(fread(after, 1, sizeof(after), f), len);
		fclose(f);
		assert_memory_equal(after, buf, len);
	}
	unlink(img);
	unlink(blob);
	unlink(back);
	unlink(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_mutation_refused),
		cmocka_unit_test(sealput_reseals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
