// SPDX-License-Identifier: GPL-2.0
/*
 * The dry run's plan, as text or as length-framed records (plan.h).
 * The text is for a terminal and may be ambiguous with hostile names in
 * it, but its fields are escaped (str_escape): no escape sequence or
 * carriage return in a path acts on the terminal, and a newline in one
 * starts no line.  The records never are ambiguous, since no byte of a
 * field is read as a separator.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/common.h"
#include "lib/plan.h"

static void put_field(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	fprintf(out, "%zu:", n);
	fwrite(s ? s : "", 1, n, out);
}

void plan_put(FILE *out, bool framed, enum plan_kind kind, const char *a,
	      const char *b)
{
	if (framed) {
		fputc('A' + kind, out);
		put_field(out, a);
		put_field(out, b);
		return;
	}
	switch (kind) {
	case PLAN_CHECK:
	case PLAN_FAILED:
		hib_print(out, "# check: %s\n", a);
		break;
	case PLAN_RESUME:
		hib_print(out, "# resume parameter: %s\n", a);
		break;
	case PLAN_MKDIR:
		hib_print(out, "mkdir %s\n", a);
		break;
	case PLAN_RMDIR:
		hib_print(out, "rmdir %s\n", a);
		break;
	case PLAN_WRITE:
		hib_print(out, "%s = %s\n", a, b);
		break;
	default:
		hib_print(out, "# %s\n", a);
		break;
	}
}

static bool get_field(const char **pos, const char *end, char **out)
{
	const char *p = *pos;
	size_t n = 0;

	while (p < end && *p >= '0' && *p <= '9') {
		if (n > (size_t)(end - p))
			return false;
		n = n * 10 + (*p++ - '0');
	}
	if (p >= end || *p++ != ':' || n > (size_t)(end - p))
		return false;
	*out = strndup(p, n);
	if (!*out)
		return false;
	*pos = p + n;
	return true;
}

bool plan_next(const char **pos, const char *end, enum plan_kind *kind,
	       char **a, char **b)
{
	const char *p = *pos;

	*a = NULL;
	*b = NULL;
	if (p >= end || *p < 'A' || *p > 'A' + PLAN_WRITE)
		return false;
	*kind = *p++ - 'A';
	if (!get_field(&p, end, a) || !get_field(&p, end, b)) {
		free(*a);
		*a = NULL;
		return false;
	}
	*pos = p;
	return true;
}
