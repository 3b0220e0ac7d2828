/* SPDX-License-Identifier: GPL-2.0 */
/* The sequence behind each action; returns the exit status. */
#ifndef HIB_RUN_H
#define HIB_RUN_H

#include "options.h"

int hib_run(const struct hib_ctl *ctl);

#endif
