/* SPDX-License-Identifier: GPL-2.0 */
/* One cycle at a time: flock(2) on a lock file. */
#ifndef HIB_LOCK_H
#define HIB_LOCK_H

#include <stdbool.h>

#define LOCK_DEFAULT_PATH	"/run/hibernate.lock"

const char *lock_path(void);
int lock_take(const char *path, int *fd);
int lock_probe(const char *path);
void lock_release(int fd);

#endif
