/* SPDX-License-Identifier: GPL-2.0 */
/* Running pre_hibernate / post_resume commands with a timeout. */
#ifndef HIB_HOOKS_H
#define HIB_HOOKS_H

#include "conf/conf.h"

int hook_run(const char *cmd, unsigned int timeout_s, const char *phase,
	     const char *profile);
int hooks_run_all(const struct conf_cmd *cmds, size_t n, const char *key,
		  const char *file, unsigned int timeout_s,
		  const char *profile, bool stop_on_error);

#endif
