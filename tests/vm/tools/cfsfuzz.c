// SPDX-License-Identifier: GPL-2.0
/*
 * cfsfuzz: random writes to every attribute of the suspend2 configfs tree.
 *
 *   cfsfuzz ROOT SEED ITERATIONS   fuzz the tree under ROOT
 *   cfsfuzz --check ROOT           check that every attribute reads back a
 *                                  value the contract (docs/configfs.md)
 *                                  allows
 *
 * Each round picks an attribute (the root attributes, every profile's, the
 * results) and a payload: random bytes of a random length (0 to 8 KiB, so
 * also beyond a page), numbers at the edges with prefixes and suffixes,
 * valid words with mutations, empty writes; now and then a mkdir or rmdir
 * of a profile with an edge name.  For each write it checks:
 *
 *   1. a refused write leaves the value byte-identical;
 *   2. an accepted write leaves a value that reads back, reads back as
 *      written (without a trailing newline: the contract), and is
 *      accepted again when written back verbatim, unchanged;
 *   3. reads never fail (resume_location may fail with the writer's errno,
 *      as documented; action is write-only).
 *
 * The action attribute only ever gets garbage: a payload that, cut at its
 * first NUL, trimmed of white space and lower-cased, equals an action word
 * is never written, and the tool drops CAP_SYS_ADMIN first (the kernel
 * refuses any action without it), so no cycle (and no power down) can
 * start.
 *
 * The PRNG is xorshift64*, seeded from SEED, so a failing seed reproduces
 * (on the same tree).  Prints every violation and a summary line; exits 1
 * on any violation.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "../../../kernel/suspend2/names.h"

#define CONFIGFS_MAGIC	0x62656570
#define VAL_MAX		8192	/* largest payload and read buffer */
#define CFS_WRITE_MAX	4095	/* configfs passes at most this to store */
#define MAX_ATTRS	512
#define MAX_WORDS	16
#define MAX_OWN		8	/* profiles the fuzzer makes at most */
#define PRINT_MAX	40	/* violations printed in full */
#define TREE_EVERY	250	/* rounds between two whole-tree checks */

/* snprintf that may truncate (paths and names are bounded by the tree). */
static void put(char *dst, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, size, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- PRNG */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* 0..n-1 */
static size_t rn(size_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(int percent)
{
	return (int)rn(100) < percent;
}

static void rng_seed(uint64_t seed)
{
	/* splitmix64, so that small seeds give different streams */
	uint64_t z = seed + 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	rng_state = (z ^ (z >> 31)) | 1;
}

/* ------------------------------------------------------------- values */

struct val {
	int err;		/* 0, or the errno of the open or read */
	size_t len;
	char data[VAL_MAX + 1];
};

struct buf {
	size_t len;
	char data[VAL_MAX + 64];
};

static void buf_add(struct buf *b, const void *p, size_t n)
{
	if (n > sizeof(b->data) - b->len)
		n = sizeof(b->data) - b->len;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* A hex-escaped, truncated rendering of @p for the report. */
static const char *esc(const char *p, size_t n, char *out, size_t size)
{
	size_t o = 0, i;

	for (i = 0; i < n && o + 32 < size; i++) {
		unsigned char c = p[i];

		if (c == '\\')
			o += snprintf(out + o, size - o, "\\\\");
		else if (c >= 0x20 && c < 0x7f)
			out[o++] = c;
		else if (c == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else
			o += snprintf(out + o, size - o, "\\x%02x", c);
	}
	out[o] = '\0';
	if (i < n)	/* fits: the loop left 32 bytes */
		snprintf(out + o, size - o, "...(%zu bytes)", n);
	return out;
}

static const char *vesc(const struct val *v, char *out, size_t size)
{
	if (v->err) {
		snprintf(out, size, "<error %s>", strerror(v->err));
		return out;
	}
	return esc(v->data, v->len, out, size);
}

static int val_same(const struct val *a, const struct val *b)
{
	if (a->err || b->err)
		return a->err == b->err;
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

static int use_trunc;	/* plain files (a dry run off configfs): O_TRUNC */

static void rd(const char *path, struct val *v)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	v->err = 0;
	v->len = 0;
	if (fd < 0) {
		v->err = errno;
		return;
	}
	while (v->len < VAL_MAX) {
		n = read(fd, v->data + v->len, VAL_MAX - v->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			v->err = errno;
			break;
		}
		if (!n)
			break;
		v->len += n;
	}
	v->data[v->len] = '\0';
	close(fd);
}

/* One write(2) of @p on a fresh descriptor: bytes written or -errno. */
static long wr(const char *path, const char *p, size_t n)
{
	int fd = open(path, O_WRONLY | (use_trunc ? O_TRUNC : 0));
	long ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, p, n);
	if (ret < 0)
		ret = -errno;
	if (close(fd) && ret >= 0)
		ret = -errno;
	return ret;
}

/* ------------------------------------------------------ the contract */

enum kind { K_RO, K_ACTION, K_SELECT, K_WORD, K_TARGET, K_NUM, K_KEY };

struct words {
	int n;
	char w[MAX_WORDS][32];
};

static struct words compressors, writers, checksums, powerdowns, actions,
	encryptions;

static void words_set(struct words *ws, const char *list)
{
	char tmp[512], *tok, *save;

	ws->n = 0;
	snprintf(tmp, sizeof(tmp), "%s", list);
	for (tok = strtok_r(tmp, " \t\n", &save); tok && ws->n < MAX_WORDS;
	     tok = strtok_r(NULL, " \t\n", &save))
		snprintf(ws->w[ws->n++], sizeof(ws->w[0]), "%s", tok);
}

static int words_has(const struct words *ws, const char *s, size_t n)
{
	int i;

	for (i = 0; i < ws->n; i++)
		if (strlen(ws->w[i]) == n && !memcmp(ws->w[i], s, n))
			return 1;
	return 0;
}

static char root[1024];

/* The word lists from capabilities, on top of the documented ones. */
static void load_capabilities(void)
{
	char path[1200], *line, *save, *colon;
	struct val v;

	words_set(&compressors, "none lzo lz4 lz4hc zstd deflate");
	words_set(&writers, "swap swapfile file bdev");
	words_set(&checksums, "none crc32c");
	words_set(&encryptions, "none aes-gcm chacha20-poly1305");
	words_set(&powerdowns, "shutdown platform reboot");
	words_set(&actions, "hibernate test resume invalidate");
	snprintf(path, sizeof(path), "%s/capabilities", root);
	rd(path, &v);
	if (v.err)
		return;
	for (line = strtok_r(v.data, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon++ = '\0';
		if (!strcmp(line, "compressors"))
			words_set(&compressors, colon);
		else if (!strcmp(line, "writers"))
			words_set(&writers, colon);
		else if (!strcmp(line, "checksums"))
			words_set(&checksums, colon);
		else if (!strcmp(line, "encryption"))
			words_set(&encryptions, colon);
		else if (!strcmp(line, "powerdown"))
			words_set(&powerdowns, colon);
		else if (!strcmp(line, "actions")) {
			/* never forget a documented verb */
			struct words extra;
			int i;

			words_set(&extra, colon);
			for (i = 0; i < extra.n; i++)
				if (!words_has(&actions, extra.w[i],
					       strlen(extra.w[i])) &&
				    actions.n < MAX_WORDS)
					strcpy(actions.w[actions.n++],
					       extra.w[i]);
		}
	}
}

struct numrange {
	const char *name;
	uint64_t min, max;
};

/* The numeric tunables of names.h (kept as u32 or u64) and their ranges. */
#define RANGE_u32(name, lo, hi)	{ #name, lo, hi },
#define RANGE_u64		RANGE_u32
#define RANGE_text(...)
#define RANGE_index(...)
#define RANGE_aead(...)
#define NUMRANGE(name, store, def, lo, hi, ...)	RANGE_##store(name, lo, hi)
static const struct numrange numranges[] = {
	S2_TUNABLES(NUMRANGE)
};

static const struct numrange *numrange(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(numranges) / sizeof(numranges[0]); i++)
		if (!strcmp(numranges[i].name, name))
			return &numranges[i];
	return NULL;
}

#define ATTR_NAME(name, ...)		#name,
static const char * const profile_attrs[] = {
	S2_TUNABLES(ATTR_NAME) "resume_location", NULL
};

/* The defaults of a new profile, in profile_attrs order. */
#define ATTR_DEFAULT(name, store, def, ...)	#def,
static const char * const profile_defaults[] = {
	S2_TUNABLES(ATTR_DEFAULT) ""
};

static const char * const root_attrs[] = {
	"version", "capabilities", "state", "profile", "action", NULL
};

/*
 * results/, from names.h as the module makes it: the head, time_<phase>_us
 * for each phase, the tail.  Each is checked by name below, numbers by
 * default, so a new attribute of another kind shows up as invalid until
 * it has its rule.
 */
#define RESULT_NAME(name, ...)		#name,
#define RESULT_PHASE(id, name, ...)	"time_" #name "_us",
static const char * const result_attrs[] = {
	S2_RESULTS_HEAD(RESULT_NAME)
	S2_PHASES(RESULT_PHASE)
	S2_RESULTS_TAIL(RESULT_NAME)
	NULL
};

static const char * const states[] = {
	"idle", "freezing", "syncing", "snapshot", "writing", "powerdown",
	"reading", "verifying", "restoring", "thawing", NULL
};

#define STATUS_NAME(id, name)		#name,
static const char * const statuses[] = {
	S2_STATUSES(STATUS_NAME) NULL
};

static int in_list(const char * const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, s, n))
			return 1;
	return 0;
}

/* Plain decimal: no sign, no leading zero, no space; fits in u64. */
static int canonical_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!n || n > 20 || (s[0] == '0' && n > 1))
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (v > (UINT64_MAX - (s[i] - '0')) / 10)
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 1;
}

static int has_byte(const char *s, size_t n, int c)
{
	return memchr(s, c, n) != NULL;
}

/* ----------------------------------------------------- the attributes */

struct attr {
	char path[1200];
	char rel[400];		/* for the report: relative to ROOT */
	const char *name;	/* the attribute's own name */
	enum kind kind;
	const struct words *words;
	const struct numrange *range;
	int readable;
};

static struct attr attrs[MAX_ATTRS];
static int nattrs;

/* Profiles: every one under profiles/, and those this run made. */
static char profiles[64][300];
static int nprofiles;
static char own[MAX_OWN][300];
static int nown;

static void classify(struct attr *a, int in_profile)
{
	const char *n = a->name;
	struct stat st;

	a->kind = K_RO;
	a->words = NULL;
	a->range = NULL;
	a->readable = !stat(a->path, &st) && (st.st_mode & 0444);
	if (!stat(a->path, &st) && !(st.st_mode & 0222))
		return;		/* read-only: writes are still tried */
	if (!in_profile) {
		if (!strcmp(n, "action"))
			a->kind = K_ACTION;
		else if (!strcmp(n, "profile"))
			a->kind = K_SELECT;
		return;
	}
	if (!strcmp(n, "writer")) {
		a->kind = K_WORD;
		a->words = &writers;
	} else if (!strcmp(n, "compressor")) {
		a->kind = K_WORD;
		a->words = &compressors;
	} else if (!strcmp(n, "checksum")) {
		a->kind = K_WORD;
		a->words = &checksums;
	} else if (!strcmp(n, "powerdown")) {
		a->kind = K_WORD;
		a->words = &powerdowns;
	} else if (!strcmp(n, "encryption")) {
		a->kind = K_WORD;
		a->words = &encryptions;
	} else if (!strcmp(n, "key")) {
		a->kind = K_KEY;
	} else if (!strcmp(n, "target")) {
		a->kind = K_TARGET;
	} else if (numrange(n)) {
		a->kind = K_NUM;
		a->range = numrange(n);
	}
}

static void add_dir_attrs(const char *dir, const char *reldir, int in_profile)
{
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)) && nattrs < MAX_ATTRS) {
		struct attr *a = &attrs[nattrs];

		snprintf(a->path, sizeof(a->path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] == '.' || stat(a->path, &st) ||
		    !S_ISREG(st.st_mode))
			continue;
		snprintf(a->rel, sizeof(a->rel), "%s%s", reldir, de->d_name);
		a->name = strrchr(a->path, '/') + 1;
		classify(a, in_profile);
		nattrs++;
	}
	closedir(d);
}

/* Rebuilds the attribute table and the profile list from the tree. */
static void scan(void)
{
	char dir[1200], rel[400];
	struct dirent *de;
	struct stat st;
	DIR *d;

	nattrs = 0;
	nprofiles = 0;
	add_dir_attrs(root, "", 0);
	snprintf(dir, sizeof(dir), "%s/results", root);
	add_dir_attrs(dir, "results/", 0);
	snprintf(dir, sizeof(dir), "%s/profiles", root);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char pdir[1200];

		put(pdir, sizeof(pdir), "%s/%s", dir, de->d_name);
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    stat(pdir, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (nprofiles < 64)
			snprintf(profiles[nprofiles++], sizeof(profiles[0]),
				 "%s", de->d_name);
		snprintf(rel, sizeof(rel), "profiles/%s/", de->d_name);
		add_dir_attrs(pdir, rel, 1);
	}
	closedir(d);
}

/* -------------------------------------------------------- violations */

static unsigned long violations, printed;

static void violation(const char *what, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void violation(const char *what, const char *fmt, ...)
{
	va_list ap;

	violations++;
	if (printed++ >= PRINT_MAX) {
		if (printed == PRINT_MAX + 1)
			printf("cfsfuzz: more violations, not printed\n");
		return;
	}
	printf("VIOLATION %s: ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* ------------------------------------------------------ tree checking */

static unsigned long tree_bad, tree_checked;

static void tree_complain(const char *rel, const struct val *v,
			  const char *why)
{
	char e[300];

	tree_bad++;
	printf("INVALID %s: %s: '%s'\n", rel, why, vesc(v, e, sizeof(e)));
	fflush(stdout);
}

/* One line, ending in a newline, with no NUL: the general rule. */
static int one_line(const struct val *v, size_t *n)
{
	if (v->err || !v->len || v->data[v->len - 1] != '\n')
		return 0;
	*n = v->len - 1;
	return !has_byte(v->data, *n, '\n') && !has_byte(v->data, *n, '\0');
}

static int check_number(const struct val *v, uint64_t min, uint64_t max)
{
	uint64_t x;
	size_t n;

	return one_line(v, &n) && canonical_u64(v->data, n, &x) &&
	       x >= min && x <= max;
}

static int check_word(const struct val *v, const struct words *ws)
{
	size_t n;

	return one_line(v, &n) && words_has(ws, v->data, n);
}

/* The compressors that take a level, and the levels (names.h). */
struct level_range {
	const char *name;
	long min, max;
};

#define LEVEL_RANGE(n, lo, hi) { n, lo, hi },
static const struct level_range level_ranges[] = {
	S2_COMPRESSOR_LEVELS(LEVEL_RANGE)
};
#define NR_LEVEL_RANGES (sizeof(level_ranges) / sizeof(level_ranges[0]))

/*
 * compressor: a word, or NAME:LEVEL for a NAME that takes levels, LEVEL
 * plain decimal with an optional '-' (not "-0"), within the range.
 */
static int check_compressor(const struct val *v)
{
	const char *colon, *lv;
	uint64_t mag;
	size_t n, k, i;
	long level;

	if (!one_line(v, &n))
		return 0;
	colon = memchr(v->data, ':', n);
	if (!colon)
		return words_has(&compressors, v->data, n);
	k = colon - v->data;
	lv = colon + 1;
	if (!words_has(&compressors, v->data, k))
		return 0;
	for (i = 0; i < NR_LEVEL_RANGES; i++) {
		const struct level_range *r = &level_ranges[i];
		int neg = lv < v->data + n && *lv == '-';
		size_t digits = v->data + n - lv - neg;

		if (strlen(r->name) != k || memcmp(r->name, v->data, k))
			continue;
		if (!canonical_u64(lv + neg, digits, &mag) || mag > 1000000 ||
		    (neg && !mag))
			return 0;
		level = neg ? -(long)mag : (long)mag;
		return level >= r->min && level <= r->max;
	}
	return 0;
}


/* The key attribute: empty, tpm, or keyring:NAME as docs/configfs.md says. */
static int check_keyspec(const struct val *v)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789._-";
	size_t n, i;

	if (!one_line(v, &n))
		return 0;
	if (!n || (n == 3 && !memcmp(v->data, "tpm", 3)))
		return 1;
	if (n <= 8 || n > 8 + 64 || memcmp(v->data, "keyring:", 8) ||
	    !isalnum((unsigned char)v->data[8]))
		return 0;
	for (i = 8; i < n; i++)
		if (!v->data[i] || !strchr(chars, v->data[i]))
			return 0;
	return 1;
}

static int check_loads(const struct val *v)
{
	unsigned int a, b, c, d, e, f;
	char tail;
	size_t n;

	return one_line(v, &n) &&
	       sscanf(v->data, "%u.%2u %u.%2u %u.%2u%c", &a, &b, &c, &d, &e,
		      &f, &tail) == 7 && tail == '\n';
}

static int profile_exists(const char *name, size_t n)
{
	char path[1600];
	struct stat st;

	if (!n || n >= 300)
		return 0;
	snprintf(path, sizeof(path), "%s/profiles/%.*s", root, (int)n, name);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void check_profile(const char *name, int want_defaults)
{
	char path[1600], rel[400], target[VAL_MAX + 1] = "";
	struct val v;
	size_t n;
	int i, ok;

	for (i = 0; profile_attrs[i]; i++) {
		const char *a = profile_attrs[i];

		snprintf(path, sizeof(path), "%s/profiles/%s/%s", root, name, a);
		snprintf(rel, sizeof(rel), "profiles/%s/%s", name, a);
		rd(path, &v);
		tree_checked++;
		if (!strcmp(a, "resume_location")) {
			/* fails with the writer's errno when unresolvable */
			ok = v.err ? target[0] != '\0' :
			     one_line(&v, &n) && (n ? strchr(v.data, ':') &&
						  v.data[0] == '/' :
						  !target[0]);
		} else if (v.err) {
			ok = 0;
		} else if (!strcmp(a, "target")) {
			ok = one_line(&v, &n) && n < 256 &&
			     (!n || v.data[0] == '/');
			if (ok)
				snprintf(target, sizeof(target), "%.*s",
					 (int)n, v.data);
		} else if (numrange(a)) {
			ok = check_number(&v, numrange(a)->min,
					  numrange(a)->max);
		} else if (!strcmp(a, "key")) {
			ok = check_keyspec(&v);
		} else if (!strcmp(a, "compressor")) {
			ok = check_compressor(&v);
		} else {
			ok = check_word(&v, !strcmp(a, "writer") ? &writers :
					!strcmp(a, "checksum") ? &checksums :
					!strcmp(a, "encryption") ? &encryptions :
					&powerdowns);
		}
		if (!ok)
			tree_complain(rel, &v, "not a valid value");
		else if (want_defaults && !v.err &&
			 (v.len != strlen(profile_defaults[i]) + 1 ||
			  memcmp(v.data, profile_defaults[i], v.len - 1)))
			tree_complain(rel, &v, "not the documented default");
	}
}

static void check_results(void)
{
	char path[1200], rel[400];
	const char *a;
	struct val v;
	size_t n;
	int i, ok;

	for (i = 0; result_attrs[i]; i++) {
		a = result_attrs[i];
		snprintf(path, sizeof(path), "%s/results/%s", root, a);
		snprintf(rel, sizeof(rel), "results/%s", a);
		rd(path, &v);
		tree_checked++;
		if (v.err)
			ok = 0;
		else if (!strcmp(a, "status"))
			ok = one_line(&v, &n) && in_list(statuses, v.data, n);
		else if (!strcmp(a, "error"))
			ok = one_line(&v, &n) &&
			     (!n || !strncmp(v.data, "-E", 2) ||
			      (v.data[0] == '-' && isdigit(v.data[1])));
		else if (!strcmp(a, "checksum"))
			ok = check_word(&v, &checksums);
		else if (!strcmp(a, "encryption"))
			ok = check_word(&v, &encryptions);
		else if (!strcmp(a, "verified"))
			ok = one_line(&v, &n) &&
			     ((n == 3 && !memcmp(v.data, "yes", 3)) ||
			      (n == 2 && !memcmp(v.data, "no", 2)));
		else if (!strncmp(a, "avenrun_", 8))
			ok = check_loads(&v);
		else if (!strcmp(a, "woke_from"))
			ok = one_line(&v, &n) &&
			     (!n || (n == 4 && !memcmp(v.data, "disk", 4)) ||
			      (n == 3 && !memcmp(v.data, "ram", 3)));
		else if (!strcmp(a, "aborted_by"))
			ok = one_line(&v, &n) &&
			     (!n || (n == 3 && !memcmp(v.data, "key", 3)) ||
			      (n == 3 && !memcmp(v.data, "lid", 3)) ||
			      (n == 2 && !memcmp(v.data, "ac", 2)));
		else if (!strcmp(a, "refused_tasks"))
			ok = !v.len || (v.data[v.len - 1] == '\n' &&
					!has_byte(v.data, v.len, '\0'));
		else if (!strcmp(a, "profile") || !strcmp(a, "writer") ||
			 !strcmp(a, "compressor"))
			ok = one_line(&v, &n);
		else
			ok = check_number(&v, 0, UINT64_MAX);
		if (!ok)
			tree_complain(rel, &v, "not a valid value");
	}
}

static void check_root(void)
{
	char path[1200], word[64], tail;
	unsigned int fmt;
	struct val v;
	size_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/version", root);
	rd(path, &v);
	tree_checked++;
	if (!one_line(&v, &n) ||
	    sscanf(v.data, "suspend2 %63s image-format %u%c", word, &fmt,
		   &tail) != 3 || tail != '\n')
		tree_complain("version", &v, "not 'suspend2 V image-format N'");

	snprintf(path, sizeof(path), "%s/capabilities", root);
	rd(path, &v);
	tree_checked++;
	if (v.err || strncmp(v.data, "compressors: none", 17) ||
	    !strstr(v.data, "\nwriters: ") || !strstr(v.data, "\nchecksums: ") ||
	    !strstr(v.data, "\npowerdown: ") ||
	    !strstr(v.data, "\nactions: ") || v.data[v.len - 1] != '\n')
		tree_complain("capabilities", &v, "not the documented lines");

	snprintf(path, sizeof(path), "%s/state", root);
	rd(path, &v);
	tree_checked++;
	if (!one_line(&v, &n) || !in_list(states, v.data, n))
		tree_complain("state", &v, "not a state");

	snprintf(path, sizeof(path), "%s/profile", root);
	rd(path, &v);
	tree_checked++;
	if (!one_line(&v, &n) || (n && !profile_exists(v.data, n)))
		tree_complain("profile", &v, "not empty or an existing profile");

	snprintf(path, sizeof(path), "%s/action", root);
	tree_checked++;
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		close(fd);
		v.err = 0;
		v.len = 0;
		tree_complain("action", &v, "write-only, but opens for reading");
	}
}

/* Every attribute of the tree, and no unknown one. */
static unsigned long check_tree(void)
{
	int i;

	tree_bad = 0;
	scan();
	for (i = 0; i < nattrs; i++) {
		const char *dir = attrs[i].rel;
		const char *n = attrs[i].name;
		int known = !strncmp(dir, "results/", 8) ?
			in_list(result_attrs, n, strlen(n)) :
			!strncmp(dir, "profiles/", 9) ?
			in_list(profile_attrs, n, strlen(n)) :
			in_list(root_attrs, n, strlen(n));

		if (!known) {
			struct val v = { .err = 0, .len = 0 };

			tree_complain(attrs[i].rel, &v, "unknown attribute");
		}
	}
	check_root();
	check_results();
	for (i = 0; i < nprofiles; i++)
		check_profile(profiles[i], 0);
	return tree_bad;
}

/* ----------------------------------------------------------- payloads */

static const char * const edge_numbers[] = {
	"0", "1", "-1", "2", "63", "64", "65", "99", "100", "101", "255",
	"256", "1023", "1024", "1025", "4096", "19999", "20000", "599999",
	"600000", "600001", "2147483647", "2147483648", "-2147483648",
	"-2147483649", "4294967295", "4294967296", "9223372036854775807",
	"9223372036854775808", "-9223372036854775808", "18446744073709551615",
	"18446744073709551616", "36893488147419103232",
	"1000000000000000000000000000000", "99999999999999999999999", "",
	"-0", "0000000000000000000000000000001",
};

static const char * const num_prefixes[] = {
	"", "", "", "", "", "+", "-", " ", "0", "00", "0x", "0X", "\t",
	"+-", "--", "0b", "\n",
};

static const char * const num_suffixes[] = {
	"", "", "", "", "\n", "\n", "\n\n", " ", " \n", "K", "M", "G", "k",
	"KiB", "x", ".0", ".5", "e3", "\r", "\r\n", "\t", "abc", "\xff",
	"\n0", ",1",
};

/* Suffixes with a NUL need their length: [i] is bytes, len [i]. */
static const char nul_suffixes[][8] = { "\0", "\0\n", "\0" "123", "\n\0" };
static const size_t nul_suffix_len[] = { 1, 2, 4, 2 };

static void add_decorated_tail(struct buf *b)
{
	if (chance(8)) {
		size_t i = rn(4);

		buf_add(b, nul_suffixes[i], nul_suffix_len[i]);
	} else {
		buf_str(b, num_suffixes[rn(sizeof(num_suffixes) /
					   sizeof(num_suffixes[0]))]);
	}
}

static void gen_random(struct buf *b)
{
	static const char alpha[] = "0123456789\n /:+-.abcxyzKMG";
	static const size_t edges[] = {
		0, 1, 2, 63, 64, 65, 255, 256, 257, 4094, 4095, 4096, 4097,
		8191, 8192,
	};
	size_t len, i;
	int mode = (int)rn(10);

	if (mode < 2)
		len = edges[rn(sizeof(edges) / sizeof(edges[0]))];
	else if (mode < 6)
		len = rn(17);
	else if (mode < 8)
		len = rn(301);
	else
		len = rn(VAL_MAX + 1);
	for (i = 0; i < len; i++) {
		char c;

		if (chance(30))
			c = (char)rn(256);
		else if (chance(10))
			c = '\0';
		else
			c = alpha[rn(sizeof(alpha) - 1)];
		buf_add(b, &c, 1);
	}
}

static void gen_number(struct buf *b, const struct numrange *r)
{
	char num[64];

	if (r && chance(40)) {
		uint64_t pick[4] = { r->min - 1, r->min, r->max, r->max + 1 };
		size_t i = rn(4);

		if (i == 0 && r->min == 0)
			snprintf(num, sizeof(num), "-1");
		else
			snprintf(num, sizeof(num), "%llu",
				 (unsigned long long)pick[i]);
	} else if (r && chance(20)) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)
			 (r->min + rnd() % (r->max - r->min + 1)));
	} else {
		snprintf(num, sizeof(num), "%s", edge_numbers[rn(
			 sizeof(edge_numbers) / sizeof(edge_numbers[0]))]);
	}
	if (chance(50))
		buf_str(b, num_prefixes[rn(sizeof(num_prefixes) /
					   sizeof(num_prefixes[0]))]);
	buf_str(b, num);
	if (chance(60))
		add_decorated_tail(b);
}

/* A word with a mutation: case, truncation, junk, white space, doubling. */
/* A compressor with a level: in range, at its edges, past them, odd. */
static void gen_level(struct buf *b)
{
	const struct level_range *r = &level_ranges[rn(NR_LEVEL_RANGES)];
	static const char *const odd[] = { "", "-", "-0", "01", "+3", " 3",
					   "3 ", "0x3", "3:4", "2147483648",
					   "-99999999999" };
	char w[64];

	switch (rn(6)) {
	case 0:
		snprintf(w, sizeof(w), "%s:%ld", r->name, r->min);
		break;
	case 1:
		snprintf(w, sizeof(w), "%s:%ld", r->name, r->max);
		break;
	case 2:
		snprintf(w, sizeof(w), "%s:%ld", r->name,
			 rn(2) ? r->min - 1 : r->max + 1);
		break;
	case 3:
		snprintf(w, sizeof(w), "%s:%s", r->name, odd[rn(11)]);
		break;
	case 4:		/* a compressor that takes no level */
		snprintf(w, sizeof(w), "%s:%u",
			 compressors.w[rn(compressors.n)], (unsigned int)rn(10));
		break;
	default:
		snprintf(w, sizeof(w), "%s:%ld", r->name,
			 r->min + (long)rn((unsigned int)(r->max - r->min + 1)));
		break;
	}
	buf_str(b, w);
	if (chance(30))
		add_decorated_tail(b);
}

static void gen_word(struct buf *b, const char *word)
{
	char w[128];
	size_t n;

	snprintf(w, sizeof(w), "%s", word);
	n = strlen(w);
	switch (rn(12)) {
	case 0:			/* upper-case one letter */
		if (n) {
			size_t i = rn(n);

			w[i] = toupper((unsigned char)w[i]);
		}
		break;
	case 1:			/* truncate */
		if (n)
			w[rn(n)] = '\0';
		break;
	case 2:			/* append junk */
		snprintf(w + n, sizeof(w) - n, "%c", "x1 -\t.:"[rn(7)]);
		break;
	case 3:
		snprintf(w, sizeof(w), " %s", word);
		break;
	case 4:
		snprintf(w, sizeof(w), "%s%s", word, word);
		break;
	case 5:
		snprintf(w, sizeof(w), "%s %s", word, word);
		break;
	default:		/* as is: the valid word */
		break;
	}
	buf_str(b, w);
	if (chance(50))
		add_decorated_tail(b);
}

static const char * const edge_targets[] = {
	"/dev/vda", "/dev/vdb", "/dev/vda:0", "/dev/vda:1", "/dev/vda:-1",
	"/dev/vda:", "/dev/vda:18446744073709551615",
	"/dev/vda:18446744073709551616", "/dev/vda:0x10", "/dev/vda:1/2",
	"/dev/nonexistent:3", ":5", "/:0", "/", "/dev", "/dev/null",
	"/dev/zero", "/init", "/bin/busybox", "/proc/cmdline", "/tmp",
	"/dev/vda/", "/dev/./vda", "/dev/../dev/vda", "//dev//vda",
	"relative", "dev/vda", "UUID=1234", "/dev/vda ", " /dev/vda",
	"/dev/vda\t", "/sys/kernel/config", "",
};

static void gen_target(struct buf *b)
{
	char s[300];
	size_t n, i;

	switch (rn(4)) {
	case 0:
	case 1:
		buf_str(b, edge_targets[rn(sizeof(edge_targets) /
					   sizeof(edge_targets[0]))]);
		break;
	case 2:			/* a long path around the 255-byte limit */
		n = 250 + rn(10);
		s[0] = '/';
		for (i = 1; i < n; i++)
			s[i] = "abcdefgh/"[rn(9)];
		s[n] = '\0';
		buf_str(b, s);
		break;
	default:
		buf_str(b, "/dev/vda:");
		gen_number(b, NULL);
		return;
	}
	if (chance(50))
		add_decorated_tail(b);
}

/* Names for mkdir (and for writes to profile). */
static void gen_name(char *s, size_t size)
{
	static const char * const edge_names[] = {
		".", "..", "...", ".hidden", "-", "--x", "a b", " lead",
		"trail ", "tab\t", "new\nline", "nl\n", "\xff\xfe", "\xc3\xa9t\xc3\xa9",
		"a:1", "x*", "?", "$HOME", "\\", "a\\b", "a/b", "../fuzzdir",
		"0", "-1", "profile", "results", "version", "NAME",
	};
	size_t n, i;

	switch (rn(4)) {
	case 0:
		snprintf(s, size, "%s", edge_names[rn(sizeof(edge_names) /
						      sizeof(edge_names[0]))]);
		return;
	case 1: {	/* around the 64-byte limit and NAME_MAX */
		static const size_t lens[] = { 62, 63, 64, 65, 254, 255, 256 };

		n = lens[rn(7)];
		break;
	}
	default:
		n = 1 + rn(12);
		break;
	}
	if (n >= size)
		n = size - 1;
	for (i = 0; i < n; i++) {
		char c = chance(10) ? (char)(1 + rn(255)) :
			 "abcdefghijklmnopqrstuvwxyz0123456789._-"[rn(39)];

		s[i] = c == '/' ? '_' : c;
	}
	s[n] = '\0';
}

/* keyring:NAME around its limits, and tpm with its near misses. */
static void gen_keyspec(struct buf *b)
{
	static const char *const edge[] = {
		"keyring:laptop", "keyring:", "keyring:.x", "keyring:-x",
		"keyring:a/b", "keyring:a b", "tpm", "tpm:0", "keyring",
		"KEYRING:x", "keyring:9", "TPM", "tpm2",
	};
	char s[80];
	size_t n, i;

	if (chance(50)) {
		buf_str(b, edge[rn(sizeof(edge) / sizeof(edge[0]))]);
	} else {
		n = 62 + rn(5);		/* around the 64-byte name limit */
		for (i = 0; i < n; i++)
			s[i] = "abcdefgh0123._-"[rn(15)];
		s[0] = 'k';
		s[n] = '\0';
		buf_str(b, "keyring:");
		buf_str(b, s);
	}
	if (chance(50))
		add_decorated_tail(b);
}

static void gen_payload(struct buf *b, const struct attr *a)
{
	int r = (int)rn(100);

	b->len = 0;
	if (r < 4)
		return;				/* empty write */
	if (r < 30) {
		gen_random(b);
		return;
	}
	if (r < 50) {
		gen_number(b, a->range);
		return;
	}
	switch (a->kind) {
	case K_NUM:
		gen_number(b, a->range);
		break;
	case K_WORD:
		if (a->words == &compressors && chance(40))
			gen_level(b);
		else
			gen_word(b, a->words->w[rn(a->words->n)]);
		break;
	case K_ACTION:
		gen_word(b, actions.w[rn(actions.n)]);
		break;
	case K_TARGET:
		gen_target(b);
		break;
	case K_KEY:
		gen_keyspec(b);
		break;
	case K_SELECT:
		if (chance(20)) {
			char s[300];

			gen_name(s, sizeof(s));
			buf_str(b, s);
		} else if (nprofiles) {
			gen_word(b, profiles[rn(nprofiles)]);
		}
		if (chance(15))
			b->len = 0, buf_str(b, "\n");
		break;
	default: {
		/* read-only: a word any attribute takes, just to try */
		const struct words *ws[] = { &writers, &compressors,
					     &checksums, &powerdowns };
		const struct words *w = ws[rn(4)];

		gen_word(b, w->w[rn(w->n)]);
		break;
	}
	}
}

/*
 * Could the kernel take @p for an action word?  It compares whole words
 * (a trailing newline allowed) up to the first NUL; this is wider: any
 * white space around, any case.
 */
static int is_action_word(const char *p, size_t n)
{
	const char *end = memchr(p, '\0', n);
	char low[64];
	size_t i;

	if (end)
		n = end - p;
	while (n && isspace((unsigned char)*p))
		p++, n--;
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n >= sizeof(low))
		return 0;
	for (i = 0; i < n; i++)
		low[i] = tolower((unsigned char)p[i]);
	return words_has(&actions, low, n);
}

/* ------------------------------------------------------------- rounds */

static unsigned long writes, accepted, refused, mkdirs, rmdirs;

/* The payload as configfs hands it to store: at most 4095 bytes. */
static int reads_back_as_written(const struct buf *b, long ret,
				 const struct val *after)
{
	size_t n = (size_t)ret;

	if (n && b->data[n - 1] == '\n')
		n--;
	return after->len == n + 1 && after->data[n] == '\n' &&
	       !memcmp(after->data, b->data, n);
}

static void fuzz_write(struct attr *a, const struct buf *b)
{
	struct val before, after, again;
	char e1[300], e2[300], e3[300];
	long ret, back;

	if (a->kind == K_ACTION &&
	    (is_action_word(b->data, b->len) ||
	     is_action_word(b->data, b->len < CFS_WRITE_MAX ? b->len :
			    CFS_WRITE_MAX)))
		return;		/* never a real action */
	if (a->readable) {
		rd(a->path, &before);
		if (before.err && strcmp(a->name, "resume_location"))
			violation("read-failed", "%s: before the write: %s",
				  a->rel, strerror(before.err));
	}
	ret = wr(a->path, b->data, b->len);
	writes++;
	if (ret < 0)
		refused++;
	else
		accepted++;
	if (!a->readable) {
		if (ret >= 0)
			violation("action-accepted",
				  "%s: garbage '%s' accepted (%ld)", a->rel,
				  esc(b->data, b->len, e1, sizeof(e1)), ret);
		return;
	}
	rd(a->path, &after);
	if (ret < 0) {
		if (!val_same(&before, &after))
			violation("refused-write-changed-value",
				  "%s: payload '%s' refused (%s) but the value went from '%s' to '%s'",
				  a->rel, esc(b->data, b->len, e1, sizeof(e1)),
				  strerror((int)-ret),
				  vesc(&before, e2, sizeof(e2)),
				  vesc(&after, e3, sizeof(e3)));
		return;
	}
	if (after.err) {
		violation("read-after-accept-failed",
			  "%s: payload '%s' accepted (%ld), then reading failed: %s",
			  a->rel, esc(b->data, b->len, e1, sizeof(e1)), ret,
			  strerror(after.err));
		return;
	}
	if (!reads_back_as_written(b, ret, &after))
		violation("reads-back-otherwise",
			  "%s: payload '%s' accepted (%ld of %zu bytes), but it reads back as '%s' (before '%s')",
			  a->rel, esc(b->data, b->len, e1, sizeof(e1)), ret,
			  b->len, vesc(&after, e2, sizeof(e2)),
			  vesc(&before, e3, sizeof(e3)));
	back = wr(a->path, after.data, after.len);
	rd(a->path, &again);
	if (back != (long)after.len)
		violation("round-trip-refused",
			  "%s: after payload '%s', writing back its value '%s' gave %ld (%s)",
			  a->rel, esc(b->data, b->len, e1, sizeof(e1)),
			  vesc(&after, e2, sizeof(e2)), back,
			  back < 0 ? strerror((int)-back) : "short");
	else if (!val_same(&after, &again))
		violation("round-trip-changed",
			  "%s: after payload '%s', writing back '%s' left '%s'",
			  a->rel, esc(b->data, b->len, e1, sizeof(e1)),
			  vesc(&after, e2, sizeof(e2)),
			  vesc(&again, e3, sizeof(e3)));
}

static void selected(char *s, size_t size)
{
	char path[1200];
	struct val v;

	snprintf(path, sizeof(path), "%s/profile", root);
	rd(path, &v);
	if (v.len && v.data[v.len - 1] == '\n')
		v.data[--v.len] = '\0';
	put(s, size, "%s", v.err ? "" : v.data);
}

static int is_own(const char *name)
{
	int i;

	for (i = 0; i < nown; i++)
		if (!strcmp(own[i], name))
			return i;
	return -1;
}

static void fuzz_rmdir(const char *name)
{
	char path[1600], sel[400], e1[300];
	struct stat st;
	int ret, i;

	selected(sel, sizeof(sel));
	snprintf(path, sizeof(path), "%s/profiles/%s", root, name);
	ret = rmdir(path) ? -errno : 0;
	rmdirs++;
	if (!strcmp(sel, name)) {
		if (ret != -EBUSY)
			violation("rmdir-selected",
				  "rmdir of the selected profile '%s' gave %s",
				  esc(name, strlen(name), e1, sizeof(e1)),
				  ret ? strerror(-ret) : "success");
	} else if (ret) {
		violation("rmdir-failed", "rmdir of profile '%s': %s",
			  esc(name, strlen(name), e1, sizeof(e1)),
			  strerror(-ret));
	}
	if (!ret) {
		if (!stat(path, &st))
			violation("rmdir-stayed", "profile '%s' still there",
				  esc(name, strlen(name), e1, sizeof(e1)));
		i = is_own(name);
		if (i >= 0)
			memmove(own[i], own[i + 1],
				(size_t)(--nown - i) * sizeof(own[0]));
	}
}

static void fuzz_mkdir(void)
{
	char name[300], path[1600], e1[300];
	struct stat st;
	int existed, ret;

	gen_name(name, sizeof(name));
	snprintf(path, sizeof(path), "%s/profiles/%s", root, name);
	existed = !lstat(path, &st);
	ret = mkdir(path, 0755) ? -errno : 0;
	mkdirs++;
	if (ret) {
		if (!existed && !lstat(path, &st))
			violation("mkdir-failed-but-exists",
				  "mkdir '%s' failed (%s) but the path exists",
				  esc(name, strlen(name), e1, sizeof(e1)),
				  strerror(-ret));
		return;
	}
	if (strchr(name, '/') || strlen(name) >= 64 ||
	    !strcmp(name, ".") || !strcmp(name, "..")) {
		violation("mkdir-accepted",
			  "mkdir of profile '%s' (%zu bytes) succeeded",
			  esc(name, strlen(name), e1, sizeof(e1)),
			  strlen(name));
		if (rmdir(path))
			violation("rmdir-failed", "cleanup of '%s': %s",
				  esc(name, strlen(name), e1, sizeof(e1)),
				  strerror(errno));
		return;
	}
	snprintf(own[nown++], sizeof(own[0]), "%s", name);
	tree_bad = 0;
	check_profile(name, 1);
	if (tree_bad)
		violation("new-profile", "profile '%s' is not as documented",
			  esc(name, strlen(name), e1, sizeof(e1)));
}

static void fuzz_dirs(void)
{
	char path[1200], sel[400];
	int r = (int)rn(10);

	if (r < 5 && nown < MAX_OWN) {
		fuzz_mkdir();
	} else if (r < 8 && nown) {
		fuzz_rmdir(own[rn(nown)]);
	} else if (r < 9) {
		/* the selected profile must not go */
		selected(sel, sizeof(sel));
		if (sel[0])
			fuzz_rmdir(sel);
	} else {
		/* no directories outside profiles/ */
		snprintf(path, sizeof(path), "%s/%s/fuzzdir", root,
			 rn(2) ? "results" : ".");
		if (!mkdir(path, 0755)) {
			violation("mkdir-accepted", "mkdir %s succeeded", path);
			rmdir(path);
		}
		mkdirs++;
	}
	scan();
}

/* Leaves no profile of ours behind (nor selected). */
static void cleanup(void)
{
	char sel[400], path[1200];

	selected(sel, sizeof(sel));
	if (sel[0] && is_own(sel) >= 0) {
		snprintf(path, sizeof(path), "%s/profile", root);
		if (wr(path, "\n", 1) != 1)
			violation("deselect", "clearing profile failed");
	}
	while (nown)
		fuzz_rmdir(own[0]);
}

/*
 * Second line of defence: without CAP_SYS_ADMIN the kernel refuses every
 * action word with EPERM (after parsing it), so even a payload the filter
 * missed cannot start a cycle.  Nothing else the fuzzer does needs it.
 */
static int drop_sys_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	const unsigned int bit = 1U << CAP_SYS_ADMIN;

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~bit;
	d[0].permitted &= ~bit;
	d[0].inheritable &= ~bit;
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) && errno != EINVAL)
		return -1;
	if (syscall(SYS_capset, &h, d) || syscall(SYS_capget, &h, d))
		return -1;
	return d[0].effective & bit ? -1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: cfsfuzz ROOT SEED ITERATIONS\n"
		"       cfsfuzz --check ROOT\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct buf b;
	unsigned long long seed, iterations, i;
	struct timespec t0, t1;
	struct statfs sfs;
	char *end;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "--check")) {
		snprintf(root, sizeof(root), "%s", argv[2]);
		load_capabilities();
		check_tree();
		printf("cfsfuzz: tree %s: %lu attributes read, %lu invalid\n",
		       root, tree_checked, tree_bad);
		return tree_bad ? 1 : 0;
	}
	if (argc != 4)
		return usage();
	snprintf(root, sizeof(root), "%s", argv[1]);
	seed = strtoull(argv[2], &end, 0);
	if (*end)
		return usage();
	iterations = strtoull(argv[3], &end, 0);
	if (*end)
		return usage();
	use_trunc = statfs(root, &sfs) || sfs.f_type != CONFIGFS_MAGIC;
	if (drop_sys_admin()) {
		fprintf(stderr, "cfsfuzz: cannot drop CAP_SYS_ADMIN: %s\n",
			strerror(errno));
		return 2;
	}
	rng_seed(seed);
	load_capabilities();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	scan();
	if (!nattrs) {
		fprintf(stderr, "cfsfuzz: no attributes under %s\n", root);
		return 2;
	}
	for (i = 0; i < iterations; i++) {
		if (chance(3)) {
			fuzz_dirs();
		} else {
			struct attr *a = &attrs[rn(nattrs)];

			gen_payload(&b, a);
			fuzz_write(a, &b);
		}
		if ((i + 1) % TREE_EVERY == 0 && check_tree())
			violation("tree-invalid", "after round %llu", i + 1);
	}
	cleanup();
	if (check_tree())
		violation("tree-invalid", "at the end");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("cfsfuzz: seed %llu iterations %llu writes %lu accepted %lu refused %lu mkdir %lu rmdir %lu violations %lu time %.1fs\n",
	       seed, iterations, writes, accepted, refused, mkdirs, rmdirs,
	       violations, (double)(t1.tv_sec - t0.tv_sec) +
	       (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return violations ? 1 : 0;
}
