// SPDX-License-Identifier: GPL-2.0
/*
 * String helpers.  Number parsing is strict on purpose: the kernel takes
 * plain decimal only, so anything we accept must convert to exactly that.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "strutil.h"

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

/* Rejects overlong forms, surrogates and code points above U+10FFFF. */
bool utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n, k;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		if (i + n >= len)
			return false;
		for (k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
		    (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}

/* A word as the kernel matches it: lower case letters, digits, '_'. */
bool str_is_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_')
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
