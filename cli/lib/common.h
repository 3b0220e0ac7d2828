/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared definitions of the hibernate command: exit codes, messages and
 * the few macros every file uses.
 */
#ifndef HIB_COMMON_H
#define HIB_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HIB_VERSION "0.1"

/* Exit codes; hibernate(8) lists them under EXIT STATUS. */
#define HIB_EXIT_OK		0	/* done (or nothing to resume) */
#define HIB_EXIT_FAILURE	1	/* a check or a system call failed */
#define HIB_EXIT_USAGE		2	/* bad command line */
#define HIB_EXIT_CONFIG		3	/* bad configuration file or profile */
#define HIB_EXIT_KERNEL		4	/* the module refused a write */
#define HIB_EXIT_CYCLE		5	/* the cycle failed or was aborted */
#define HIB_EXIT_BUSY		6	/* another cycle or instance runs */
#define HIB_EXIT_PERM		7	/* not root, or an unsafe file */
#define HIB_EXIT_LOCKED		8	/* encrypted image left locked, intact */
#define HIB_EXIT_STALE		9	/* a refused image is still restorable */
/*
 * --resume, --invalidate: the profile names no target: nothing was ever
 * hibernated with it (every other configuration error is 3).
 */
#define HIB_EXIT_UNSET		10

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define HIB_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* -1 quiet, 0 normal, 1 and more verbose. */
extern int hib_verbosity;

void hib_err(const char *fmt, ...) HIB_PRINTF(1, 2);
void hib_warn(const char *fmt, ...) HIB_PRINTF(1, 2);
/*
 * A warning --quiet does not hide: data is about to be destroyed, or a key
 * made that is cheap to guess (--kdf insecure-test).
 */
void hib_alert(const char *fmt, ...) HIB_PRINTF(1, 2);
void hib_info(const char *fmt, ...) HIB_PRINTF(1, 2);
void hib_verbose(const char *fmt, ...) HIB_PRINTF(1, 2);
/*
 * Plain text for a terminal: FMT with its arguments escaped (str_escape),
 * a newline that ends FMT kept.  For reports; JSON escapes its own.
 */
void hib_print(FILE *f, const char *fmt, ...) HIB_PRINTF(2, 3);
/* The text of the first hib_err() of this process, or NULL. */
const char *hib_first_error(void);

#endif
