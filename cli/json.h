/* SPDX-License-Identifier: GPL-2.0 */
/* --list-profiles --json. */
#ifndef HIB_JSON_H
#define HIB_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "conf.h"

/* IMPLICIT: [default] exists without a section in the file. */
void profiles_json(FILE *out, const struct conf *c, bool implicit);

#endif
