// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper, /usr/sbin/pgpk-helper: the system's program.  upcall is
 * what /sbin/request-key runs for the kernel (helper/upcall/upcall.c,
 * /etc/request-key.d/pgpk.conf); debug is the same pipeline on a file;
 * --selftest and sandbox-policy check and show the sandbox.  People's
 * commands are pgpk's (helper/pgpk.c): given here, they still run, for
 * this release, after a one-line notice.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>

#include "helper/cli/commands.h"
#include "helper/upcall/pgpk_runtime.h"
#include "sandbox/pgpk_sandbox.h" /* PGPK_OPENSSL_INIT */

static const struct pgpk_command pgpk_helper_commands[] = {
	{ "upcall", pgpk_cmd_upcall,
	  "[POLICY] KEY-SERIAL  what request-key runs (pgpk.conf)" },
	{ "debug", pgpk_cmd_debug,
	  "[POLICY] key|sig FILE  the upcall's pipeline on a file" },
	{ "--selftest", pgpk_cmd_selftest,
	  "known answers, the sandbox, the environment" },
	{ "sandbox-policy", pgpk_cmd_sandbox_policy,
	  "the parser's seccomp allowlist" },
};

#define PGPK_HELPER_NCOMMANDS \
	(sizeof(pgpk_helper_commands) / sizeof(pgpk_helper_commands[0]))

static int pgpk_helper_usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: pgpk-helper COMMAND [ARGS]   (pgpk-helper COMMAND --help for each)\n");
	for (i = 0; i < PGPK_HELPER_NCOMMANDS; i++)
		fprintf(out, "  %-15s %s\n", pgpk_helper_commands[i].name,
			pgpk_helper_commands[i].summary);
	fprintf(out,
		"People's commands (list, key, sig, convert, dump, verify, import,\n"
		"ima-sign) are pgpk's: /usr/bin/pgpk.  Exit status: 0 good, 1 bad or\n"
		"refused, 2 a usage or input error.  See pgpk-helper(8).\n");
	return out == stdout ? 0 : 2;
}

/* upcall's and --selftest's --help: their usage is theirs to print. */
static int pgpk_helper_help(const char *cmd)
{
	if (!strcmp(cmd, "upcall")) {
		printf("usage: pgpk-helper upcall [POLICY] [--syslog|--kmsg|--stderr] [--anchors=DIR] KEY-SERIAL\n"
		       "What /sbin/request-key runs for a key of type pgpk\n"
		       "(/etc/request-key.d/pgpk.conf): the sandboxed parser converts the\n"
		       "OpenPGP bytes the kernel sent; the answer, decoded by the kernel's\n"
		       "decoder and checked, instantiates the key, or it is rejected with\n"
		       "an errno.  One log line (syslog, journalctl -t pgpk-helper).\n");
		pgpk_policy_usage(stdout);
		printf("exit status:\n"
		       "  0 the key got its verdict (instantiated or rejected), 1 it could\n"
		       "  not be given one (keyctl failed), 2 a usage error (the key is\n"
		       "  rejected: EKEYREJECTED, bad helper command line)\n");
	} else {
		printf("usage: pgpk-helper --selftest\n"
		       "Known answers through the real parser in the real sandbox,\n"
		       "signatures, the sandbox's kills, the environment (request-key,\n"
		       "pgpk.conf, the module): one line per check.\n"
		       "exit status:\n"
		       "  0 every check passed, 1 one failed, 2 a usage error\n");
	}
	return fflush(stdout) ? 2 : 0;
}

int main(int argc, char **argv)
{
	size_t i;
	int a;

	/* As pgpk does it (helper/pgpk.c). */
	if (!OPENSSL_init_crypto(PGPK_OPENSSL_INIT, NULL)) {
		fprintf(stderr, "pgpk-helper: OpenSSL initialisation failed\n");
		return 2;
	}
	if (argc < 2) {
		fprintf(stderr, "pgpk-helper: missing COMMAND\n");
		return pgpk_helper_usage(stderr);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return pgpk_helper_usage(stdout);
	if (!strcmp(argv[1], "--version")) {
		printf("pgpk-helper %s\n", PGPK_VERSION);
		return fflush(stdout) ? 2 : 0;
	}
	for (i = 0; i < PGPK_HELPER_NCOMMANDS; i++) {
		if (strcmp(argv[1], pgpk_helper_commands[i].name))
			continue;
		if (!strcmp(argv[1], "upcall") ||
		    !strcmp(argv[1], "--selftest"))
			for (a = 2; a < argc; a++)
				if (pgpk_cli_is_help(argv[a]))
					return pgpk_helper_help(argv[1]);
		if (!strcmp(argv[1], "--selftest") && argc > 2) {
			fprintf(stderr,
				"pgpk-helper --selftest: takes no argument, '%s' is one\n",
				argv[2]);
			return 2;
		}
		return pgpk_helper_commands[i].run(argc - 1, argv + 1);
	}
	/* People's commands: pgpk's now, here for one more release. */
	for (i = 0; i < pgpk_ncommands; i++)
		if (!strcmp(argv[1], pgpk_commands[i].name)) {
			fprintf(stderr,
				"pgpk-helper: '%s' is a pgpk command now (pgpk %s, /usr/bin/pgpk); pgpk-helper takes it for this release only\n",
				argv[1], argv[1]);
			return pgpk_commands[i].run(argc - 1, argv + 1);
		}
	fprintf(stderr, "pgpk-helper: unknown command '%s'\n", argv[1]);
	return pgpk_helper_usage(stderr);
}
