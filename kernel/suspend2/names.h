/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The facts the module and hibernate(8) share, each said once: the words
 * of the enumerated settings, the profile tunables, the phases, states
 * and statuses, and the results attributes.  hibernate checks a profile
 * against them before the module is loaded (so a dry run refuses what the
 * module would) and reads the results by these names.
 *
 * Each list is an X-macro: S2_COMPRESSOR_NAMES(X) expands to X("none")
 * X("lzo") ..., so the module builds its name tables (X(s) as s,) and
 * the command its blank-separated lists (X(s) as s " ") from the same
 * text.  The order is the order of the module's tables and enums.
 * tests/unit/names.sh checks the module's tables, docs/configfs.md and
 * man/hibernate.conf.5 against this file.
 *
 * Plain preprocessor text: it compiles in the kernel and in user space.
 */
#ifndef _SUSPEND2_NAMES_H
#define _SUSPEND2_NAMES_H

#define S2_WRITER_NAMES(X)	X("swap") X("swapfile") X("file") X("bdev")
#define S2_COMPRESSOR_NAMES(X)	X("none") X("lzo") X("lz4") X("lz4hc") \
				X("zstd") X("deflate")
/*
 * The compressors that take a level, compressor = NAME:LEVEL, and the
 * levels their kernel libraries accept: X(name, min, max), inclusive.
 * zstd's negative levels are its fast ones, and 0 is its default (3).
 * Without a level each runs at the crypto API's: lz4hc 9, zstd 3,
 * deflate 6.
 */
#define S2_COMPRESSOR_LEVELS(X)	X("lz4hc", 1, 16) \
				X("zstd", -131072, 22) X("deflate", 1, 9)
#define S2_CHECKSUM_NAMES(X)	X("none") X("crc32c")
#define S2_POWERDOWN_NAMES(X)						\
	X("shutdown") X("platform") X("reboot") X("suspend")
#define S2_ENCRYPTION_NAMES(X)	X("none") X("aes-gcm") X("chacha20-poly1305")
/* For a tunable without a list of words: hibernate's table takes NULL. */
#define S2_NO_NAMES(X)		NULL

/*
 * What a compressed image takes of the memory it copies, for the estimates
 * made before a cycle (hibernate's plan, the module's space check): about
 * half with any compressor, as lzo and lz4 reach on typical memory.
 */
#define S2_COMPRESSED_DIVISOR	2

/*
 * The largest image_size_limit and image_size: the kernel keeps them in an
 * s64.  It is image_size's default, "as much as fits" (its literal is in
 * S2_TUNABLES, where a default must be a token to stringify).
 */
#define S2_SIZE_MAX		0x7fffffffffffffffULL

/*
 * The profile tunables, in the order of profiles/NAME/ and of
 * hibernate.conf's keys: X(name, store, default, min, max, kind, words).
 * store is how the module keeps it: text, index (into s2_<name>_names),
 * aead (an index too, but only of an AEAD this kernel offers), u32 or
 * u64; default a token (a number, or a word to stringify), empty
 * for none; min and max bound a number, inclusive, or a path's length;
 * kind is how hibernate.conf checks the value (T_kind in cli/conf/conf.h);
 * words are the values a word may take.
 */
#define S2_TUNABLES(X)							\
	X(writer, text, swap, 0, 0, WORD, S2_WRITER_NAMES)		\
	X(target, text,, 0, 255, TARGET, S2_NO_NAMES)			\
	X(compressor, text, lzo, 0, 0, COMPRESSOR, S2_COMPRESSOR_NAMES)	\
	X(compress_threads, u32, 0, 0, 64, RANGE, S2_NO_NAMES)		\
	X(checksum, index, crc32c, 0, 0, WORD, S2_CHECKSUM_NAMES)	\
	X(image_size_limit, u64, 0, 0, S2_SIZE_MAX, SIZE, S2_NO_NAMES)	\
	X(image_size, u64, 9223372036854775807, 0, S2_SIZE_MAX, SIZE,	\
	  S2_NO_NAMES)							\
	X(freezer_timeout_ms, u32, 20000, 100, 600000, RANGE, S2_NO_NAMES) \
	X(io_depth, u32, 256, 1, 1024, RANGE, S2_NO_NAMES)		\
	X(powerdown, index, shutdown, 0, 0, CHOICE, S2_POWERDOWN_NAMES)	\
	X(force, u32, 0, 0, 1, FLAG, S2_NO_NAMES)				\
	X(abort_key, u32, 1, 0, 1, FLAG, S2_NO_NAMES)			\
	X(abort_lid, u32, 0, 0, 1, FLAG, S2_NO_NAMES)			\
	X(abort_ac, u32, 0, 0, 1, FLAG, S2_NO_NAMES)			\
	X(encryption, aead, none, 0, 0, WORD, S2_ENCRYPTION_NAMES)	\
	X(key, text,, 0, 127, KEYSPEC, S2_NO_NAMES)

/*
 * The timed phases, in enum s2_phase order: X(ID, name, title).  Each is
 * the results attribute time_<name>_us; title is hibernate's report line.
 */
#define S2_PHASES(X)							\
	X(FREEZE_USER, freeze_user, "freeze user space")		\
	X(SYNC, sync, "sync")						\
	X(FREEZE_KERNEL, freeze_kernel, "freeze kernel threads")	\
	X(SNAPSHOT, snapshot, "atomic copy")				\
	X(WRITE, write, "write image")					\
	X(READ, read, "read image")					\
	X(RESTORE, restore, "restore")					\
	X(RAM, ram, "suspend to RAM and back")				\
	X(THAW, thaw, "thaw")

/* The cycle's states (the state attribute), in enum s2_state order. */
#define S2_STATES(X)							\
	X(IDLE, idle) X(FREEZING, freezing) X(SYNCING, syncing)	\
	X(SNAPSHOT, snapshot) X(WRITING, writing)			\
	X(POWERDOWN, powerdown) X(READING, reading)			\
	X(VERIFYING, verifying) X(RESTORING, restoring)		\
	X(THAWING, thawing)

/* results/status, in enum s2_status order. */
#define S2_STATUSES(X)							\
	X(NONE, none) X(RUNNING, running) X(RESUMED, resumed)		\
	X(TESTED, tested) X(FAILED, failed) X(REFUSED, refused)	\
	X(ABORTED, aborted) X(LOCKED, locked)

/*
 * results/, in directory order: X(name, kind), the time_*_us attributes
 * (S2_PHASES) coming after S2_RESULTS_HEAD.  kind says how the module
 * formats the value and so how hibernate reads it: name (a word of
 * s2_<name>_names), text, u32, u64, yesno, loads (/proc/loadavg's three
 * numbers), own (formatted by its own function).
 */
#define S2_RESULTS_HEAD(X)						\
	X(status, name) X(error, own) X(profile, text) X(writer, text)	\
	X(compressor, text) X(checksum, name) X(encryption, name)
#define S2_RESULTS_TAIL(X)						\
	X(offline_ms, u64) X(image_pages, u64) X(bytes_raw, u64)	\
	X(bytes_written, u64) X(write_kbps, u64) X(read_kbps, u64)	\
	X(verified, yesno) X(threads, u32) X(pipeline_bytes, u64)	\
	X(write_cpu_wait_us, u64) X(write_io_wait_us, u64)		\
	X(read_cpu_wait_us, u64) X(read_io_wait_us, u64)		\
	X(write_crypt_us, u64) X(read_crypt_us, u64)			\
	X(read_feed_us, u64) X(read_prepare_us, u64)			\
	X(avenrun_saved, loads) X(avenrun_thaw, loads)			\
	X(avenrun_restored, loads) X(refused_tasks, own)		\
	X(woke_from, text) X(ram_sleep_ms, u64) X(aborted_by, text)

#endif /* _SUSPEND2_NAMES_H */
