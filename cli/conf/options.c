// SPDX-License-Identifier: GPL-2.0
/*
 * Options, in the util-linux way: long-only options numbered from
 * CHAR_MAX + 1, a table of mutually exclusive options checked for every
 * option, usage() on stdout, everything else a one-line hint.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/options.h"
#include "lib/cfs.h"
#include "lib/common.h"

/* '+': stop at the first word; ':': no message of getopt's own. */
#define SHORT_OPTS "+:p:c:no:vqfhV"

enum {
	OPT_TEST = CHAR_MAX + 1,
	OPT_RESUME,
	OPT_INVALIDATE,
	OPT_STATUS,
	OPT_LIST_PROFILES,
	OPT_JSON,
	OPT_CONFIGFS,
	OPT_MODULE,
	OPT_INSTALL_SYSTEMD,
	OPT_SYSTEM_SLEEP,
	OPT_SETUP_KEY,
	OPT_PASSPHRASE_FILE,
	OPT_KDF,
	OPT_SUSPEND_THEN_HIBERNATE,
};

const struct option hib_longopts[] = {
	{ "profile",       required_argument, NULL, 'p' },
	{ "config",        required_argument, NULL, 'c' },
	{ "dry-run",       no_argument,       NULL, 'n' },
	{ "test",          no_argument,       NULL, OPT_TEST },
	{ "resume",        no_argument,       NULL, OPT_RESUME },
	{ "invalidate",    no_argument,       NULL, OPT_INVALIDATE },
	{ "status",        no_argument,       NULL, OPT_STATUS },
	{ "list-profiles", no_argument,       NULL, OPT_LIST_PROFILES },
	{ "json",          no_argument,       NULL, OPT_JSON },
	{ "set",           required_argument, NULL, 'o' },
	{ "verbose",       no_argument,       NULL, 'v' },
	{ "quiet",         no_argument,       NULL, 'q' },
	{ "force",         no_argument,       NULL, 'f' },
	{ "configfs",      required_argument, NULL, OPT_CONFIGFS },
	{ "module",        required_argument, NULL, OPT_MODULE },
	{ "install-systemd", no_argument,     NULL, OPT_INSTALL_SYSTEMD },
	{ "system-sleep",  required_argument, NULL, OPT_SYSTEM_SLEEP },
	{ "setup-key",     optional_argument, NULL, OPT_SETUP_KEY },
	{ "passphrase-file", required_argument, NULL, OPT_PASSPHRASE_FILE },
	{ "kdf",           required_argument, NULL, OPT_KDF },
	{ "suspend-then-hibernate", no_argument, NULL,
	  OPT_SUSPEND_THEN_HIBERNATE },
	{ "help",          no_argument,       NULL, 'h' },
	{ "version",       no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Rows of options that exclude each other; each row sorted, 0-ended. */
static const int excl[][10] = {
	{ 'n', OPT_STATUS, OPT_LIST_PROFILES, 0 },
	{ 'q', 'v', 0 },
	{ OPT_TEST, OPT_RESUME, OPT_INVALIDATE, OPT_STATUS,
	  OPT_LIST_PROFILES, OPT_INSTALL_SYSTEMD, OPT_SYSTEM_SLEEP,
	  OPT_SETUP_KEY, OPT_SUSPEND_THEN_HIBERNATE, 0 },
};

static const char *opt_name(int c)
{
	size_t i;

	for (i = 0; hib_longopts[i].name; i++)
		if (hib_longopts[i].val == c)
			return hib_longopts[i].name;
	return "?";
}

/* seen[row] is the option of that row given so far, or 0. */
static int check_exclusive(int *seen, int c)
{
	size_t row, i;

	for (row = 0; row < ARRAY_SIZE(excl); row++) {
		for (i = 0; excl[row][i]; i++) {
			if (excl[row][i] != c)
				continue;
			if (seen[row] && seen[row] != c) {
				fprintf(stderr,
					"hibernate: --%s and --%s cannot be combined\n",
					opt_name(seen[row]), opt_name(c));
				return -1;
			}
			seen[row] = c;
		}
	}
	return 0;
}

void hib_usage(FILE *out)
{
	fputs("Usage:\n"
	      " hibernate [options]\n"
	      "\n"
	      "Hibernate with a profile from hibernate.conf through the suspend2 module.\n"
	      "\n"
	      "Actions (default: hibernate):\n"
	      "     --test               full cycle without powering down, then verify\n"
	      "     --suspend-then-hibernate\n"
	      "                          suspend to RAM first; hibernate when the wake\n"
	      "                            alarm (hibernate_delay) wakes the machine\n"
	      "     --resume             resume from an image if there is one (initramfs)\n"
	      "     --invalidate         erase the image signature on the target\n"
	      "     --status             show state, capabilities and the last results\n"
	      "     --list-profiles      list the profiles in the configuration\n"
	      "     --install-systemd    make systemctl hibernate, suspend-then-hibernate\n"
	      "                            and hybrid-sleep use this profile\n"
	      "     --system-sleep PHASE [VERB]\n"
	      "                          run the system-sleep hooks (pre or post) for\n"
	      "                            hibernate (default), hybrid-sleep or\n"
	      "                            suspend-then-hibernate\n"
	      "     --setup-key [NAME]   make the keys encrypted images are written for\n"
	      "                            (default: the profile's key, else default);\n"
	      "                            tpm: make no key, check the kernel can seal\n"
	      "                            images to the TPM (-n: only say what it would do)\n"
	      "\n"
	      "Options:\n"
	      " -p, --profile NAME       profile to use (default: default)\n"
	      " -c, --config FILE        configuration file (default: " CONF_DEFAULT_PATH ")\n"
	      " -o, --set KEY=VALUE      override a profile key for this run\n"
	      " -n, --dry-run            check and print the configfs writes; change nothing\n"
	      "     --json               print results as one JSON object\n"
	      " -f, --force              go on when the target space checks fail;\n"
	      "                            with --setup-key, replace an existing key\n"
	      "     --passphrase-file FILE  passphrases from FILE, one try per line\n"
	      "     --kdf moderate|insecure-test\n"
	      "                          passphrase hashing of --setup-key (default:\n"
	      "                            moderate); insecure-test is cheap to guess,\n"
	      "                            for tests (the real key directory: --force)\n"
	      "     --configfs DIR       suspend2 configfs directory\n"
	      "                            (default: " CFS_DEFAULT_ROOT ")\n"
	      "     --module PATH        insmod this suspend2.ko instead of modprobe\n"
	      " -v, --verbose            say more\n"
	      " -q, --quiet              print errors only\n"
	      " -h, --help               display this help\n"
	      " -V, --version            display version\n"
	      "\n"
	      "For more details see hibernate(8) and hibernate.conf(5).\n", out);
}

const char *hib_action_word(enum hib_action a)
{
	switch (a) {
	case ACT_HIBERNATE:
		return "hibernate";
	case ACT_TEST:
		return "test";
	case ACT_RESUME:
		return "resume";
	case ACT_INVALIDATE:
		return "invalidate";
	case ACT_STATUS:
		return "status";
	case ACT_LIST_PROFILES:
		return "list-profiles";
	case ACT_INSTALL_SYSTEMD:
		return "install-systemd";
	case ACT_SYSTEM_SLEEP:
		return "system-sleep";
	case ACT_SETUP_KEY:
		return "setup-key";
	}
	return "?";
}

static int usage_error(void)
{
	fputs("Try 'hibernate --help' for more information.\n", stderr);
	return HIB_EXIT_USAGE;
}

/*
 * What getopt_long() refused (C is '?' or ':'), said here and escaped:
 * getopt's own message would echo the option as typed, an escape
 * sequence in it included.  ARGV[optind - 1] is the argument in error
 * for a long option and for a missing argument; an unknown short option
 * is named by its character alone (it may sit inside "-nx").
 */
static int bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];
	char ch[2] = { (char)optopt, '\0' };

	if (c == ':')
		hib_print(stderr, "hibernate: option '%s' requires an argument\n",
			  arg);
	else if (!optopt)
		hib_print(stderr, "hibernate: unknown or ambiguous option '%s'\n",
			  arg);
	else if (optopt > CHAR_MAX ||
		 (optopt != ':' && optopt != '+' && strchr(SHORT_OPTS, optopt)))
		hib_print(stderr, "hibernate: option '%s' takes no argument\n",
			  arg);
	else
		hib_print(stderr, "hibernate: unknown option -- '%s'\n", ch);
	return usage_error();
}

/*
 * Every action honours --json or refuses it here, before anything is
 * done: --install-systemd and --system-sleep print no JSON (their
 * --dry-run prints the drop-ins, the hooks); --setup-key prints its
 * plan as JSON only in a dry run (--setup-key tpm -n --json).
 * --dry-run is refused with --status and --list-profiles (excl[]),
 * and by setup_key() for a key file, which a dry run cannot show.
 * -1 to go on, else HIB_EXIT_USAGE.
 */
static int check_json(const struct hib_ctl *ctl)
{
	const char *why = NULL;

	if (!ctl->json)
		return -1;
	if (ctl->action == ACT_INSTALL_SYSTEMD)
		why = "--install-systemd prints no JSON (--dry-run prints the drop-ins)";
	else if (ctl->action == ACT_SYSTEM_SLEEP)
		why = "--system-sleep prints no JSON (--dry-run lists the hooks)";
	else if (ctl->action == ACT_SETUP_KEY && !ctl->dry_run)
		why = "--setup-key prints JSON only with --dry-run (the plan of --setup-key tpm)";
	if (!why)
		return -1;
	fprintf(stderr, "hibernate: --json: %s\n", why);
	return usage_error();
}

/*
 * --help and --version: the help is text for people, so --json is
 * refused with it; the version is one JSON object with --json.
 */
static int print_info(const struct hib_ctl *ctl, int which)
{
	if (which == 'h' && ctl->json) {
		fputs("hibernate: --json: --help prints no JSON (hibernate(8) lists the options)\n",
		      stderr);
		return HIB_EXIT_USAGE;
	}
	if (which == 'h')
		hib_usage(stdout);
	else if (ctl->json)
		printf("{\"program\": \"hibernate\", \"version\": \"%s\"}\n",
		       HIB_VERSION);
	else
		printf("hibernate from suspend2 %s\n", HIB_VERSION);
	return HIB_EXIT_OK;
}

int hib_parse_options(struct hib_ctl *ctl, int argc, char **argv)
{
	int seen[ARRAY_SIZE(excl)];
	int c, info = 0;

	memset(seen, 0, sizeof(seen));
	memset(ctl, 0, sizeof(*ctl));
	ctl->action = ACT_HIBERNATE;
	ctl->profile = CONF_DEFAULT_PROFILE;
	ctl->config = CONF_DEFAULT_PATH;
	ctl->configfs = CFS_DEFAULT_ROOT;

	/* optind = 0 makes glibc start afresh, which the tests rely on. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, SHORT_OPTS, hib_longopts,
				NULL)) != -1) {
		if (c == '?' || c == ':')
			return bad_option(c, argv);
		if (check_exclusive(seen, c))
			return usage_error();
		switch (c) {
		case 'p':
			if (!*optarg) {
				fputs("hibernate: --profile: empty name\n",
				      stderr);
				return usage_error();
			}
			ctl->profile = optarg;
			break;
		case 'c':
			ctl->config = optarg;
			ctl->config_given = true;
			break;
		case 'n':
			ctl->dry_run = true;
			break;
		case 'o':
			if (ctl->nsets >= HIB_MAX_SETS) {
				fprintf(stderr,
					"hibernate: --set: at most %d\n",
					HIB_MAX_SETS);
				return usage_error();
			}
			if (!strchr(optarg, '=')) {
				hib_print(stderr,
					  "hibernate: --set: expected KEY=VALUE, got '%s'\n",
					  optarg);
				return usage_error();
			}
			ctl->sets[ctl->nsets++] = optarg;
			break;
		case 'v':
			ctl->verbosity++;
			break;
		case 'q':
			ctl->verbosity = -1;
			break;
		case 'f':
			ctl->force = true;
			break;
		case OPT_TEST:
			ctl->action = ACT_TEST;
			break;
		case OPT_RESUME:
			ctl->action = ACT_RESUME;
			break;
		case OPT_INVALIDATE:
			ctl->action = ACT_INVALIDATE;
			break;
		case OPT_STATUS:
			ctl->action = ACT_STATUS;
			break;
		case OPT_LIST_PROFILES:
			ctl->action = ACT_LIST_PROFILES;
			break;
		case OPT_INSTALL_SYSTEMD:
			ctl->action = ACT_INSTALL_SYSTEMD;
			break;
		case OPT_SYSTEM_SLEEP:
			ctl->action = ACT_SYSTEM_SLEEP;
			ctl->sleep_phase = optarg;
			/* The verb next, as systemd-sleep passes it. */
			if (optind < argc && argv[optind][0] != '-')
				ctl->sleep_verb = argv[optind++];
			break;
		case OPT_SETUP_KEY:
			ctl->action = ACT_SETUP_KEY;
			ctl->key_name = optarg;
			/* --setup-key NAME, the name as the next argument. */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				ctl->key_name = argv[optind++];
			break;
		case OPT_PASSPHRASE_FILE:
			if (!*optarg) {
				fputs("hibernate: --passphrase-file: empty path\n",
				      stderr);
				return usage_error();
			}
			ctl->passfile = optarg;
			break;
		case OPT_KDF:
			if (!strcmp(optarg, "moderate")) {
				ctl->kdf = HIB_KDF_MODERATE;
			} else if (!strcmp(optarg, "insecure-test")) {
				ctl->kdf = HIB_KDF_INSECURE_TEST;
			} else if (!strcmp(optarg, "min")) {
				/* The old name: said, so no script goes on. */
				fputs("hibernate: --kdf min is now --kdf insecure-test: it hashes the passphrase at libsodium's minimum cost, cheap to guess offline, so it is for tests only; a real key wants --kdf moderate (the default)\n",
				      stderr);
				return usage_error();
			} else {
				hib_print(stderr,
					  "hibernate: --kdf: expected 'moderate' or 'insecure-test', got '%s'\n",
					  optarg);
				return usage_error();
			}
			break;
		case OPT_SUSPEND_THEN_HIBERNATE:
			ctl->suspend_first = true;
			break;
		case OPT_JSON:
			ctl->json = true;
			break;
		case OPT_CONFIGFS:
			if (!*optarg) {
				fputs("hibernate: --configfs: empty path\n",
				      stderr);
				return usage_error();
			}
			ctl->configfs = optarg;
			break;
		case OPT_MODULE:
			if (optarg[0] != '/' && !strchr(optarg, '/')) {
				hib_print(stderr,
					  "hibernate: --module: expected the path of a .ko file, got '%s'\n",
					  optarg);
				return usage_error();
			}
			ctl->module = optarg;
			break;
		case 'h':
		case 'V':
			/* After the loop, once --json is known wherever it is. */
			if (!info)
				info = c;
			break;
		default:
			return usage_error();
		}
	}
	if (info)
		return print_info(ctl, info);
	/* --setup-key tpm checks the TPM instead of making key files. */
	if (ctl->key_name && strcmp(ctl->key_name, CONF_KEY_TPM) &&
	    !conf_valid_keyname(ctl->key_name)) {
		hib_print(stderr,
			  "hibernate: --setup-key: expected tpm or a key name (1 to %d letters, digits, '.', '_', '-', starting with a letter or digit), got '%s'\n",
			  CONF_KEYNAME_MAX, ctl->key_name);
		return usage_error();
	}
	if (optind < argc) {
		hib_print(stderr, "hibernate: unexpected argument '%s'\n",
			  argv[optind]);
		return usage_error();
	}
	return check_json(ctl);
}
