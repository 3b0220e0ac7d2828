/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --status beyond the module's attributes: whether an image waits on the
 * profile's target and whose it is, and what to do when the module is
 * not loaded.  Read-only.
 */
#ifndef HIB_STATUS_H
#define HIB_STATUS_H

#include <stddef.h>

#include "conf/profile.h"
#include "cycle/report.h"
#include "lib/cfs.h"

/* The image at profile P's resume location; P NULL: none looked for. */
void status_image(const struct cfs *c, const struct profile *p,
		  struct status_image *img);
/* What to do when C's directory does not exist (P's module, if any). */
void status_next(const struct cfs *c, const struct profile *p, char *out,
		 size_t len);
/* Profile P's keys (NULL: none), and the key files' modes. */
void status_keys(const struct profile *p, struct status_keys *k);

#endif
