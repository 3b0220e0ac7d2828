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
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf.h"
#include "lib/common.h"
#include "lib/perm.h"
#include "lib/strutil.h"

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
			hib_err("%s", c->errors[i]);
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

/*
 * Profile names are case-sensitive, so [Default] is not the [default]
 * that plain hibernate uses, nor [Laptop] the [laptop] above it: a
 * section that differs from another, or from [default] or [acpi], only
 * in case is a typo.  True when NAME is one (said).
 */
static bool case_typo(struct conf *c, const char *name, int line)
{
	static const char *const reserved[] = { CONF_DEFAULT_PROFILE,
						CONF_ACPI_SECTION };
	size_t i;

	for (i = 0; i < c->nprof; i++) {
		if (strcasecmp(c->prof[i].name, name) ||
		    !strcmp(c->prof[i].name, name))
			continue;
		conf_error(c, line,
			   "section [%s] differs from [%s] (line %d) only in case: names are case-sensitive (did you mean '[%s]'?)",
			   name, c->prof[i].name, c->prof[i].line,
			   c->prof[i].name);
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(reserved); i++) {
		if (strcasecmp(reserved[i], name) || !strcmp(reserved[i], name))
			continue;
		conf_error(c, line,
			   "section [%s] differs from [%s] only in case: names are case-sensitive (did you mean '[%s]'?)",
			   name, reserved[i], reserved[i]);
		return true;
	}
	return false;
}

static void parse_section(struct conf *c, struct pstate *st, char *s,
			  int line)
{
	char *end = strchr(s, ']'), *name, *rest, esc[CONF_MAX_LINE];
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
		conf_error(c, line, "unexpected text after ']': '%s'",
			   str_escape(rest, esc, sizeof(esc)));
		return;
	}
	name = str_trim(s + 1);
	if (!conf_valid_name(name)) {
		conf_error(c, line,
			   "expected a profile name (letters, digits, '_', '.', '-'; at most %d), got '[%s]'",
			   CONF_NAME_MAX, str_escape(name, esc, sizeof(esc)));
		return;
	}
	if (case_typo(c, name, line))
		return;
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

static void unknown_key(struct conf *c, int line, const char *key,
			const char *where, const char *sugg)
{
	char esc[CONF_MAX_LINE];

	/* The key as the file has it, but no escape sequence of it. */
	str_escape(key, esc, sizeof(esc));
	if (sugg)
		conf_error(c, line, "unknown key '%s'%s (did you mean '%s'?)",
			   esc, where, sugg);
	else
		conf_error(c, line, "unknown key '%s'%s", esc, where);
}

static void parse_acpi_key(struct conf *c, const char *key, const char *val,
			   int line)
{
	char norm[CONF_MAX_LINE], why[CONF_MAX_LINE + 128];
	size_t i;

	for (i = 0; i < A_NR; i++)
		if (!strcmp(conf_acpi_keys[i].name, key))
			break;
	if (i == A_NR) {
		unknown_key(c, line, key, " in [acpi]",
			    conf_suggest_acpi_key(key));
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
	char norm[CONF_MAX_LINE], why[CONF_MAX_LINE + 128], esc[CONF_MAX_LINE];
	char *eq = strchr(s, '='), *key, *val;
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
			   str_escape(key, esc, sizeof(esc)));
		return;
	}
	if (st->acpi) {
		parse_acpi_key(c, key, strip_comment(val), line);
		return;
	}
	k = conf_key_lookup(key);
	if (k < 0) {
		unknown_key(c, line, key, "", conf_suggest_key(key));
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

/*
 * Profiles in P's chain, P and [default] included, an implicit [default]
 * (named, not a section) too; the chain has no loop.
 */
static size_t chain_length(const struct conf *c, const struct conf_profile *p)
{
	const char *par;
	size_t n = 0;

	while (p && n <= c->nprof) {
		n++;
		par = conf_parent(p);
		if (!par)
			break;
		p = conf_find(c, par);
		if (!p)
			n++;
	}
	return n;
}

/*
 * A chain longer than CONF_MAX_INHERIT cannot be resolved whole: said
 * once, at the profile that makes it too long (its parent's is not),
 * with the chain, rather than cut short.
 */
static void check_depth(struct conf *c, const struct conf_profile *p)
{
	const struct conf_profile *q = p, *pp;
	const char *name = p->name, *par = conf_parent(p);
	size_t n = chain_length(c, p), i, used = 0;
	char chain[512];

	pp = par ? conf_find(c, par) : NULL;
	if (n <= CONF_MAX_INHERIT ||
	    (pp && chain_length(c, pp) > CONF_MAX_INHERIT))
		return;
	chain[0] = '\0';
	for (i = 0; i < n && used < sizeof(chain); i++) {
		/* The first four and the last two; the count says the rest. */
		if (i < 4 || i + 2 >= n)
			used += snprintf(chain + used, sizeof(chain) - used,
					 "%s%s", i ? " -> " : "", name);
		else if (i == 4)
			used += snprintf(chain + used, sizeof(chain) - used,
					 " -> ...");
		par = q ? conf_parent(q) : NULL;
		if (!par)
			break;
		name = par;
		q = conf_find(c, par);
	}
	conf_error(c, p->v[K_INHERIT].value ? p->v[K_INHERIT].line : p->line,
		   "key 'inherit': profile '%s' inherits through %zu profiles, more than %d: %s; make the chain shorter",
		   p->name, n, CONF_MAX_INHERIT, chain);
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
			par = conf_parent(q);
			q = par ? conf_find(c, par) : NULL;
			if (!q)
				break;
			if (q == p) {
				looped = true;
				break;
			}
		}
		if (!looped) {
			check_depth(c, p);
			continue;
		}
		/* Report each loop once, at its first member in the file. */
		used = snprintf(chain, sizeof(chain), "%s", p->name);
		q = p;
		for (j = 0; j <= c->nprof; j++) {
			q = conf_find(c, conf_parent(q));
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
	/* A UTF-8 byte-order mark (some editors write one) is no text. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
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
	char why[2 * PATH_MAX + 256];
	struct stat st;
	char *buf;
	size_t len = 0;
	ssize_t r;
	int fd, ret;

	free(c->path);
	c->path = strdup(path);
	/* A FIFO or a device is refused at once, never waited on. */
	fd = perm_open_regular(path, why, sizeof(why));
	if (fd == -EINVAL) {
		conf_error(c, 0, "%s; nothing was read from it", why);
		return fd;
	}
	if (fd < 0) {
		conf_error(c, 0, "cannot open: %s", why);
		return fd;
	}
	/*
	 * Root does what the file says (a target to overwrite, hooks and a
	 * module to run): a file anyone but root could have written is not
	 * read at all.  The owner and mode are those of the file opened
	 * here, not of whatever the path names later.
	 */
	if (fstat(fd, &st)) {
		ret = -errno;
		conf_error(c, 0, "cannot stat: %s", strerror(errno));
		close(fd);
		return ret;
	}
	c->have_stat = true;
	c->uid = st.st_uid;
	c->mode = st.st_mode;
	if (perm_owner_mode(path, st.st_uid, st.st_mode, why, sizeof(why))) {
		conf_error(c, 0, "refused: %s; nothing was read from it", why);
		close(fd);
		return -EPERM;
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
