// SPDX-License-Identifier: GPL-2.0
/*
 * String helpers.  Number parsing is strict on purpose: the kernel takes
 * plain decimal only, so anything we accept must convert to exactly that.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/common.h"
#include "lib/strutil.h"

char *str_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/* Drop the one trailing newline configfs adds to every value. */
void str_chomp(char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		s[n - 1] = '\0';
}

/*
 * /proc/mounts, mountinfo and /proc/swaps write a blank, tab, newline or
 * backslash in a path as \040, \011, \012, \134 (the kernel's
 * seq_file escapes), so the path is one field: undo that in place.
 */
void str_unoctal(char *s)
{
	char *w = s, c;

	for (; *s; s++, w++) {
		c = 0;
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7')
			c = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
		/* \000 is no path byte: kept as it is, not an early end. */
		if (c) {
			*w = c;
			s += 3;
		} else {
			*w = *s;
		}
	}
	*w = '\0';
}

/*
 * The decimal number at the start of @s, no sign, no blanks ("-1" must
 * not become 2^64 - 1); *end points past it.
 */
static int parse_leading_u64(const char *s, unsigned long long *v, char **end)
{
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	return errno == ERANGE ? -ERANGE : 0;
}

/* Plain decimal and nothing else. */
int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int err = parse_leading_u64(s, &v, &end);

	if (err)
		return err;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Decimal with an optional K, M, G or T suffix (powers of 1024). */
int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;
	int err = parse_leading_u64(s, &v, &end);

	if (err)
		return err;
	switch (toupper((unsigned char)*end)) {
	case '\0':
		break;
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	default:
		return -EINVAL;
	}
	if (shift) {
		end++;
		/* Accept "64M", "64MB", "64MiB" alike. */
		if (!strcasecmp(end, "iB") || !strcasecmp(end, "B"))
			end += strlen(end);
		if (*end)
			return -EINVAL;
		if (v > (~0ULL >> shift))
			return -ERANGE;
		v <<= shift;
	}
	*out = v;
	return 0;
}

/*
 * "DEVICE:PAGE" as the module's resume_location and resume= take it: an
 * absolute device path, a colon, a decimal page number, nothing else.
 */
int parse_location(const char *val, char *dev, size_t devlen, uint64_t *page)
{
	const char *colon = strrchr(val, ':');
	size_t n;

	if (val[0] != '/' || !colon || strchr(colon, '/'))
		return -EINVAL;
	if (parse_u64(colon + 1, page))
		return -EINVAL;
	n = colon - val;
	if (n < 2 || n >= devlen)
		return -EINVAL;
	memcpy(dev, val, n);
	dev[n] = '\0';
	return 0;
}

/* Levenshtein distance; keys are short, so the O(n*m) table is fine. */
size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65], prev, tmp;

	if (lb >= ARRAY_SIZE(row))
		lb = ARRAY_SIZE(row) - 1;
	if (la >= ARRAY_SIZE(row))
		la = ARRAY_SIZE(row) - 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/*
 * The length of the valid UTF-8 character at the start of @str (at most
 * @len bytes), or 0 when it is not one: a stray or missing continuation
 * byte, an overlong form, a surrogate, a code point above U+10FFFF.
 */
size_t utf8_char_len(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c;
	size_t n, k;
	uint32_t cp;

	if (!len)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0) {
		n = 1;
		cp = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2;
		cp = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n >= len)
		return 0;
	for (k = 1; k <= n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[k] & 0x3f);
	}
	if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
	    (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n + 1;
}

bool utf8_valid(const char *str, size_t len)
{
	size_t i = 0, n;

	while (i < len) {
		n = utf8_char_len(str + i, len - i);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

/*
 * A string cut at a byte count may end inside a character: drop that
 * partial character so the cut falls on a character boundary.  A lead
 * byte with fewer continuation bytes after it than it announces, at the
 * very end, is such a partial character; invalid bytes elsewhere stay
 * (the JSON writer replaces them).
 */
void utf8_cut_partial(char *str)
{
	unsigned char *s = (unsigned char *)str;
	size_t len = strlen(str), i, need;

	/* A character is at most 4 bytes: look at the last 3 only. */
	for (i = len; i > 0 && len - i < 3; i--) {
		unsigned char c = s[i - 1];

		if ((c & 0xc0) == 0x80)
			continue;	/* continuation: keep looking back */
		if (c < 0x80)
			return;
		need = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
		       (c & 0xf8) == 0xf0 ? 4 : 0;
		if (need && len - (i - 1) < need)
			s[i - 1] = '\0';
		return;
	}
}

/* A word as the kernel matches it: lower case letters, digits, '_', '-'. */
bool str_is_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

/* Whole-word match in a blank-separated list: "lz4" never hits "lz4hc". */
bool word_in_list(const char *word, const char *list)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t\n");
		if (len == n && n && !strncmp(p, word, n))
			return true;
		p += len;
		while (*p == '\n')
			p++;
	}
	return false;
}

/* A C1 control (U+0080 to U+009F) in UTF-8: C2 80 to C2 9F. */
static bool c1_control(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

/*
 * Whether S holds a byte a terminal acts on: a C0 control, DEL, or a C1
 * control (U+009B is a CSI to many terminals, as ESC [ is).
 */
bool str_has_control(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (*p < 0x20 || *p == 0x7f || c1_control(p))
			return true;
	return false;
}

/*
 * The character at S (at most LEN bytes) as a terminal may be shown it,
 * into ONE: itself, or a control written out (\x1b, \u009b), or a byte
 * that starts no valid UTF-8 character as \xff (a lone 0x9b is a CSI to
 * an 8-bit terminal).  Returns how many bytes of S it took.
 */
static size_t escape_one(const char *s, size_t len, char one[8])
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = utf8_char_len(s, len);

	if (!n || *p < 0x20 || *p == 0x7f) {
		snprintf(one, 8, "\\x%02x", *p);
		return 1;
	}
	if (c1_control(p)) {
		snprintf(one, 8, "\\u%04x", p[1]);
		return 2;
	}
	memcpy(one, s, n);
	one[n] = '\0';
	return n;
}

/*
 * S for a message, its controls and invalid bytes written out so that
 * what a file, an argument or a disk says never reaches the terminal as
 * an escape sequence; cut to BUF's size on a whole character.  The
 * result is valid UTF-8.  Returns BUF.
 */
const char *str_escape(const char *s, char *buf, size_t len)
{
	size_t left = strlen(s), used = 0, n;
	char one[8];

	if (!len)
		return buf;
	buf[0] = '\0';
	while (left) {
		n = escape_one(s, left, one);
		if (used + strlen(one) + 1 > len)
			break;
		memcpy(buf + used, one, strlen(one) + 1);
		used += strlen(one);
		s += n;
		left -= n;
	}
	return buf;
}

/*
 * S onto F as str_escape() writes it, whatever its length, but for the
 * bytes in KEEP: "\n" for text of many lines that the code composed from
 * words that hold none.
 */
void str_put_escaped(FILE *f, const char *s, const char *keep)
{
	size_t left = strlen(s), n;
	char one[8];

	while (left) {
		if (*keep && strchr(keep, *s)) {
			fputc(*s, f);
			n = 1;
		} else {
			n = escape_one(s, left, one);
			fputs(one, f);
		}
		s += n;
		left -= n;
	}
}
