// SPDX-License-Identifier: GPL-2.0
/*
 * Profile -> configfs writes against a temp directory of plain files,
 * dry run, kernel refusals (injected by wrapping cfs_write, the way the
 * kmod testsuite traps paths), results -> text and JSON reports.
 * Linked with -Wl,--wrap=cfs_write.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>

#include "conf/caps.h"
#include "conf/conf.h"
#include "conf/step.h"
#include "cycle/cfs_profile.h"
#include "cycle/report.h"
#include "keys/imgkey.h"
#include "lib/cfs.h"
#include "lib/common.h"
#include "../../kernel/suspend2/names.h"
#include "test_util.h"

static const char *inject_path;
static int inject_errno;

int __real_cfs_write(const struct cfs *c, const char *rel, const char *val);

int __wrap_cfs_write(const struct cfs *c, const char *rel, const char *val)
{
	if (inject_path && !strcmp(rel, inject_path))
		return -inject_errno;
	return __real_cfs_write(c, rel, val);
}

#define TUNABLE_NAME(name, ...)	#name,
static const char *const attrs[] = { S2_TUNABLES(TUNABLE_NAME) };

static char *fake_tree(bool with_profile)
{
	char *d = tmp_tree();
	size_t i;

	assert_non_null(d);
	mk(d, "profiles");
	mk(d, "results");
	put_file(d, "state", "idle\n");
	put_file(d, "profile", "\n");
	put_file(d, "action", "");
	if (with_profile) {
		mk(d, "profiles/p");
		for (i = 0; i < ARRAY_SIZE(attrs); i++) {
			char rel[64];

			snprintf(rel, sizeof(rel), "profiles/p/%s", attrs[i]);
			put_file(d, rel, "");
		}
	}
	return d;
}

static void resolve(struct conf *c, struct profile *p, const char *text)
{
	char err[256];

	assert_int_equal(parse_text(c, text), 0);
	assert_int_equal(conf_resolve(c, "p", p, err, sizeof(err)), 0);
}

static const char conf_text[] = "[default]\ntarget = /dev/null\n"
				"[p]\ncompressor = lz4\n"
				"image_size_limit = 2M\nio_depth = 7\n";

static void test_apply_writes(void **state)
{
	struct profile p;
	struct conf c;
	struct cfs fs;
	char *d = fake_tree(true);

	(void)state;
	resolve(&c, &p, conf_text);
	cfs_init(&fs, d, false, NULL);
	assert_int_equal(cfs_write_profile(&fs, &p, "/dev/sdz9"), 0);
	assert_string_equal(get_file(d, "profiles/p/writer"), "swap\n");
	assert_string_equal(get_file(d, "profiles/p/target"), "/dev/sdz9\n");
	assert_string_equal(get_file(d, "profiles/p/compressor"), "lz4\n");
	assert_string_equal(get_file(d, "profiles/p/image_size_limit"),
			    "2097152\n");
	assert_string_equal(get_file(d, "profiles/p/io_depth"), "7\n");
	assert_string_equal(get_file(d, "profiles/p/freezer_timeout_ms"),
			    "20000\n");
	assert_int_equal(cfs_select_profile(&fs, "p"), 0);
	assert_string_equal(get_file(d, "profile"), "p\n");
	conf_free(&c);
	rm_tree(d);
}

static void test_apply_mkdir(void **state)
{
	struct profile p;
	struct conf c;
	struct cfs fs;
	char *d = fake_tree(false);
	struct stat st;
	char path[4200];

	(void)state;
	resolve(&c, &p, conf_text);
	cfs_init(&fs, d, false, NULL);
	/* A plain directory grows no attributes: writer fails ENOENT. */
	assert_int_equal(cfs_write_profile(&fs, &p, NULL), HIB_EXIT_KERNEL);
	snprintf(path, sizeof(path), "%s/profiles/p", d);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	conf_free(&c);
	rm_tree(d);
}

/* Dry run: prints path = value lines and leaves every file alone. */
static void test_dry_run(void **state)
{
	struct profile p;
	struct conf c;
	struct cfs fs;
	char *d = fake_tree(false), *plan = NULL, line[4200];
	size_t len = 0;
	FILE *out = open_memstream(&plan, &len);

	(void)state;
	resolve(&c, &p, conf_text);
	cfs_init(&fs, d, true, out);
	assert_int_equal(cfs_write_profile(&fs, &p, NULL), 0);
	assert_int_equal(cfs_select_profile(&fs, "p"), 0);
	assert_int_equal(cfs_write(&fs, "action", "hibernate"), 0);
	fclose(out);
	snprintf(line, sizeof(line), "mkdir %s/profiles/p\n", d);
	assert_non_null(strstr(plan, line));
	snprintf(line, sizeof(line), "%s/profiles/p/image_size_limit = 2097152\n", d);
	assert_non_null(strstr(plan, line));
	snprintf(line, sizeof(line), "%s/profile = p\n%s/action = hibernate\n",
		 d, d);
	assert_non_null(strstr(plan, line));
	snprintf(line, sizeof(line), "%s/profiles/p", d);
	assert_int_not_equal(access(line, F_OK), 0);
	assert_string_equal(get_file(d, "profile"), "\n");
	assert_string_equal(get_file(d, "action"), "");
	free(plan);
	conf_free(&c);
	rm_tree(d);
}

static void test_refusals(void **state)
{
	struct profile p;
	struct conf c;
	struct cfs fs;
	char *d = fake_tree(true), path[4200];

	(void)state;
	resolve(&c, &p, conf_text);
	cfs_init(&fs, d, false, NULL);
	inject_path = "profiles/p/io_depth";
	inject_errno = ERANGE;
	assert_int_equal(cfs_write_profile(&fs, &p, NULL), HIB_EXIT_KERNEL);
	/* Keys before the refused one are written, later ones are not. */
	assert_string_equal(get_file(d, "profiles/p/compressor"), "lz4\n");
	assert_string_equal(get_file(d, "profiles/p/powerdown"), "");
	inject_errno = EBUSY;
	assert_int_equal(cfs_write_profile(&fs, &p, NULL), HIB_EXIT_BUSY);
	inject_path = "profile";
	inject_errno = ENOENT;
	assert_int_equal(cfs_select_profile(&fs, "p"), HIB_EXIT_KERNEL);
	inject_path = NULL;

	/* A value that does not read back as written. */
	snprintf(path, sizeof(path), "%s/profiles/p/checksum", d);
	unlink(path);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(cfs_write_profile(&fs, &p, NULL), HIB_EXIT_KERNEL);
	conf_free(&c);
	rm_tree(d);
}

static void test_cfs_read_write(void **state)
{
	char *d = fake_tree(false), buf[8];
	struct cfs fs;

	(void)state;
	cfs_init(&fs, d, false, NULL);
	put_file(d, "version", "suspend2 0.1 image-format 1\n");
	assert_int_equal(cfs_read(&fs, "version", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "suspend");
	assert_int_equal(cfs_read(&fs, "nosuch", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(cfs_write(&fs, "nosuch", "x"), -ENOENT);
	mk(d, "adir");
	assert_int_equal(cfs_write(&fs, "adir", "x"), -EISDIR);
	assert_false(cfs_is_default(&fs));
	cfs_init(&fs, "/sys/kernel/config/suspend2/", false, NULL);
	assert_true(cfs_is_default(&fs));
	rm_tree(d);
}

/*
 * The live tree by any other spelling is the live tree, with every
 * safeguard of it (root, no HIBERNATE_SYSROOT, the module load); a
 * relative test tree is made absolute.
 */
static void test_cfs_canonical(void **state)
{
	char *d = fake_tree(false), rel[4200], want[4200], cwd[4096];
	struct cfs fs;

	(void)state;
	cfs_init(&fs, "/sys/kernel/config/./suspend2", false, NULL);
	assert_true(cfs_is_default(&fs));
	assert_string_equal(fs.root, CFS_DEFAULT_ROOT);
	cfs_init(&fs, "/sys/kernel/config//suspend2/.", false, NULL);
	assert_true(cfs_is_default(&fs));
	cfs_init(&fs, "/sys/kernel/../kernel/config/suspend2", false, NULL);
	assert_true(cfs_is_default(&fs));
	cfs_init(&fs, "//sys/./kernel/config/x/../suspend2//", false, NULL);
	assert_true(cfs_is_default(&fs));
	cfs_init(&fs, "/sys/kernel/config/suspend2x", false, NULL);
	assert_false(cfs_is_default(&fs));
	/* Relative to the working directory, through a link too. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(d), 0);
	cfs_init(&fs, "./results/..", false, NULL);
	assert_string_equal(fs.root, d);
	assert_false(cfs_is_default(&fs));
	snprintf(rel, sizeof(rel), "%s/link", d);
	assert_int_equal(symlink("/sys/kernel/config", rel), 0);
	cfs_init(&fs, "link/suspend2", false, NULL);
	if (!access("/sys/kernel/config", F_OK))
		assert_true(cfs_is_default(&fs));
	snprintf(want, sizeof(want), "%s/nosuch/x", d);
	cfs_init(&fs, "nosuch/./x", false, NULL);
	assert_string_equal(fs.root, want);
	assert_int_equal(chdir(cwd), 0);
	rm_tree(d);
}

static void fill_results(const char *d)
{
	put_file(d, "results/status", "resumed\n");
	put_file(d, "results/error", "\n");
	put_file(d, "results/profile", "p\n");
	put_file(d, "results/writer", "swap\n");
	put_file(d, "results/compressor", "lz4\n");
	put_file(d, "results/checksum", "crc32c\n");
	put_file(d, "results/time_freeze_user_us", "1500\n");
	put_file(d, "results/time_write_us", "210000\n");
	put_file(d, "results/offline_ms", "7250\n");
	put_file(d, "results/image_pages", "6689\n");
	put_file(d, "results/bytes_raw", "27398144\n");
	put_file(d, "results/bytes_written", "10959257\n");
	put_file(d, "results/write_kbps", "127000\n");
	put_file(d, "results/read_kbps", "70000\n");
	put_file(d, "results/verified", "yes\n");
	put_file(d, "results/avenrun_saved", "0.52 0.31 0.12\n");
	put_file(d, "results/avenrun_thaw", "3.10 0.90 0.30\n");
	put_file(d, "results/avenrun_restored", "0.52 0.31 0.12\n");
	put_file(d, "results/refused_tasks", "42 \"odd\\name\"\n7 x\n");
}

static int json_parses(const char *text)
{
	char path[] = "/tmp/hibernate-json-XXXXXX", cmd[256];
	int fd = mkstemp(path), r;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "python3 -m json.tool %s >/dev/null 2>&1", path);
	r = system(cmd);
	unlink(path);
	return r;
}

static void test_report(void **state)
{
	char *d = fake_tree(false), *text = NULL;
	struct results r;
	struct cfs fs;
	size_t len = 0;
	FILE *out;

	(void)state;
	fill_results(d);
	cfs_init(&fs, d, false, NULL);
	assert_int_equal(results_read(&fs, &r), 0);
	assert_int_equal(r.offline_ms, 7250);
	assert_int_equal(r.time_us[PH_WRITE], 210000);
	assert_true(r.verified);

	out = open_memstream(&text, &len);
	report_text(out, &r);
	fclose(out);
	assert_non_null(strstr(text, "profile 'p': resumed"));
	assert_non_null(strstr(text, "7.250 s"));
	assert_non_null(strstr(text, "210.000 ms"));
	assert_non_null(strstr(text, "ratio 2.50"));
	assert_non_null(strstr(text, "load average saved       0.52 0.31 0.12"));
	assert_non_null(strstr(text, "load average at thaw     3.10 0.90 0.30"));
	assert_non_null(strstr(text, "load average restored"));
	assert_non_null(strstr(text, "write 127000 KiB/s"));
	/* No restore measured (results/time_restore_us 0): no line. */
	assert_null(strstr(text, "\n  restore "));
	free(text);
	put_file(d, "results/time_restore_us", "2500\n");
	assert_int_equal(results_read(&fs, &r), 0);
	out = open_memstream(&text, &len);
	report_text(out, &r);
	fclose(out);
	assert_non_null(strstr(text, "\n  restore                           2.500 ms\n"));
	free(text);
	put_file(d, "results/time_restore_us", "0\n");
	assert_int_equal(results_read(&fs, &r), 0);

	out = open_memstream(&text, &len);
	report_json(out, &r);
	fclose(out);
	assert_int_equal(json_parses(text), 0);
	assert_non_null(strstr(text, "\"saved\": [0.52, 0.31, 0.12]"));
	assert_non_null(strstr(text, "\"write\": 210000"));
	assert_non_null(strstr(text, "\"42 \\\"odd\\\\name\\\"\""));
	assert_null(strstr(text, "pipeline_bytes"));
	free(text);

	/* A module with the pipeline attributes: they are reported too. */
	put_file(d, "results/threads", "2\n");
	put_file(d, "results/pipeline_bytes", "1310720\n");
	put_file(d, "results/write_cpu_wait_us", "12345\n");
	put_file(d, "results/write_io_wait_us", "67\n");
	put_file(d, "results/read_cpu_wait_us", "0\n");
	put_file(d, "results/read_io_wait_us", "99000\n");
	put_file(d, "results/encryption", "aes-gcm\n");
	/* A module without the AEAD times: no made-up zeros. */
	assert_int_equal(results_read(&fs, &r), 0);
	assert_false(r.has_crypt_time);
	out = open_memstream(&text, &len);
	report_text(out, &r);
	report_json(out, &r);
	fclose(out);
	assert_non_null(strstr(text, "encryption               aes-gcm\n"));
	assert_null(strstr(text, "sealing"));
	assert_null(strstr(text, "crypt_us"));
	free(text);
	put_file(d, "results/write_crypt_us", "1500250\n");
	put_file(d, "results/read_crypt_us", "7\n");
	assert_int_equal(results_read(&fs, &r), 0);
	assert_true(r.has_pipeline);
	out = open_memstream(&text, &len);
	report_text(out, &r);
	fclose(out);
	assert_non_null(strstr(text, "pipeline                 2 threads, 1280 KiB of buffers"));
	assert_non_null(strstr(text, "writing waited           12.345 ms for compression, 0.067 ms for the device"));
	assert_non_null(strstr(text, "reading waited           0.000 ms for decompression, 99.000 ms for the device"));
	assert_non_null(strstr(text, "encryption               aes-gcm, 1500.250 ms sealing, 0.007 ms opening"));
	free(text);
	out = open_memstream(&text, &len);
	report_json(out, &r);
	fclose(out);
	assert_int_equal(json_parses(text), 0);
	assert_non_null(strstr(text, "\"pipeline_bytes\": 1310720"));
	assert_non_null(strstr(text, "\"wait_us\": {\"write_cpu\": 12345, \"write_io\": 67, \"read_cpu\": 0, \"read_io\": 99000}"));
	assert_non_null(strstr(text, "\"crypt_us\": {\"write\": 1500250, \"read\": 7}"));
	free(text);

	/* Garbage from an odd module still gives valid JSON. */
	put_file(d, "results/avenrun_thaw", "1.0 x\t\x01\n");
	put_file(d, "results/error", "-EBUSY: 1 task \"refused\"\n");
	results_read(&fs, &r);
	out = open_memstream(&text, &len);
	report_json(out, &r);
	fclose(out);
	assert_int_equal(json_parses(text), 0);
	free(text);
	rm_tree(d);
}

static void test_status(void **state)
{
	char *d = fake_tree(false), *text = NULL;
	struct status s;
	struct cfs fs;
	size_t len = 0;
	FILE *out;

	(void)state;
	fill_results(d);
	put_file(d, "version", "suspend2 0.1 image-format 1\n");
	put_file(d, "capabilities", "compressors: none lzo\nwriters: swap\n"
		 "checksums: none crc32c\npowerdown: shutdown\n"
		 "actions: hibernate test resume invalidate\nfuture: x\n");
	cfs_init(&fs, d, false, NULL);
	assert_int_equal(status_read(&fs, &s), 0);
	assert_string_equal(s.state, "idle");
	assert_string_equal(s.caps.compressors, "none lzo");
	assert_string_equal(s.caps.powerdown, "shutdown");
	assert_string_equal(caps_list_for_key(&s.caps, K_WRITER), "swap");
	out = open_memstream(&text, &len);
	status_json(out, &s);
	fclose(out);
	assert_int_equal(json_parses(text), 0);
	assert_non_null(strstr(text, "\"compressors\": [\"none\", \"lzo\"]"));
	free(text);
	rm_tree(d);
}

/*
 * keys: names tpm only where the module seals to the TPM: the word
 * exactly, from the module's file, never from the built-in lists.
 */
static void test_caps_tpm(void **state)
{
	struct caps c;

	(void)state;
	caps_parse(&c, "compressors: none\nkeys: keyring tpm\ntpm: 2.0\n");
	assert_true(caps_key_tpm(&c));
	assert_string_equal(c.tpm, "2.0");
	assert_string_equal(c.keys, "keyring tpm");
	caps_parse(&c, "keys:tpm\n");
	assert_true(caps_key_tpm(&c));
	caps_parse(&c, "keys: keyring\ntpm: none\n");
	assert_false(caps_key_tpm(&c));
	assert_string_equal(c.tpm, "none");
	caps_parse(&c, "keys: keyring\ntpm: 2.0\n");
	assert_false(caps_key_tpm(&c));
	caps_parse(&c, "keys: keyring tpm2 TPM\ntpmkeys: tpm\n");
	assert_false(caps_key_tpm(&c));
	assert_string_equal(c.tpm, "");
	/* An older module without the lines: keyring only, TPM not said. */
	caps_parse(&c, "compressors: none\n");
	assert_false(caps_key_tpm(&c));
	assert_string_equal(c.keys, "keyring");
	assert_string_equal(c.tpm, "");
	caps_builtin(&c);
	assert_false(caps_key_tpm(&c));
	snprintf(c.keys, sizeof(c.keys), "keyring tpm");
	assert_false(caps_key_tpm(&c));
	/* Control bytes and bytes above ASCII never reach a message raw. */
	caps_parse(&c, "keys: keyring\ttpm\ntpm: \033[2J\2332.0\x7f\r\n");
	assert_true(caps_key_tpm(&c));
	assert_string_equal(c.keys, "keyring\ttpm");
	assert_string_equal(c.tpm, "?[2J?2.0?");
}

/*
 * A capabilities line longer than its field is ignored, not cut short:
 * 250 x's and "tpmfoo" must not read as offering tpm.  A file that fills
 * the read buffer loses its last, partial line, not a word of it.
 */
static void test_caps_long_line(void **state)
{
	char text[600], buf[64];
	struct caps c;

	(void)state;
	snprintf(text, sizeof(text), "keys: %0250d tpmfoo\ntpm: 2.0\n", 0);
	memset(text + 6, 'x', 250);
	caps_parse(&c, text);
	assert_false(caps_key_tpm(&c));
	assert_string_equal(c.keys, "keyring");
	assert_string_equal(c.tpm, "2.0");
	/* The longest line that fits is read whole. */
	snprintf(text, sizeof(text), "keys: %0248d tpm\n", 0);
	memset(text + 6, 'x', 248);
	caps_parse(&c, text);
	assert_true(caps_key_tpm(&c));
	/*
	 * A buffer filled by the read: "keys: keyring tpmfoo" cut after
	 * "tpm" by its end; that line goes, the whole ones stay.
	 */
	snprintf(buf, sizeof(buf), "tpm: 2.0\nactions: %0*d\nkeys: keyring tpm",
		 (int)(sizeof(buf) - 1 - 36), 0);
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	caps_drop_partial(buf, sizeof(buf));
	assert_null(strstr(buf, "keys:"));
	caps_parse(&c, buf);
	assert_false(caps_key_tpm(&c));
	assert_string_equal(c.tpm, "2.0");
	/* Not filled: every line kept. */
	snprintf(buf, sizeof(buf), "tpm: 2.0\nkeys: keyring tpm");
	caps_drop_partial(buf, sizeof(buf));
	assert_string_equal(buf, "tpm: 2.0\nkeys: keyring tpm");
}

/*
 * --status: the last results say "key sealed to the TPM" when the
 * profile they name has key = tpm, as the report after a cycle does.
 */
static void test_status_tpm(void **state)
{
	char *d = fake_tree(true), *text = NULL;
	struct status s;
	struct cfs fs;
	size_t len = 0;
	FILE *out;

	(void)state;
	fill_results(d);
	put_file(d, "results/encryption", "aes-gcm\n");
	put_file(d, "profiles/p/key", "tpm\n");
	cfs_init(&fs, d, false, NULL);
	assert_int_equal(status_read(&fs, &s), 0);
	assert_true(s.res.key_tpm);
	out = open_memstream(&text, &len);
	status_text(out, &s);
	fclose(out);
	assert_non_null(strstr(text, "aes-gcm, key sealed to the TPM\n"));
	free(text);
	put_file(d, "profiles/p/key", "keyring:t\n");
	assert_int_equal(status_read(&fs, &s), 0);
	assert_false(s.res.key_tpm);
	rm_tree(d);
}

/*
 * --resume --dry-run before the module is loaded (no configfs, the
 * built-in capabilities): an image sealed to the TPM is not said to be
 * unsealed by the module, only what the real run checks, exit 8 unless
 * its capabilities offer keys: tpm.
 */
static void test_dry_tpm_image_unloaded(void **state)
{
	char *d = tmp_tree(), loc[PATH_MAX], missing[PATH_MAX], *plan = NULL;
	uint8_t page[8192] = { 0 };
	struct hib_ctl ctl = { 0 };
	struct run r = { 0 };
	int32_t serial = -1;
	uint32_t v;
	uint64_t one = 1;
	size_t len = 0;
	FILE *f;

	(void)state;
	memcpy(page + 4096 - 36, &one, sizeof(one));
	memcpy(page + 4096 - 10, "S2SUSPEND", 10);
	memcpy(page + 4096, "SUSPEND2", 8);
	v = 2;
	memcpy(page + 4096 + 8, &v, sizeof(v));
	memcpy(page + 4096 + 24, "6.12.118", 8);
	v = 1;		/* aes-gcm */
	memcpy(page + 4096 + 354, &v, sizeof(v));
	v = 2;		/* key scheme: tpm */
	memcpy(page + 4096 + 358, &v, sizeof(v));
	snprintf(loc, sizeof(loc), "%s/img", d);
	f = fopen(loc, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(page, 1, sizeof(page), f), sizeof(page));
	fclose(f);
	snprintf(loc, sizeof(loc), "%s/img:0", d);
	snprintf(missing, sizeof(missing), "%s/no-configfs", d);
	ctl.dry_run = true;
	r.ctl = &ctl;
	r.plan = open_memstream(&plan, &len);
	cfs_init(&r.cfs, missing, true, r.plan);
	caps_builtin(&r.caps);
	snprintf(r.target, sizeof(r.target), "%s", loc);
	assert_int_equal(unlock_image(&r, loc, &serial), 0);
	assert_int_equal(serial, 0);
	fclose(r.plan);
	assert_non_null(strstr(plan, "with its key sealed to the TPM: the module is not loaded yet; the real run leaves the image as it is (exit 8) unless its capabilities offer keys: tpm\n"));
	assert_null(strstr(plan, "the module unseals it"));
	free(plan);
	rm_tree(d);
}

/* The encryption line names a key sealed to the TPM; JSON is as it was. */
static void test_report_tpm(void **state)
{
	char *d = fake_tree(false), *text = NULL, *plain = NULL;
	struct results r;
	struct cfs fs;
	size_t len = 0;
	FILE *out;

	(void)state;
	fill_results(d);
	put_file(d, "results/encryption", "aes-gcm\n");
	cfs_init(&fs, d, false, NULL);
	assert_int_equal(results_read(&fs, &r), 0);
	out = open_memstream(&plain, &len);
	report_json(out, &r);
	fclose(out);
	r.key_tpm = true;
	out = open_memstream(&text, &len);
	report_text(out, &r);
	fclose(out);
	assert_non_null(strstr(text, "\n  encryption               aes-gcm, key sealed to the TPM\n"));
	free(text);
	out = open_memstream(&text, &len);
	report_json(out, &r);
	fclose(out);
	assert_string_equal(text, plain);
	free(text);
	free(plain);
	/* With the AEAD's times: the key comes last, the times stay first. */
	put_file(d, "results/write_crypt_us", "1500\n");
	put_file(d, "results/read_crypt_us", "2500\n");
	assert_int_equal(results_read(&fs, &r), 0);
	r.key_tpm = true;
	out = open_memstream(&text, &len);
	report_text(out, &r);
	fclose(out);
	assert_non_null(strstr(text, "\n  encryption               aes-gcm, 1.500 ms sealing, 2.500 ms opening (worker threads' time), key sealed to the TPM\n"));
	free(text);
	/* Not encrypted: nothing was sealed, whatever the profile said. */
	put_file(d, "results/encryption", "none\n");
	assert_int_equal(results_read(&fs, &r), 0);
	r.key_tpm = true;
	out = open_memstream(&text, &len);
	report_text(out, &r);
	fclose(out);
	assert_null(strstr(text, "TPM"));
	free(text);
	rm_tree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_writes),
		cmocka_unit_test(test_apply_mkdir),
		cmocka_unit_test(test_dry_run),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_cfs_read_write),
		cmocka_unit_test(test_cfs_canonical),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_caps_tpm),
		cmocka_unit_test(test_report_tpm),
		cmocka_unit_test(test_caps_long_line),
		cmocka_unit_test(test_status_tpm),
		cmocka_unit_test(test_dry_tpm_image_unloaded),
	};

	hib_verbosity = -1;
	return cmocka_run_group_tests_name("cfs", tests, NULL, NULL);
}
