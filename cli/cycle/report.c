// SPDX-License-Identifier: GPL-2.0
/*
 * Reports.  Text is for people reading a console after resume; JSON is
 * one object on stdout so scripts can parse it with jq.  Missing result
 * attributes read as empty or 0 so an older module still gets a report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cycle/report.h"
#include "lib/common.h"
#include "lib/json.h"
#include "lib/plan.h"
#include "lib/strutil.h"

#define PH_NAME(id, name, title) #name,
const char *const phase_names[PH_NR] = { S2_PHASES(PH_NAME) };

#define PH_TITLE(id, name, title) title,
static const char *const phase_titles[PH_NR] = { S2_PHASES(PH_TITLE) };

static void read_str(const struct cfs *c, const char *name, char *buf,
		     size_t len)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "results/%s", name);
	if (cfs_read(c, rel, buf, len))
		buf[0] = '\0';
	/* Cut at LEN - 1 bytes: end on a character boundary. */
	if (strlen(buf) == len - 1)
		utf8_cut_partial(buf);
}

static uint64_t read_u64(const struct cfs *c, const char *name)
{
	char buf[32];
	uint64_t v;

	read_str(c, name, buf, sizeof(buf));
	return parse_u64(str_trim(buf), &v) ? 0 : v;
}

/* Each results attribute (names.h) into its field, by how it is written. */
#define READ_text(name) read_str(c, #name, r->name, sizeof(r->name));
#define READ_name READ_text
#define READ_own READ_text
#define READ_loads READ_text
#define READ_u64(name) r->name = read_u64(c, #name);
#define READ_u32 READ_u64
#define READ_yesno(name) \
	read_str(c, #name, buf, sizeof(buf)); \
	r->name = !strcmp(buf, "yes");
#define READ(name, kind) READ_##kind(name)

int results_read(const struct cfs *c, struct results *r)
{
	char buf[16], name[32];
	int i;

	memset(r, 0, sizeof(*r));
	if (!cfs_exists(c, "results"))
		return -ENOENT;
	S2_RESULTS_HEAD(READ)
	for (i = 0; i < PH_NR; i++) {
		snprintf(name, sizeof(name), "time_%s_us", phase_names[i]);
		r->time_us[i] = read_u64(c, name);
	}
	S2_RESULTS_TAIL(READ)
	/* The image pipeline's figures; a module without them reports none. */
	r->has_pipeline = cfs_exists(c, "results/threads");
	r->has_crypt_time = cfs_exists(c, "results/write_crypt_us");
	return 0;
}

static double ratio(const struct results *r)
{
	return r->bytes_written ? (double)r->bytes_raw / r->bytes_written : 0;
}

/* A count in thousandths, for "%llu.%03llu": its whole and its part. */
#define THOUSANDTHS(n) \
	(unsigned long long)((n) / 1000), (unsigned long long)((n) % 1000)

static void print_ms(FILE *out, const char *title, uint64_t us)
{
	hib_print(out, "  %-24s %10llu.%03llu ms\n", title, THOUSANDTHS(us));
}

/* What follows the AEAD on the encryption line: the key, for tpm. */
static const char *key_text(const struct results *r)
{
	return r->key_tpm && strcmp(r->encryption, "none") ?
	       ", key sealed to the TPM" : "";
}

void report_text(FILE *out, const struct results *r)
{
	int i;

	hib_print(out, "hibernate: profile '%s': %s\n",
		  *r->profile ? r->profile : "-", *r->status ? r->status : "-");
	if (*r->error)
		hib_print(out, "  %-24s %s\n", "error", r->error);
	hib_print(out, "  %-24s %10llu.%03llu s\n", "time offline",
		  THOUSANDTHS(r->offline_ms));
	if (!strcmp(r->woke_from, "ram"))
		hib_print(out, "  %-24s RAM, after %llu.%03llu s asleep (the image on disk is invalidated)\n",
			  "came back from", THOUSANDTHS(r->ram_sleep_ms));
	else if (*r->woke_from)
		hib_print(out, "  %-24s %s\n", "came back from", r->woke_from);
	for (i = 0; i < PH_NR; i++)
		/*
		 * Only a suspend to both has a RAM half, and only a resume
		 * from disk a restore; the module leaves the restore 0 when
		 * its clock went back across it, which is no measure either.
		 */
		if ((i != PH_RAM && i != PH_RESTORE) || r->time_us[i])
			print_ms(out, phase_titles[i], r->time_us[i]);
	hib_print(out, "  %-24s %llu pages\n", "image",
		  (unsigned long long)r->image_pages);
	hib_print(out, "  %-24s %llu KiB raw, %llu KiB written (ratio %.2f)\n",
		  "image size", (unsigned long long)(r->bytes_raw / 1024),
		  (unsigned long long)(r->bytes_written / 1024), ratio(r));
	hib_print(out, "  %-24s %s (writer %s, checksum %s)\n",
		  "compressor", *r->compressor ? r->compressor : "-",
		  *r->writer ? r->writer : "-",
		  *r->checksum ? r->checksum : "-");
	if (*r->encryption && strcmp(r->encryption, "none") &&
	    r->has_crypt_time)
		hib_print(out, "  %-24s %s, %llu.%03llu ms sealing, %llu.%03llu ms opening (worker threads' time)%s\n",
			  "encryption", r->encryption,
			  THOUSANDTHS(r->write_crypt_us),
			  THOUSANDTHS(r->read_crypt_us),
			  key_text(r));
	else if (*r->encryption)
		hib_print(out, "  %-24s %s%s\n", "encryption", r->encryption,
			  key_text(r));
	hib_print(out, "  %-24s write %llu KiB/s, read %llu KiB/s\n",
		  "throughput", (unsigned long long)r->write_kbps,
		  (unsigned long long)r->read_kbps);
	if (r->has_pipeline) {
		hib_print(out, "  %-24s %llu threads, %llu KiB of buffers\n",
			  "pipeline", (unsigned long long)r->threads,
			  (unsigned long long)(r->pipeline_bytes / 1024));
		hib_print(out, "  %-24s %llu.%03llu ms for compression, %llu.%03llu ms for the device\n",
			  "writing waited",
			  THOUSANDTHS(r->write_cpu_wait_us),
			  THOUSANDTHS(r->write_io_wait_us));
		hib_print(out, "  %-24s %llu.%03llu ms for decompression, %llu.%03llu ms for the device\n",
			  "reading waited",
			  THOUSANDTHS(r->read_cpu_wait_us),
			  THOUSANDTHS(r->read_io_wait_us));
	}
	/* Only a resume hands the pages to the snapshot code. */
	if (r->read_feed_us)
		hib_print(out, "  %-24s %llu.%03llu ms, of which %llu.%03llu ms preparing the restore\n",
			  "snapshot code (read)",
			  THOUSANDTHS(r->read_feed_us),
			  THOUSANDTHS(r->read_prepare_us));
	hib_print(out, "  %-24s %s\n", "verified", r->verified ? "yes" : "no");
	hib_print(out, "  %-24s %s\n", "load average saved",
		  *r->avenrun_saved ? r->avenrun_saved : "-");
	hib_print(out, "  %-24s %s\n", "load average at thaw",
		  *r->avenrun_thaw ? r->avenrun_thaw : "-");
	hib_print(out, "  %-24s %s\n", "load average restored",
		  *r->avenrun_restored ? r->avenrun_restored : "-");
	if (*r->refused_tasks) {
		char tmp[sizeof(r->refused_tasks)], *l, *save = NULL;

		snprintf(tmp, sizeof(tmp), "%s", r->refused_tasks);
		for (l = strtok_r(tmp, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save))
			hib_print(out, "  %-24s %s\n", "refused to freeze", l);
	}
}

static bool is_json_number(const char *s)
{
	const char *p = s;

	if (!(*p >= '0' && *p <= '9'))
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return !*p;
}

/* "0.52 0.31 0.12" -> [0.52, 0.31, 0.12]; anything odd stays a string. */
static void json_loadavg(FILE *out, const char *s)
{
	char tmp[64], *w, *save = NULL;
	bool first = true;

	snprintf(tmp, sizeof(tmp), "%s", s);
	for (w = strtok_r(tmp, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		if (!is_json_number(w) || strlen(w) > 12)
			break;
	if (w || !*s) {
		if (*s)
			json_string(out, s);
		else
			fputs("null", out);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s", s);
	fputc('[', out);
	for (w = strtok_r(tmp, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		fprintf(out, "%s%s", first ? "" : ", ", w);
		first = false;
	}
	fputc(']', out);
}

static void json_results_body(FILE *out, const struct results *r,
			      const char *ind)
{
	int i;

	fprintf(out, "%s\"profile\": ", ind);
	json_string(out, r->profile);
	fprintf(out, ",\n%s\"status\": ", ind);
	json_string(out, r->status);
	fprintf(out, ",\n%s\"error\": ", ind);
	json_string(out, r->error);
	fprintf(out, ",\n%s\"writer\": ", ind);
	json_string(out, r->writer);
	fprintf(out, ",\n%s\"compressor\": ", ind);
	json_string(out, r->compressor);
	fprintf(out, ",\n%s\"checksum\": ", ind);
	json_string(out, r->checksum);
	fprintf(out, ",\n%s\"encryption\": ", ind);
	json_string(out, r->encryption);
	if (r->has_crypt_time)
		fprintf(out, ",\n%s\"crypt_us\": {\"write\": %llu, \"read\": %llu}",
			ind, (unsigned long long)r->write_crypt_us,
			(unsigned long long)r->read_crypt_us);
	fprintf(out, ",\n%s\"read_feed_us\": %llu", ind,
		(unsigned long long)r->read_feed_us);
	fprintf(out, ",\n%s\"read_prepare_us\": %llu", ind,
		(unsigned long long)r->read_prepare_us);
	fprintf(out, ",\n%s\"offline_ms\": %llu", ind,
		(unsigned long long)r->offline_ms);
	fprintf(out, ",\n%s\"woke_from\": ", ind);
	if (*r->woke_from)
		json_string(out, r->woke_from);
	else
		fputs("null", out);
	fprintf(out, ",\n%s\"ram_sleep_ms\": %llu", ind,
		(unsigned long long)r->ram_sleep_ms);
	fprintf(out, ",\n%s\"aborted_by\": ", ind);
	if (*r->aborted_by)
		json_string(out, r->aborted_by);
	else
		fputs("null", out);
	fprintf(out, ",\n%s\"time_us\": {", ind);
	for (i = 0; i < PH_NR; i++)
		fprintf(out, "%s\"%s\": %llu", i ? ", " : "", phase_names[i],
			(unsigned long long)r->time_us[i]);
	fprintf(out, "},\n%s\"image_pages\": %llu", ind,
		(unsigned long long)r->image_pages);
	fprintf(out, ",\n%s\"bytes_raw\": %llu", ind,
		(unsigned long long)r->bytes_raw);
	fprintf(out, ",\n%s\"bytes_written\": %llu", ind,
		(unsigned long long)r->bytes_written);
	fprintf(out, ",\n%s\"ratio\": %.2f", ind, ratio(r));
	fprintf(out, ",\n%s\"write_kbps\": %llu", ind,
		(unsigned long long)r->write_kbps);
	fprintf(out, ",\n%s\"read_kbps\": %llu", ind,
		(unsigned long long)r->read_kbps);
	fprintf(out, ",\n%s\"verified\": %s", ind,
		r->verified ? "true" : "false");
	if (r->has_pipeline) {
		fprintf(out, ",\n%s\"threads\": %llu", ind,
			(unsigned long long)r->threads);
		fprintf(out, ",\n%s\"pipeline_bytes\": %llu", ind,
			(unsigned long long)r->pipeline_bytes);
		fprintf(out, ",\n%s\"wait_us\": {\"write_cpu\": %llu, \"write_io\": %llu, \"read_cpu\": %llu, \"read_io\": %llu}",
			ind, (unsigned long long)r->write_cpu_wait_us,
			(unsigned long long)r->write_io_wait_us,
			(unsigned long long)r->read_cpu_wait_us,
			(unsigned long long)r->read_io_wait_us);
	}
	fprintf(out, ",\n%s\"avenrun\": {\"saved\": ", ind);
	json_loadavg(out, r->avenrun_saved);
	fputs(", \"thaw\": ", out);
	json_loadavg(out, r->avenrun_thaw);
	fputs(", \"restored\": ", out);
	json_loadavg(out, r->avenrun_restored);
	fprintf(out, "},\n%s\"refused_tasks\": ", ind);
	json_words(out, r->refused_tasks, "\n");
}

void report_json(FILE *out, const struct results *r)
{
	fputs("{\n", out);
	json_results_body(out, r, "  ");
	fputs("\n}\n", out);
}

int status_read(const struct cfs *c, struct status *s)
{
	char caps[CAPS_FILE_MAX];
	int r;

	memset(s, 0, sizeof(*s));
	r = cfs_read(c, "state", s->state, sizeof(s->state));
	if (r)
		return r;
	cfs_read(c, "version", s->version, sizeof(s->version));
	cfs_read(c, "profile", s->profile, sizeof(s->profile));
	if (!cfs_read(c, "capabilities", caps, sizeof(caps))) {
		caps_drop_partial(caps, sizeof(caps));
		caps_parse(&s->caps, caps);
	} else
		caps_builtin(&s->caps);
	results_read(c, &s->res);
	/* The last cycle's profile says whether its key went to the TPM. */
	if (*s->res.profile && !strchr(s->res.profile, '/')) {
		char rel[sizeof(s->res.profile) + 32], key[64];

		snprintf(rel, sizeof(rel), "profiles/%s/key", s->res.profile);
		if (!cfs_read(c, rel, key, sizeof(key)))
			s->res.key_tpm = !strcmp(key, CONF_KEY_TPM);
	}
	return 0;
}

static bool has_ext(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);

	return n > e && !strcmp(name + n - e, ext);
}

/*
 * A .sec others may read: their passphrase guesses need no root.  A
 * .auth that is anything but 0600: who reads it can forge images.
 */
static bool sec_exposed(const char *name, unsigned int mode)
{
	if (has_ext(name, ".auth"))
		return mode != 0600;
	return has_ext(name, ".sec") && (mode & 077);
}

static const char *exposed_text(const char *name, unsigned int mode)
{
	if (!sec_exposed(name, mode))
		return "";
	if (mode & 077)
		return "  (readable by others than root: chmod 600)";
	return "  (not 0600: chmod 600)";
}

static void status_keys_text(FILE *out, const struct status_keys *k)
{
	size_t i;

	if (!*k->dir)
		return;
	if (k->have_profile && !strcmp(k->key, CONF_KEY_TPM) &&
	    strcmp(k->encryption, "none"))
		hib_print(out, "encryption:    %s, key sealed to the TPM (profile %s)\n",
			  k->encryption, k->profile);
	else if (k->have_profile)
		hib_print(out, "encryption:    %s, key %s (profile %s)\n",
			  k->encryption, *k->key ? k->key : "(none)",
			  k->profile);
	if (k->dir_err) {
		hib_print(out, "key files:     none (%s: %s)\n", k->dir,
			  strerror(k->dir_err));
		return;
	}
	hib_print(out, "key files:     %s (%04o)\n", k->dir, k->dir_mode);
	for (i = 0; i < k->nfiles; i++)
		hib_print(out, "  %-28s %04o%s\n", k->files[i].name,
			  k->files[i].mode,
			  exposed_text(k->files[i].name, k->files[i].mode));
}

static void status_keys_json(FILE *out, const struct status_keys *k)
{
	char mode[8];
	size_t i;

	fputs(",\n  \"keys\": {", out);
	if (k->have_profile) {
		fputs("\"profile\": ", out);
		json_string(out, k->profile);
		fputs(", \"encryption\": ", out);
		json_string(out, k->encryption);
		fputs(", \"key\": ", out);
		json_string(out, k->key);
		fputs(", ", out);
	}
	fputs("\"dir\": ", out);
	json_string(out, k->dir);
	if (k->dir_err) {
		fputs(", \"error\": ", out);
		json_string(out, strerror(k->dir_err));
	} else {
		snprintf(mode, sizeof(mode), "%04o", k->dir_mode);
		fputs(", \"dir_mode\": ", out);
		json_string(out, mode);
	}
	fputs(", \"files\": [", out);
	for (i = 0; i < k->nfiles; i++) {
		snprintf(mode, sizeof(mode), "%04o", k->files[i].mode);
		fputs(i ? ", {\"name\": " : "{\"name\": ", out);
		json_string(out, k->files[i].name);
		fputs(", \"mode\": ", out);
		json_string(out, mode);
		fprintf(out, ", \"exposed\": %s}",
			sec_exposed(k->files[i].name, k->files[i].mode) ?
			"true" : "false");
	}
	fputs("]}", out);
}

/* "512 MiB", "12 KiB": bytes as people read them, rounded down. */
static void size_text(char *buf, size_t len, uint64_t bytes)
{
	if (bytes >= 10ULL << 30)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(bytes >> 30));
	else if (bytes >= 10ULL << 20)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
}

static void key_id_hex(char *buf, const uint8_t *id)
{
	int i;

	for (i = 0; i < WRAP_KEY_ID_LEN; i++)
		sprintf(buf + 2 * i, "%02x", id[i]);
}

static bool image_sealed(const struct status_image *img)
{
	return img->h.w.encryption != IMGHDR_ENC_NONE &&
	       img->h.w.key_scheme == WRAP_SCHEME_TPM;
}

static bool image_this_kernel(const struct status_image *img)
{
	return !strcmp(img->h.release, img->running);
}

static void image_text(FILE *out, const struct status_image *img)
{
	const struct img_header *h = &img->h;
	char raw[32], stored[32], when[64], id[2 * WRAP_KEY_ID_LEN + 1];
	time_t t = (time_t)h->created_sec;
	struct tm tm;

	if (!img->looked)
		return;
	if (img->where_err && !*img->target) {
		hib_print(out, "image:         unknown: profile '%s' has no target\n",
			  img->profile);
		return;
	}
	if (img->where_err) {
		hib_print(out, "image:         unknown: cannot tell where profile '%s' keeps it (target %s: %s)\n",
			  img->profile, *img->target ? img->target : "none",
			  strerror(img->where_err));
		return;
	}
	if (img->found < 0) {
		hib_print(out, "image:         unknown: cannot read %s (target %s, profile '%s'): %s\n",
			  img->loc, img->target, img->profile,
			  strerror(-img->found));
		return;
	}
	if (!img->found) {
		hib_print(out, "image:         none on %s (%s, profile '%s')\n",
			  img->target, img->loc, img->profile);
		return;
	}
	if (img->hdr_err == -EPROTO) {
		hib_print(out, "image:         waiting on %s (%s, profile '%s'), image format %u, which this hibernate does not read\n",
			  img->target, img->loc, img->profile, h->version);
		return;
	}
	if (img->hdr_err) {
		hib_print(out, "image:         an anchor on %s (%s, profile '%s'), but its header page is not an image header\n",
			  img->target, img->loc, img->profile);
		return;
	}
	hib_print(out, "image:         waiting on %s (%s, profile '%s')\n",
		  img->target, img->loc, img->profile);
	if (image_this_kernel(img))
		hib_print(out, "  %-24s %s (the running kernel)\n", "kernel",
			  h->release);
	else
		hib_print(out, "  %-24s %s (not the running kernel, %s: only a boot of %s resumes it)\n",
			  "kernel", h->release, img->running, h->release);
	if (localtime_r(&t, &tm) &&
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm))
		hib_print(out, "  %-24s %s\n", "written", when);
	size_text(raw, sizeof(raw), h->image_pages * IMGHDR_PAGE);
	size_text(stored, sizeof(stored), h->data_bytes);
	hib_print(out, "  %-24s %llu pages (%s), %s stored%s%s\n", "size",
		  (unsigned long long)h->image_pages, raw, stored,
		  *h->compressor ? ", compressor " : "", h->compressor);
	key_id_hex(id, h->w.key_id);
	if (h->w.encryption == IMGHDR_ENC_NONE)
		hib_print(out, "  %-24s none\n", "encryption");
	else if (image_sealed(img))
		hib_print(out, "  %-24s %s, key sealed to the TPM\n", "encryption",
			  imghdr_encryption_name(h->w.encryption));
	else
		hib_print(out, "  %-24s %s, key wrapped for key id %s\n",
			  "encryption", imghdr_encryption_name(h->w.encryption),
			  id);
}

static void image_json(FILE *out, const struct status_image *img)
{
	const struct img_header *h = &img->h;
	char id[2 * WRAP_KEY_ID_LEN + 1];
	const char *err = NULL;

	if (!img->looked)
		return;
	fputs(",\n  \"image\": {\"profile\": ", out);
	json_string(out, img->profile);
	fputs(", \"target\": ", out);
	json_string(out, img->target);
	fputs(", \"location\": ", out);
	if (*img->loc)
		json_string(out, img->loc);
	else
		fputs("null", out);
	if (img->where_err)
		err = strerror(img->where_err);
	else if (img->found < 0)
		err = strerror(-img->found);
	else if (img->found && img->hdr_err == -EPROTO)
		err = "an image format this hibernate does not read";
	else if (img->found && img->hdr_err)
		err = "an anchor, but its header page is not an image header";
	fputs(", \"present\": ", out);
	if (img->where_err || img->found < 0)
		fputs("null", out);
	else
		fputs(img->found ? "true" : "false", out);
	fputs(", \"error\": ", out);
	if (err)
		json_string(out, err);
	else
		fputs("null", out);
	if (img->found > 0 && img->hdr_err == -EPROTO)
		fprintf(out, ", \"format_version\": %u", h->version);
	if (img->found > 0 && !img->hdr_err) {
		fputs(", \"release\": ", out);
		json_string(out, h->release);
		fprintf(out, ", \"running_kernel\": %s",
			image_this_kernel(img) ? "true" : "false");
		fprintf(out, ", \"created_sec\": %llu, \"image_pages\": %llu, \"bytes_raw\": %llu, \"bytes_stored\": %llu",
			(unsigned long long)h->created_sec,
			(unsigned long long)h->image_pages,
			(unsigned long long)(h->image_pages * IMGHDR_PAGE),
			(unsigned long long)h->data_bytes);
		fputs(", \"compressor\": ", out);
		json_string(out, h->compressor);
		fputs(", \"encryption\": ", out);
		json_string(out, imghdr_encryption_name(h->w.encryption));
		fprintf(out, ", \"sealed\": %s",
			image_sealed(img) ? "true" : "false");
		fputs(", \"key_id\": ", out);
		if (h->w.encryption != IMGHDR_ENC_NONE && !image_sealed(img)) {
			key_id_hex(id, h->w.key_id);
			json_string(out, id);
		} else {
			fputs("null", out);
		}
	}
	fputc('}', out);
}

void status_text(FILE *out, const struct status *s)
{
	hib_print(out, "module:        %s\n", s->version);
	hib_print(out, "state:         %s\n", s->state);
	hib_print(out, "profile:       %s\n", *s->profile ? s->profile : "(none)");
	hib_print(out, "compressors:   %s\n", s->caps.compressors);
	hib_print(out, "levels:        %s\n",
		  *s->caps.levels ? s->caps.levels : "none");
	hib_print(out, "writers:       %s\n", s->caps.writers);
	hib_print(out, "checksums:     %s\n", s->caps.checksums);
	hib_print(out, "powerdown:     %s\n", s->caps.powerdown);
	hib_print(out, "encryption:    %s\n", s->caps.encryption);
	hib_print(out, "keys:          %s\n", s->caps.keys);
	if (*s->caps.tpm)
		hib_print(out, "tpm:           %s\n", s->caps.tpm);
	hib_print(out, "actions:       %s\n", s->caps.actions);
	/* Before the first cycle every result is empty or 0. */
	if (!strcmp(s->res.status, "none")) {
		fputs("last results:  none (no cycle since the module was loaded)\n",
		      out);
	} else {
		fputs("last results:\n", out);
		report_text(out, &s->res);
	}
	image_text(out, &s->img);
	status_keys_text(out, &s->keys);
}

void status_json(FILE *out, const struct status *s)
{
	fputs("{\n  \"version\": ", out);
	json_string(out, s->version);
	fputs(",\n  \"state\": ", out);
	json_string(out, s->state);
	fputs(",\n  \"profile\": ", out);
	json_string(out, s->profile);
	fputs(",\n  \"capabilities\": {\"compressors\": ", out);
	json_words(out, s->caps.compressors, " \t");
	fputs(", \"levels\": ", out);
	json_words(out, s->caps.levels, " \t");
	fputs(", \"writers\": ", out);
	json_words(out, s->caps.writers, " \t");
	fputs(", \"checksums\": ", out);
	json_words(out, s->caps.checksums, " \t");
	fputs(", \"powerdown\": ", out);
	json_words(out, s->caps.powerdown, " \t");
	fputs(", \"encryption\": ", out);
	json_words(out, s->caps.encryption, " \t");
	fputs(", \"keys\": ", out);
	json_words(out, s->caps.keys, " \t");
	fputs(", \"tpm\": ", out);
	json_string(out, s->caps.tpm);
	fputs(", \"actions\": ", out);
	json_words(out, s->caps.actions, " \t");
	fputs("},\n  \"results\": {\n", out);
	json_results_body(out, &s->res, "    ");
	fputs("\n  }", out);
	if (*s->keys.dir)
		status_keys_json(out, &s->keys);
	image_json(out, &s->img);
	fputs("\n}\n", out);
}

void status_failed_text(FILE *out, const char *root, const char *next,
			const struct status_image *img)
{
	hib_print(out, "module:        not loaded (%s does not exist)\n", root);
	if (*next)
		hib_print(out, "next:          %s\n", next);
	image_text(out, img);
}

/* --status --json without the module: still one object, saying so. */
void status_json_failed(FILE *out, const char *root, bool loaded,
			const char *error, const char *next,
			const struct status_image *img)
{
	fprintf(out, "{\n  \"loaded\": %s,\n  \"configfs\": ",
		loaded ? "true" : "false");
	json_string(out, root);
	fputs(",\n  \"error\": ", out);
	json_string(out, error);
	fputs(",\n  \"next\": ", out);
	if (*next)
		json_string(out, next);
	else
		fputs("null", out);
	image_json(out, img);
	fputs("\n}\n", out);
}

/* Prints one step of the plan (see plan_json). */
static void plan_step(FILE *out, enum plan_kind kind, const char *a,
		      const char *b, bool *first)
{
	fputs(*first ? "\n    " : ",\n    ", out);
	*first = false;
	if (kind == PLAN_MKDIR || kind == PLAN_RMDIR) {
		fprintf(out, "{\"do\": \"%s\", \"path\": ",
			kind == PLAN_MKDIR ? "mkdir" : "rmdir");
		json_string(out, a);
	} else if (kind == PLAN_WRITE) {
		fputs("{\"do\": \"write\", \"path\": ", out);
		json_string(out, a);
		fputs(", \"value\": ", out);
		json_string(out, b);
	} else {
		fputs("{\"do\": \"note\", \"text\": ", out);
		json_string(out, a);
	}
	fputc('}', out);
}

/* The members of PLAN's records of the kinds KINDS picks, as strings. */
static void plan_strings(FILE *out, const char *plan, size_t len,
			 unsigned int kinds, const char *extra)
{
	const char *pos = plan, *end = plan + len;
	enum plan_kind kind;
	bool first = true;
	char *a, *b;

	fputc('[', out);
	while (plan_next(&pos, end, &kind, &a, &b)) {
		if (kinds & 1U << kind) {
			fputs(first ? "\n    " : ",\n    ", out);
			first = false;
			json_string(out, a);
		}
		free(a);
		free(b);
	}
	if (extra) {
		fputs(first ? "\n    " : ",\n    ", out);
		first = false;
		json_string(out, extra);
	}
	fputs(first ? "]" : "\n  ]", out);
}

/*
 * --dry-run --json: the plan as one object.  PLAN holds plan.h's records
 * (LEN bytes): checks, failed checks and the resume parameter get their
 * own members, the rest are the steps in order.  STATUS is the exit
 * status, which is that of the real run; REAL_REFUSED the real run's
 * when it would stop where a dry run goes on (not root).  A run that
 * fails without a failed check of its own (a configuration error) gets
 * its first error as one, so "failed_checks" is never empty then.
 */
void plan_json(FILE *out, const char *action, const char *profile,
	       const char *config, const char *plan, size_t len,
	       char *const *errors, size_t nerr, int status,
	       int real_refused)
{
	const char *pos = plan, *end = plan + len, *err = hib_first_error();
	char *a, *b, *resume = NULL, *extra = NULL;
	bool first, failed = false;
	enum plan_kind kind;
	size_t i;

	while (plan_next(&pos, end, &kind, &a, &b)) {
		failed |= kind == PLAN_FAILED;
		free(a);
		free(b);
	}
	if (status && !failed &&
	    asprintf(&extra, "%s: FAILED", err ? err : "the run stopped") < 0)
		extra = NULL;
	fputs("{\n  \"dry_run\": true,\n  \"action\": ", out);
	json_string(out, action);
	fputs(",\n  \"profile\": ", out);
	json_string(out, profile);
	fputs(",\n  \"config\": ", out);
	json_string(out, config);
	fprintf(out, ",\n  \"exit_status\": %d,\n  \"would_run\": %s",
		status, status || real_refused ? "false" : "true");
	fputs(",\n  \"error\": ", out);
	if (err)
		json_string(out, err);
	else
		fputs("null", out);
	fputs(",\n  \"config_errors\": [", out);
	for (i = 0; i < nerr; i++) {
		fputs(i ? ", " : "", out);
		json_string(out, errors[i] ? errors[i] : "");
	}
	fputs("],\n  \"checks\": ", out);
	plan_strings(out, plan, len, 1U << PLAN_CHECK | 1U << PLAN_FAILED,
		     extra);
	fputs(",\n  \"failed_checks\": ", out);
	plan_strings(out, plan, len, 1U << PLAN_FAILED, extra);
	free(extra);
	fputs(",\n  \"steps\": [", out);
	first = true;
	pos = plan;
	while (plan_next(&pos, end, &kind, &a, &b)) {
		if (kind == PLAN_RESUME && !resume)
			resume = a;
		else if (kind != PLAN_CHECK && kind != PLAN_FAILED &&
			 kind != PLAN_HEAD && kind != PLAN_RESUME)
			plan_step(out, kind, a, b, &first);
		if (a != resume)
			free(a);
		free(b);
	}
	fputs(first ? "]" : "\n  ]", out);
	fputs(",\n  \"resume_parameter\": ", out);
	if (resume)
		json_string(out, resume);
	else
		fputs("null", out);
	fputs("\n}\n", out);
	free(resume);
}

/*
 * --json without --dry-run, when the action printed no report of its
 * own (a check refused it, --resume found no image, --invalidate): what
 * was done and how it ended, as one object; the messages are on stderr.
 */
void result_json(FILE *out, const char *action, const char *profile,
		 const char *config, char *const *errors, size_t nerr,
		 int status)
{
	size_t i;

	fputs("{\n  \"dry_run\": false,\n  \"action\": ", out);
	json_string(out, action);
	fputs(",\n  \"profile\": ", out);
	json_string(out, profile);
	fputs(",\n  \"config\": ", out);
	json_string(out, config);
	fprintf(out, ",\n  \"exit_status\": %d", status);
	fputs(",\n  \"error\": ", out);
	if (hib_first_error())
		json_string(out, hib_first_error());
	else
		fputs("null", out);
	fputs(",\n  \"config_errors\": [", out);
	for (i = 0; i < nerr; i++) {
		fputs(i ? ", " : "", out);
		json_string(out, errors[i] ? errors[i] : "");
	}
	fputs("]\n}\n", out);
}

/* --list-profiles --json: the configuration read and its profiles. */
void profiles_json(FILE *out, const struct conf *c, bool implicit)
{
	size_t i;

	fputs("{\"config\": ", out);
	json_string(out, c->path);
	fputs(", \"profiles\": [", out);
	if (implicit)
		json_string(out, CONF_DEFAULT_PROFILE);
	for (i = 0; i < c->nprof; i++) {
		if (i || implicit)
			fputs(", ", out);
		json_string(out, c->prof[i].name);
	}
	fputs("]}\n", out);
}
