// SPDX-License-Identifier: GPL-2.0
/*
 * What the steps of an action share (step.h): note(), the dry run's plan
 * line of a check or a step, and the --set overrides.  Below every step
 * file and run.c, which calls them in order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/step.h"
#include "lib/plan.h"

/*
 * In a dry run checks are listed in the plan, as comments.  A failed
 * check returns the exit status the real run would return, in both
 * modes: the dry run stops where the real run would.  What a line is
 * (a check, a failed one, the resume parameter) is read from FMT, the
 * code's own words, never from what the arguments hold: a path with a
 * newline and "check: " in it stays one note.
 */
void note(struct run *r, const char *fmt, ...)
{
	static const struct {
		const char *prefix;
		enum plan_kind kind;
	} kinds[] = {
		{ "check: ", PLAN_CHECK },
		{ "resume parameter: ", PLAN_RESUME },
		{ "hibernate --dry-run: ", PLAN_HEAD },
	};
	enum plan_kind kind = PLAN_NOTE;
	size_t skip = 0, i;
	char *text;
	va_list ap;
	int n;

	if (!r->ctl->dry_run)
		return;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (strncmp(fmt, kinds[i].prefix, strlen(kinds[i].prefix)))
			continue;
		kind = kinds[i].kind;
		if (kind != PLAN_HEAD)
			skip = strlen(kinds[i].prefix);
	}
	/* A check that stops the real run says FAILED, in its format. */
	if (kind == PLAN_CHECK && strstr(fmt, "FAILED"))
		kind = PLAN_FAILED;
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	plan_put(r->plan, r->cfs.framed, kind, text + skip, NULL);
	free(text);
}

int apply_sets(struct run *r)
{
	const struct hib_ctl *ctl = r->ctl;
	char err[CONF_MAX_LINE + 256];
	int i;

	for (i = 0; i < ctl->nsets; i++) {
		if (profile_override(&r->prof, ctl->sets[i], err,
				     sizeof(err))) {
			hib_err("%s", err);
			fputs("Try 'hibernate --help' for more information.\n",
			      stderr);
			return HIB_EXIT_USAGE;
		}
	}
	return 0;
}
