/* SPDX-License-Identifier: GPL-2.0 */
/* JSON output of the configuration (report.h has the module's). */
#ifndef HIB_JSON_H
#define HIB_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "conf.h"

void profiles_json(FILE *out, const struct conf *c, bool implicit);

#endif
