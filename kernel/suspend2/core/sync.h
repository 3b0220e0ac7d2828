/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SUSPEND2_SYNC_H
#define _SUSPEND2_SYNC_H

/*
 * A sync with user space frozen that never waits forever: it fails with
 * -ETIMEDOUT (recorded in the results, naming what it waited on) when the
 * writeback makes no progress for S2_SYNC_STALL_MS; the caller thaws and
 * the sync completes in the background.
 */
#define S2_SYNC_STALL_MS	30000
#define S2_SYNC_MAX_MS		600000

int s2_sync_after_freeze(void);

#endif /* _SUSPEND2_SYNC_H */
