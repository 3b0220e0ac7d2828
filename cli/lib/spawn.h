/* SPDX-License-Identifier: GPL-2.0 */
/* Every program the command runs: fork, exec, wait with a timeout. */
#ifndef HIB_SPAWN_H
#define HIB_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

struct spawn {
	const char *file;		/* found as execvp() finds it */
	bool exact;			/* FILE as it is: no PATH, no sh */
	const char *const *argv;
	const char *const *env;		/* "NAME=value" to add, NULL-ended */
	bool own_group;			/* a kill reaches what it started */
	bool stdout_to_stderr;		/* our stdout may carry the report */
	bool say_exec_error;		/* else the caller reads 127 */
};

struct child {
	pid_t pid;
	int pidfd;			/* -1: waited for by polling */
	bool group;			/* spawn_kill() signals its group */
	int status;			/* as waitpid() gave it */
};

int spawn_start(const struct spawn *s, struct child *c);
int spawn_wait(struct child *c, int timeout_ms);
void spawn_kill(const struct child *c, int sig);
int spawn_run(const struct spawn *s);
long long spawn_now_ms(void);

#endif
