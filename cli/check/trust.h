/* SPDX-License-Identifier: GPL-2.0 */
/* Who may run an action, and whose hooks and module it may run. */
#ifndef HIB_TRUST_H
#define HIB_TRUST_H

#include <stdbool.h>

#include "conf/step.h"

bool needs_root(const struct hib_ctl *ctl, const struct cfs *c);
void note_root(struct run *r);
int check_hooks(struct run *r);
int check_module_trust(struct run *r);

#endif
