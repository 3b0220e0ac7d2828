// SPDX-License-Identifier: GPL-2.0
/*
 * What is written by hand about the command against the tables the code
 * itself runs on, so neither can drift from the other: every key of the
 * parser (conf_keys[], conf_acpi_keys[]) in the shipped etc/hibernate.conf
 * and in hibernate.conf(5), and no key there the parser refuses; every
 * option of hib_longopts[] in the SYNOPSIS of hibernate(8); and what the
 * bash completion offers (options, --set keys, writers and the other
 * words, yes and no for every yes/no key) against the same tables.
 * Run from the top of the tree (tests/unit/run does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/options.h"
#include "conf/profile.h"

#define SHIPPED		"etc/hibernate.conf"
#define MAN5		"man/hibernate.conf.5"
#define MAN8		"man/hibernate.8"
#define COMPLETION	"cli/completion/hibernate"

/* Every drift is said, then the test fails once, its memory freed. */
static int drifts;
#define drift(...) do { print_error(__VA_ARGS__); print_error("\n"); \
			drifts++; } while (0)

static void no_drift(void)
{
	int n = drifts;

	drifts = 0;
	assert_int_equal(n, 0);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s (run from the top of the tree)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n)
		fail_msg("cannot read %s", path);
	fclose(f);
	return buf;
}

/* Does TEXT have a line starting with PREFIX, then NAME, then SUFFIX? */
static bool has_line(const char *text, const char *prefix, const char *name,
		     const char *suffix)
{
	char want[256];
	const char *p;

	snprintf(want, sizeof(want), "%s%s%s", prefix, name, suffix);
	for (p = text; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, want, strlen(want)))
			return true;
	}
	return false;
}

/* Each key shown in the shipped file, "key = " or "#key = ". */
static bool shipped_has(const char *text, const char *key)
{
	return has_line(text, "", key, " = ") ||
	       has_line(text, "#", key, " = ");
}

static void test_shipped_config(void **state)
{
	char *text = slurp(SHIPPED), *line, *save = NULL, key[64];
	size_t i;

	(void)state;
	for (i = 0; i < K_NR; i++)
		if (!shipped_has(text, conf_keys[i].name))
			drift("%s does not show key %s", SHIPPED,
			      conf_keys[i].name);
	for (i = 0; i < A_NR; i++)
		if (!shipped_has(text, conf_acpi_keys[i].name))
			drift("%s does not show [acpi] key %s", SHIPPED,
			      conf_acpi_keys[i].name);
	/* And nothing there that looks like a key but is none. */
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool acpi = false;

		if (sscanf(line, "#%63[a-z_] = ", key) != 1 &&
		    sscanf(line, "%63[a-z_] = ", key) != 1)
			continue;
		if (!strstr(line, " = "))
			continue;
		for (i = 0; i < A_NR; i++)
			acpi |= !strcmp(key, conf_acpi_keys[i].name);
		if (conf_key_lookup(key) < 0 && !acpi)
			drift("%s shows '%s', which the parser does not take",
			      SHIPPED, key);
	}
	free(text);
	no_drift();
}

/* hibernate.conf(5) has a paragraph for each: ".BI key " = ...". */
static void test_man5_keys(void **state)
{
	char *text = slurp(MAN5);
	size_t i;

	(void)state;
	for (i = 0; i < K_NR; i++)
		if (!has_line(text, ".BI ", conf_keys[i].name, " \" = "))
			drift("%s has no .BI line for key %s", MAN5,
			      conf_keys[i].name);
	for (i = 0; i < A_NR; i++)
		if (!has_line(text, ".BI ", conf_acpi_keys[i].name, " \" = "))
			drift("%s has no .BI line for [acpi] key %s", MAN5,
			      conf_acpi_keys[i].name);
	free(text);
	no_drift();
}

/* Is "\-X" in S, as a short option of its own (not part of "\-\-x")? */
static bool has_short(const char *s, int letter)
{
	const char *p;

	for (p = strstr(s, "\\-"); p; p = strstr(p + 1, "\\-")) {
		if (p[2] != letter || isalnum((unsigned char)p[3]) ||
		    p[3] == '\\')
			continue;
		if (p - s >= 2 && p[-2] == '\\' && p[-1] == '-')
			continue;
		return true;
	}
	return false;
}

/* roff's spelling of --NAME: every '-' escaped. */
static void roff_long(const char *name, char *buf, size_t len)
{
	size_t used = snprintf(buf, len, "\\-\\-");

	for (; *name && used + 3 < len; name++) {
		if (*name == '-')
			buf[used++] = '\\';
		buf[used++] = *name;
	}
	buf[used] = '\0';
}

/* Every option is in the SYNOPSIS, long or short. */
static void test_man8_synopsis(void **state)
{
	char *text = slurp(MAN8), *syn, *end, want[128];
	size_t i;

	(void)state;
	syn = strstr(text, "\n.SH SYNOPSIS\n");
	assert_non_null(syn);
	end = strstr(syn + 1, "\n.SH ");
	assert_non_null(end);
	*end = '\0';
	for (i = 0; hib_longopts[i].name; i++) {
		const struct option *o = &hib_longopts[i];

		roff_long(o->name, want, sizeof(want));
		if (strstr(syn, want))
			continue;
		if (o->val < 128 && isalpha(o->val) && has_short(syn, o->val))
			continue;
		drift("%s: SYNOPSIS lacks --%s", MAN8, o->name);
	}
	free(text);
	no_drift();
}

/*
 * What _hibernate puts in COMPREPLY for LINE (a completion at its end,
 * words split at blanks and '=' as bash does), sorted, blank-separated.
 */
static char *complete(const char *line)
{
	char cmd[2048], *out = NULL;
	size_t len = 0;
	FILE *p, *m;
	int c;

	snprintf(cmd, sizeof(cmd),
		 "bash -c '. %s; line=\"$1\"; COMP_LINE=$line; COMP_POINT=${#line}; COMP_WORDS=(${line//=/ = }); [[ $line == *\" \" || $line == *\"=\" ]] && COMP_WORDS+=(\"\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _hibernate; printf \"%%s\\n\" \"${COMPREPLY[@]}\" | sort -u | xargs' x '%s'",
		 COMPLETION, line);
	p = popen(cmd, "r");
	assert_non_null(p);
	m = open_memstream(&out, &len);
	while ((c = fgetc(p)) != EOF)
		if (c != '\n')
			fputc(c, m);
	fclose(m);
	assert_int_equal(pclose(p), 0);
	return out;
}

/* WORDS (blank-separated, any order) sorted, blank-separated. */
static char *sorted(const char *words)
{
	char *copy = strdup(words), *w, *save = NULL, *list[128], *out;
	size_t n = 0, i, j, len = 1;

	for (w = strtok_r(copy, " ", &save); w && n < 128;
	     w = strtok_r(NULL, " ", &save))
		list[n++] = w;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(list[j - 1], list[j]) > 0; j--) {
			w = list[j];
			list[j] = list[j - 1];
			list[j - 1] = w;
		}
	for (i = 0; i < n; i++)
		len += strlen(list[i]) + 1;
	out = calloc(1, len);
	for (i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, list[i]);
	}
	free(copy);
	return out;
}

static void expect_completion(const char *line, const char *words)
{
	char *got = complete(line), *want = sorted(words);

	if (strcmp(got, want))
		drift("completion of '%s': got '%s', wanted '%s'", line,
		      got, want);
	free(got);
	free(want);
}

static void test_completion_options(void **state)
{
	char want[2048] = "";
	size_t i;

	(void)state;
	for (i = 0; hib_longopts[i].name; i++) {
		const struct option *o = &hib_longopts[i];

		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 " --%s", o->name);
		if (o->val < 128 && isalpha(o->val))
			snprintf(want + strlen(want),
				 sizeof(want) - strlen(want), " -%c", o->val);
	}
	expect_completion("hibernate -", want);
	no_drift();
}

/* The --set keys: every key profile_override() takes, each with '='. */
static void test_completion_keys(void **state)
{
	struct profile p;
	char want[2048] = "", err[512], set[128];
	size_t i;

	(void)state;
	for (i = 0; i < K_NR; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(set, sizeof(set), "%s=", conf_keys[i].name);
		if (profile_override(&p, set, err, sizeof(err)) &&
		    strstr(err, "cannot override"))
			continue;
		profile_free(&p);
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 " %s=", conf_keys[i].name);
	}
	expect_completion("hibernate --set ", want);
	no_drift();
}

/*
 * The words of each word key, as the module's names.h lists them (no
 * module loaded: --configfs names none), and yes and no, the words
 * hibernate.conf(5) writes, for every yes/no key.
 */
static void test_completion_words(void **state)
{
	char line[256];
	size_t i;

	(void)state;
	for (i = 0; i < K_NR; i++) {
		const struct conf_key_info *k = &conf_keys[i];

		snprintf(line, sizeof(line),
			 "hibernate --configfs /nonexistent --set %s=",
			 k->name);
		if (k->type == T_BOOL || k->type == T_FLAG)
			expect_completion(line, "yes no");
		else if ((k->type == T_WORD || k->type == T_COMPRESSOR ||
			  k->type == T_CHOICE) && k->choices)
			expect_completion(line, k->choices);
	}
	no_drift();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_config),
		cmocka_unit_test(test_man5_keys),
		cmocka_unit_test(test_man8_synopsis),
		cmocka_unit_test(test_completion_options),
		cmocka_unit_test(test_completion_keys),
		cmocka_unit_test(test_completion_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
