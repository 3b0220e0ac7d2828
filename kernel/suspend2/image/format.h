/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk format of a suspend2 image.  Pure data and pure functions: no
 * module state, so the KUnit suites compile it directly.
 *
 * Every location is a page number on the target device (device offset /
 * PAGE_SIZE), whatever the writer, so reading an image back needs only the
 * device and the anchor page.
 *
 *   anchor page   the writer's fixed page (page 0 of a swap partition):
 *                 its tail holds struct s2_anchor, pointing at the next page
 *   header page   struct s2_image_header: what the image is, where its index
 *                 starts
 *   index pages   a chain of struct s2_index_page listing, in order, the
 *                 pages that hold the data stream
 *   data stream   a byte stream of chunks, each a struct s2_chunk_header and
 *                 the chunk's stored (compressed or raw) bytes
 *
 * The anchor is written last, so an image whose writing was cut short is
 * never found.
 *
 * An encrypted image (format version 2) keeps this layout.  Each chunk's
 * stored bytes are AEAD ciphertext, its tag in the chunk header, its nonce
 * and associated data rebuilt by the reader from the chunk's place in the
 * stream (struct s2_chunk_nonce, struct s2_chunk_aad); the header carries
 * the image key wrapped for the key owner, a SHA-256 of the block index,
 * and a tag over everything before it.  docs/image-encryption.md has the
 * scheme and what it protects against.
 */
#ifndef _SUSPEND2_IMAGE_FORMAT_H
#define _SUSPEND2_IMAGE_FORMAT_H

#include <linux/types.h>
#include <asm/page.h>

#define S2_FORMAT_VERSION	2
#define S2_ANCHOR_SIG		"S2SUSPEND"	/* 9 bytes and a NUL: 10 */
#define S2_SIG_LEN		10
#define S2_IMAGE_MAGIC		"SUSPEND2"
#define S2_CHUNK_MAGIC		0x4b4e4843	/* "CHNK" */
#define S2_CHUNK_PAGES		32		/* raw pages per chunk */
#define S2_CHUNK_BYTES		(S2_CHUNK_PAGES * PAGE_SIZE)
#define S2_NAME_LEN		65		/* as in struct new_utsname */
#define S2_ALGO_LEN		32

/* s2_image_header.flags */
#define S2_FLAG_PLATFORM	0x1	/* restore through the platform (ACPI S4) */
#define S2_FLAGS_KNOWN		S2_FLAG_PLATFORM

/* Sizes of the encryption fields. */
#define S2_KEY_LEN		32	/* image key, X25519 keys */
#define S2_IMAGE_ID_LEN		16
#define S2_KEY_ID_LEN		8	/* SHA-256 of the public key, cut */
#define S2_TAG_LEN		16	/* AEAD tag */
#define S2_WRAPPED_LEN		(S2_KEY_LEN + S2_TAG_LEN)
#define S2_DIGEST_LEN		32	/* SHA-256 */
#define S2_NONCE_LEN		12

/* The most compression threads a cycle runs (compress_threads 0..64). */
#define S2_MAX_THREADS		64

enum s2_checksum {
	S2_CHECKSUM_NONE = 0,
	S2_CHECKSUM_CRC32C = 1,
};

/* The order of S2_ENCRYPTION_NAMES in names.h. */
enum s2_encryption {
	S2_ENC_NONE = 0,
	S2_ENC_AES_GCM = 1,
	S2_ENC_CHACHA20_POLY1305 = 2,
	S2_NR_ENC
};

/* How the image key is kept: s2_header_crypt.key_scheme. */
enum s2_key_scheme {
	S2_KEY_NONE = 0,	/* unencrypted image */
	S2_KEY_X25519 = 1,	/* wrapped for an X25519 public key */
	S2_KEY_TPM = 2,		/* sealed to the TPM: struct s2_header_tpm */
};

/* Lives at the end of the anchor page, where mkswap puts its signature. */
struct s2_anchor {
	__le64	header_page;
	__le32	header_crc;		/* ties the anchor to one header */
	__le32	reserved;
	char	orig_sig[S2_SIG_LEN];	/* what sig held before */
	char	sig[S2_SIG_LEN];
} __packed;

/*
 * The encryption fields of the header, all zero in an unencrypted image.
 * S2_KEY_X25519: the image key is wrapped with ChaCha20-Poly1305 under a
 * key derived (HKDF-SHA256) from X25519(eph, recipient): see crypt/wrap.c.
 * S2_KEY_TPM: the image key is sealed to the TPM; the sealed object is in
 * struct s2_header_tpm, further down the header page, and its SHA-256 is
 * here, so that the header tag covers it too (crypt/sealed.c).
 */
struct s2_header_crypt {
	__le32	encryption;		/* enum s2_encryption */
	__le32	key_scheme;		/* enum s2_key_scheme */
	u8	image_id[S2_IMAGE_ID_LEN];	/* random, one per image */
	u8	key_id[S2_KEY_ID_LEN];	/* which public key it was for */
	union {
		struct {		/* S2_KEY_X25519 */
			u8	eph_pub[S2_KEY_LEN];	/* ephemeral public key */
			u8	wrapped_key[S2_WRAPPED_LEN];
		} __packed;
		struct {		/* S2_KEY_TPM */
			u8	tpm_digest[S2_DIGEST_LEN];	/* of s2_header_tpm */
			u8	tpm_reserved[S2_KEY_LEN + S2_WRAPPED_LEN -
					     S2_DIGEST_LEN];	/* 0 */
		} __packed;
	};
	u8	index_digest[S2_DIGEST_LEN];	/* SHA-256 of the index pages */
} __packed;

/* The most bytes of sealed object a TPM-sealed image key may need. */
#define S2_TPM_BLOB_MAX		1024
/* Where struct s2_header_tpm lives in the header page. */
#define S2_HEADER_TPM_OFFSET	1024

/*
 * The image key sealed to the TPM (tpm/seal.c): the sealed object as the
 * TPM made it (TPM2B_PUBLIC, TPM2B_PRIVATE, TPM2B_CREATION_DATA,
 * TPMT_TK_CREATION), the boot PCRs its policy names, and the value the
 * TPM's image counter had (tpm/counter.c).  Hostile until
 * the TPM and the kernel's checks have opened it; then the header tag,
 * through tpm_digest, vouches for all of it.
 */
struct s2_header_tpm {
	__le32	blob_len;
	__le32	boot_pcrs;		/* bit n: PCR n; PCR 23 is implied */
	__le64	counter;		/* the TPM's image counter, not 0 */
	u8	blob[S2_TPM_BLOB_MAX];	/* then 0 up to the end */
} __packed;

struct s2_image_header {
	u8	magic[8];
	__le32	format_version;
	__le32	header_size;
	__le32	page_size;
	__le32	checksum;		/* enum s2_checksum */
	char	release[S2_NAME_LEN];
	char	version[S2_NAME_LEN];
	char	machine[S2_NAME_LEN];
	char	compressor[S2_ALGO_LEN];
	u8	pad[3];
	__le64	image_pages;		/* pages of the snapshot stream */
	__le64	data_bytes;		/* bytes of the stored data stream */
	__le64	data_pages;		/* pages holding the data stream */
	__le64	nr_chunks;
	__le64	first_index_page;
	__le32	index_pages;
	__le32	chunk_pages;
	__le64	created_sec;		/* wall clock at the atomic copy */
	__le64	snapshot_us;		/* how long the atomic copy took */
	__le64	write_us;		/* how long writing took */
	__le64	write_cpu_wait_us;	/* writing waited for compression */
	__le64	write_io_wait_us;	/* writing waited for the device */
	__le32	threads;		/* compression threads */
	__le32	write_crypt_us;		/* workers' time sealing, saturating */
	__le32	flags;
	struct s2_header_crypt crypt;
	u8	header_tag[S2_TAG_LEN];	/* AEAD tag over all fields before it */
	__le32	header_crc;		/* over the header, with this field 0 */
} __packed;

/* The header tag covers the header up to the tag. */
#define S2_HEADER_AAD_LEN	offsetof(struct s2_image_header, header_tag)

#define S2_INDEX_ENTRIES	((PAGE_SIZE - 16) / sizeof(__le64))

struct s2_index_page {
	__le64	next;			/* next index page, 0 on the last */
	__le32	count;			/* entries used */
	__le32	crc;			/* over the page, with this field 0 */
	__le64	entry[S2_INDEX_ENTRIES];
} __packed;

struct s2_chunk_header {
	__le32	magic;
	__le32	seq;			/* chunks are numbered from 0 */
	__le32	raw_len;
	__le32	stored_len;		/* == raw_len: stored uncompressed */
	__le32	crc;			/* over the stored bytes, 0 if none */
	__le32	reserved;
	u8	tag[S2_TAG_LEN];	/* AEAD tag, 0 in an unencrypted image */
} __packed;

/*
 * A chunk's AEAD nonce: the image id's first bytes and the chunk's
 * sequence number.  The key is new for every image, so the sequence alone
 * makes the nonce unique; the header's tag uses seq U64_MAX.
 */
struct s2_chunk_nonce {
	u8	id4[4];
	__le64	seq;
} __packed;

#define S2_HEADER_SEQ		U64_MAX

/*
 * A chunk's associated data, never stored: the reader builds it from
 * where the chunk should be (its expected seq) and from the authenticated
 * header, so a chunk moved, dropped, duplicated or taken from another
 * image fails its tag whatever its plaintext header says.
 */
struct s2_chunk_aad {
	u8	image_id[S2_IMAGE_ID_LEN];
	__le64	seq;
	__le64	nr_chunks;
	__le32	raw_len;
	__le32	stored_len;
} __packed;

/* What the writer knows when it seals the header. */
struct s2_image_info {
	const char *release;
	const char *version;
	const char *machine;
	const char *compressor;
	enum s2_checksum checksum;
	u64 image_pages;
	u64 data_bytes;
	u64 data_pages;
	u64 nr_chunks;
	u64 first_index_page;
	u64 created_sec;
	u64 snapshot_us;
	u64 write_us;
	u64 write_cpu_wait_us;
	u64 write_crypt_us;
	u64 write_io_wait_us;
	u32 threads;
	u32 flags;
	struct s2_header_crypt crypt;	/* all zero: unencrypted */
	const struct s2_header_tpm *tpm;	/* S2_KEY_TPM only */
};

/* The running kernel, to match an image against. */
struct s2_kernel_id {
	const char *release;
	const char *version;
	const char *machine;
	const char * const *compressors;	/* names it knows, NULL-ended */
	u32 aeads;		/* BIT(enum s2_encryption) it can decrypt */
};

/*
 * What an image found on a device must fit: the image is untrusted input,
 * so every size in it is checked against the device it was read from and
 * the memory it would be restored into before anything is allocated or
 * read because of it.
 */
struct s2_image_limits {
	u64 dev_pages;		/* pages of the target device */
	u64 ram_pages;		/* pages of memory (totalram_pages()) */
	u64 anchor_page;	/* where the anchor was read */
	u64 header_page;	/* where the anchor says the header is */
};

/*
 * Walking the block index, one page at a time, the reading done by the
 * caller: start at first_index_page, read the page at @where, hand it to
 * s2_index_walk_page(), repeat while it returns 0 and @left is not 0.
 * @locs (index_pages entries, the caller's) records where each index page
 * was, to detect a chain that loops back.
 */
struct s2_index_walk {
	const struct s2_image_limits *lim;
	u64 data_pages;
	u64 nr;			/* index pages the header announces */
	u64 done;		/* index pages accepted */
	u64 where;		/* page number of the next index page */
	u64 *locs;
};

u32 s2_crc32c(const void *buf, size_t len);
u64 s2_index_pages_for(u64 data_pages);
u64 s2_max_chunks_for(u64 image_pages);

void s2_header_seal(struct s2_image_header *h, const struct s2_image_info *info);
void s2_header_reseal_crc(struct s2_image_header *h);
bool s2_header_encrypted(const struct s2_image_header *h);
int s2_header_check(const struct s2_image_header *h,
		    const struct s2_kernel_id *kid,
		    const struct s2_image_limits *lim, const char **why);
int s2_header_tpm_check(const struct s2_header_tpm *t, const char **why);

void s2_anchor_set(struct s2_anchor *a, u64 header_page, u32 header_crc);
bool s2_anchor_is_image(const struct s2_anchor *a);
void s2_anchor_clear(struct s2_anchor *a);
int s2_anchor_check(const struct s2_anchor *a,
		    const struct s2_image_limits *lim, const char **why);

void s2_index_seal(struct s2_index_page *ip, u64 next, u32 count);
int s2_index_check(const struct s2_index_page *ip, u32 expected_count,
		   const char **why);
void s2_index_walk_start(struct s2_index_walk *iw,
			 const struct s2_image_header *h,
			 const struct s2_image_limits *lim, u64 *locs);
int s2_index_walk_page(struct s2_index_walk *iw,
		       const struct s2_index_page *ip, const char **why);
/*
 * The overlap check's map of the device's pages: one bit a page, up to
 * 2^27 of them (16 MiB, a device of 512 GiB with 4 KiB pages); a larger
 * device is checked a window of that many pages at a time.
 */
#define S2_OVERLAP_MAP_BITS	BIT(27)
unsigned int s2_overlap_map_bits(const struct s2_image_limits *lim);
int s2_index_overlaps(const struct s2_index_walk *iw,
		      const struct s2_index_page * const *index,
		      unsigned long *map, unsigned int map_bits,
		      const char **why);

void s2_chunk_seal(struct s2_chunk_header *ch, u32 seq, u32 raw_len,
		   u32 stored_len, u32 crc, const u8 *tag);
int s2_chunk_check(const struct s2_chunk_header *ch, u32 seq,
		   bool compressed, bool checksum, bool encrypted,
		   const char **why);

void s2_chunk_nonce_fill(struct s2_chunk_nonce *n, const u8 *image_id,
			 u64 seq);
void s2_chunk_aad_fill(struct s2_chunk_aad *aad, const u8 *image_id, u64 seq,
		       u64 nr_chunks, u32 raw_len, u32 stored_len);

#endif /* _SUSPEND2_IMAGE_FORMAT_H */
