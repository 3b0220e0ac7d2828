/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crc32c (Castagnoli) bit by bit, as the image format's checksums are: for
 * the guest tools that read and reseal images (s2img, s2unwrap), which
 * are built one file each with no kernel headers.
 */
#ifndef S2_TOOLS_CRC32C_H
#define S2_TOOLS_CRC32C_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t crc32c(const uint8_t *p, size_t len)
{
	uint32_t crc = ~0U;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78U & -(crc & 1));
	}
	return ~crc;
}

#endif
