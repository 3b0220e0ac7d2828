// SPDX-License-Identifier: GPL-2.0
/*
 * hibernate - hibernate (and resume) through the suspend2 module.
 *
 * main() only glues the two halves: options.c decides what to do, run.c
 * does it.  Both are linked into the unit tests without this file.
 */
#include <stdio.h>

#include "conf/options.h"
#include "cycle/run.h"

int main(int argc, char **argv)
{
	struct hib_ctl ctl;
	int ret;

	ret = hib_parse_options(&ctl, argc, argv);
	if (ret >= 0)
		return ret;
	ret = hib_run(&ctl);
	if (fflush(stdout) && !ret)
		ret = 1;
	return ret;
}
