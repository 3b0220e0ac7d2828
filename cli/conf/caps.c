// SPDX-License-Identifier: GPL-2.0
/*
 * Parse "key: words..." lines.  Unknown keys are ignored so a newer
 * module with more capabilities still works with this tool.
 */
#include <stdio.h>
#include <string.h>

#include "conf/caps.h"
#include "conf/conf.h"
#include "lib/common.h"
#include "lib/strutil.h"

/* The module's built-in list of a key (kernel/suspend2/names.h). */
static void builtin(char *dst, size_t len, int key)
{
	snprintf(dst, len, "%s", conf_keys[key].choices);
	str_trim(dst);
}

void caps_builtin(struct caps *c)
{
	memset(c, 0, sizeof(*c));
	builtin(c->compressors, sizeof(c->compressors), K_COMPRESSOR);
	conf_level_names(c->levels, sizeof(c->levels));
	builtin(c->writers, sizeof(c->writers), K_WRITER);
	builtin(c->checksums, sizeof(c->checksums), K_CHECKSUM);
	builtin(c->powerdown, sizeof(c->powerdown), K_POWERDOWN);
	builtin(c->encryption, sizeof(c->encryption), K_ENCRYPTION);
	snprintf(c->keys, sizeof(c->keys), "keyring");
	snprintf(c->actions, sizeof(c->actions),
		 "hibernate test resume invalidate");
}

/*
 * The values end up in messages on the terminal: a control byte or one
 * above ASCII in the file (no module writes them) must not reach it raw.
 * A tab still separates words.
 */
static void printable(char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') ||
		    (unsigned char)*s >= 0x7f)
			*s = '?';
}

void caps_parse(struct caps *c, const char *text)
{
	static const struct {
		const char *key;
		size_t off;
	} map[] = {
		{ "compressors", offsetof(struct caps, compressors) },
		{ "levels", offsetof(struct caps, levels) },
		{ "writers", offsetof(struct caps, writers) },
		{ "checksums", offsetof(struct caps, checksums) },
		{ "powerdown", offsetof(struct caps, powerdown) },
		{ "encryption", offsetof(struct caps, encryption) },
		{ "keys", offsetof(struct caps, keys) },
		{ "actions", offsetof(struct caps, actions) },
		{ "tpm", offsetof(struct caps, tpm) },
		{ "tpm-refused", offsetof(struct caps, tpm_refused) },
	};
	const char *p = text;

	caps_builtin(c);
	c->from_module = true;
	/* A module without the line (loaded before levels existed) takes none. */
	c->levels[0] = '\0';
	while (*p) {
		size_t len = strcspn(p, "\n"), i;
		const char *colon = memchr(p, ':', len);

		for (i = 0; colon && i < ARRAY_SIZE(map); i++) {
			size_t klen = strlen(map[i].key);
			char *dst = (char *)c + map[i].off;
			char tmp[256];
			size_t vlen = len - klen - 1;

			if ((size_t)(colon - p) != klen ||
			    strncmp(p, map[i].key, klen))
				continue;
			/*
			 * A line that does not fit is ignored: cut short,
			 * "tpmfoo" would read as the word tpm.
			 */
			if (vlen >= sizeof(tmp))
				continue;
			snprintf(tmp, sizeof(tmp), "%.*s", (int)vlen,
				 colon + 1);
			snprintf(dst, 256, "%s", str_trim(tmp));
			printable(dst);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
}

void caps_drop_partial(char *buf, size_t size)
{
	char *nl;

	if (strlen(buf) + 1 < size)
		return;
	nl = strrchr(buf, '\n');
	if (nl)
		*nl = '\0';
	else
		buf[0] = '\0';
}

/*
 * Only the module can tell: it lists tpm when there is a TPM 2.0 and the
 * kernel keeps PCR 23 to itself, which no built-in list knows.
 */
bool caps_key_tpm(const struct caps *c)
{
	return c->from_module && word_in_list(CONF_KEY_TPM, c->keys);
}

/* The list a profile key's value must come from, or NULL. */
const char *caps_list_for_key(const struct caps *c, int key)
{
	switch (key) {
	case K_WRITER:
		return c->writers;
	case K_COMPRESSOR:
		return c->compressors;
	case K_CHECKSUM:
		return c->checksums;
	case K_POWERDOWN:
		return c->powerdown;
	case K_ENCRYPTION:
		return c->encryption;
	}
	return NULL;
}
