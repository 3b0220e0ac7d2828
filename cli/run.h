/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sequence behind each action (run.c) and the steps it takes, each in
 * the file of its job: trust.c, module.c, target.c.
 */
#ifndef HIB_RUN_H
#define HIB_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "caps.h"
#include "cfs.h"
#include "common.h"
#include "conf.h"
#include "options.h"
#include "profile.h"

struct run {
	const struct hib_ctl *ctl;
	struct cfs cfs;
	struct conf conf;
	struct profile prof;
	struct caps caps;
	char target[PATH_MAX];
	bool swapped_on;	/* swap_on_demand: we enabled the target */
	bool target_location;	/* target is DEVICE:PAGE (target.c) */
	int lock_fd;
	FILE *plan;		/* dry run: stdout, or a buffer for --json */
	bool json_out;		/* --json: the report is printed already */
	/* A dry run a real run would refuse (not root): its exit status. */
	int real_refused;
	/* encryption != none: the key the image is written for. */
	bool encrypted;
	bool tpm;		/* key = tpm: sealed by the module, no key file */
	char key_name[CONF_KEYNAME_MAX + 1];
	uint8_t pub[32];
};

/* Returns the exit status. */
int hib_run(const struct hib_ctl *ctl);
void note(struct run *r, const char *fmt, ...) HIB_PRINTF(2, 3);
int setup_tpm(struct run *r);
/* The --set overrides onto the resolved profile; 0 or HIB_EXIT_USAGE. */
int apply_sets(struct run *r);

/* trust.c */
bool needs_root(const struct hib_ctl *ctl, const struct cfs *c);
void note_root(struct run *r);
int check_hooks(struct run *r);
int check_module_trust(struct run *r);

/* module.c */
int check_module_file(struct run *r);
int setup_module(struct run *r);
int check_words(struct run *r);
int check_module(struct run *r);
void read_caps(struct run *r);
void unload(struct run *r);

/* json.c; IMPLICIT: [default] exists without a section in the file. */
void profiles_json(FILE *out, const struct conf *c, bool implicit);

/* imgkey.c */
int setup_key(struct run *r);
int setup_tpm_say(struct run *r);
int check_encryption(struct run *r);
int check_key_tpm(struct run *r);
int load_pubkey(struct run *r);
int unlock_image(struct run *r, const char *loc, int32_t *key_serial);
void drop_image_key(int32_t key_serial);
struct status_keys;
void status_keys(const struct profile *p, struct status_keys *k);

/* target.c */
bool swap_writer(const struct run *r);
int swap_on_demand(struct run *r, bool on);
void print_resume_location(struct run *r);
int check_target(struct run *r, bool need_room);

#endif
