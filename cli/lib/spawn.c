// SPDX-License-Identifier: GPL-2.0
/*
 * A child is waited for through a pidfd, so a timeout is one poll(2)
 * rather than waitpid() every few milliseconds.  Without pidfd_open
 * (ENOSYS: an old kernel or a seccomp filter) the wait falls back to
 * polling waitpid(WNOHANG) every 20 ms.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/common.h"
#include "lib/spawn.h"

/* 0 and *c, or -errno when there is no child. */
int spawn_start(const struct spawn *s, struct child *c)
{
	const char *const *e;

	fflush(NULL);
	c->pidfd = -1;
	c->group = s->own_group;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (!c->pid) {
		if (s->own_group)
			setpgid(0, 0);
		if (s->stdout_to_stderr)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		for (e = s->env; e && *e; e++)
			putenv((char *)*e);
		/* execvp would run a file it cannot exec through /bin/sh. */
		if (s->exact)
			execv(s->file, (char *const *)s->argv);
		else
			execvp(s->file, (char *const *)s->argv);
		if (s->say_exec_error)
			hib_print(stderr, "hibernate: %s: %s\n", s->file,
				  strerror(errno));
		_exit(127);
	}
	/* Both sides set the group: no race with a kill(-pid) below. */
	if (s->own_group)
		setpgid(c->pid, c->pid);
	c->pidfd = syscall(SYS_pidfd_open, c->pid, 0);
	return 0;
}

long long spawn_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Nonzero once the child has exited (or cannot be waited for). */
static int exited(struct child *c, long long deadline)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct pollfd p = { .fd = c->pidfd, .events = POLLIN };
	long long left = deadline - spawn_now_ms();
	siginfo_t si = { 0 };
	int r;

	if (c->pidfd >= 0) {
		r = poll(&p, 1, left > 0 ? left : 0);
		if (r >= 0 || errno == EINTR)
			return r > 0;
		/* Not "exited": the timeout must still hold.  Poll instead. */
		close(c->pidfd);
		c->pidfd = -1;
	}
	if (waitid(P_PID, c->pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno != EINTR;
	if (si.si_pid || left <= 0)
		return si.si_pid;
	nanosleep(&tick, NULL);
	return 0;
}

/*
 * The child's exit status, 128 + signal, or -ETIMEDOUT when it still
 * runs after TIMEOUT_MS (negative: wait as long as it takes).
 */
int spawn_wait(struct child *c, int timeout_ms)
{
	long long deadline = spawn_now_ms() + timeout_ms;

	while (timeout_ms >= 0 && !exited(c, deadline))
		if (spawn_now_ms() >= deadline)
			return -ETIMEDOUT;
	while (waitpid(c->pid, &c->status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pidfd = -1;
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	return 128 + WTERMSIG(c->status);
}

void spawn_kill(const struct child *c, int sig)
{
	kill(c->group ? -c->pid : c->pid, sig);
}

/* Run it to the end: its status, 127 when it cannot run. */
int spawn_run(const struct spawn *s)
{
	struct child c;
	int r = spawn_start(s, &c);

	return r ? r : spawn_wait(&c, -1);
}
