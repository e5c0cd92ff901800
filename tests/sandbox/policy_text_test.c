// SPDX-License-Identifier: GPL-2.0
/*
 * The allowlist compiled into the sandbox must be exactly the reviewed one
 * in policy/seccomp-allowlist.txt: a change to the table needs a change to
 * the reviewed copy (and a review), and vice versa.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/pgpk_sandbox.h"

int main(int argc, char **argv)
{
	char *built = NULL, reviewed[16384];
	size_t built_len = 0, reviewed_len, i, line = 1;
	FILE *mem, *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s policy/seccomp-allowlist.txt\n",
			argv[0]);
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	reviewed_len = fread(reviewed, 1, sizeof(reviewed), f);
	fclose(f);
	mem = open_memstream(&built, &built_len);
	if (!mem)
		return 1;
	pgpk_sandbox_print_policy(mem);
	fclose(mem);
	for (i = 0; i < built_len && i < reviewed_len; i++) {
		if (built[i] != reviewed[i])
			break;
		line += built[i] == '\n';
	}
	if (i == built_len && i == reviewed_len) {
		printf("PASS: built-in allowlist matches %s (%zu octets)\n",
		       argv[1], built_len);
		free(built);
		return 0;
	}
	printf("FAIL: built-in allowlist differs from %s at line %zu\n"
	       "built-in:\n%s",
	       argv[1], line, built);
	free(built);
	return 1;
}
