/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of an image header (format version 2) hibernate reads
 * before a resume (whether the image is encrypted, and what unwraps its
 * key) and for --status (whose image it is: release, time, size).
 * Offsets as in kernel/suspend2/image/format.h (struct s2_image_header,
 * little-endian); test_keyfile.c checks them.
 */
#ifndef HIB_IMGHDR_H
#define HIB_IMGHDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/wrap.h"

#define IMGHDR_MAGIC		"SUSPEND2"
#define IMGHDR_MAGIC_LEN	8
#define IMGHDR_VERSION		2
#define IMGHDR_OFF_VERSION	8
#define IMGHDR_OFF_RELEASE	24
#define IMGHDR_RELEASE_LEN	65
#define IMGHDR_OFF_COMPRESSOR	219
#define IMGHDR_COMPRESSOR_LEN	32
#define IMGHDR_OFF_IMAGE_PAGES	254
#define IMGHDR_OFF_DATA_BYTES	262
#define IMGHDR_OFF_CREATED	302
#define IMGHDR_OFF_ENCRYPTION	354
#define IMGHDR_OFF_KEY_SCHEME	358
#define IMGHDR_OFF_IMAGE_ID	362
#define IMGHDR_OFF_KEY_ID	378
#define IMGHDR_OFF_EPH_PUB	386
#define IMGHDR_OFF_WRAPPED	418
#define IMGHDR_SIZE		518
#define IMGHDR_PAGE		4096

/* encryption: the order of S2_ENCRYPTION_NAMES in names.h. */
#define IMGHDR_ENC_NONE		0

struct img_header {
	uint32_t version;
	uint64_t created_sec;
	char release[IMGHDR_RELEASE_LEN + 1];
	char compressor[IMGHDR_COMPRESSOR_LEN + 1];
	uint64_t image_pages;	/* pages of the snapshot */
	uint64_t data_bytes;	/* bytes stored, compressed */
	struct wrap_fields w;	/* encryption 0: unencrypted */
};

/*
 * A header page's bytes: 0, -EINVAL when they are no image header,
 * -EPROTO for another format version (h->version says which).
 */
int imghdr_parse(const uint8_t *buf, size_t len, struct img_header *h);
/*
 * The header page of the image at LOC ("DEVICE:PAGE", as anchor_state)
 * into buf (IMGHDR_PAGE bytes): 1, 0 when there is no image, -errno.
 */
int imghdr_read(const char *loc, uint8_t *buf);
/* The name of an encryption value, "unknown" past the list. */
const char *imghdr_encryption_name(uint32_t enc);
/* enc is one of the encryption values this hibernate knows. */
bool imghdr_encryption_known(uint32_t enc);

#endif
