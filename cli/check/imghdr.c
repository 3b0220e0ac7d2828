// SPDX-License-Identifier: GPL-2.0
/* Image header fields, read-only, little-endian on every host. */
#include <errno.h>
#include <string.h>

#include "../kernel/suspend2/names.h"
#include "check/imghdr.h"
#include "lib/common.h"

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

int imghdr_parse(const uint8_t *buf, size_t len, struct img_header *h)
{
	memset(h, 0, sizeof(*h));
	if (len < IMGHDR_SIZE || memcmp(buf, IMGHDR_MAGIC, IMGHDR_MAGIC_LEN))
		return -EINVAL;
	h->version = le32(buf + IMGHDR_OFF_VERSION);
	if (h->version != IMGHDR_VERSION)
		return -EPROTO;
	h->created_sec = le64(buf + IMGHDR_OFF_CREATED);
	memcpy(h->release, buf + IMGHDR_OFF_RELEASE, IMGHDR_RELEASE_LEN);
	h->release[IMGHDR_RELEASE_LEN] = '\0';
	memcpy(h->compressor, buf + IMGHDR_OFF_COMPRESSOR,
	       IMGHDR_COMPRESSOR_LEN);
	h->compressor[IMGHDR_COMPRESSOR_LEN] = '\0';
	h->image_pages = le64(buf + IMGHDR_OFF_IMAGE_PAGES);
	h->data_bytes = le64(buf + IMGHDR_OFF_DATA_BYTES);
	h->w.encryption = le32(buf + IMGHDR_OFF_ENCRYPTION);
	h->w.key_scheme = le32(buf + IMGHDR_OFF_KEY_SCHEME);
	memcpy(h->w.image_id, buf + IMGHDR_OFF_IMAGE_ID, WRAP_ID_LEN);
	memcpy(h->w.key_id, buf + IMGHDR_OFF_KEY_ID, WRAP_KEY_ID_LEN);
	memcpy(h->w.eph_pub, buf + IMGHDR_OFF_EPH_PUB, WRAP_KEY_LEN);
	memcpy(h->w.wrapped_key, buf + IMGHDR_OFF_WRAPPED, WRAP_WRAPPED_LEN);
	return 0;
}

const char *imghdr_encryption_name(uint32_t enc)
{
#define ENC_NAME(s) s,
	static const char *const names[] = { S2_ENCRYPTION_NAMES(ENC_NAME) };

	return enc < ARRAY_SIZE(names) ? names[enc] : "unknown";
}

bool imghdr_encryption_known(uint32_t enc)
{
	static const char *const names[] = { S2_ENCRYPTION_NAMES(ENC_NAME) };

	return enc < ARRAY_SIZE(names);
}
