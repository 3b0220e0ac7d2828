/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SUSPEND2_STALE_H
#define _SUSPEND2_STALE_H

#include <linux/types.h>
#include "../internal.h"

/* Keep trying to clear the anchor of the image on @set's target. */
void s2_stale_watch(const struct s2_settings *set);
/* A retry is running now (it holds the cycle mutex). */
bool s2_stale_retrying(void);
/*
 * Around a user's action: wait for a retry in progress and keep the next
 * one off; then retry later, unless @action on @set's target ended the
 * stale image (an invalidate, a cycle that succeeded).
 */
void s2_stale_hold(void);
void s2_stale_release(enum s2_action action, const struct s2_settings *set,
		      int error);
void s2_stale_exit(void);

#endif /* _SUSPEND2_STALE_H */
