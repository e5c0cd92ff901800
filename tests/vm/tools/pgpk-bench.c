// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-bench: time N add_key() calls of one payload into one keyring, in
 * one process, so that process start-up does not dominate.  Built
 * statically on the host by tests/vm/data.d/20-kernel.sh.
 *
 * usage: pgpk-bench NAME FILE KEYRING N [TYPE [DESCRIPTION]]
 * TYPE defaults to "asymmetric", DESCRIPTION to none.  With a TYPE given,
 * failing calls are counted (errno of the last one printed), not fatal.
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
	const char *type = argc > 5 ? argv[5] : "asymmetric";
	const char *desc = argc > 6 ? argv[6] : NULL;
	long ring, n, i, failed = 0;
	struct timespec t0, t1;
	int last = 0;
	size_t len;
	FILE *f;

	if (argc < 5 || argc > 7) {
		fprintf(stderr,
			"usage: pgpk-bench NAME FILE KEYRING N [TYPE [DESC]]\n");
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
		if (syscall(SYS_add_key, type, desc, buf, len, ring) >= 0)
			continue;
		if (argc == 5) {
			fprintf(stderr, "add_key %s: %s\n", argv[2],
				strerror(errno));
			return 1;
		}
		failed++;
		last = errno;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("PGPK-BENCH %s %.0f us/add_key (N=%ld, failed=%ld%s%s)\n",
	       argv[1],
	       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
		       1e3 / n,
	       n, failed, failed ? " " : "", failed ? strerror(last) : "");
	return 0;
}
