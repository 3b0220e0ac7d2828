/* SPDX-License-Identifier: GPL-2.0 */
/* The module's capabilities file, or the built-in list when not loaded. */
#ifndef HIB_CAPS_H
#define HIB_CAPS_H

#include <stdbool.h>

struct caps {
	char compressors[256];
	char levels[256];	/* compressors that take a level here */
	char writers[256];
	char checksums[256];
	char powerdown[256];
	char encryption[256];
	char keys[256];		/* key schemes: "keyring", "keyring tpm" */
	char actions[256];
	char tpm[256];		/* "none", "1.2", "2.0"; empty: not said */
	char tpm_refused[256];	/* why keys has no tpm, in the kernel's words */
	bool from_module;
};

void caps_builtin(struct caps *c);
void caps_parse(struct caps *c, const char *text);
/*
 * A capabilities file read into buf (size bytes) that filled it may end
 * in part of a line: that part is dropped, as a line that does not fit.
 */
void caps_drop_partial(char *buf, size_t size);
/* Room for a whole configfs attribute (a page), and its NUL. */
#define CAPS_FILE_MAX	(4096 + 1)
const char *caps_list_for_key(const struct caps *c, int key);
/* The module said it seals image keys to the TPM (keys: ... tpm). */
bool caps_key_tpm(const struct caps *c);

#endif
