/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sequence behind each action (run.c), the top of the command: only
 * hibernate.c includes this.  The steps it calls are declared in the
 * headers of their files (trust.h, module.h, imgkey.h, target.h), their
 * shared state in step.h.
 */
#ifndef HIB_RUN_H
#define HIB_RUN_H

#include "conf/options.h"

/* Returns the exit status. */
int hib_run(const struct hib_ctl *ctl);

#endif
