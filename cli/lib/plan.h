/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan of a dry run: its checks, notes and configfs changes, in
 * order.  Printed as text for people ("# check: ...", "PATH = VALUE"),
 * or kept as records for --json, whose kind is what the code says it
 * is: a path or a name holding a newline cannot make a line that reads
 * as a check, a write or the resume parameter.
 */
#ifndef HIB_PLAN_H
#define HIB_PLAN_H

#include <stdbool.h>
#include <stdio.h>

enum plan_kind {
	PLAN_HEAD,	/* "hibernate --dry-run: ...": what is checked */
	PLAN_NOTE,	/* what a real run would do besides configfs */
	PLAN_CHECK,	/* a check that passed or was not needed */
	PLAN_FAILED,	/* a check the real run would stop at */
	PLAN_RESUME,	/* the resume parameter */
	PLAN_MKDIR,
	PLAN_RMDIR,
	PLAN_WRITE,	/* A = B */
};

/*
 * One step into OUT: as text, or when FRAMED as a record (the kind, then
 * each of A and B as its length and bytes) that plan_next() reads back.
 * B is for PLAN_WRITE only.
 */
void plan_put(FILE *out, bool framed, enum plan_kind kind, const char *a,
	      const char *b);
/*
 * The record at *POS (before END) of a framed plan: its kind, and A and
 * B as new strings the caller frees.  false at the end, or on a record
 * that is not whole.
 */
bool plan_next(const char **pos, const char *end, enum plan_kind *kind,
	       char **a, char **b);

#endif
