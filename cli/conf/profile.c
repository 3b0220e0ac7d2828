// SPDX-License-Identifier: GPL-2.0
/*
 * Profile resolution: the profile's own keys, then its parents' up the
 * inherit chain, then the built-in defaults; --set on top of that.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/profile.h"
#include "lib/common.h"
#include "lib/strutil.h"

/* The values the command acts on, from whichever layer set the key. */
static void derive(struct profile *p)
{
	p->hook_timeout = atoi(p->v[K_HOOK_TIMEOUT].value);
	p->unload_module = !strcmp(p->v[K_UNLOAD_MODULE].value, "yes");
	p->swap_on_demand = !strcmp(p->v[K_SWAP_ON_DEMAND].value, "yes");
}

int conf_resolve(const struct conf *c, const char *name, struct profile *p,
		 char *err, size_t errlen)
{
	const struct conf_profile *chain[CONF_MAX_INHERIT];
	const struct conf_profile *cp;
	size_t n = 0, i;
	int k;

	memset(p, 0, sizeof(*p));
	cp = conf_find(c, name);
	if (!cp && strcmp(name, CONF_DEFAULT_PROFILE)) {
		const char *s = conf_suggest_profile(c, name);

		char esc[4 * CONF_NAME_MAX + 8];

		snprintf(err, errlen, "%s: no profile '%s'%s%s%s (see --list-profiles)",
			 c->path ? c->path : "config",
			 str_escape(name, esc, sizeof(esc)),
			 s ? " (did you mean '" : "", s ? s : "",
			 s ? "'?)" : "");
		return -ENOENT;
	}
	while (cp && n < ARRAY_SIZE(chain)) {
		const char *par = conf_parent(cp);

		chain[n++] = cp;
		cp = par ? conf_find(c, par) : NULL;
	}
	/* The parser refuses it (check_depth()): never a silent cut. */
	if (cp) {
		snprintf(err, errlen,
			 "%s: profile '%s' inherits through more than %d profiles",
			 c->path ? c->path : "config", name, CONF_MAX_INHERIT);
		return -ELOOP;
	}
	p->name = name;
	for (k = 0; k < K_NR; k++) {
		p->v[k].value = conf_keys[k].def;
		for (i = 0; i < n; i++) {
			if (chain[i]->v[k].value) {
				p->v[k].value = chain[i]->v[k].value;
				p->v[k].file = c->path;
				p->v[k].line = chain[i]->v[k].line;
				break;
			}
		}
	}
	/* A profile's hook list replaces its parent's as a whole. */
	for (i = 0; i < n; i++) {
		if (chain[i]->npre) {
			p->pre = chain[i]->pre;
			p->npre = chain[i]->npre;
			break;
		}
	}
	for (i = 0; i < n; i++) {
		if (chain[i]->npost) {
			p->post = chain[i]->post;
			p->npost = chain[i]->npost;
			break;
		}
	}
	p->hook_file = c->path;
	derive(p);
	return 0;
}

/* --set KEY=VALUE: one more layer on top of the resolved profile. */
int profile_override(struct profile *p, const char *assignment,
		     char *err, size_t errlen)
{
	char key[64], norm[CONF_MAX_LINE], why[CONF_MAX_LINE + 128];
	char esc[256];
	const char *eq = strchr(assignment, '='), *sugg;
	size_t klen;
	int k;

	if (!eq || eq == assignment ||
	    (size_t)(eq - assignment) >= sizeof(key)) {
		snprintf(err, errlen, "--set: expected KEY=VALUE, got '%s'",
			 str_escape(assignment, esc, sizeof(esc)));
		return -EINVAL;
	}
	klen = eq - assignment;
	memcpy(key, assignment, klen);
	key[klen] = '\0';
	k = conf_key_lookup(key);
	if (k < 0 || k == K_INHERIT || k == K_PRE_HIBERNATE ||
	    k == K_POST_RESUME) {
		sugg = k < 0 ? conf_suggest_key(key) : NULL;
		snprintf(err, errlen, "--set: %s key '%s'%s%s%s",
			 k < 0 ? "unknown" : "cannot override",
			 str_escape(key, esc, sizeof(esc)),
			 sugg ? " (did you mean '" : "", sugg ? sugg : "",
			 sugg ? "'?)" : "");
		return -EINVAL;
	}
	if (conf_check_value(&conf_keys[k], eq + 1, norm, sizeof(norm), why,
			     sizeof(why))) {
		snprintf(err, errlen, "--set: key '%s': %s", key, why);
		return -EINVAL;
	}
	free(p->owned[k]);
	p->owned[k] = strdup(norm);
	if (!p->owned[k])
		return -ENOMEM;
	p->v[k].value = p->owned[k];
	p->v[k].file = "command line";
	p->v[k].line = 0;
	derive(p);
	return 0;
}

void profile_free(struct profile *p)
{
	int k;

	for (k = 0; k < K_NR; k++) {
		free(p->owned[k]);
		p->owned[k] = NULL;
	}
}

const char *prof_where(const struct prof_val *pv, char *buf, size_t len)
{
	if (!pv->file)
		snprintf(buf, len, "built-in default");
	else if (!pv->line)
		snprintf(buf, len, "%s", pv->file);
	else
		snprintf(buf, len, "%s:%d", pv->file, pv->line);
	return buf;
}

/*
 * What no single key says: encryption other than none needs the key the
 * image is written for.  0, or -EINVAL and err.
 */
int profile_check_key(const struct profile *p, char *err, size_t errlen)
{
	const char *enc = p->v[K_ENCRYPTION].value;
	char where[PATH_MAX + 32];

	if (!enc || !strcmp(enc, "none") || p->v[K_KEY].value)
		return 0;
	snprintf(err, errlen,
		 "%s: profile %s: encryption %s needs key = keyring:NAME (create one with hibernate --setup-key) or key = tpm",
		 prof_where(&p->v[K_ENCRYPTION], where, sizeof(where)),
		 p->name, enc);
	return -EINVAL;
}
