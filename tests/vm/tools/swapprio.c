// SPDX-License-Identifier: GPL-2.0
/*
 * swapprio PRIORITY DEVICE: swapon(2) with a priority (the guest's busybox
 * swapon has no -p).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/swap.h>

int main(int argc, char **argv)
{
	int prio;

	if (argc != 3) {
		fprintf(stderr, "usage: swapprio PRIORITY DEVICE\n");
		return 2;
	}
	prio = atoi(argv[1]);
	if (swapon(argv[2], SWAP_FLAG_PREFER |
		   ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK))) {
		fprintf(stderr, "swapprio: swapon %s: %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	return 0;
}
