/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A resolved profile into the module's profiles/NAME (cfs_profile.c),
 * through the configfs access of cfs.h, which knows nothing of profiles.
 */
#ifndef HIB_CFS_PROFILE_H
#define HIB_CFS_PROFILE_H

#include "conf/profile.h"
#include "lib/cfs.h"

/* Every kernel key of P written and read back; an exit status. */
int cfs_write_profile(const struct cfs *c, const struct profile *p,
		      const char *target_dev);
int cfs_select_profile(const struct cfs *c, const char *name);
/* The exit status of a refused configfs write: busy, or the kernel's. */
int errno_exit_code(int err);

#endif
