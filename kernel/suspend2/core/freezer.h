/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SUSPEND2_FREEZER_H
#define _SUSPEND2_FREEZER_H

#include <linux/types.h>

struct s2_freezer {
	unsigned int saved_timeout_ms;
	unsigned int timeout_ms;
	u64 kernel_freeze_us;	/* reported by the freezer during snapshot */
	bool user_frozen;	/* every user task froze */
	bool wakeup_aborted;	/* a wakeup event ended a freeze */
};

int s2_freeze_user(struct s2_freezer *fz, unsigned int timeout_ms);
void s2_freezer_done(struct s2_freezer *fz);
void s2_freezer_snapshot_failed(struct s2_freezer *fz, int error);

#endif /* _SUSPEND2_FREEZER_H */
