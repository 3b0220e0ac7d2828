/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words of the enumerated profile settings, in one place for the
 * module and for hibernate(8), which checks a profile against them before
 * the module is loaded (so a dry run refuses what the module would).
 * Each list is an X-macro: S2_COMPRESSOR_NAMES(X) expands to X("none")
 * X("lzo") ..., so the module builds its name tables (X(s) as s,) and
 * the command its blank-separated lists (X(s) as s " ") from the same
 * text.  The order is the order of the module's tables and enums.
 * tests/unit/names.sh checks that the module's tables say the same.
 */
#ifndef _SUSPEND2_NAMES_H
#define _SUSPEND2_NAMES_H

#define S2_WRITER_NAMES(X)	X("swap") X("swapfile") X("file") X("bdev")
#define S2_COMPRESSOR_NAMES(X)	X("none") X("lzo") X("lz4") X("lz4hc") \
				X("zstd") X("deflate")
#define S2_CHECKSUM_NAMES(X)	X("none") X("crc32c")
#define S2_POWERDOWN_NAMES(X)	X("shutdown") X("platform") X("reboot")

#endif /* _SUSPEND2_NAMES_H */
