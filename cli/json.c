// SPDX-License-Identifier: GPL-2.0
/* --list-profiles --json: the configuration read and its profiles. */
#include <stdio.h>

#include "json.h"
#include "report.h"

void profiles_json(FILE *out, const struct conf *c, bool implicit)
{
	size_t i;

	fputs("{\"config\": ", out);
	json_string(out, c->path);
	fputs(", \"profiles\": [", out);
	if (implicit)
		json_string(out, CONF_DEFAULT_PROFILE);
	for (i = 0; i < c->nprof; i++) {
		if (i || implicit)
			fputs(", ", out);
		json_string(out, c->prof[i].name);
	}
	fputs("]}\n", out);
}
