// SPDX-License-Identifier: GPL-2.0
/*
 * What hibernate.conf may say: the keys, the values each takes (checked
 * and normalised here for the parser and --set alike), and lookups in
 * what the parser (ini.c) built.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../kernel/suspend2/names.h"
#include "conf/conf.h"
#include "lib/common.h"
#include "lib/strutil.h"

/* The module's own lists of words (kernel/suspend2/names.h), blank-separated. */
#define WORD(s) s " "
/* A profile tunable as the module defines it; an empty default is none. */
#define TUNABLE(name, store, def, min, max, kind, words) \
	{ #name, T_##kind, min, max, words(WORD), \
	  sizeof(#def) > 1 ? #def : NULL },
#define ONE(...) + 1
_Static_assert(0 S2_TUNABLES(ONE) == CONF_KERNEL_KEYS,
	       "conf.h's kernel keys are names.h's tunables");

/* The module's tunables come first, in K_ order (checked by names.sh). */
const struct conf_key_info conf_keys[K_NR] = {
	S2_TUNABLES(TUNABLE)
	[K_INHERIT] = { "inherit", T_NAME, 0, 0, NULL, NULL },
	[K_PRE_HIBERNATE] = { "pre_hibernate", T_CMD, 0, 0, NULL, NULL },
	[K_POST_RESUME] = { "post_resume", T_CMD, 0, 0, NULL, NULL },
	[K_HOOK_TIMEOUT] = { "hook_timeout", T_RANGE, 1, 3600, NULL, "30" },
	[K_UNLOAD_MODULE] = { "unload_module", T_BOOL, 0, 0, NULL, "no" },
	[K_MODULE] = { "module", T_MODULE, 0, 0, NULL, "suspend2" },
	[K_RESUME_LOCATION] = { "resume_location", T_LOCATION, 0, 255, NULL,
				NULL },
	[K_SWAP_ON_DEMAND] = { "swap_on_demand", T_BOOL, 0, 0, NULL, "no" },
	[K_OVERWRITE_IN_USE] = { "overwrite_in_use", T_TARGET, 0, 255, NULL,
				 NULL },
	[K_HIBERNATE_DELAY] = { "hibernate_delay", T_RANGE, CONF_DELAY_MIN,
				CONF_DELAY_MAX, NULL, "7200" },
};

const struct conf_key_info conf_acpi_keys[A_NR] = {
	[A_AC_PROFILE] = { "ac_profile", T_NAME, 0, 0, NULL, "default" },
	[A_BATTERY_PROFILE] = { "battery_profile", T_NAME, 0, 0, NULL,
				"default" },
	[A_LID] = { "lid", T_BOOL, 0, 0, NULL, "yes" },
	[A_POWER_BUTTON] = { "power_button", T_BOOL, 0, 0, NULL, "yes" },
	[A_SLEEP_BUTTON] = { "sleep_button", T_BOOL, 0, 0, NULL, "yes" },
};

void conf_init(struct conf *c)
{
	memset(c, 0, sizeof(*c));
}

void conf_free(struct conf *c)
{
	size_t i, k;

	for (i = 0; i < c->nprof; i++) {
		struct conf_profile *p = &c->prof[i];

		free(p->name);
		for (k = 0; k < K_NR; k++)
			free(p->v[k].value);
		for (k = 0; k < p->npre; k++)
			free(p->pre[k].cmd);
		for (k = 0; k < p->npost; k++)
			free(p->post[k].cmd);
	}
	for (k = 0; k < A_NR; k++)
		free(c->acpi[k].value);
	for (i = 0; i < c->nerr; i++)
		free(c->errors[i]);
	free(c->prof);
	free(c->path);
	conf_init(c);
}

bool conf_valid_name(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > CONF_NAME_MAX || s[0] == '.' || s[0] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", s[i]))
			return false;
	return true;
}

/*
 * A key's NAME: 1 to 64 of A-Z a-z 0-9 . _ -, a file name in keys/,
 * starting with a letter or digit (the initramfs hooks' globs skip dot
 * files, and "." and ".." are no names).  tpm is one too: key =
 * keyring:tpm (key files named tpm) parses as it always did, so that a
 * configuration written before key = tpm existed still resumes; only
 * --setup-key tpm means the TPM (imgkey.c).
 */
bool conf_valid_keyname(const char *s)
{
	size_t n = strspn(s, CONF_KEYNAME_CHARS);

	return n && n <= CONF_KEYNAME_MAX && !s[n] &&
	       ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		(*s >= '0' && *s <= '9'));
}

/* C0 and C1 controls: a terminal acts on them (strutil.c). */
static bool has_control(const char *s)
{
	return str_has_control(s);
}

/* A value for a message: quoted, or said to hold control characters. */
static const char *got_text(const char *val, char *buf, size_t len)
{
	if (has_control(val))
		return "control characters";
	snprintf(buf, len, "'%.*s'", (int)(len - 3), val);
	return buf;
}

static void choices_text(const char *list, char *buf, size_t len)
{
	char tmp[256], *w, *save = NULL;
	size_t used = 0;

	snprintf(tmp, sizeof(tmp), "%s", list);
	buf[0] = '\0';
	for (w = strtok_r(tmp, " ", &save); w; w = strtok_r(NULL, " ", &save))
		used += snprintf(buf + used, used < len ? len - used : 0,
				 "%s'%s'", used ? ", " : "", w);
}

/*
 * "UUID=...:PAGE" (or LABEL=, PARTUUID=, PARTLABEL=): a resume location
 * by a name that stays the same across boots.  hibernate resolves it
 * with libblkid before the module sees it.
 */
static bool tag_location(const char *val)
{
	static const char *const tags[] = { "UUID=", "LABEL=", "PARTUUID=",
					    "PARTLABEL=" };
	const char *colon = strrchr(val, ':');
	uint64_t page;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		n = strlen(tags[i]);
		if (!strncmp(val, tags[i], n))
			return colon && colon > val + n &&
			       !parse_u64(colon + 1, &page);
	}
	return false;
}

struct level_range {
	const char *name;
	long min, max;
};

#define LEVEL_RANGE(name, min, max) { name, min, max },
static const struct level_range level_ranges[] = {
	S2_COMPRESSOR_LEVELS(LEVEL_RANGE)
};

/* The compressor's name in "zstd:3" (into buf), or val itself. */
const char *conf_compressor_name(const char *val, char *buf, size_t len)
{
	const char *colon = strchr(val, ':');

	if (!colon)
		return val;
	snprintf(buf, len, "%.*s", (int)(colon - val), val);
	return buf;
}

/*
 * The compressors that take a level (names.h): blank-separated names, or
 * for messages with their ranges, "lz4hc:1 to 16, ...".
 */
static void levels_text(char *buf, size_t len, bool ranges)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(level_ranges); i++) {
		used += snprintf(buf + used, used < len ? len - used : 0,
				 "%s%s", i ? (ranges ? ", " : " ") : "",
				 level_ranges[i].name);
		if (ranges)
			used += snprintf(buf + used,
					 used < len ? len - used : 0,
					 ":%ld to %ld", level_ranges[i].min,
					 level_ranges[i].max);
	}
}

void conf_level_names(char *buf, size_t len)
{
	levels_text(buf, len, false);
}

/*
 * compressor = NAME or NAME:LEVEL.  NAME is checked against what the
 * module offers later, as any word; a LEVEL only where names.h gives the
 * library's range, normalised to plain decimal as the module takes it.
 */
static int check_compressor(const char *val, char *norm, size_t normlen,
			    char *why, size_t whylen)
{
	char buf[64], levels[160], q[80];
	const char *colon = strchr(val, ':'), *digits, *name;
	const struct level_range *range = NULL;
	long level;
	size_t i;

	name = conf_compressor_name(val, buf, sizeof(buf));
	if (!str_is_word(name) || strlen(name) > 16) {
		snprintf(why, whylen,
			 "expected a compressor name, optionally with :LEVEL (e.g. zstd:1), got %s",
			 got_text(val, q, sizeof(q)));
		return -EINVAL;
	}
	if (!colon) {
		snprintf(norm, normlen, "%s", val);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(level_ranges); i++)
		if (!strcmp(level_ranges[i].name, name))
			range = &level_ranges[i];
	levels_text(levels, sizeof(levels), true);
	if (!range) {
		snprintf(why, whylen,
			 "expected a level only on a compressor that takes one (%s); %s takes none, got %s",
			 levels, name, got_text(val, q, sizeof(q)));
		return -EINVAL;
	}
	digits = colon[1] == '-' ? colon + 2 : colon + 1;
	if (!*digits || strspn(digits, "0123456789") != strlen(digits) ||
	    strlen(digits) > 9) {
		snprintf(why, whylen,
			 "expected %s:LEVEL, LEVEL a whole number from %ld to %ld, got %s",
			 name, range->min, range->max,
			 got_text(val, q, sizeof(q)));
		return -EINVAL;
	}
	level = strtol(colon + 1, NULL, 10);
	if (level < range->min || level > range->max) {
		snprintf(why, whylen,
			 "expected a %s level from %ld to %ld, got %s",
			 name, range->min, range->max,
			 got_text(val, q, sizeof(q)));
		return -ERANGE;
	}
	snprintf(norm, normlen, "%s:%ld", name, level);
	return 0;
}

/*
 * Check one value and produce what goes to the kernel (plain decimal for
 * sizes, "yes"/"no" for booleans).  On error, why says what was expected.
 */
int conf_check_value(const struct conf_key_info *k, const char *val,
		     char *norm, size_t normlen, char *why, size_t whylen)
{
	char list[256], q[PATH_MAX + 3];
	uint64_t v;
	int r;

	if (!*val) {
		snprintf(why, whylen, "expected a value");
		return -EINVAL;
	}
	switch (k->type) {
	case T_WORD:
		if (!str_is_word(val) || strlen(val) > 32) {
			choices_text(k->choices, list, sizeof(list));
			snprintf(why, whylen,
				 "expected a name such as %s, got %s",
				 list, got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		break;
	case T_COMPRESSOR:
		return check_compressor(val, norm, normlen, why, whylen);
	case T_CHOICE:
		if (!word_in_list(val, k->choices)) {
			choices_text(k->choices, list, sizeof(list));
			snprintf(why, whylen, "expected one of %s, got %s",
				 list, got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		break;
	case T_TARGET:
		if (has_control(val)) {
			snprintf(why, whylen,
				 "expected a device, got control characters");
			return -EINVAL;
		}
		if (!strncmp(val, "UUID=", 5) || !strncmp(val, "LABEL=", 6) ||
		    !strncmp(val, "PARTUUID=", 9) ||
		    !strncmp(val, "PARTLABEL=", 10)) {
			if (!strchr(val, '=')[1]) {
				snprintf(why, whylen,
					 "expected a value after '='");
				return -EINVAL;
			}
			break;
		}
		if (val[0] != '/' || strlen(val) > k->max) {
			snprintf(why, whylen,
				 "expected an absolute path of at most %llu bytes or UUID=, LABEL=, PARTUUID=, PARTLABEL=, got %s",
				 (unsigned long long)k->max,
				 got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		break;
	case T_RANGE:
	case T_SIZE:
		/* "max" is a size's largest value: image_size's default. */
		if (k->type == T_SIZE && !strcasecmp(val, "max")) {
			v = k->max;
			r = 0;
		} else {
			r = k->type == T_SIZE ? parse_size(val, &v) :
						parse_u64(val, &v);
		}
		if (r == -EINVAL) {
			snprintf(why, whylen, "expected %s, got %s",
				 k->type == T_SIZE ?
				 "a size in bytes (suffix K, M, G or T allowed) or max" :
				 "a decimal number",
				 got_text(val, q, sizeof(q)));
			return r;
		}
		if (r || v < k->min || v > k->max) {
			snprintf(why, whylen,
				 "expected a value from %llu to %llu, got %s",
				 (unsigned long long)k->min,
				 (unsigned long long)k->max,
				 got_text(val, q, sizeof(q)));
			return -ERANGE;
		}
		snprintf(norm, normlen, "%llu", (unsigned long long)v);
		return 0;
	case T_BOOL:
	case T_FLAG:
		/* Every boolean takes the same words, whatever the kernel wants. */
		if (!strcasecmp(val, "yes") || !strcasecmp(val, "true") ||
		    !strcmp(val, "1") || !strcasecmp(val, "on")) {
			snprintf(norm, normlen, k->type == T_FLAG ? "1" : "yes");
			return 0;
		}
		if (!strcasecmp(val, "no") || !strcasecmp(val, "false") ||
		    !strcmp(val, "0") || !strcasecmp(val, "off")) {
			snprintf(norm, normlen, k->type == T_FLAG ? "0" : "no");
			return 0;
		}
		snprintf(why, whylen, "expected 'yes' or 'no', got %s",
			 got_text(val, q, sizeof(q)));
		return -EINVAL;
	case T_NAME:
		if (!conf_valid_name(val)) {
			snprintf(why, whylen,
				 "expected a profile name (letters, digits, '_', '.', '-'; at most %d), got %s",
				 CONF_NAME_MAX, got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		break;
	case T_CMD:
		if (has_control(val)) {
			snprintf(why, whylen,
				 "expected a command, got control characters");
			return -EINVAL;
		}
		break;
	case T_LOCATION:
		if (has_control(val) || strlen(val) > k->max ||
		    (parse_location(val, list, sizeof(list), &v) &&
		     !tag_location(val))) {
			snprintf(why, whylen,
				 "expected DEVICE:PAGE, a device (an absolute path, or UUID=, PARTUUID=, LABEL=, PARTLABEL=) and a page number as hibernate prints it (e.g. UUID=0a1b2c3d-0000-4000-8000-000000000000:34816), got %s",
				 got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		break;
	case T_KEYSPEC:
		/* Not echoed: the value would reach the terminal raw. */
		if (has_control(val)) {
			snprintf(why, whylen,
				 "expected keyring:NAME or tpm, got control characters");
			return -EINVAL;
		}
		/* The module takes the word tpm exactly, nothing after it. */
		if (!strcmp(val, CONF_KEY_TPM))
			break;
		if (strncmp(val, CONF_KEYRING_PREFIX,
			    strlen(CONF_KEYRING_PREFIX))) {
			snprintf(why, whylen,
				 "expected keyring:NAME or tpm, got %s",
				 got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		if (!conf_valid_keyname(val + strlen(CONF_KEYRING_PREFIX))) {
			snprintf(why, whylen,
				 "expected keyring:NAME or tpm, NAME 1 to %d letters, digits, '.', '_', '-', starting with a letter or digit, got %s",
				 CONF_KEYNAME_MAX, got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		break;
	case T_MODULE:
		if (val[0] == '/' ? has_control(val) : !conf_valid_name(val)) {
			snprintf(why, whylen,
				 "expected a module name or the absolute path of a .ko file, got %s",
				 got_text(val, q, sizeof(q)));
			return -EINVAL;
		}
		break;
	}
	if (strlen(val) >= normlen) {
		snprintf(why, whylen, "value too long");
		return -EINVAL;
	}
	strcpy(norm, val);
	return 0;
}

int conf_key_lookup(const char *name)
{
	int i;

	for (i = 0; i < K_NR; i++)
		if (!strcmp(conf_keys[i].name, name))
			return i;
	return -1;
}

static const char *closest(const char *name, const char *const *cands,
			   size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, i, limit;

	/*
	 * Names are case-sensitive, so one that differs only in case is
	 * the typo, however long ("LAPTOP" for "laptop").
	 */
	for (i = 0; i < n; i++)
		if (!strcasecmp(name, cands[i]))
			return cands[i];
	for (i = 0; i < n; i++) {
		size_t d = edit_distance(name, cands[i]);

		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	/* A suggestion that shares nothing with the typo only confuses. */
	limit = strlen(name) / 3;
	if (limit < 2)
		limit = 2;
	return bestd <= limit ? best : NULL;
}

static const char *suggest_in(const struct conf_key_info *keys, size_t n,
			      const char *name)
{
	const char *cands[K_NR];
	size_t i;

	for (i = 0; i < n && i < ARRAY_SIZE(cands); i++)
		cands[i] = keys[i].name;
	return closest(name, cands, i);
}

const char *conf_suggest_key(const char *name)
{
	return suggest_in(conf_keys, K_NR, name);
}

const char *conf_suggest_acpi_key(const char *name)
{
	return suggest_in(conf_acpi_keys, A_NR, name);
}

const struct conf_profile *conf_find(const struct conf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nprof; i++)
		if (!strcmp(c->prof[i].name, name))
			return &c->prof[i];
	return NULL;
}

const char *conf_suggest_profile(const struct conf *c, const char *name)
{
	const char **cands;
	const char *r;
	size_t i;

	if (!c->nprof)
		return NULL;
	cands = calloc(c->nprof, sizeof(*cands));
	if (!cands)
		return NULL;
	for (i = 0; i < c->nprof; i++)
		cands[i] = c->prof[i].name;
	r = closest(name, cands, c->nprof);
	free(cands);
	return r;
}

/* The parent of a profile: its inherit key, else [default]. */
const char *conf_parent(const struct conf_profile *p)
{
	if (p->v[K_INHERIT].value)
		return p->v[K_INHERIT].value;
	if (!strcmp(p->name, CONF_DEFAULT_PROFILE))
		return NULL;
	return CONF_DEFAULT_PROFILE;
}
