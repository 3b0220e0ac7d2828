// SPDX-License-Identifier: GPL-2.0
/*
 * Profile defaults and the names of enumerated settings, both from the
 * tables of names.h.
 */
#include <linux/string.h>
#include "../internal.h"

#define S2_WORD(s)	s,
const char * const s2_powerdown_names[S2_NR_POWERDOWN] = {
	S2_POWERDOWN_NAMES(S2_WORD)
};

bool s2_word_offered(const char * const *names, int i)
{
	if (names == s2_powerdown_names && i == S2_PD_SUSPEND)
		return S2_SUSPEND_TO_RAM;
	return true;
}

/* The image format numbers the checksums: names.h lists them in order. */
static_assert(S2_CHECKSUM_NONE == 0 && S2_CHECKSUM_CRC32C == 1);
const char * const s2_checksum_names[2] = {
	S2_CHECKSUM_NAMES(S2_WORD)
};

/* The image format numbers the AEADs the same way. */
static_assert(S2_ENC_NONE == 0 && S2_ENC_AES_GCM == 1 &&
	      S2_ENC_CHACHA20_POLY1305 == 2);
const char * const s2_encryption_names[S2_NR_ENC] = {
	S2_ENCRYPTION_NAMES(S2_WORD)
};

/* A default by how the tunable is kept; a text without one stays empty. */
#define S2_DEFAULT_text(set, name, def)					\
	strscpy((set)->name, #def, sizeof((set)->name))
#define S2_DEFAULT_index(set, name, def)				\
	((set)->name = match_string(s2_##name##_names,			\
				    ARRAY_SIZE(s2_##name##_names), #def))
#define S2_DEFAULT_aead			S2_DEFAULT_index
#define S2_DEFAULT_u32(set, name, def)	((set)->name = (def))
#define S2_DEFAULT_u64			S2_DEFAULT_u32
#define S2_DEFAULT(name, store, def, ...)				\
	S2_DEFAULT_##store(set, name, def);

void s2_settings_default(struct s2_settings *set)
{
	memset(set, 0, sizeof(*set));
	S2_TUNABLES(S2_DEFAULT)
}
