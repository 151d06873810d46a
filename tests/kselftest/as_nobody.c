// SPDX-License-Identifier: GPL-2.0
/*
 * edgedma-as-nobody PROGRAM [ARG...]: run a program as uid/gid 65534 with
 * no capabilities, for the guest tests that check what an unprivileged user
 * is refused (busybox has no su without a passwd file, and its setpriv
 * cannot change ids).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "priv.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: edgedma-as-nobody PROGRAM [ARG...]\n");
		return 2;
	}
	if (priv_drop()) {
		fprintf(stderr, "edgedma-as-nobody: cannot drop privileges\n");
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "edgedma-as-nobody: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
