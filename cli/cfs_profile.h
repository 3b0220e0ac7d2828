/* SPDX-License-Identifier: GPL-2.0 */
/* A resolved profile -> writes under profiles/NAME, checked by reading back. */
#ifndef HIB_CFS_PROFILE_H
#define HIB_CFS_PROFILE_H

#include "cfs.h"
#include "profile.h"

int cfs_write_profile(const struct cfs *c, const struct profile *p,
		      const char *target_dev);
int cfs_select_profile(const struct cfs *c, const char *name);
int errno_exit_code(int err);

#endif
