// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-bench: time N add_key("asymmetric") calls of one payload into one
 * keyring, in one process, so that process start-up does not dominate.
 * Built statically on the host by tests/vm/data.d/20-kernel.sh.
 *
 * usage: pgpk-bench NAME FILE KEYRING N
 * prints: PGPK-BENCH NAME <microseconds per add_key> us/add_key (N=...)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 20];

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	long ring, n, i;
	size_t len;
	FILE *f;

	if (argc != 5) {
		fprintf(stderr, "usage: pgpk-bench NAME FILE KEYRING N\n");
		return 2;
	}
	f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ring = strtol(argv[3], NULL, 0);
	n = strtol(argv[4], NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		if (syscall(SYS_add_key, "asymmetric", NULL, buf, len,
			    ring) < 0) {
			fprintf(stderr, "add_key %s: %s\n", argv[2],
				strerror(errno));
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("PGPK-BENCH %s %.0f us/add_key (N=%ld)\n", argv[1],
	       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
		       1e3 / n, n);
	return 0;
}
