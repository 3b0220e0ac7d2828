/* SPDX-License-Identifier: GPL-2.0 */
/* The target's checks, swap on demand, and where resume finds the image. */
#ifndef HIB_TARGET_H
#define HIB_TARGET_H

#include <stdbool.h>

#include "conf/step.h"

bool swap_writer(const struct run *r);
int swap_on_demand(struct run *r, bool on);
void print_resume_location(struct run *r);
int check_target(struct run *r, bool need_room);

#endif
