/* SPDX-License-Identifier: GPL-2.0 */
/* results/ of the last cycle, as text for people and JSON for programs. */
#ifndef HIB_REPORT_H
#define HIB_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../kernel/suspend2/names.h"
#include "check/imghdr.h"
#include "conf/caps.h"
#include "conf/conf.h"
#include "lib/cfs.h"

#define PH_ENUM(id, name, title) PH_##id,
enum phase {
	S2_PHASES(PH_ENUM)
	PH_NR
};

struct results {
	char status[32];
	char error[512];
	char profile[80];
	char writer[32];
	char compressor[32];
	char checksum[32];
	char encryption[32];
	uint64_t time_us[PH_NR];
	uint64_t offline_ms;
	uint64_t image_pages;
	uint64_t bytes_raw;
	uint64_t bytes_written;
	uint64_t write_kbps;
	uint64_t read_kbps;
	bool verified;
	bool has_pipeline;	/* the module reports the attributes below */
	bool has_crypt_time;	/* and write_crypt_us, read_crypt_us */
	uint64_t threads;
	uint64_t pipeline_bytes;
	uint64_t write_cpu_wait_us;
	uint64_t write_io_wait_us;
	uint64_t read_cpu_wait_us;
	uint64_t read_io_wait_us;
	uint64_t write_crypt_us;	/* the workers' time in the AEAD */
	uint64_t read_crypt_us;
	uint64_t read_feed_us;		/* resume: in the snapshot code */
	uint64_t read_prepare_us;	/* of which the restore's set-up */
	char avenrun_saved[64];
	char avenrun_thaw[64];
	char avenrun_restored[64];
	char refused_tasks[2048];
	char woke_from[8];		/* "disk", "ram"; "" not back yet */
	uint64_t ram_sleep_ms;		/* suspend to both: asleep in RAM */
	char aborted_by[8];		/* "key", "lid", "ac"; "" none */
	/* Not from results/: the cycle's profile has key = tpm. */
	bool key_tpm;
};

#define STATUS_MAX_KEYFILES	16

/* The keys of encrypted images: the profile's, and the key files. */
struct status_keys {
	bool have_profile;	/* the configuration read and resolved */
	char profile[80];
	char encryption[32];
	char key[136];		/* empty: none */
	char dir[4096];
	int dir_err;		/* errno reading dir, 0 when read */
	unsigned int dir_mode;
	size_t nfiles;
	struct {
		char name[80];
		unsigned int mode;
	} files[STATUS_MAX_KEYFILES];
};

/* The image on the profile's target, as its header says (status.c). */
struct status_image {
	bool looked;		/* a profile resolved to look with */
	char profile[80];
	char target[4096];	/* the profile's target key */
	char loc[4096 + 32];	/* DEVICE:PAGE of the anchor */
	int where_err;		/* errno: LOC could not be worked out */
	int found;		/* 1 an anchor, 0 none, -errno unreadable */
	int hdr_err;		/* found: -EINVAL no header, -EPROTO version */
	struct img_header h;
	char running[IMGHDR_RELEASE_LEN + 1];	/* uname's release */
};

struct status {
	char version[128];
	char state[32];
	char profile[80];
	struct caps caps;
	struct results res;
	struct status_keys keys;	/* dir empty: not looked at */
	struct status_image img;
};

extern const char *const phase_names[PH_NR];

int results_read(const struct cfs *c, struct results *r);
void report_text(FILE *out, const struct results *r);
void report_json(FILE *out, const struct results *r);
int status_read(const struct cfs *c, struct status *s);
void status_text(FILE *out, const struct status *s);
void status_json(FILE *out, const struct status *s);
/*
 * --status without a status to read: why, and NEXT, what to do about it,
 * when not empty; the image, when looked for.  As text or one object.
 */
void status_failed_text(FILE *out, const char *root, const char *next,
			const struct status_image *img);
void status_json_failed(FILE *out, const char *root, bool loaded,
			const char *error, const char *next,
			const struct status_image *img);
void plan_json(FILE *out, const char *action, const char *profile,
	       const char *config, const char *plan, size_t len,
	       char *const *errors, size_t nerr, int status,
	       int real_refused);
void result_json(FILE *out, const char *action, const char *profile,
		 const char *config, char *const *errors, size_t nerr,
		 int status);
/* IMPLICIT: [default] exists without a section in the file. */
void profiles_json(FILE *out, const struct conf *c, bool implicit);

#endif
