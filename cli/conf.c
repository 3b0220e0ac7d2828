// SPDX-License-Identifier: GPL-2.0
/*
 * The hibernate.conf parser.  It never stops at the first error: every
 * problem is recorded as "FILE:LINE: message" (up to CONF_MAX_ERRORS) so
 * one run shows them all.  Comments are whole lines, or what follows a
 * blank and '#' or ';' in a value (not in hook commands).  Input is untrusted text: NUL bytes, invalid
 * UTF-8 and overlong lines are reported, never crash the parser.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../kernel/suspend2/names.h"
#include "check.h"
#include "common.h"
#include "conf.h"
#include "strutil.h"

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

static void conf_error(struct conf *c, int line, const char *fmt, ...)
	HIB_PRINTF(3, 4);

static void conf_error(struct conf *c, int line, const char *fmt, ...)
{
	char msg[CONF_MAX_LINE + 256];
	char *s;
	va_list ap;

	if (c->nerr > CONF_MAX_ERRORS)
		return;
	if (c->nerr == CONF_MAX_ERRORS) {
		if (asprintf(&s, "%s: too many errors, giving up",
			     c->path) >= 0)
			c->errors[c->nerr] = s;
		c->nerr++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0) {
		if (asprintf(&s, "%s:%d: %s", c->path, line, msg) < 0)
			s = NULL;
	} else if (asprintf(&s, "%s: %s", c->path, msg) < 0) {
		s = NULL;
	}
	c->errors[c->nerr++] = s;
}

void conf_print_errors(const struct conf *c)
{
	size_t i;

	for (i = 0; i < c->nerr; i++)
		if (c->errors[i])
			fprintf(stderr, "hibernate: %s\n", c->errors[i]);
}

static bool valid_name(const char *s)
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

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
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

/*
 * Check one value and produce what goes to the kernel (plain decimal for
 * sizes, "yes"/"no" for booleans).  On error, why says what was expected.
 */
int conf_check_value(const struct conf_key_info *k, const char *val,
		     char *norm, size_t normlen, char *why, size_t whylen)
{
	char list[256];
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
				 "expected a name such as %s, got '%s'",
				 list, val);
			return -EINVAL;
		}
		break;
	case T_CHOICE:
		if (!word_in_list(val, k->choices)) {
			choices_text(k->choices, list, sizeof(list));
			snprintf(why, whylen, "expected one of %s, got '%s'",
				 list, val);
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
				 "expected an absolute path of at most %llu bytes or UUID=, LABEL=, PARTUUID=, PARTLABEL=, got '%s'",
				 (unsigned long long)k->max, val);
			return -EINVAL;
		}
		break;
	case T_RANGE:
	case T_SIZE:
		r = k->type == T_SIZE ? parse_size(val, &v) :
					parse_u64(val, &v);
		if (r == -EINVAL) {
			snprintf(why, whylen, "expected %s, got '%s'",
				 k->type == T_SIZE ?
				 "a size in bytes (suffix K, M, G or T allowed)" :
				 "a decimal number", val);
			return r;
		}
		if (r || v < k->min || v > k->max) {
			snprintf(why, whylen,
				 "expected a value from %llu to %llu, got '%s'",
				 (unsigned long long)k->min,
				 (unsigned long long)k->max, val);
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
		snprintf(why, whylen, "expected 'yes' or 'no', got '%s'", val);
		return -EINVAL;
	case T_NAME:
		if (!valid_name(val)) {
			snprintf(why, whylen,
				 "expected a profile name (letters, digits, '_', '.', '-'; at most %d), got '%s'",
				 CONF_NAME_MAX, val);
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
		    (check_location(val, list, sizeof(list), &v) &&
		     !tag_location(val))) {
			snprintf(why, whylen,
				 "expected DEVICE:PAGE, a device (an absolute path, or UUID=, PARTUUID=, LABEL=, PARTLABEL=) and a page number as hibernate prints it (e.g. UUID=0a1b2c3d-0000-4000-8000-000000000000:34816), got '%s'",
				 val);
			return -EINVAL;
		}
		break;
	case T_MODULE:
		if (val[0] == '/' ? has_control(val) : !valid_name(val)) {
			snprintf(why, whylen,
				 "expected a module name or the absolute path of a .ko file, got '%s'",
				 val);
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

static struct conf_profile *add_section(struct conf *c, const char *name,
					int line)
{
	struct conf_profile *n;

	n = realloc(c->prof, (c->nprof + 1) * sizeof(*c->prof));
	if (!n)
		return NULL;
	c->prof = n;
	n = &c->prof[c->nprof];
	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	if (!n->name)
		return NULL;
	n->line = line;
	c->nprof++;
	return n;
}

/* Section state while parsing: a profile, [acpi], or nothing yet. */
struct pstate {
	struct conf_profile *prof;
	bool acpi;
	bool skip;		/* inside a broken or duplicate section */
};

static void parse_section(struct conf *c, struct pstate *st, char *s,
			  int line)
{
	char *end = strchr(s, ']'), *name, *rest;
	const struct conf_profile *old;

	st->prof = NULL;
	st->acpi = false;
	st->skip = true;
	if (!end) {
		conf_error(c, line, "expected ']' to close the section name");
		return;
	}
	*end = '\0';
	rest = str_trim(end + 1);
	if (*rest && *rest != '#' && *rest != ';') {
		conf_error(c, line, "unexpected text after ']': '%s'", rest);
		return;
	}
	name = str_trim(s + 1);
	if (!valid_name(name)) {
		conf_error(c, line,
			   "expected a profile name (letters, digits, '_', '.', '-'; at most %d), got '[%s]'",
			   CONF_NAME_MAX, name);
		return;
	}
	if (!strcmp(name, CONF_ACPI_SECTION)) {
		if (c->acpi_line) {
			conf_error(c, line,
				   "section [%s] already defined on line %d",
				   name, c->acpi_line);
			return;
		}
		c->acpi_line = line;
		st->acpi = true;
		st->skip = false;
		return;
	}
	old = conf_find(c, name);
	if (old) {
		conf_error(c, line, "section [%s] already defined on line %d",
			   name, old->line);
		return;
	}
	st->prof = add_section(c, name, line);
	if (!st->prof) {
		conf_error(c, line, "out of memory");
		return;
	}
	st->skip = false;
}

static void set_value(struct conf *c, struct conf_val *slot,
		      const char *key, const char *norm, int line)
{
	if (slot->value) {
		conf_error(c, line, "key '%s' already set on line %d", key,
			   slot->line);
		return;
	}
	slot->value = strdup(norm);
	slot->line = line;
}

static void parse_acpi_key(struct conf *c, const char *key, const char *val,
			   int line)
{
	char norm[CONF_MAX_LINE], why[CONF_MAX_LINE + 128];
	const char *sugg;
	size_t i;

	for (i = 0; i < A_NR; i++)
		if (!strcmp(conf_acpi_keys[i].name, key))
			break;
	if (i == A_NR) {
		sugg = suggest_in(conf_acpi_keys, A_NR, key);
		if (sugg)
			conf_error(c, line,
				   "unknown key '%s' in [acpi] (did you mean '%s'?)",
				   key, sugg);
		else
			conf_error(c, line, "unknown key '%s' in [acpi]", key);
		return;
	}
	if (conf_check_value(&conf_acpi_keys[i], val, norm, sizeof(norm), why,
			     sizeof(why))) {
		conf_error(c, line, "key '%s': %s", key, why);
		return;
	}
	set_value(c, &c->acpi[i], key, norm, line);
}

static void add_hook(struct conf *c, struct conf_cmd *list, size_t *n,
		     const char *key, const char *cmd, int line)
{
	if (*n >= CONF_MAX_HOOKS) {
		conf_error(c, line, "key '%s': at most %d commands", key,
			   CONF_MAX_HOOKS);
		return;
	}
	list[*n].cmd = strdup(cmd);
	list[*n].line = line;
	if (list[*n].cmd)
		(*n)++;
}

/*
 * A '#' or ';' at the start of a value or after a blank starts a comment
 * ("target = /dev/sda2  # the swap partition").  Not in hook commands:
 * they go to /bin/sh as written, which reads '#' the same way and ';' as
 * a command separator.
 */
static char *strip_comment(char *val)
{
	char *s;

	for (s = val; *s; s++) {
		if ((*s == '#' || *s == ';') &&
		    (s == val || s[-1] == ' ' || s[-1] == '\t')) {
			*s = '\0';
			break;
		}
	}
	return str_trim(val);
}

static void parse_key(struct conf *c, struct pstate *st, char *s, int line)
{
	char norm[CONF_MAX_LINE], why[CONF_MAX_LINE + 128];
	char *eq = strchr(s, '='), *key, *val;
	const char *sugg;
	int k;

	if (!eq) {
		conf_error(c, line, "expected 'key = value' or '[profile]'");
		return;
	}
	*eq = '\0';
	key = str_trim(s);
	val = str_trim(eq + 1);
	if (!*key) {
		conf_error(c, line, "expected a key name before '='");
		return;
	}
	if (st->skip)
		return;
	if (!st->prof && !st->acpi) {
		conf_error(c, line,
			   "key '%s' outside a section (start with '[default]')",
			   key);
		return;
	}
	if (st->acpi) {
		parse_acpi_key(c, key, strip_comment(val), line);
		return;
	}
	k = conf_key_lookup(key);
	if (k < 0) {
		sugg = conf_suggest_key(key);
		if (sugg)
			conf_error(c, line,
				   "unknown key '%s' (did you mean '%s'?)",
				   key, sugg);
		else
			conf_error(c, line, "unknown key '%s'", key);
		return;
	}
	if (conf_keys[k].type != T_CMD)
		val = strip_comment(val);
	if (conf_check_value(&conf_keys[k], val, norm, sizeof(norm), why,
			     sizeof(why))) {
		conf_error(c, line, "key '%s': %s", key, why);
		return;
	}
	if (k == K_PRE_HIBERNATE)
		add_hook(c, st->prof->pre, &st->prof->npre, key, norm, line);
	else if (k == K_POST_RESUME)
		add_hook(c, st->prof->post, &st->prof->npost, key, norm, line);
	else if (k == K_INHERIT && !strcmp(norm, st->prof->name))
		conf_error(c, line, "key 'inherit': profile '%s' cannot inherit from itself",
			   norm);
	else
		set_value(c, &st->prof->v[k], key, norm, line);
}

static void parse_line(struct conf *c, struct pstate *st, char *s, int line)
{
	s = str_trim(s);
	if (!*s || *s == '#' || *s == ';')
		return;
	if (*s == '[')
		parse_section(c, st, s, line);
	else
		parse_key(c, st, s, line);
}

/* The parent of a profile: its inherit key, else [default]. */
static const char *parent_of(const struct conf_profile *p)
{
	if (p->v[K_INHERIT].value)
		return p->v[K_INHERIT].value;
	if (!strcmp(p->name, CONF_DEFAULT_PROFILE))
		return NULL;
	return CONF_DEFAULT_PROFILE;
}

static void check_inheritance(struct conf *c)
{
	size_t i, steps, j;

	for (i = 0; i < c->nprof; i++) {
		const struct conf_profile *p = &c->prof[i], *q = p;
		const char *par = p->v[K_INHERIT].value;
		char chain[512];
		size_t used;
		bool lowest = true, looped;

		if (par && !conf_find(c, par) &&
		    strcmp(par, CONF_DEFAULT_PROFILE)) {
			const char *s = conf_suggest_profile(c, par);

			conf_error(c, p->v[K_INHERIT].line,
				   "key 'inherit': no profile '%s'%s%s%s", par,
				   s ? " (did you mean '" : "", s ? s : "",
				   s ? "'?)" : "");
			continue;
		}
		/* Walk the chain; a loop through p comes back to p. */
		looped = false;
		for (steps = 0; steps <= c->nprof; steps++) {
			par = parent_of(q);
			q = par ? conf_find(c, par) : NULL;
			if (!q)
				break;
			if (q == p) {
				looped = true;
				break;
			}
		}
		if (!looped)
			continue;
		/* Report each loop once, at its first member in the file. */
		used = snprintf(chain, sizeof(chain), "%s", p->name);
		q = p;
		for (j = 0; j <= c->nprof; j++) {
			q = conf_find(c, parent_of(q));
			if (q < p)
				lowest = false;
			if (used < sizeof(chain))
				used += snprintf(chain + used,
						 sizeof(chain) - used,
						 " -> %s", q->name);
			if (q == p)
				break;
		}
		if (lowest)
			conf_error(c, p->v[K_INHERIT].value ?
				   p->v[K_INHERIT].line : p->line,
				   "inheritance loop: %s", chain);
	}
}

/*
 * The ACPI action runs "hibernate -p NAME" with these: a name that is
 * not a profile would fail only when the lid closes, so say it now.
 */
static void check_acpi_profiles(struct conf *c)
{
	static const int keys[] = { A_AC_PROFILE, A_BATTERY_PROFILE };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct conf_val *v = &c->acpi[keys[i]];
		const char *s;

		if (!v->value || conf_find(c, v->value) ||
		    !strcmp(v->value, CONF_DEFAULT_PROFILE))
			continue;
		s = conf_suggest_profile(c, v->value);
		conf_error(c, v->line, "key '%s': no profile '%s'%s%s%s",
			   conf_acpi_keys[keys[i]].name, v->value,
			   s ? " (did you mean '" : "", s ? s : "",
			   s ? "'?)" : "");
	}
}

int conf_parse_buffer(struct conf *c, const char *path, const char *buf,
		      size_t len)
{
	char line[CONF_MAX_LINE + 2];
	struct pstate st = { 0 };
	size_t pos = 0;
	int lineno = 0;

	free(c->path);
	c->path = strdup(path);
	if (!c->path)
		return -ENOMEM;
	if (memchr(buf, '\0', len)) {
		/* Point at the line so a half-written file is easy to find. */
		const char *nul = memchr(buf, '\0', len), *p;
		int l = 1;

		for (p = buf; p < nul; p++)
			l += *p == '\n';
		conf_error(c, l, "binary data (NUL byte): not a text file");
		return -EINVAL;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		lineno++;
		if (n > CONF_MAX_LINE) {
			conf_error(c, lineno,
				   "line too long (%zu bytes, at most %d)", n,
				   CONF_MAX_LINE);
		} else if (!utf8_valid(buf + pos, n)) {
			conf_error(c, lineno, "invalid UTF-8");
		} else {
			memcpy(line, buf + pos, n);
			line[n] = '\0';
			parse_line(c, &st, line, lineno);
		}
		pos += n + 1;
	}
	check_inheritance(c);
	check_acpi_profiles(c);
	return c->nerr ? -EINVAL : 0;
}

int conf_load(struct conf *c, const char *path)
{
	struct stat st;
	char *buf;
	size_t len = 0;
	ssize_t r;
	int fd, ret;

	free(c->path);
	c->path = strdup(path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		conf_error(c, 0, "cannot open: %s", strerror(errno));
		return ret;
	}
	/*
	 * The owner and mode that decide whether its hooks may run are
	 * those of the file read here, not of whatever the path names later.
	 */
	if (!fstat(fd, &st)) {
		c->have_stat = true;
		c->uid = st.st_uid;
		c->mode = st.st_mode;
	}
	buf = malloc(CONF_MAX_FILE + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	/* Read one byte more than allowed to tell "too big" from "full". */
	while (len <= CONF_MAX_FILE) {
		r = read(fd, buf + len, CONF_MAX_FILE + 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			conf_error(c, 0, "read error: %s", strerror(errno));
			goto out;
		}
		if (!r)
			break;
		len += r;
	}
	if (len > CONF_MAX_FILE) {
		conf_error(c, 0, "file too large (more than %d bytes)",
			   CONF_MAX_FILE);
		ret = -EFBIG;
		goto out;
	}
	ret = conf_parse_buffer(c, path, buf, len);
out:
	free(buf);
	close(fd);
	return ret;
}

int conf_resolve(const struct conf *c, const char *name, struct profile *p,
		 char *err, size_t errlen)
{
	const struct conf_profile *chain[64];
	const struct conf_profile *cp;
	size_t n = 0, i;
	int k;

	memset(p, 0, sizeof(*p));
	cp = conf_find(c, name);
	if (!cp && strcmp(name, CONF_DEFAULT_PROFILE)) {
		const char *s = conf_suggest_profile(c, name);

		snprintf(err, errlen, "%s: no profile '%s'%s%s%s (see --list-profiles)",
			 c->path ? c->path : "config", name,
			 s ? " (did you mean '" : "", s ? s : "",
			 s ? "'?)" : "");
		return -ENOENT;
	}
	while (cp && n < ARRAY_SIZE(chain)) {
		const char *par = parent_of(cp);

		chain[n++] = cp;
		cp = par ? conf_find(c, par) : NULL;
	}
	p->name = name;
	for (k = 0; k < K_NR; k++) {
		p->v[k].value = conf_keys[k].def;
		for (i = 0; i < n; i++) {
			if (chain[i]->v[k].value) {
				p->v[k].value = chain[i]->v[k].value;
				p->v[k].file = c->path;
				p->v[k].line = chain[i]->v[k].line;
				break;
			}
		}
	}
	/* A profile's hook list replaces its parent's as a whole. */
	for (i = 0; i < n; i++) {
		if (chain[i]->npre) {
			p->pre = chain[i]->pre;
			p->npre = chain[i]->npre;
			break;
		}
	}
	for (i = 0; i < n; i++) {
		if (chain[i]->npost) {
			p->post = chain[i]->post;
			p->npost = chain[i]->npost;
			break;
		}
	}
	p->hook_file = c->path;
	p->hook_timeout = atoi(p->v[K_HOOK_TIMEOUT].value);
	p->unload_module = !strcmp(p->v[K_UNLOAD_MODULE].value, "yes");
	p->swap_on_demand = !strcmp(p->v[K_SWAP_ON_DEMAND].value, "yes");
	return 0;
}

/* --set KEY=VALUE: one more layer on top of the resolved profile. */
int profile_override(struct profile *p, const char *assignment,
		     char *err, size_t errlen)
{
	char key[64], norm[CONF_MAX_LINE], why[CONF_MAX_LINE + 128];
	const char *eq = strchr(assignment, '='), *sugg;
	size_t klen;
	int k;

	if (!eq || eq == assignment ||
	    (size_t)(eq - assignment) >= sizeof(key)) {
		snprintf(err, errlen, "--set: expected KEY=VALUE, got '%s'",
			 assignment);
		return -EINVAL;
	}
	klen = eq - assignment;
	memcpy(key, assignment, klen);
	key[klen] = '\0';
	k = conf_key_lookup(key);
	if (k < 0 || k == K_INHERIT || k == K_PRE_HIBERNATE ||
	    k == K_POST_RESUME) {
		sugg = k < 0 ? conf_suggest_key(key) : NULL;
		snprintf(err, errlen, "--set: %s key '%s'%s%s%s",
			 k < 0 ? "unknown" : "cannot override", key,
			 sugg ? " (did you mean '" : "", sugg ? sugg : "",
			 sugg ? "'?)" : "");
		return -EINVAL;
	}
	if (conf_check_value(&conf_keys[k], eq + 1, norm, sizeof(norm), why,
			     sizeof(why))) {
		snprintf(err, errlen, "--set: key '%s': %s", key, why);
		return -EINVAL;
	}
	free(p->owned[k]);
	p->owned[k] = strdup(norm);
	if (!p->owned[k])
		return -ENOMEM;
	p->v[k].value = p->owned[k];
	p->v[k].file = "command line";
	p->v[k].line = 0;
	if (k == K_HOOK_TIMEOUT)
		p->hook_timeout = atoi(norm);
	if (k == K_UNLOAD_MODULE)
		p->unload_module = !strcmp(norm, "yes");
	if (k == K_SWAP_ON_DEMAND)
		p->swap_on_demand = !strcmp(norm, "yes");
	return 0;
}

void profile_free(struct profile *p)
{
	int k;

	for (k = 0; k < K_NR; k++) {
		free(p->owned[k]);
		p->owned[k] = NULL;
	}
}

const char *prof_where(const struct prof_val *pv, char *buf, size_t len)
{
	if (!pv->file)
		snprintf(buf, len, "built-in default");
	else if (!pv->line)
		snprintf(buf, len, "%s", pv->file);
	else
		snprintf(buf, len, "%s:%d", pv->file, pv->line);
	return buf;
}
