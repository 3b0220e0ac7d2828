// SPDX-License-Identifier: GPL-2.0
/*
 * Profile defaults and the names of enumerated settings.
 */
#include <linux/string.h>
#include "../internal.h"

const char * const s2_powerdown_names[S2_NR_POWERDOWN] = {
	[S2_PD_SHUTDOWN] = "shutdown",
	[S2_PD_PLATFORM] = "platform",
	[S2_PD_REBOOT] = "reboot",
};

const char * const s2_checksum_names[2] = {
	[S2_CHECKSUM_NONE] = "none",
	[S2_CHECKSUM_CRC32C] = "crc32c",
};

void s2_settings_default(struct s2_settings *set)
{
	memset(set, 0, sizeof(*set));
	strscpy(set->writer, "swap", sizeof(set->writer));
	strscpy(set->compressor, "lzo", sizeof(set->compressor));
	set->compress_threads = 0;
	set->checksum = S2_CHECKSUM_CRC32C;
	set->image_size_limit = 0;
	set->freezer_timeout_ms = 20000;
	set->io_depth = 256;
	set->powerdown = S2_PD_SHUTDOWN;
}
