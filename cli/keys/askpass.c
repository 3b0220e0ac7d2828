// SPDX-License-Identifier: GPL-2.0
/*
 * Passphrases read a byte at a time with read(2), so that no stdio
 * buffer keeps a copy; the terminal's echo is off while one is typed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <sodium.h>

#include "keys/askpass.h"
#include "lib/common.h"
#include "lib/perm.h"
#include "lib/sysroot.h"

/*
 * While echo is off, a signal that kills the process (Ctrl-C, Ctrl-\,
 * SIGTERM, a hangup) would leave the terminal without echo for the shell
 * or the console after it: the handler puts the settings back first,
 * then dies of the same signal.
 */
static const int fatal_signals[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
static struct sigaction saved_actions[ARRAY_SIZE(fatal_signals)];
static struct termios saved_tty;
static volatile sig_atomic_t saved_fd = -1;

/*
 * Ctrl-Z (and a background read or write of the terminal) stops the
 * process: as readpassphrase(3) does, the handler only notes the signal
 * and interrupts the read; askpass_get() then puts echo back on, stops
 * for real, and once continued (fg) turns echo off again and asks anew.
 */
static const int stop_signals[] = { SIGTSTP, SIGTTIN, SIGTTOU };
static struct sigaction saved_stop_actions[ARRAY_SIZE(stop_signals)];
static volatile sig_atomic_t stop_signal;
/*
 * The stop signals stay blocked at the prompt but for the wait for a
 * key (ppoll() unblocks them atomically): one that comes while the
 * prompt is written is taken there, not missed before a read that would
 * then wait for ever.
 */
static sigset_t saved_mask, wait_mask;

static void note_stop(int sig)
{
	stop_signal = sig;
}

static void restore_and_die(int sig)
{
	int fd = saved_fd, e = errno;
	ssize_t n;

	if (fd >= 0) {
		tcsetattr(fd, TCSANOW, &saved_tty);
		/* The prompt's line ended, as after a passphrase. */
		n = write(fd, "\n", 1);
		(void)n;
	}
	errno = e;
	/* SA_RESETHAND: the default action once the handler returns. */
	raise(sig);
}

/* Only over the default action: an ignored signal stays ignored. */
static void guard_tty(int fd, const struct termios *old)
{
	struct sigaction sa = { .sa_handler = restore_and_die,
				.sa_flags = SA_RESETHAND };
	/* No SA_RESTART: the wait returns EINTR, and the stop is handled. */
	struct sigaction stop = { .sa_handler = note_stop };
	sigset_t block;
	size_t i;

	saved_tty = *old;
	saved_fd = fd;
	stop_signal = 0;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		sigaction(fatal_signals[i], NULL, &saved_actions[i]);
		if (saved_actions[i].sa_handler == SIG_DFL)
			sigaction(fatal_signals[i], &sa, NULL);
	}
	sigfillset(&stop.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		sigaction(stop_signals[i], NULL, &saved_stop_actions[i]);
		if (saved_stop_actions[i].sa_handler == SIG_DFL) {
			sigaction(stop_signals[i], &stop, NULL);
			sigaddset(&block, stop_signals[i]);
		}
	}
	sigprocmask(SIG_BLOCK, &block, &saved_mask);
	wait_mask = saved_mask;
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (sigismember(&block, stop_signals[i]))
			sigdelset(&wait_mask, stop_signals[i]);
}

static void unguard_tty(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		if (saved_actions[i].sa_handler == SIG_DFL)
			sigaction(fatal_signals[i], &saved_actions[i], NULL);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (saved_stop_actions[i].sa_handler == SIG_DFL)
			sigaction(stop_signals[i], &saved_stop_actions[i],
				  NULL);
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
	saved_fd = -1;
}

/*
 * A stop signal came at the prompt: echo back on for the shell, stopped
 * by the same signal with its default action, and, once continued, echo
 * off again.  What was typed before it is gone (the terminal flushed
 * it); the caller asks again.
 */
static void stop_at_prompt(int fd, const struct termios *old,
			   const struct termios *quiet)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, ours;
	int sig = stop_signal;
	sigset_t one, was;
	ssize_t n;

	stop_signal = 0;
	tcsetattr(fd, TCSAFLUSH, old);
	n = write(fd, "\n", 1);
	(void)n;
	sigaction(sig, &dfl, &ours);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, &was);
	kill(getpid(), sig);
	/* Here after SIGCONT (fg), or at once where stops are ignored. */
	sigprocmask(SIG_SETMASK, &was, NULL);
	sigaction(sig, &ours, NULL);
	tcsetattr(fd, TCSAFLUSH, quiet);
}

/* PROG ARG [ARG2] with stdout into fd out (-1: /dev/null); exit status. */
static int run_helper(const char *prog, const char *arg, const char *arg2,
		      int out)
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		if (out < 0)
			out = null;
		dup2(out, STDOUT_FILENO);
		execl(prog, prog, arg, arg2, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int askpass_open(struct askpass *a, const char *file, bool helpers)
{
	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (!file && helpers) {
		const char *p = hib_path(ASKPASS_PLYMOUTH, a->path,
					 sizeof(a->path));

		if (!access(p, X_OK) && !run_helper(p, "--ping", NULL, -1)) {
			a->plymouth = true;
		} else {
			p = hib_path(ASKPASS_CRYPTSETUP, a->path,
				     sizeof(a->path));
			if (access(p, X_OK))
				p = NULL;
		}
		if (p) {
			/* Not left pointing at a string that is no buffer. */
			if (p != a->path)
				snprintf(a->path, sizeof(a->path), "%s", p);
			a->helper = a->path;
			return 0;
		}
	}
	if (file) {
		struct stat st;

		/* Not a FIFO or a device: one would hang the boot. */
		a->fd = perm_open_regular(file, a->why, sizeof(a->why));
		if (a->fd < 0)
			return a->fd;
		/*
		 * A secret, judged as the key files are on the file opened:
		 * whoever else may read it has the passphrase, whoever may
		 * write it chooses the one a new key is sealed with.
		 */
		if (fstat(a->fd, &st) ||
		    perm_secret(file, st.st_uid, st.st_mode, a->why,
				sizeof(a->why))) {
			close(a->fd);
			a->fd = -1;
			return -EPERM;
		}
		return 0;
	}
	a->fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (a->fd < 0)
		a->fd = open("/dev/console", O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (a->fd < 0)
		return -errno;
	if (!isatty(a->fd)) {
		close(a->fd);
		a->fd = -1;
		return -ENOTTY;
	}
	a->tty = true;
	return 0;
}

/*
 * One line into buf; the rest of a line too long is read and dropped.
 * -EINTR when a stop signal interrupted it (the terminal only).
 */
static int read_line(struct askpass *a, char *buf)
{
	size_t n = 0;
	bool any = false, big = false, nul = false;
	char c;

	for (;;) {
		struct pollfd pfd = { .fd = a->fd, .events = POLLIN };
		ssize_t r;

		/* The terminal: wait with the stop signals let through. */
		if (a->tty && ppoll(&pfd, 1, NULL, &wait_mask) < 0) {
			if (errno != EINTR)
				return -errno;
			if (!stop_signal)
				continue;
			sodium_memzero(buf, ASKPASS_MAX);
			return -EINTR;
		}
		r = read(a->fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r) {
			a->eof = true;
			break;
		}
		any = true;
		if (c == '\n')
			break;
		/* The passphrase is a C string: a NUL would end it early. */
		if (!c)
			nul = true;
		if (n + 1 < ASKPASS_MAX)
			buf[n++] = c;
		else
			big = true;
	}
	sodium_memzero(&c, sizeof(c));
	buf[n] = '\0';
	if (n && buf[n - 1] == '\r')
		buf[--n] = '\0';
	if (!any)
		return -ENODATA;
	if (nul) {
		sodium_memzero(buf, ASKPASS_MAX);
		return -EILSEQ;
	}
	return big ? -E2BIG : 0;
}

/*
 * One passphrase from the helper's standard output, through a pipe (no
 * stdio buffer keeps a copy).  plymouth takes the prompt as
 * --prompt=TEXT; cryptsetup's askpass as its argument.
 */
static int helper_get(struct askpass *a, const char *prompt, char *buf)
{
	bool ply = a->plymouth;
	char arg[600];
	int fds[2], ret, st = 0;
	pid_t pid;

	snprintf(arg, sizeof(arg), "%s%s", ply ? "--prompt=" : "", prompt);
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		if (ply)
			execl(a->helper, a->helper, "ask-for-password", arg,
			      (char *)NULL);
		else
			execl(a->helper, a->helper, arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	a->fd = fds[0];
	a->eof = false;
	ret = read_line(a, buf);
	close(fds[0]);
	a->fd = -1;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* The helper gave up (Escape, no console): no more tries. */
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		memset(buf, 0, ASKPASS_MAX);
		return -ECANCELED;
	}
	/* Nothing at all: an empty passphrase, a wrong one. */
	return ret == -ENODATA ? 0 : ret;
}

int askpass_get(struct askpass *a, const char *prompt, char *buf)
{
	struct termios old, quiet;
	int ret;

	buf[0] = '\0';
	if (a->helper)
		return helper_get(a, prompt, buf);
	if (a->fd < 0 || a->eof)
		return -ENODATA;
	if (!a->tty)
		return read_line(a, buf);
	if (tcgetattr(a->fd, &old))
		return -errno;
	quiet = old;
	quiet.c_lflag &= ~(ECHO | ECHOE | ECHOK | ECHONL);
	quiet.c_lflag |= ICANON;
	/* Before echo goes off, so that no signal finds it off unguarded. */
	guard_tty(a->fd, &old);
	if (tcsetattr(a->fd, TCSAFLUSH, &quiet)) {
		ret = -errno;
		unguard_tty();
		return ret;
	}
	for (;;) {
		if (write(a->fd, prompt, strlen(prompt)) < 0) {
			ret = -errno;
			break;
		}
		ret = read_line(a, buf);
		/* A typed line may end the input only with Ctrl-D. */
		a->eof = false;
		if (ret != -EINTR)
			break;
		stop_at_prompt(a->fd, &old, &quiet);
	}
	tcsetattr(a->fd, TCSAFLUSH, &old);
	unguard_tty();
	if (write(a->fd, "\n", 1) < 0 && !ret)
		ret = -errno;
	return ret;
}

void askpass_close(struct askpass *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

