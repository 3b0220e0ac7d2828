/* SPDX-License-Identifier: GPL-2.0 */
/* Command line parsing, kept apart from main() so tests can call it. */
#ifndef HIB_OPTIONS_H
#define HIB_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#define HIB_MAX_SETS	16

/*
 * Every option, NULL-ended; val is the short option's letter where there
 * is one.  The man page's SYNOPSIS and the bash completion are checked
 * against it (tests/unit/test_tables.c).
 */
extern const struct option hib_longopts[];

enum hib_action {
	ACT_HIBERNATE,
	ACT_TEST,
	ACT_RESUME,
	ACT_INVALIDATE,
	ACT_STATUS,
	ACT_LIST_PROFILES,
	ACT_INSTALL_SYSTEMD,
	ACT_SYSTEM_SLEEP,
	ACT_SETUP_KEY,
};

/*
 * --kdf: how hard --setup-key makes the passphrase to guess.  insecure-test
 * is libsodium's minimum, for tests only (setup_key() warns, and refuses it
 * for the real key directory without --force).
 */
enum hib_kdf {
	HIB_KDF_MODERATE,
	HIB_KDF_INSECURE_TEST,
};

/* Everything the command line decides, in one place. */
struct hib_ctl {
	enum hib_action action;
	const char *profile;
	const char *config;
	bool config_given;
	const char *configfs;
	const char *module;
	const char *sleep_phase;	/* --system-sleep PHASE [VERB] */
	const char *sleep_verb;		/* NULL: hibernate */
	const char *key_name;		/* --setup-key NAME, or NULL */
	const char *passfile;		/* --passphrase-file FILE */
	enum hib_kdf kdf;
	const char *sets[HIB_MAX_SETS];
	int nsets;
	bool dry_run;
	bool json;
	bool force;
	bool suspend_first;		/* --suspend-then-hibernate */
	int verbosity;
};

/* Returns -1 to go on, else the exit status (after --help, errors, ...). */
int hib_parse_options(struct hib_ctl *ctl, int argc, char **argv);
void hib_usage(FILE *out);
const char *hib_action_word(enum hib_action a);

#endif
