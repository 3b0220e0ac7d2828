// SPDX-License-Identifier: GPL-2.0
/* JSON text: strings and arrays of words, for the reports' objects. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lib/strutil.h"

/*
 * A JSON string of S, valid UTF-8 whatever S holds: what comes from the
 * kernel (task names cut at 15 bytes, errors cut at a buffer's end) or
 * from a file may end inside a character or not be UTF-8 at all, and a
 * strict parser refuses the whole document for one bad byte.  Each byte
 * that does not start a valid character becomes U+FFFD.
 */
void json_string(FILE *out, const char *s)
{
	size_t len = strlen(s), n;

	fputc('"', out);
	while (*s) {
		unsigned char ch = *s;

		n = utf8_char_len(s, len);
		if (!n) {
			fputs("\\ufffd", out);
			n = 1;
		} else if (ch == '"' || ch == '\\') {
			fprintf(out, "\\%c", ch);
		} else if (ch == '\n') {
			fputs("\\n", out);
		} else if (ch == '\t') {
			fputs("\\t", out);
		} else if (ch < 0x20 || ch == 0x7f) {
			fprintf(out, "\\u%04x", ch);
		} else {
			fwrite(s, 1, n, out);
		}
		s += n;
		len -= n;
	}
	fputc('"', out);
}

/* The pieces of @list between @seps, as a JSON array of strings. */
void json_words(FILE *out, const char *list, const char *seps)
{
	char *tmp = strdup(list), *w, *save = NULL;
	bool first = true;

	fputc('[', out);
	for (w = tmp ? strtok_r(tmp, seps, &save) : NULL; w;
	     w = strtok_r(NULL, seps, &save)) {
		if (!first)
			fputs(", ", out);
		json_string(out, w);
		first = false;
	}
	fputc(']', out);
	free(tmp);
}
