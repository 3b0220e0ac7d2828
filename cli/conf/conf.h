/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hibernate.conf: INI sections, one per profile, plus the reserved [acpi]
 * section read by the ACPI scripts.  The parser records every error with
 * its file and line instead of stopping at the first one.
 */
#ifndef HIB_CONF_H
#define HIB_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CONF_DEFAULT_PATH	"/etc/hibernate.conf"
#define CONF_DEFAULT_PROFILE	"default"
#define CONF_ACPI_SECTION	"acpi"
#define CONF_MAX_LINE		1024
#define CONF_MAX_FILE		(1024 * 1024)
#define CONF_MAX_ERRORS		20
#define CONF_MAX_HOOKS		32
/* Profiles in one inheritance chain, the profile and [default] included. */
#define CONF_MAX_INHERIT	64
#define CONF_NAME_MAX		64
/*
 * hibernate_delay's bounds: long enough for the suspend to be done before
 * the alarm is due; a day, about as far as every PC's RTC can wake.
 */
#define CONF_DELAY_MIN		10
#define CONF_DELAY_MAX		86400

/* Keys in a profile.  The first CONF_KERNEL_KEYS map 1:1 to configfs. */
enum conf_key {
	K_WRITER,
	K_TARGET,
	K_COMPRESSOR,
	K_COMPRESS_THREADS,
	K_CHECKSUM,
	K_IMAGE_SIZE_LIMIT,
	K_IMAGE_SIZE,
	K_FREEZER_TIMEOUT_MS,
	K_IO_DEPTH,
	K_POWERDOWN,
	K_FORCE,
	K_ABORT_KEY,
	K_ABORT_LID,
	K_ABORT_AC,
	K_ENCRYPTION,
	K_KEY,
	K_INHERIT,
	K_PRE_HIBERNATE,
	K_POST_RESUME,
	K_HOOK_TIMEOUT,
	K_UNLOAD_MODULE,
	K_MODULE,
	K_RESUME_LOCATION,
	K_SWAP_ON_DEMAND,
	K_OVERWRITE_IN_USE,
	K_HIBERNATE_DELAY,
	K_NR
};
#define CONF_KERNEL_KEYS	(K_KEY + 1)

enum acpi_key {
	A_AC_PROFILE,
	A_BATTERY_PROFILE,
	A_LID,
	A_POWER_BUTTON,
	A_SLEEP_BUTTON,
	A_NR
};

enum conf_type {
	T_WORD,		/* kernel word; checked against capabilities later */
	T_COMPRESSOR,	/* a T_WORD, or WORD:LEVEL where names.h gives levels */
	T_CHOICE,	/* one of a fixed list */
	T_TARGET,	/* absolute path or UUID=, LABEL=, ... */
	T_RANGE,	/* decimal in [min, max] */
	T_SIZE,		/* bytes, K/M/G/T suffix allowed */
	T_BOOL,		/* yes/no */
	T_FLAG,		/* yes/no too, but the kernel attribute takes 1/0 */
	T_NAME,		/* a profile name */
	T_CMD,		/* shell command, may repeat */
	T_MODULE,	/* module name or path of a .ko */
	T_LOCATION,	/* DEVICE:PAGE, as resume_location reads */
	T_KEYSPEC,	/* keyring:NAME or tpm, the key an image is encrypted for */
};

/* key = keyring:NAME: NAME as the module takes it (configfs/parse.c). */
#define CONF_KEYRING_PREFIX	"keyring:"
/* key = tpm: the module seals the image key to the TPM; this word only. */
#define CONF_KEY_TPM		"tpm"
#define CONF_KEYNAME_MAX	64
#define CONF_KEYNAME_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

struct conf_key_info {
	const char *name;
	enum conf_type type;
	uint64_t min, max;
	const char *choices;	/* T_CHOICE, and the built-in list for T_WORD */
	const char *def;	/* NULL: no default */
};

extern const struct conf_key_info conf_keys[K_NR];
extern const struct conf_key_info conf_acpi_keys[A_NR];

struct conf_val {
	char *value;		/* normalised; NULL when unset */
	int line;
};

struct conf_cmd {
	char *cmd;
	int line;
};

struct conf_profile {
	char *name;
	int line;
	struct conf_val v[K_NR];
	struct conf_cmd pre[CONF_MAX_HOOKS];
	size_t npre;
	struct conf_cmd post[CONF_MAX_HOOKS];
	size_t npost;
};

struct conf {
	char *path;
	struct conf_profile *prof;
	size_t nprof;
	struct conf_val acpi[A_NR];
	int acpi_line;
	char *errors[CONF_MAX_ERRORS + 1];
	size_t nerr;
	/* Owner and mode of the file as read (fstat of the same fd). */
	bool have_stat;
	uid_t uid;
	mode_t mode;
};

void conf_init(struct conf *c);
void conf_free(struct conf *c);
/*
 * Read and parse PATH: 0, -EPERM when the file is not root's alone
 * (perm_owner_mode(): owned by root or the user running hibernate,
 * writable by no one else), checked before a byte of it is read, else
 * -errno; every problem is in c->errors.
 */
int conf_load(struct conf *c, const char *path);
int conf_parse_buffer(struct conf *c, const char *path, const char *buf,
		      size_t len);
void conf_print_errors(const struct conf *c);

int conf_check_value(const struct conf_key_info *k, const char *val,
		     char *norm, size_t normlen, char *why, size_t whylen);
bool conf_valid_keyname(const char *s);
const char *conf_compressor_name(const char *val, char *buf, size_t len);
void conf_level_names(char *buf, size_t len);
int conf_key_lookup(const char *name);
const char *conf_suggest_key(const char *name);
const char *conf_suggest_acpi_key(const char *name);
bool conf_valid_name(const char *s);
const struct conf_profile *conf_find(const struct conf *c, const char *name);
const char *conf_suggest_profile(const struct conf *c, const char *name);
const char *conf_parent(const struct conf_profile *p);

#endif
