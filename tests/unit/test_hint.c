// SPDX-License-Identifier: GPL-2.0
/* Hints and stable names: locations, the target example, the anchor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check/anchor.h"
#include "check/hint.h"
#include "conf/conf.h"
#include "lib/common.h"
#include "test_util.h"

static void test_resolve_location(void **state)
{
	char out[4200];

	(void)state;
	assert_int_equal(hint_resolve_location("/dev/vdb:34816", out,
					       sizeof(out)), 0);
	assert_string_equal(out, "/dev/vdb:34816");
	assert_int_equal(hint_resolve_location("/dev/vdb", out, sizeof(out)),
			 0);
	assert_string_equal(out, "/dev/vdb");
	/* A name libblkid cannot find, with and without a page. */
	assert_int_equal(hint_resolve_location("UUID=00000000-dead-beef-0000-000000000000:8",
					       out, sizeof(out)), -ENOENT);
	assert_int_equal(hint_resolve_location("LABEL=no-such-label-s2",
					       out, sizeof(out)), -ENOENT);
	assert_int_equal(hint_resolve_location("/dev/x:1", out, 5),
			 -ENAMETOOLONG);
}

/* resume_location takes what the resume parameter prints. */
static void test_location_key(void **state)
{
	const struct conf_key_info *k = &conf_keys[K_RESUME_LOCATION];
	char norm[256], why[512];

	(void)state;
	assert_int_equal(conf_check_value(k, "UUID=0a1b2c3d-0000-4000-8000-000000000000:34816",
					  norm, sizeof(norm), why, sizeof(why)), 0);
	assert_string_equal(norm, "UUID=0a1b2c3d-0000-4000-8000-000000000000:34816");
	assert_int_equal(conf_check_value(k, "PARTUUID=8e1a-02:0", norm,
					  sizeof(norm), why, sizeof(why)), 0);
	assert_int_equal(conf_check_value(k, "/dev/sda2:34816", norm,
					  sizeof(norm), why, sizeof(why)), 0);
	assert_int_equal(conf_check_value(k, "UUID=:5", norm, sizeof(norm),
					  why, sizeof(why)), -EINVAL);
	assert_int_equal(conf_check_value(k, "UUID=abc", norm, sizeof(norm),
					  why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "expected DEVICE:PAGE"));
	assert_int_equal(conf_check_value(k, "UUID=abc:x", norm, sizeof(norm),
					  why, sizeof(why)), -EINVAL);
	assert_int_equal(conf_check_value(k, "TAG=abc:1", norm, sizeof(norm),
					  why, sizeof(why)), -EINVAL);
}

static void test_stable_name_fallbacks(void **state)
{
	char *d = tmp_tree(), path[4200], out[4200];

	(void)state;
	put_file(d, "f", "");
	snprintf(path, sizeof(path), "%s/f", d);
	/* Not a block device: the path itself, and an error. */
	assert_int_equal(hint_stable_name(path, true, out, sizeof(out)),
			 -ENOTBLK);
	assert_string_equal(out, path);
	assert_int_equal(hint_stable_name("/nonexistent/dev", true, out,
					  sizeof(out)), -ENOENT);
	assert_string_equal(out, "/nonexistent/dev");
	/* Locations keep their form when no stable name is found. */
	snprintf(path, sizeof(path), "%s/f:12", d);
	hint_stable_location(path, true, out, sizeof(out));
	assert_string_equal(out, path);
	hint_stable_location("unknown", true, out, sizeof(out));
	assert_string_equal(out, "unknown");
	rm_tree(d);
}

/* A device's dm/uuid and dm/name under sysfs: only a volume, no layer. */
static void test_lvm_name(void **state)
{
	static const char ids[] =
		"0123456789abcdefABCDEF0123456789ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvu";
	char *d = tmp_tree(), uuid[128], out[4200];

	(void)state;
	snprintf(out, sizeof(out), "%s/dm", d);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(uuid, sizeof(uuid), "LVM-%s\n", ids);
	put_file(d, "dm/uuid", uuid);
	put_file(d, "dm/name", "s2vg-swap_1\n");
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), 0);
	assert_string_equal(out, "/dev/mapper/s2vg-swap_1");
	/* Doubled dashes are the names' own. */
	put_file(d, "dm/name", "my--vg-root--fs\n");
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), 0);
	assert_string_equal(out, "/dev/mapper/my--vg-root--fs");
	/* Too small for the name: no truncated one. */
	assert_int_equal(hint_lvm_name(d, out, 12), -ENOENT);
	/* A snapshot's hidden layer: its uuid and name carry a suffix. */
	snprintf(uuid, sizeof(uuid), "LVM-%s-cow\n", ids);
	put_file(d, "dm/uuid", uuid);
	put_file(d, "dm/name", "s2vg-snap-cow\n");
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), -ENOENT);
	/* A layer's name alone is refused too (lvm_volume_name). */
	snprintf(uuid, sizeof(uuid), "LVM-%s\n", ids);
	put_file(d, "dm/uuid", uuid);
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), -ENOENT);
	/* Not LVM: a LUKS mapping, a short or odd uuid, a name with '/'. */
	put_file(d, "dm/name", "s2crypt\n");
	put_file(d, "dm/uuid", "CRYPT-LUKS2-0a1b2c3d00004000800000000000000-s2crypt\n");
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), -ENOENT);
	put_file(d, "dm/name", "s2vg-swap_1\n");
	put_file(d, "dm/uuid", "LVM-0123\n");
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), -ENOENT);
	snprintf(uuid, sizeof(uuid), "LVM-%.63s/\n", ids);
	put_file(d, "dm/uuid", uuid);
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), -ENOENT);
	snprintf(uuid, sizeof(uuid), "LVM-%s\n", ids);
	put_file(d, "dm/uuid", uuid);
	put_file(d, "dm/name", "../s2vg-swap_1\n");
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), -ENOENT);
	put_file(d, "dm/name", "");
	assert_int_equal(hint_lvm_name(d, out, sizeof(out)), -ENOENT);
	rm_tree(d);
	/* No dm directory: not device-mapper at all. */
	assert_int_equal(hint_lvm_name("/nonexistent/sys", out, sizeof(out)),
			 -ENOENT);
}

static void test_target_example(void **state)
{
	char *d = tmp_tree(), path[4200], out[8400];
	const char *head = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
	char text[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/swaps", d);
	put_file(d, "swaps", head);
	hint_target_example(path, out, sizeof(out));
	assert_non_null(strstr(out, "none is active here"));
	hint_target_example("/nonexistent/swaps", out, sizeof(out));
	assert_non_null(strstr(out, "none is active here"));
	/* zram is memory: never suggested. */
	snprintf(text, sizeof(text),
		 "%s/dev/zram0 partition 65532 0 100\n"
		 "/dev/nonexistent-s2 partition 1048572 0 -2\n", head);
	put_file(d, "swaps", text);
	hint_target_example(path, out, sizeof(out));
	assert_non_null(strstr(out, "\"target = /dev/nonexistent-s2\" (active swap here)"));
	snprintf(text, sizeof(text), "%s/swapfile file 1048572 0 -2\n", head);
	put_file(d, "swaps", text);
	hint_target_example(path, out, sizeof(out));
	assert_non_null(strstr(out, "\"writer = swapfile\" and \"target = /swapfile\""));
	rm_tree(d);
}

/* The message goes to stderr: run it in a child and read what it said. */
static char *no_target_text(const char *conf, bool conf_read, const char *prof,
			    int *rc)
{
	static char buf[8192];
	int fds[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(fds[1], STDERR_FILENO);
		_exit(hint_no_target(conf, conf_read, prof));
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	buf[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	*rc = WEXITSTATUS(status);
	return buf;
}

static void test_no_target(void **state)
{
	const char *s;
	int rc;

	(void)state;
	s = no_target_text("/etc/h.conf", true, "default", &rc);
	assert_int_equal(rc, HIB_EXIT_CONFIG);
	assert_non_null(strstr(s, "hibernate: no target: profile 'default' of /etc/h.conf does not say where the image goes\n"));
	assert_non_null(strstr(s, "hibernate: set \"target = ...\" in [default], e.g."));
	assert_non_null(strstr(s, "--set target=DEVICE"));
	s = no_target_text("/etc/h.conf", true, "battery", &rc);
	assert_non_null(strstr(s, "in [battery] (or in [default], which every profile inherits)"));
	s = no_target_text("/etc/none.conf", false, "default", &rc);
	assert_int_equal(rc, HIB_EXIT_CONFIG);
	assert_non_null(strstr(s, "hibernate: no target: /etc/none.conf does not exist"));
	assert_non_null(strstr(s, "create it with a [default] section"));
}

static void test_anchor_state(void **state)
{
	char *d = tmp_tree(), loc[4200], page[2 * ANCHOR_PAGE];
	FILE *f;

	(void)state;
	memset(page, 0, sizeof(page));
	memcpy(page + 2 * ANCHOR_PAGE - ANCHOR_SIG_LEN, "S2SUSPEND", 10);
	memcpy(page + ANCHOR_PAGE - ANCHOR_SIG_LEN, "SWAPSPACE2", 10);
	snprintf(loc, sizeof(loc), "%s/dev", d);
	f = fopen(loc, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(page, 1, sizeof(page), f), sizeof(page));
	fclose(f);
	snprintf(loc, sizeof(loc), "%s/dev:0", d);
	assert_int_equal(anchor_state(loc), 0);
	snprintf(loc, sizeof(loc), "%s/dev:1", d);
	assert_int_equal(anchor_state(loc), 1);
	snprintf(loc, sizeof(loc), "%s/dev:2", d);
	assert_int_equal(anchor_state(loc), -ENODATA);
	snprintf(loc, sizeof(loc), "%s/dev", d);
	assert_int_equal(anchor_state(loc), -EINVAL);
	snprintf(loc, sizeof(loc), "%s/nosuch:0", d);
	assert_int_equal(anchor_state(loc), -ENOENT);
	rm_tree(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_location),
		cmocka_unit_test(test_location_key),
		cmocka_unit_test(test_stable_name_fallbacks),
		cmocka_unit_test(test_lvm_name),
		cmocka_unit_test(test_target_example),
		cmocka_unit_test(test_no_target),
		cmocka_unit_test(test_anchor_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
