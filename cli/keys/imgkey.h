/* SPDX-License-Identifier: GPL-2.0 */
/* The image key: --setup-key, the checks of a profile's key, unlocking. */
#ifndef HIB_IMGKEY_H
#define HIB_IMGKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "conf/profile.h"
#include "conf/step.h"

/*
 * --setup-key, first half: the profile resolved and --set applied; TPM
 * set when the key asked for is tpm (run.c then asks the module), else
 * setup_key() makes the key files.
 */
int setup_key_profile(struct run *r, bool *tpm);
int setup_key(struct run *r);
int setup_tpm_say(struct run *r);
int check_encryption(struct run *r);
int check_key_tpm(struct run *r);
int load_pubkey(struct run *r);
int unlock_image(struct run *r, const char *loc, int32_t *key_serial);
void drop_image_key(int32_t key_serial);

#endif
