/* SPDX-License-Identifier: GPL-2.0 */
/* One cycle at a time: flock(2) on a lock file. */
#ifndef HIB_LOCK_H
#define HIB_LOCK_H

#include <stdbool.h>

#define LOCK_DEFAULT_PATH	"/run/hibernate.lock"

/*
 * Unsafe lock files, returned negated; above every errno so they never
 * mix with the real ones.  lock_strerror() says what is wrong.
 */
enum {
	LOCK_ESYMLINK = 4096,
	LOCK_ENOTREG,
	LOCK_EOWNER,
	LOCK_ELINKS,
};

const char *lock_path(void);
int lock_take(const char *path, int *fd);
int lock_probe(const char *path);
void lock_release(int fd);
const char *lock_strerror(int err);

#endif
