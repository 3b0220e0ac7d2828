// SPDX-License-Identifier: GPL-2.0
/*
 * s2fuse: a minimal FUSE filesystem for the sync-after-freeze fault test,
 * speaking the /dev/fuse protocol directly (no libfuse in the guest).
 *
 *   s2fuse mount DIR
 *	Mounts an in-memory filesystem (type fuse.s2fuse, one flat directory
 *	of at most 16 regular files) on DIR with the writeback cache on, so
 *	written data sits dirty in the page cache until writeback, and
 *	serves it from a daemon in the background; prints the daemon's pid.
 *   s2fuse write FILE KIB SEED HOLD_S [PULSE_FILE]
 *	Writes KIB KiB of a seeded stream to FILE with write(2) and keeps it
 *	open (no fsync, no close: closing a FUSE file writes it back).  With
 *	PULSE_FILE: waits for a kernel log line with "STAMP trigger" (the
 *	scenario's stamp just before it starts a cycle), then writes a
 *	16-byte record at the start of a fresh page of PULSE_FILE every 3 ms
 *	until it notices it was frozen (a gap of half a second) or for 3 s,
 *	so that some land after the FUSE part of the sync before the freeze
 *	and leave the inode's times dirty at the freeze.  Fresh pages past
 *	the end of the file need no request to the daemon, which may be
 *	frozen; each is handed to writeback at once (sync_file_range, which
 *	does not wait), so that few pages are ever dirty and the writer is
 *	never throttled on the FUSE mount's small dirty limit while the
 *	daemon is frozen, which would keep it from freezing.  Closes both
 *	after HOLD_S seconds; prints the record count.
 *   s2fuse check FILE KIB SEED [PULSE_FILE N]
 *	Checks FILE (and N records in PULSE_FILE); exit 0 if intact.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES	16
#define ROOT_ID		FUSE_ROOT_ID
#define VALID_S		3600	/* entries and attributes stay cached */
#define MAX_WRITE	(128 * 1024)
#define REC_LEN		16

struct node {
	char name[64];
	unsigned char *data;
	size_t size, cap;
	uint32_t mode;
	struct timespec atime, mtime, ctime;
};

static struct node files[MAX_FILES];
static int nfiles;
static int fuse_fd;

static void reply(uint64_t unique, int error, const void *arg, size_t len)
{
	struct fuse_out_header oh = {
		.len = sizeof(oh) + len, .error = error, .unique = unique,
	};
	static unsigned char buf[sizeof(oh) + MAX_WRITE + 4096];

	memcpy(buf, &oh, sizeof(oh));
	if (len)
		memcpy(buf + sizeof(oh), arg, len);
	if (write(fuse_fd, buf, oh.len) < 0 && errno != ENOENT)
		perror("s2fuse: reply");
}

static struct node *node_of(uint64_t id)
{
	if (id < 2 || id >= 2 + (uint64_t)nfiles)
		return NULL;
	return &files[id - 2];
}

static void fill_attr(uint64_t id, struct fuse_attr *a)
{
	struct node *n = node_of(id);

	memset(a, 0, sizeof(*a));
	a->ino = id;
	a->blksize = 4096;
	if (!n) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
		return;
	}
	a->mode = n->mode;
	a->nlink = 1;
	a->size = n->size;
	a->blocks = (n->size + 511) / 512;
	a->atime = n->atime.tv_sec;
	a->atimensec = n->atime.tv_nsec;
	a->mtime = n->mtime.tv_sec;
	a->mtimensec = n->mtime.tv_nsec;
	a->ctime = n->ctime.tv_sec;
	a->ctimensec = n->ctime.tv_nsec;
}

static void reply_entry(uint64_t unique, uint64_t id)
{
	struct fuse_entry_out e = {
		.nodeid = id, .entry_valid = VALID_S, .attr_valid = VALID_S,
	};

	fill_attr(id, &e.attr);
	reply(unique, 0, &e, sizeof(e));
}

static void reply_attr(uint64_t unique, uint64_t id)
{
	struct fuse_attr_out a = { .attr_valid = VALID_S };

	fill_attr(id, &a.attr);
	reply(unique, 0, &a, sizeof(a));
}

static int resize(struct node *n, size_t size)
{
	if (size > n->cap) {
		size_t cap = size + size / 2 + 4096;
		unsigned char *p = realloc(n->data, cap);

		if (!p)
			return -ENOSPC;
		memset(p + n->cap, 0, cap - n->cap);
		n->data = p;
		n->cap = cap;
	}
	if (size < n->size)
		memset(n->data + size, 0, n->size - size);
	n->size = size;
	return 0;
}

static uint64_t lookup(const char *name)
{
	int i;

	for (i = 0; i < nfiles; i++)
		if (!strcmp(files[i].name, name))
			return i + 2;
	return 0;
}

static void do_setattr(const struct fuse_in_header *ih,
		       const struct fuse_setattr_in *in)
{
	struct node *n = node_of(ih->nodeid);

	if (n && (in->valid & FATTR_SIZE) && resize(n, in->size)) {
		reply(ih->unique, -ENOSPC, NULL, 0);
		return;
	}
	if (n && (in->valid & FATTR_MODE))
		n->mode = S_IFREG | (in->mode & 07777);
	if (n && (in->valid & FATTR_ATIME))
		n->atime = (struct timespec){ in->atime, in->atimensec };
	if (n && (in->valid & FATTR_MTIME))
		n->mtime = (struct timespec){ in->mtime, in->mtimensec };
	if (n && (in->valid & FATTR_CTIME))
		n->ctime = (struct timespec){ in->ctime, in->ctimensec };
	reply_attr(ih->unique, ih->nodeid);
}

static void do_create(const struct fuse_in_header *ih,
		      const struct fuse_create_in *in, const char *name)
{
	struct {
		struct fuse_entry_out e;
		struct fuse_open_out o;
	} out;
	uint64_t id = lookup(name);
	struct node *n;

	if (!id) {
		if (nfiles == MAX_FILES || strlen(name) >= sizeof(n->name)) {
			reply(ih->unique, -ENOSPC, NULL, 0);
			return;
		}
		n = &files[nfiles++];
		snprintf(n->name, sizeof(n->name), "%s", name);
		n->mode = S_IFREG | (in->mode & 07777 & ~in->umask);
		clock_gettime(CLOCK_REALTIME, &n->mtime);
		n->atime = n->ctime = n->mtime;
		id = nfiles + 1;
	}
	memset(&out, 0, sizeof(out));
	out.e.nodeid = id;
	out.e.entry_valid = VALID_S;
	out.e.attr_valid = VALID_S;
	fill_attr(id, &out.e.attr);
	reply(ih->unique, 0, &out, sizeof(out));
}

static void do_readdir(const struct fuse_in_header *ih,
		       const struct fuse_read_in *in)
{
	static unsigned char buf[MAX_WRITE];
	size_t len = 0, max = in->size < sizeof(buf) ? in->size : sizeof(buf);
	uint64_t i;

	for (i = in->offset; i < 2 + (uint64_t)nfiles; i++) {
		const char *name = i == 0 ? "." : i == 1 ? ".." : files[i - 2].name;
		size_t nl = strlen(name);
		size_t sz = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + nl);
		struct fuse_dirent *d = (struct fuse_dirent *)(buf + len);

		if (len + sz > max)
			break;
		memset(d, 0, sz);
		d->ino = i < 2 ? ROOT_ID : i;
		d->off = i + 1;
		d->namelen = nl;
		d->type = i < 2 ? DT_DIR : DT_REG;
		memcpy(d->name, name, nl);
		len += sz;
	}
	reply(ih->unique, 0, buf, len);
}

static void serve(void)
{
	static unsigned char buf[MAX_WRITE + 8192];
	struct fuse_in_header *ih = (void *)buf;
	void *arg = buf + sizeof(*ih);

	for (;;) {
		ssize_t r = read(fuse_fd, buf, sizeof(buf));

		if (r < 0) {
			if (errno == EINTR || errno == ENOENT || errno == EAGAIN)
				continue;
			if (errno != ENODEV)
				perror("s2fuse: read");
			exit(0);
		}
		if ((size_t)r < sizeof(*ih))
			continue;
		switch (ih->opcode) {
		case FUSE_INIT: {
			const struct fuse_init_in *in = arg;
			struct fuse_init_out out = {
				.major = FUSE_KERNEL_VERSION,
				.minor = FUSE_KERNEL_MINOR_VERSION,
				.max_readahead = in->max_readahead,
				.flags = in->flags & (FUSE_WRITEBACK_CACHE |
						      FUSE_ASYNC_READ |
						      FUSE_BIG_WRITES),
				.max_background = 16,
				.congestion_threshold = 12,
				.max_write = MAX_WRITE,
				.time_gran = 1,
				.max_pages = MAX_WRITE / 4096,
			};

			if (!(in->flags & FUSE_WRITEBACK_CACHE))
				fprintf(stderr, "s2fuse: no writeback cache offered\n");
			reply(ih->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_LOOKUP: {
			uint64_t id = ih->nodeid == ROOT_ID ? lookup(arg) : 0;

			if (id)
				reply_entry(ih->unique, id);
			else
				reply(ih->unique, -ENOENT, NULL, 0);
			break;
		}
		case FUSE_GETATTR:
			reply_attr(ih->unique, ih->nodeid);
			break;
		case FUSE_SETATTR:
			do_setattr(ih, arg);
			break;
		case FUSE_CREATE: {
			const struct fuse_create_in *in = arg;

			do_create(ih, in, (const char *)(in + 1));
			break;
		}
		case FUSE_OPEN:
		case FUSE_OPENDIR: {
			struct fuse_open_out out = { .fh = ih->nodeid };

			reply(ih->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_READ: {
			const struct fuse_read_in *in = arg;
			struct node *n = node_of(ih->nodeid);
			size_t len = 0;

			if (n && in->offset < n->size) {
				len = n->size - in->offset;
				if (len > in->size)
					len = in->size;
			}
			reply(ih->unique, 0, n ? n->data + in->offset : NULL, len);
			break;
		}
		case FUSE_WRITE: {
			const struct fuse_write_in *in = arg;
			struct node *n = node_of(ih->nodeid);
			struct fuse_write_out out = { .size = in->size };
			size_t end = in->offset + in->size;

			if (!n || (end > n->size && resize(n, end))) {
				reply(ih->unique, -ENOSPC, NULL, 0);
				break;
			}
			memcpy(n->data + in->offset, in + 1, in->size);
			reply(ih->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_READDIR:
			do_readdir(ih, arg);
			break;
		case FUSE_STATFS: {
			struct fuse_statfs_out out = { .st = {
				.blocks = 65536, .bfree = 32768,
				.bavail = 32768, .files = MAX_FILES,
				.ffree = MAX_FILES - nfiles, .bsize = 4096,
				.namelen = 63, .frsize = 4096,
			} };

			reply(ih->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_FLUSH:
		case FUSE_FSYNC:
		case FUSE_FSYNCDIR:
		case FUSE_RELEASE:
		case FUSE_RELEASEDIR:
		case FUSE_ACCESS:
			reply(ih->unique, 0, NULL, 0);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			break;
		case FUSE_DESTROY:
			reply(ih->unique, 0, NULL, 0);
			exit(0);
		default:
			reply(ih->unique, -ENOSYS, NULL, 0);
		}
	}
}

static int cmd_mount(const char *dir)
{
	char opts[128];
	pid_t pid;

	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse_fd < 0) {
		perror("s2fuse: /dev/fuse");
		return 1;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", fuse_fd);
	if (mount("s2fuse", dir, "fuse.s2fuse", MS_NOSUID | MS_NODEV, opts)) {
		perror("s2fuse: mount");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("s2fuse: fork");
		return 1;
	}
	if (pid) {
		printf("%d\n", pid);
		return 0;
	}
	/* Let $(s2fuse mount DIR) return: the daemon keeps only stderr. */
	if (!freopen("/dev/null", "r", stdin) ||
	    !freopen("/dev/null", "w", stdout))
		return 1;
	setsid();
	signal(SIGHUP, SIG_IGN);
	serve();
	return 0;
}

static uint32_t next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void stream(unsigned char *buf, size_t len, uint32_t *x)
{
	size_t i;

	for (i = 0; i < len; i += 4) {
		uint32_t v = next(x);

		memcpy(buf + i, &v, len - i < 4 ? len - i : 4);
	}
}

static void record(char *rec, unsigned int k)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "pulse %09u\n", k % 1000000000);
	memcpy(rec, tmp, REC_LEN);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Waits up to TIMEOUT seconds for a kernel log line containing WHAT. */
static int wait_kmsg(const char *what, double timeout)
{
	double end = now_s() + timeout;
	char line[1024];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0)
		return -1;
	while (now_s() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, 100) <= 0)
			continue;
		r = read(fd, line, sizeof(line) - 1);
		if (r <= 0)
			continue;
		line[r] = '\0';
		if (strstr(line, what)) {
			close(fd);
			return 0;
		}
	}
	close(fd);
	return -1;
}

static int cmd_write(char **argv, int argc)
{
	size_t len = strtoul(argv[1], NULL, 0) * 1024;
	uint32_t x = strtoul(argv[2], NULL, 0) * 2 + 1;
	double hold = strtod(argv[3], NULL), start = now_s(), t0;
	unsigned char *buf = malloc(len + 4);
	int fd, pfd = -1;
	unsigned int k = 0;
	char rec[REC_LEN];

	fd = open(argv[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!buf || fd < 0) {
		perror("s2fuse: write");
		return 1;
	}
	stream(buf, len, &x);
	if (write(fd, buf, len) != (ssize_t)len) {
		perror("s2fuse: write");
		return 1;
	}
	if (argc > 4) {
		pfd = open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (pfd < 0) {
			perror("s2fuse: pulse file");
			return 1;
		}
		fprintf(stderr, "s2fuse: %s written, waiting for the trigger\n",
			argv[0]);
		if (!wait_kmsg("STAMP trigger", hold)) {
			double last = now_s();

			/* Fresh pages only: no read, no wait on writeback. */
			for (t0 = last; last - t0 < 3; k++) {
				off_t off = (off_t)k * 4096;

				record(rec, k);
				if (pwrite(pfd, rec, REC_LEN, off) != REC_LEN ||
				    sync_file_range(pfd, off, 4096,
						    SYNC_FILE_RANGE_WRITE)) {
					perror("s2fuse: pulse");
					return 1;
				}
				usleep(3000);
				if (now_s() - last > 0.5) {
					k++;
					break;	/* frozen and thawed */
				}
				last = now_s();
			}
		}
	}
	while (now_s() - start < hold)
		usleep(100000);
	if (close(fd) || (pfd >= 0 && close(pfd))) {
		perror("s2fuse: close");
		return 1;
	}
	printf("%u\n", k);
	return 0;
}

static int cmd_check(char **argv, int argc)
{
	size_t len = strtoul(argv[1], NULL, 0) * 1024;
	uint32_t x = strtoul(argv[2], NULL, 0) * 2 + 1;
	unsigned char *want = malloc(len + 4), *got = malloc(len + 1);
	unsigned int k, n;
	char rec[REC_LEN], back[REC_LEN];
	struct stat st;
	int fd;

	fd = open(argv[0], O_RDONLY);
	if (!want || !got || fd < 0) {
		perror("s2fuse: check");
		return 1;
	}
	stream(want, len, &x);
	if (read(fd, got, len + 1) != (ssize_t)len || memcmp(want, got, len)) {
		printf("%s differs from what was written\n", argv[0]);
		return 1;
	}
	close(fd);
	if (argc < 5) {
		printf("%s intact (%zu KiB)\n", argv[0], len / 1024);
		return 0;
	}
	n = strtoul(argv[4], NULL, 0);
	fd = open(argv[3], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror("s2fuse: check");
		return 1;
	}
	if (st.st_size != (n ? (off_t)(n - 1) * 4096 + REC_LEN : 0)) {
		printf("%s has %lld bytes, not %u records\n", argv[3],
		       (long long)st.st_size, n);
		return 1;
	}
	for (k = 0; k < n; k++) {
		record(rec, k);
		if (pread(fd, back, REC_LEN, (off_t)k * 4096) != REC_LEN ||
		    memcmp(rec, back, REC_LEN)) {
			printf("%s: record %u differs\n", argv[3], k);
			return 1;
		}
	}
	printf("%s intact (%zu KiB), %s intact (%u records)\n", argv[0],
	       len / 1024, argv[3], n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "mount"))
		return cmd_mount(argv[2]);
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "write"))
		return cmd_write(argv + 2, argc - 2);
	if ((argc == 5 || argc == 7) && !strcmp(argv[1], "check"))
		return cmd_check(argv + 2, argc - 2);
	fprintf(stderr,
		"usage: s2fuse mount DIR\n"
		"       s2fuse write FILE KIB SEED HOLD_S [PULSE_FILE]\n"
		"       s2fuse check FILE KIB SEED [PULSE_FILE N]\n");
	return 2;
}
