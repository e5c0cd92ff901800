// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-hold: take flock(LOCK_EX) on each FILE, as the broker takes a
 * slot of its requester (helper/quota.c), and keep them until killed.
 * tests/vm/cases/65-uid-flood.sh holds a user's slots with it, so that
 * his next request finds them taken without a request of his own being
 * slow.  Prints "held N" once every lock is taken; exits 1 at once
 * (naming the file) if one is already held.  Built statically by
 * tests/vm/data.d/65-flood.sh.
 *
 * usage: pgpk-hold FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>

int main(int argc, char **argv)
{
	int i, fd;

	if (argc < 2) {
		fprintf(stderr, "usage: pgpk-hold FILE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		fd = open(argv[i], O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			  0600);
		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
			fprintf(stderr, "pgpk-hold: %s: %s\n", argv[i],
				strerror(errno));
			return 1;
		}
	}
	printf("held %d\n", argc - 1);
	fflush(stdout);
	for (;;)
		pause();
}
