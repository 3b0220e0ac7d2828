/* SPDX-License-Identifier: GPL-2.0 */
/* Is there a suspend2 image at a resume location?  Read-only. */
#ifndef HIB_ANCHOR_H
#define HIB_ANCHOR_H

#define ANCHOR_PAGE	4096
/* The last bytes of the anchor page, as docs/configfs.md places them. */
#define ANCHOR_SIG	"S2SUSPEND"
#define ANCHOR_SIG_LEN	10
/* struct s2_anchor: header_page (le64) first, sig last. */
#define ANCHOR_SIZE	36

/*
 * LOC is "DEVICE:PAGE" (a path or UUID=..., as resume_location reads).
 * Returns 1 when the page holds an image's anchor, 0 when it does not,
 * else -errno.
 */
int anchor_state(const char *loc);

#endif
