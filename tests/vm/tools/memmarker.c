/*
 * memmarker - a process whose memory must survive hibernation unchanged.
 *
 *   memmarker start MiB SEED [mixed]
 *                              fork a daemon that fills MiB of anonymous
 *                              memory with a PRNG stream seeded by SEED
 *                              (with "mixed": a fixed mix of page kinds
 *                              that compresses like real memory, see
 *                              mixed_page())
 *                              (every page touched), plus a child process
 *                              linked to it by a pair of pipes; returns
 *                              once everything is in place
 *   memmarker check            ask the daemon to re-verify every byte and
 *                              to do a round trip over the pipes with its
 *                              child; prints the verdict, exit 0 only if
 *                              the data is identical, both processes are
 *                              alive and the pipes work
 *   memmarker stop             kill the daemon and its child
 *
 * State lives in /tmp (tmpfs, so it is RAM and part of the image):
 *   /tmp/memmarker.pid        daemon pid
 *   /tmp/memmarker-child.pid  child pid
 *   /tmp/memmarker.fifo       the daemon writes its verdict here
 *
 * The check is requested with SIGUSR1; the daemon answers with one line,
 * "OK ..." or "BAD ...", on the fifo.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mixed.h"

#define PID_FILE	"/tmp/memmarker.pid"
#define CHILD_PID_FILE	"/tmp/memmarker-child.pid"
#define FIFO		"/tmp/memmarker.fifo"
#define CHECK_TIMEOUT	300	/* seconds; TCG is slow, 1 GiB takes a while */

static volatile sig_atomic_t check_requested;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("memmarker: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int mixed;		/* page kinds instead of one random stream */

static void fill(uint64_t *mem, size_t words, uint64_t seed)
{
	if (mixed) {
		for (size_t p = 0; p < words / PAGE_WORDS; p++)
			mixed_page(mem + p * PAGE_WORDS, p, seed);
		return;
	}
	for (size_t i = 0; i < words; i++)
		mem[i] = next_rand(&seed);
}

/* Returns the number of 8-byte words that differ; *first gets the first. */
static size_t verify(const uint64_t *mem, size_t words, uint64_t seed,
		     size_t *first)
{
	uint64_t want[PAGE_WORDS];
	size_t bad = 0;

	if (mixed) {
		for (size_t p = 0; p < words / PAGE_WORDS; p++) {
			mixed_page(want, p, seed);
			for (size_t i = 0; i < PAGE_WORDS; i++)
				if (mem[p * PAGE_WORDS + i] != want[i] &&
				    bad++ == 0)
					*first = p * PAGE_WORDS + i;
		}
		return bad;
	}
	for (size_t i = 0; i < words; i++) {
		if (mem[i] != next_rand(&seed) && bad++ == 0)
			*first = i;
	}
	return bad;
}

static void write_pid(const char *path, pid_t pid)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%d\n", (int)pid) < 0 || fclose(f) != 0)
		die("cannot write %s: %s", path, strerror(errno));
}

static pid_t read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

/* Full read/write with a timeout; 0 on success. */
static int xfer(int fd, void *buf, size_t len, int writing, int timeout_ms)
{
	char *p = buf;

	while (len) {
		struct pollfd pfd = { fd, writing ? POLLOUT : POLLIN, 0 };
		ssize_t n;

		if (poll(&pfd, 1, timeout_ms) != 1)
			return -1;
		n = writing ? write(fd, p, len) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* The child: answer every token from the daemon with token + 1. */
static void child_loop(int in, int out)
{
	uint64_t token;

	while (xfer(in, &token, sizeof(token), 0, -1) == 0) {
		token++;
		if (xfer(out, &token, sizeof(token), 1, -1) != 0)
			break;
	}
	_exit(0);
}

static void on_usr1(int sig)
{
	(void)sig;
	check_requested = 1;
}

/* The daemon: verify memory and the pipes each time SIGUSR1 arrives. */
static void daemon_loop(uint64_t *mem, size_t words, uint64_t seed,
			pid_t child, int to_child, int from_child)
{
	sigset_t block, old;
	uint64_t round = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (;;) {
		char verdict[256];
		size_t first = 0, bad;
		uint64_t token = ++round * 1000, reply = 0;
		int pipe_ok, child_ok, fd;

		while (!check_requested)
			sigsuspend(&old);	/* sleeps with SIGUSR1 unblocked */
		check_requested = 0;

		bad = verify(mem, words, seed, &first);
		child_ok = kill(child, 0) == 0 &&
			   waitpid(child, NULL, WNOHANG) == 0;
		pipe_ok = xfer(to_child, &token, sizeof(token), 1, 5000) == 0 &&
			  xfer(from_child, &reply, sizeof(reply), 0, 5000) == 0 &&
			  reply == token + 1;

		if (!bad && child_ok && pipe_ok)
			snprintf(verdict, sizeof(verdict),
				 "OK %zu MiB identical, daemon %d and child %d alive, pipe round trip ok\n",
				 words / (131072), (int)getpid(), (int)child);
		else
			snprintf(verdict, sizeof(verdict),
				 "BAD %zu of %zu words differ (first at byte %zu), child %s, pipe %s\n",
				 bad, words, first * 8,
				 child_ok ? "alive" : "gone",
				 pipe_ok ? "ok" : "broken");

		fd = open(FIFO, O_WRONLY);
		if (fd >= 0) {
			if (write(fd, verdict, strlen(verdict)) < 0)
				perror("memmarker: fifo");
			close(fd);
		}
	}
}

static int cmd_start(size_t mib, uint64_t seed)
{
	int ready[2], down[2], up[2];
	pid_t daemon_pid;
	char msg[160];
	ssize_t n;

	if (pipe(ready) != 0)
		die("pipe: %s", strerror(errno));
	daemon_pid = fork();
	if (daemon_pid < 0)
		die("fork: %s", strerror(errno));

	if (daemon_pid == 0) {
		size_t words = mib * 131072;	/* 8-byte words per MiB */
		uint64_t *mem;
		pid_t child;

		close(ready[0]);
		setsid();
		/*
		 * Let go of the caller's stdin/stdout (before the child
		 * inherits them) so that `$(memmarker start ...)` returns;
		 * stderr stays for error messages.
		 */
		n = open("/dev/null", O_RDWR);
		if (n >= 0) {
			dup2(n, 0);
			dup2(n, 1);
			close(n);
		}
		mem = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			die("mmap %zu MiB: %s", mib, strerror(errno));
		fill(mem, words, seed);

		if (pipe(down) != 0 || pipe(up) != 0)
			die("pipe: %s", strerror(errno));
		child = fork();
		if (child < 0)
			die("fork: %s", strerror(errno));
		if (child == 0) {
			close(ready[1]);
			close(down[1]);
			close(up[0]);
			munmap(mem, mib << 20);
			child_loop(down[0], up[1]);
		}
		close(down[0]);
		close(up[1]);

		signal(SIGUSR1, on_usr1);
		signal(SIGPIPE, SIG_IGN);
		unlink(FIFO);
		if (mkfifo(FIFO, 0600) != 0)
			die("mkfifo %s: %s", FIFO, strerror(errno));
		write_pid(PID_FILE, getpid());
		write_pid(CHILD_PID_FILE, child);

		n = snprintf(msg, sizeof(msg),
			     "memmarker: %zu MiB filled (seed %llu), daemon %d, child %d\n",
			     mib, (unsigned long long)seed, (int)getpid(), (int)child);
		if (write(ready[1], msg, n) != n)
			die("cannot report readiness");
		close(ready[1]);
		daemon_loop(mem, words, seed, child, down[1], up[0]);
	}

	close(ready[1]);
	n = read(ready[0], msg, sizeof(msg) - 1);
	if (n <= 0)
		die("daemon failed to start");
	msg[n] = '\0';
	fputs(msg, stdout);
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
	fputs("memmarker: BAD no answer from the daemon\n", stdout);
	fflush(stdout);
	_exit(1);
}

static int cmd_check(void)
{
	pid_t pid = read_pid(PID_FILE);
	char line[256];
	FILE *f;

	if (pid <= 0 || kill(pid, 0) != 0) {
		printf("memmarker: BAD daemon %d is not running\n", (int)pid);
		return 1;
	}
	signal(SIGALRM, on_alarm);
	alarm(CHECK_TIMEOUT);
	if (kill(pid, SIGUSR1) != 0)
		die("cannot signal %d: %s", (int)pid, strerror(errno));
	f = fopen(FIFO, "r");	/* blocks until the daemon answers */
	if (!f || !fgets(line, sizeof(line), f)) {
		printf("memmarker: BAD no answer from daemon %d\n", (int)pid);
		return 1;
	}
	fclose(f);
	printf("memmarker: %s", line);
	return strncmp(line, "OK ", 3) == 0 ? 0 : 1;
}

static int cmd_stop(void)
{
	pid_t pid = read_pid(PID_FILE), child = read_pid(CHILD_PID_FILE);

	if (child > 0)
		kill(child, SIGTERM);
	if (pid > 0)
		kill(pid, SIGTERM);
	unlink(PID_FILE);
	unlink(CHILD_PID_FILE);
	unlink(FIFO);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "start") == 0 &&
	    strcmp(argv[4], "mixed") == 0) {
		mixed = 1;
		argc = 4;
	}
	if (argc == 4 && strcmp(argv[1], "start") == 0) {
		char *end;
		unsigned long mib = strtoul(argv[2], &end, 0);
		unsigned long long seed;

		if (*end || mib == 0)
			die("bad size '%s'", argv[2]);
		seed = strtoull(argv[3], &end, 0);
		if (*end)
			die("bad seed '%s'", argv[3]);
		return cmd_start(mib, seed);
	}
	if (argc == 2 && strcmp(argv[1], "check") == 0)
		return cmd_check();
	if (argc == 2 && strcmp(argv[1], "stop") == 0)
		return cmd_stop();
	fprintf(stderr, "usage: memmarker start MiB SEED [mixed] | check | stop\n");
	return 2;
}
