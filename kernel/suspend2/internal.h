/* SPDX-License-Identifier: GPL-2.0 */
/*
 * suspend2: what the parts of the module share.  The configfs layer turns
 * text into these types and back; the core decides what to do with them.
 */
#ifndef _SUSPEND2_INTERNAL_H
#define _SUSPEND2_INTERNAL_H

#include <linux/mutex.h>
#include <linux/types.h>
#include "image/format.h"
#include "names.h"

#define S2_VERSION		"0.1.0"
#define S2_NAME_MAX		64
#define S2_TARGET_MAX		256
#define S2_WRITER_MAX		16
#define S2_REFUSED_MAX		1024
#define S2_KEYSPEC_MAX		128	/* "keyring:" and a name of up to 64 */
#define S2_KEYRING_PREFIX	"keyring:"
#define S2_KEYNAME_MAX		64
#define S2_KEY_TPM_SPEC		"tpm"	/* key = tpm: sealed to the TPM */

#define S2_STATE_ENUM(id, ...)		S2_##id,
enum s2_state {
	S2_STATES(S2_STATE_ENUM)
	S2_NR_STATES
};

enum s2_action {
	S2_ACT_HIBERNATE,
	S2_ACT_TEST,
	S2_ACT_RESUME,
	S2_ACT_INVALIDATE,
	S2_NR_ACTIONS
};

enum s2_powerdown {
	S2_PD_SHUTDOWN,
	S2_PD_PLATFORM,
	S2_PD_REBOOT,
	S2_PD_SUSPEND,		/* suspend to both: the image, then RAM */
	S2_NR_POWERDOWN
};

#define S2_PHASE_ENUM(id, ...)	S2_PH_##id,
enum s2_phase {
	S2_PHASES(S2_PHASE_ENUM)
	S2_NR_PHASES
};

#define S2_STATUS_ENUM(id, ...)	S2_ST_##id,
enum s2_status {
	S2_STATUSES(S2_STATUS_ENUM)
	S2_NR_STATUS
};

/* A profile's tunables, as the configfs layer validated them. */
struct s2_settings {
	char writer[S2_WRITER_MAX];
	char target[S2_TARGET_MAX];
	char compressor[S2_ALGO_LEN];
	u32 compress_threads;
	enum s2_checksum checksum;
	u64 image_size_limit;
	u64 image_size;		/* what the snapshot code shrinks memory to */
	u32 freezer_timeout_ms;
	u32 io_depth;
	enum s2_powerdown powerdown;
	u32 force;		/* bdev writer: accept a device in use */
	u32 abort_key;		/* Escape aborts the write */
	u32 abort_lid;		/* the lid opening does */
	u32 abort_ac;		/* external power plugged in does */
	enum s2_encryption encryption;
	char key[S2_KEYSPEC_MAX];	/* how the image key is kept */
};

static inline bool s2_key_is_tpm(const struct s2_settings *set)
{
	return !strcmp(set->key, S2_KEY_TPM_SPEC);
}

struct s2_results {
	enum s2_status status;
	int error;
	char error_msg[128];
	char profile[S2_NAME_MAX];
	char writer[S2_WRITER_MAX];
	char compressor[S2_ALGO_LEN];
	enum s2_checksum checksum;
	enum s2_encryption encryption;
	u64 time_us[S2_NR_PHASES];
	u64 offline_ms;
	u64 image_pages;
	u64 bytes_raw;
	u64 bytes_written;
	u64 write_kbps;
	u64 read_kbps;
	u32 threads;
	u64 pipeline_bytes;
	u64 write_cpu_wait_us;
	u64 write_io_wait_us;
	u64 read_cpu_wait_us;
	u64 read_io_wait_us;
	u64 write_crypt_us;
	u64 read_crypt_us;
	u64 read_feed_us;	/* the read's time in the snapshot code */
	u64 read_prepare_us;	/* of which its restore set-up */
	bool verified;
	unsigned long avenrun_saved[3];
	unsigned long avenrun_thaw[3];
	unsigned long avenrun_restored[3];
	char refused_tasks[S2_REFUSED_MAX];
	char woke_from[8];	/* "disk", "ram", or "" before a power down */
	u64 ram_sleep_ms;	/* suspend to both: time asleep in RAM */
	char aborted_by[4];	/* "key", "lid", "ac", or "" */
};

/*
 * powerdown = suspend needs a kernel that can suspend to RAM, and patch
 * 0009 of the series, which Kbuild looks for: DKMS may build this module
 * for a kernel patched before that patch existed.
 */
#if IS_ENABLED(CONFIG_SUSPEND) && defined(S2_HAVE_SUSPEND_TO_RAM)
#define S2_SUSPEND_TO_RAM	1
#else
#define S2_SUSPEND_TO_RAM	0
#endif

/* Whether this kernel offers word @i of @names (a choice it knows). */
bool s2_word_offered(const char * const *names, int i);

/* Names, in enum order, shared by configfs show/store and the log. */
extern const char * const s2_state_names[S2_NR_STATES];
extern const char * const s2_action_names[S2_NR_ACTIONS];
extern const char * const s2_powerdown_names[S2_NR_POWERDOWN];
extern const char * const s2_status_names[S2_NR_STATUS];
extern const char * const s2_checksum_names[2];
extern const char * const s2_encryption_names[S2_NR_ENC];
extern const char * const s2_compressor_names[];	/* NULL-terminated */

void s2_settings_default(struct s2_settings *set);

/* core/cycle.c */
enum s2_state s2_state_get(void);
bool s2_busy(void);
int s2_action_run(enum s2_action action, const struct s2_settings *set,
		  const char *profile);
int s2_resume_at_load(const char *device);

/* core/abort.c */
void s2_abort_init(void);
void s2_abort_exit(void);
/* The events that may abort the image write (profile keys abort_*). */
#define S2_ABORT_KEY		BIT(0)	/* Escape on a keyboard */
#define S2_ABORT_LID		BIT(1)	/* the lid opened */
#define S2_ABORT_AC		BIT(2)	/* external power plugged in */
void s2_abort_arm(unsigned int events);
unsigned int s2_abort_disarm(void);
bool s2_abort_requested(void);
bool s2_abort_close(void);
const char *s2_abort_why(void);

/* core/results.c */
void s2_results_get(struct s2_results *out);
void s2_results_begin(const struct s2_settings *set, const char *profile);
void s2_results_set_error(int error, const char *fmt, ...) __printf(2, 3);
void s2_results_note(const char *fmt, ...) __printf(1, 2);
struct s2_results *s2_results_lock(void);
void s2_results_unlock(void);

/* crypt/aead.c */
bool s2_aead_available(enum s2_encryption enc);

/* configfs/ */
int s2_configfs_init(void);
void s2_configfs_exit(void);
/* Run @action with the selected profile, as a write to action does. */
int s2_run_selected(enum s2_action action);
/*
 * A profile is selected, has a target, and hibernating with it gives an
 * image lockdown can allow (key tpm, an encryption).
 */
bool s2_selected_is_sealed(void);

/* core/delegate.c */
void s2_delegate_init(void);
void s2_delegate_exit(void);

#endif /* _SUSPEND2_INTERNAL_H */
