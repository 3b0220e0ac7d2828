/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing the snapshot out as a suspend2 image, and reading it back.
 */
#ifndef _SUSPEND2_IMAGE_H
#define _SUSPEND2_IMAGE_H

#include <linux/types.h>
#include "../image/format.h"

struct s2_crypt;
struct s2_owner_key;
struct s2_settings;
struct s2_writer;

struct s2_write_stats {
	u64 image_pages;
	u64 bytes_written;
	u64 write_us;
	u64 nr_chunks;
	u32 threads;		/* compression threads used */
	u64 pipeline_bytes;	/* memory of the chunk ring and I/O buffers */
	u64 compress_wait_us;	/* writer waited for compression */
	u64 io_wait_us;		/* writer waited for the device */
	u64 crypt_us;		/* the workers' time sealing chunks */
	/*
	 * The anchor's write was submitted: after an error, it may still
	 * have reached the medium (a flush that failed after the write, a
	 * reply lost on the way back), so the image may be restorable.
	 */
	bool anchor_sent;
};

/* Timings of the hibernating kernel that only the image can carry over. */
struct s2_image_times {
	u64 created_sec;
	u64 snapshot_us;
};

/* The longest reason s2_image_write() gives, as results/error holds. */
#define S2_WHY_MAX	128

/*
 * Returns an error with *@why (S2_WHY_MAX bytes) saying why, in words.
 * With set->encryption, the image key is made in @crypt and wrapped for
 * @owner.
 */
int s2_image_write(struct s2_writer *w, const struct s2_settings *set,
		   struct s2_crypt *crypt, const struct s2_owner_key *owner,
		   const struct s2_image_times *times,
		   struct s2_write_stats *st, char *why);

/* An image found on a target, its header and block index in memory. */
struct s2_image {
	struct s2_image_header header;
	struct s2_index_page **index;
	u32 nr_index;
	struct s2_header_tpm *tpm;	/* key_scheme tpm: the sealed key */
	bool sealed;		/* its key is still to be unsealed */
	/*
	 * The counter value its header gives a key sealed to the TPM, 0
	 * for none; read before any check, so only ever used to retire
	 * the image (s2_image_sealed_counter()).
	 */
	u64 sealed_counter;
};

/*
 * An encrypted image's key is @crypt's when it has one (the test action
 * reads back what it wrote), else the one hibernate(8) put in the keyring:
 * -ENOKEY when there is none, and the image is left as it is.  A key
 * sealed to the TPM is not opened here but by s2_image_unseal(), once
 * user space is frozen: until then @img->sealed is set and its header
 * not yet authenticated.
 */
int s2_image_find(struct s2_writer *w, struct s2_image *img,
		  const struct s2_settings *set, struct s2_crypt *crypt,
		  const char **why);
int s2_image_unseal(struct s2_image *img, struct s2_crypt *crypt,
		    const char **why);
/*
 * The test action: the key sealed in the image it wrote opens, to the
 * key it wrote with (@crypt).  User space frozen.
 */
int s2_image_check_seal(const struct s2_image *img,
			const struct s2_crypt *crypt, const char **why);
void s2_image_put(struct s2_image *img);

struct s2_read_stats {
	u64 bytes_read;
	u64 read_us;
	u32 threads;
	u64 pipeline_bytes;
	u64 decompress_wait_us;	/* reader waited for decompression */
	u64 io_wait_us;		/* reader waited for the device */
	u64 crypt_us;		/* the workers' time opening chunks */
	u64 feed_us;		/* in the snapshot code, page by page */
	u64 prepare_us;		/* its longest chunk: the restore's set-up */
};

/*
 * Reads and verifies every chunk; with @restore, feeds the pages to the
 * snapshot code (which must be ready for snapshot_write_next()).
 */
int s2_image_load(struct s2_writer *w, struct s2_image *img,
		  const struct s2_settings *set, const struct s2_crypt *crypt,
		  bool restore, struct s2_read_stats *st, const char **why);

/*
 * Erases the anchor, so the image can never be found again, and reads it
 * back; -EIO if the anchor is still there (a device dropping writes).
 * @rewrite: write the page even when it holds no anchor.
 */
int s2_image_invalidate(struct s2_writer *w, bool rewrite);

/*
 * The TPM counter value the header of the image on @w's target gives its
 * sealed key, 0 when there is no anchor or no key sealed to the TPM.
 * Nothing of it is checked: a value root forged can only make the caller
 * move the counter past the newest image, which root can do anyway.
 */
int s2_image_sealed_counter(struct s2_writer *w, u64 *counter);

#endif /* _SUSPEND2_IMAGE_H */
