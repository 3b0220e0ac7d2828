// SPDX-License-Identifier: GPL-2.0
/*
 * Hooks run through /bin/sh -c in their own process group, so a timeout
 * kills the whole pipeline a hook started, not only the shell.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "lib/common.h"
#include "lib/spawn.h"
#include "system/hooks.h"

/*
 * Returns the command's exit status, 128 + signal, or -ETIMEDOUT after
 * killing it.  HIBERNATE_PHASE and HIBERNATE_PROFILE tell it why it runs.
 */
int hook_run(const char *cmd, unsigned int timeout_s, const char *phase,
	     const char *profile)
{
	const char *argv[] = { "sh", "-c", cmd, NULL };
	char ph[32], pr[128];
	const char *env[] = { ph, pr, NULL };
	/* stdout carries the report (maybe JSON): hooks use stderr. */
	const struct spawn s = { .file = "/bin/sh", .argv = argv, .env = env,
				 .own_group = true, .stdout_to_stderr = true };
	struct child c;
	int r;

	snprintf(ph, sizeof(ph), "HIBERNATE_PHASE=%s", phase);
	snprintf(pr, sizeof(pr), "HIBERNATE_PROFILE=%s", profile);
	r = spawn_start(&s, &c);
	if (r)
		return r;
	r = spawn_wait(&c, timeout_s * 1000);
	if (r == -ETIMEDOUT) {
		spawn_kill(&c, SIGTERM);
		if (spawn_wait(&c, 2000) == -ETIMEDOUT) {
			spawn_kill(&c, SIGKILL);
			spawn_wait(&c, -1);
		}
	}
	return r;
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
