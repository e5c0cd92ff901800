// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk, /usr/bin/pgpk: the commands people run on OpenPGP keys and
 * signatures for the kernel.  None runs as root on someone else's input,
 * and none parses in this process: each hands its files to a sandboxed
 * child (helper/cli/run.c).  The system's own program, the upcall that
 * request-key runs, is pgpk-helper (helper/pgpk_helper.c).
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>

#include "helper/cli/commands.h"
#include "sandbox/pgpk_sandbox.h" /* PGPK_OPENSSL_INIT */

static int pgpk_usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: pgpk COMMAND [ARGS]   (pgpk COMMAND --help for each)\n"
		"OpenPGP keys and signatures for the Linux kernel; every parse in a\n"
		"sandboxed child.  Commands:\n");
	for (i = 0; i < pgpk_ncommands; i++)
		fprintf(out, "  %-9s %s\n", pgpk_commands[i].name,
			pgpk_commands[i].summary);
	fprintf(out,
		"pgpk --version prints the version.  Exit status: 0 good, 1 bad or\n"
		"refused, 2 a usage or input error.  See pgpk(1), pgpk(7).\n");
	return out == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	size_t i;

	/*
	 * No openssl.cnf: a third of a verification's instructions went to
	 * parsing it, and nothing in it is ours to obey.  The other flags:
	 * sandbox/pgpk_sandbox.h, PGPK_OPENSSL_INIT.
	 */
	if (!OPENSSL_init_crypto(PGPK_OPENSSL_INIT, NULL)) {
		fprintf(stderr, "pgpk: OpenSSL initialisation failed\n");
		return 2;
	}
	if (argc < 2) {
		fprintf(stderr, "pgpk: missing COMMAND\n");
		return pgpk_usage(stderr);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2)
			for (i = 0; i < pgpk_ncommands; i++)
				if (!strcmp(argv[2], pgpk_commands[i].name)) {
					static char opt[] = "--help";
					char *help[] = { argv[2], opt, NULL };

					return pgpk_commands[i].run(2, help);
				}
		return pgpk_usage(stdout);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("pgpk %s\n", PGPK_VERSION);
		return fflush(stdout) ? 2 : 0;
	}
	for (i = 0; i < pgpk_ncommands; i++)
		if (!strcmp(argv[1], pgpk_commands[i].name))
			return pgpk_commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "pgpk: unknown command '%s'%s\n", argv[1],
		!strcmp(argv[1], "upcall") || !strcmp(argv[1], "debug") ||
				!strcmp(argv[1], "--selftest") ||
				!strcmp(argv[1], "sandbox-policy") ?
			" (a pgpk-helper command: /usr/sbin/pgpk-helper)" :
			"");
	return pgpk_usage(stderr);
}
