// SPDX-License-Identifier: GPL-2.0
/*
 * Hooks run through /bin/sh -c in their own process group, so a timeout
 * kills the whole pipeline a hook started, not only the shell.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "hooks.h"

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for pid until deadline (ms, monotonic); 0 when it exited. */
static int wait_until(pid_t pid, int *status, uint64_t deadline)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (now_ms() >= deadline)
			return -ETIMEDOUT;
		nanosleep(&tick, NULL);
	}
}

/*
 * Returns the command's exit status, 128 + signal, or -ETIMEDOUT after
 * killing it.  HIBERNATE_PHASE and HIBERNATE_PROFILE tell it why it runs.
 */
int hook_run(const char *cmd, unsigned int timeout_s, const char *phase,
	     const char *profile)
{
	int status = 0, r;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		setpgid(0, 0);
		/* stdout carries the report (maybe JSON): hooks use stderr. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		setenv("HIBERNATE_PHASE", phase, 1);
		setenv("HIBERNATE_PROFILE", profile, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	r = wait_until(pid, &status, now_ms() + timeout_s * 1000ULL);
	if (r == -ETIMEDOUT) {
		kill(-pid, SIGTERM);
		if (wait_until(pid, &status, now_ms() + 2000) == -ETIMEDOUT) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
		}
		return -ETIMEDOUT;
	}
	if (r)
		return r;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* Run a list in order; with stop_on_error the first failure ends it. */
int hooks_run_all(const struct conf_cmd *cmds, size_t n, const char *key,
		  const char *file, unsigned int timeout_s,
		  const char *profile, bool stop_on_error)
{
	const char *phase = strncmp(key, "pre", 3) ? "post" : "pre";
	int ret = 0, r;
	size_t i;

	for (i = 0; i < n; i++) {
		hib_verbose("running %s hook (%s:%d): %s", key, file,
			    cmds[i].line, cmds[i].cmd);
		r = hook_run(cmds[i].cmd, timeout_s, phase, profile);
		if (!r)
			continue;
		if (r == -ETIMEDOUT)
			hib_err("%s:%d: %s hook timed out after %u s: %s",
				file, cmds[i].line, key, timeout_s,
				cmds[i].cmd);
		else if (r < 0)
			hib_err("%s:%d: %s hook: %s", file, cmds[i].line, key,
				strerror(-r));
		else
			hib_err("%s:%d: %s hook failed (status %d): %s", file,
				cmds[i].line, key, r, cmds[i].cmd);
		ret = r < 0 ? r : -ECANCELED;
		if (stop_on_error)
			break;
	}
	return ret;
}
