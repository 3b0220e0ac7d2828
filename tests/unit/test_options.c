// SPDX-License-Identifier: GPL-2.0
/* Option parsing: defaults, each option, conflicts, usage errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "conf/options.h"
#include "lib/common.h"

static int parse(struct hib_ctl *ctl, const char *line)
{
	char buf[1024], *argv[64], *save = NULL, *w;
	int argc = 0, r;
	FILE *saved_err = stderr, *saved_out = stdout;

	snprintf(buf, sizeof(buf), "hibernate %s", line);
	for (w = strtok_r(buf, " ", &save); w && argc < 63;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	/* Keep the expected complaints out of the test log. */
	stderr = fopen("/dev/null", "w");
	stdout = stderr;
	r = hib_parse_options(ctl, argc, argv);
	fclose(stderr);
	stderr = saved_err;
	stdout = saved_out;
	return r;
}

static void test_defaults(void **state)
{
	struct hib_ctl ctl;

	(void)state;
	assert_int_equal(parse(&ctl, ""), -1);
	assert_int_equal(ctl.action, ACT_HIBERNATE);
	assert_string_equal(ctl.profile, "default");
	assert_string_equal(ctl.config, "/etc/hibernate.conf");
	assert_string_equal(ctl.configfs, "/sys/kernel/config/suspend2");
	assert_false(ctl.config_given);
	assert_false(ctl.dry_run);
	assert_null(ctl.module);
}

static void test_all_options(void **state)
{
	struct hib_ctl ctl;

	(void)state;
	assert_int_equal(parse(&ctl, "-p laptop -c /x.conf -n -f -v -v --json "
			       "--configfs /tmp/c --module ./s.ko "
			       "-o io_depth=3 --set compressor=lz4 --test"), -1);
	assert_string_equal(ctl.profile, "laptop");
	assert_string_equal(ctl.config, "/x.conf");
	assert_true(ctl.config_given);
	assert_true(ctl.dry_run);
	assert_true(ctl.force);
	assert_true(ctl.json);
	assert_int_equal(ctl.verbosity, 2);
	assert_string_equal(ctl.configfs, "/tmp/c");
	assert_string_equal(ctl.module, "./s.ko");
	assert_int_equal(ctl.nsets, 2);
	assert_string_equal(ctl.sets[1], "compressor=lz4");
	assert_int_equal(ctl.action, ACT_TEST);

	assert_int_equal(parse(&ctl, "--profile=x --config=y -q --resume"), -1);
	assert_string_equal(ctl.profile, "x");
	assert_int_equal(ctl.verbosity, -1);
	assert_int_equal(ctl.action, ACT_RESUME);
	assert_int_equal(parse(&ctl, "--invalidate"), -1);
	assert_int_equal(ctl.action, ACT_INVALIDATE);
	assert_int_equal(parse(&ctl, "--status --json"), -1);
	assert_int_equal(ctl.action, ACT_STATUS);
	assert_int_equal(parse(&ctl, "--list-profiles"), -1);
	assert_int_equal(ctl.action, ACT_LIST_PROFILES);
	/* A hibernation that sleeps in RAM first; a dry run of it too. */
	assert_int_equal(parse(&ctl, "--suspend-then-hibernate -n -p l"), -1);
	assert_int_equal(ctl.action, ACT_HIBERNATE);
	assert_true(ctl.suspend_first);
	assert_true(ctl.dry_run);
	assert_int_equal(parse(&ctl, "--test"), -1);
	assert_false(ctl.suspend_first);
}

static void test_usage_errors(void **state)
{
	struct hib_ctl ctl;

	(void)state;
	assert_int_equal(parse(&ctl, "--bogus"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "-x"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "-p"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "extra"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--test --resume"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--status --list-profiles"),
			 HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "-q -v"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--dry-run --status"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "-o noequals"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--module suspend2"), HIB_EXIT_USAGE);
	/* It is a way to hibernate, not to test, resume or install. */
	assert_int_equal(parse(&ctl, "--suspend-then-hibernate --test"),
			 HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--resume --suspend-then-hibernate"),
			 HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--suspend-then-hibernate --install-systemd"),
			 HIB_EXIT_USAGE);
	/* The same option twice is not a conflict. */
	assert_int_equal(parse(&ctl, "--test --test"), -1);
	/* Actions that print no JSON refuse --json before doing anything. */
	assert_int_equal(parse(&ctl, "--system-sleep pre --json"),
			 HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--system-sleep post -n --json"),
			 HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--install-systemd --json"),
			 HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--install-systemd -n --json"),
			 HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--setup-key k --json"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--setup-key tpm -n --json"), -1);
	assert_int_equal(parse(&ctl, "--system-sleep pre -n"), -1);
	assert_true(ctl.dry_run);
	assert_int_equal(parse(&ctl, "--resume --json"), -1);
	assert_int_equal(parse(&ctl, "--list-profiles --json"), -1);
}

static void test_help_version(void **state)
{
	struct hib_ctl ctl;

	(void)state;
	assert_int_equal(parse(&ctl, "--help"), HIB_EXIT_OK);
	assert_int_equal(parse(&ctl, "-V"), HIB_EXIT_OK);
	assert_string_equal(hib_action_word(ACT_TEST), "test");
	assert_string_equal(hib_action_word(ACT_HIBERNATE), "hibernate");
}

/* --setup-key [NAME], --passphrase-file, --kdf. */
static void test_setup_key(void **state)
{
	struct hib_ctl ctl;

	(void)state;
	assert_int_equal(parse(&ctl, "--setup-key"), -1);
	assert_int_equal(ctl.action, ACT_SETUP_KEY);
	assert_null(ctl.key_name);
	assert_int_equal(ctl.kdf, HIB_KDF_MODERATE);
	assert_null(ctl.passfile);
	assert_int_equal(parse(&ctl, "--setup-key lap.top --kdf=insecure-test "
			       "--passphrase-file /p -f"), -1);
	assert_string_equal(ctl.key_name, "lap.top");
	assert_int_equal(ctl.kdf, HIB_KDF_INSECURE_TEST);
	assert_string_equal(ctl.passfile, "/p");
	assert_true(ctl.force);
	assert_int_equal(parse(&ctl, "--setup-key=k2 --kdf moderate"), -1);
	assert_string_equal(ctl.key_name, "k2");
	assert_int_equal(ctl.kdf, HIB_KDF_MODERATE);
	assert_int_equal(parse(&ctl, "--resume --passphrase-file /p"), -1);
	assert_int_equal(ctl.action, ACT_RESUME);
	assert_int_equal(parse(&ctl, "--setup-key a/b"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--setup-key --kdf=fast"), HIB_EXIT_USAGE);
	/* The old name of insecure-test: a usage error naming the new one. */
	assert_int_equal(parse(&ctl, "--setup-key --kdf=min"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--setup-key --kdf min"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--setup-key k extra"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--setup-key --test"), HIB_EXIT_USAGE);
	/* -n parses: setup_key() allows it for tpm only, which it decides. */
	assert_int_equal(parse(&ctl, "--setup-key -n"), -1);
	assert_null(ctl.key_name);
	assert_true(ctl.dry_run);
	/* tpm is no key file name, but the word --setup-key tpm takes. */
	assert_int_equal(parse(&ctl, "--setup-key tpm -n"), -1);
	assert_string_equal(ctl.key_name, "tpm");
	assert_true(ctl.dry_run);
	assert_int_equal(parse(&ctl, "--setup-key=tpm"), -1);
	assert_string_equal(ctl.key_name, "tpm");
	assert_int_equal(parse(&ctl, "--setup-key tpm2"), -1);
	assert_string_equal(ctl.key_name, "tpm2");
	assert_int_equal(parse(&ctl, "--setup-key tpm/x"), HIB_EXIT_USAGE);
	assert_int_equal(parse(&ctl, "--status -n"), HIB_EXIT_USAGE);
	assert_string_equal(hib_action_word(ACT_SETUP_KEY), "setup-key");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_options),
		cmocka_unit_test(test_setup_key),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_help_version),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
