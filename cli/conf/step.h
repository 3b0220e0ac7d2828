/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state one action's steps share (struct run), and what every step
 * uses: note() for the dry run's plan, apply_sets() for --set.  The steps
 * each live in the file of their job (trust.c, module.c, imgkey.c,
 * target.c, their headers); run.c, the top, calls them in order.  Nothing
 * below run.c includes run.h.
 */
#ifndef HIB_STEP_H
#define HIB_STEP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conf/caps.h"
#include "conf/conf.h"
#include "conf/options.h"
#include "conf/profile.h"
#include "lib/cfs.h"
#include "lib/common.h"

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

/* A line of the dry run's plan; nothing in a real run. */
void note(struct run *r, const char *fmt, ...) HIB_PRINTF(2, 3);
/* The --set overrides onto the resolved profile; 0 or HIB_EXIT_USAGE. */
int apply_sets(struct run *r);

#endif
