/* SPDX-License-Identifier: GPL-2.0 */
/* A resolved profile -> writes under profiles/NAME, checked by reading back. */
#ifndef HIB_PROFILE_H
#define HIB_PROFILE_H

#include "cfs.h"
#include "conf.h"

int profile_apply(const struct cfs *c, const struct profile *p,
		  const char *target_dev);
int profile_select(const struct cfs *c, const char *name);
int errno_exit_code(int err);

#endif
