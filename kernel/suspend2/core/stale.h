/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SUSPEND2_STALE_H
#define _SUSPEND2_STALE_H

struct s2_settings;

/* Keep trying to clear the anchor of the image on @set's target. */
void s2_stale_watch(const struct s2_settings *set);
void s2_stale_exit(void);

#endif /* _SUSPEND2_STALE_H */
