/* SPDX-License-Identifier: GPL-2.0 */
/* A profile with inheritance, defaults and --set applied. */
#ifndef HIB_PROFILE_H
#define HIB_PROFILE_H

#include "conf/conf.h"

/* Where a resolved value came from, for messages. */
struct prof_val {
	const char *value;
	const char *file;	/* NULL: built-in default */
	int line;		/* 0 with file set: the command line */
};

struct profile {
	const char *name;
	struct prof_val v[K_NR];
	const struct conf_cmd *pre, *post;
	size_t npre, npost;
	const char *hook_file;
	/* Derived from v[], set by conf_resolve() and profile_override(). */
	unsigned int hook_timeout;
	bool unload_module;
	bool swap_on_demand;
	char *owned[K_NR];	/* values from --set, freed by profile_free() */
};

int conf_resolve(const struct conf *c, const char *name, struct profile *p,
		 char *err, size_t errlen);
int profile_override(struct profile *p, const char *assignment,
		     char *err, size_t errlen);
int profile_check_key(const struct profile *p, char *err, size_t errlen);
void profile_free(struct profile *p);
const char *prof_where(const struct prof_val *pv, char *buf, size_t len);

#endif
