// SPDX-License-Identifier: GPL-2.0
/*
 * Messages.  Errors and warnings go to stderr so that --json output on
 * stdout stays one parseable object; information goes to stdout unless
 * --quiet, details only with --verbose.  Whatever they say, a path, a
 * name or a value from a file, an argument or a disk, reaches the
 * terminal escaped (str_escape): no escape sequence in it acts there.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/common.h"
#include "lib/strutil.h"

int hib_verbosity;

/*
 * FMT with AP onto F, escaped but for a newline that ends FMT: one line
 * whatever the arguments hold, even a newline or a carriage return.
 */
static void vput(FILE *f, const char *fmt, va_list ap)
{
	size_t n = strlen(fmt);
	bool nl = n && fmt[n - 1] == '\n';
	char *text;
	int len;

	len = vasprintf(&text, fmt, ap);
	if (len < 0)
		return;
	if (nl && len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	else
		nl = false;
	str_put_escaped(f, text, "");
	if (nl)
		fputc('\n', f);
	free(text);
}

void hib_print(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(f, fmt, ap);
	va_end(ap);
}

static void vmsg(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(f, "hibernate: %s", prefix);
	vput(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

/* The first error of the run, for --json: why it stopped, in words. */
static char first_error[1024];
static bool have_error;

void hib_err(const char *fmt, ...)
{
	va_list ap;

	if (!have_error) {
		va_start(ap, fmt);
		vsnprintf(first_error, sizeof(first_error), fmt, ap);
		va_end(ap);
		have_error = true;
	}
	va_start(ap, fmt);
	vmsg(stderr, "", fmt, ap);
	va_end(ap);
}

const char *hib_first_error(void)
{
	return have_error ? first_error : NULL;
}

void hib_warn(const char *fmt, ...)
{
	va_list ap;

	if (hib_verbosity < 0)
		return;
	va_start(ap, fmt);
	vmsg(stderr, "warning: ", fmt, ap);
	va_end(ap);
}

void hib_alert(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(stderr, "warning: ", fmt, ap);
	va_end(ap);
}

/* Progress goes to stderr too: stdout carries the report or the plan. */
void hib_info(const char *fmt, ...)
{
	va_list ap;

	if (hib_verbosity < 0)
		return;
	va_start(ap, fmt);
	vmsg(stderr, "", fmt, ap);
	va_end(ap);
}

void hib_verbose(const char *fmt, ...)
{
	va_list ap;

	if (hib_verbosity < 1)
		return;
	va_start(ap, fmt);
	vmsg(stderr, "", fmt, ap);
	va_end(ap);
}
