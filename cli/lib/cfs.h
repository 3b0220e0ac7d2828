/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only code that touches the suspend2 configfs tree.  Every path is
 * relative to a root (--configfs DIR) so tests can use a plain directory,
 * and in dry-run mode every change is printed instead of made.
 */
#ifndef HIB_CFS_H
#define HIB_CFS_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#define CFS_DEFAULT_ROOT	"/sys/kernel/config/suspend2"
#define CFS_MOUNT_POINT		"/sys/kernel/config"

struct cfs {
	char root[PATH_MAX];
	bool dry_run;
	FILE *plan;		/* where dry-run prints the changes */
	bool framed;		/* as plan.h's records (--json), not text */
};

int cfs_init(struct cfs *c, const char *root, bool dry_run, FILE *plan);
bool cfs_is_default(const struct cfs *c);
const char *cfs_path(const struct cfs *c, const char *rel, char *buf,
		     size_t len);
bool cfs_exists(const struct cfs *c, const char *rel);
int cfs_read(const struct cfs *c, const char *rel, char *buf, size_t len);
int cfs_write(const struct cfs *c, const char *rel, const char *val);
int cfs_mkdir(const struct cfs *c, const char *rel);
int cfs_rmdir(const struct cfs *c, const char *rel);
bool cfs_other_profiles(const struct cfs *c, const char *name, char *buf,
			size_t len);

#endif
