// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper: one binary, one command table.  See helper/cli/commands.h for
 * how to add a command.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>

#include "helper/cli/commands.h"
#include "sandbox/pgpk_sandbox.h" /* PGPK_OPENSSL_INIT */

static const struct pgpk_command pgpk_commands[] = {
	{ "list", pgpk_cmd_list,
	  "[--json] FILE|-          list every key and subkey" },
	{ "convert", pgpk_cmd_convert,
	  "[--select X] [--anchors DIR] [--data FILE] [POLICY] FILE|-\n"
	  "                                   canonical key or signatures to stdout" },
	{ "key", pgpk_cmd_key,
	  "[--select FPR|KEYID] [--anchors DIR] FILE|-  canonical key blob to stdout" },
	{ "sig", pgpk_cmd_sig,
	  "[--data FILE] FILE|-      canonical signature blob to stdout" },
	{ "dump", pgpk_cmd_dump,
	  "[--json] BLOB|-          decode a canonical blob (strictly)" },
	{ "verify", pgpk_cmd_verify,
	  "[POLICY] [--signatures N] --keyring FILE [--keyring FILE] SIG [DATA]\n"
	  "                                   check every signature (0 good, 1 bad, 2 none)" },
	{ "import", pgpk_cmd_import,
	  "[--keyring KEYRING] [--anchors DIR] FILE...  add every valid RSA key and signing subkey" },
	{ "ima-sign", pgpk_cmd_ima_sign,
	  "[--key KEYID|FPR] [--hash H] [--print] FILE... | --new-key FPR  IMA signatures through gpg-agent" },
	{ "upcall", pgpk_cmd_upcall,
	  "[POLICY] SERIAL         request-key upcall (pgpk.conf)" },
	{ "debug", pgpk_cmd_debug,
	  "[--select X] [--anchors DIR] [POLICY] key|sig FILE  upcall pipeline on a file" },
	{ "sandbox-policy", pgpk_cmd_sandbox_policy,
	  "                 print the parser's seccomp allowlist" },
	{ "--selftest", pgpk_cmd_selftest,
	  "                     known answers, sandbox, environment" },
};

static void pgpk_usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: pgpk-helper COMMAND [ARGS]\n");
	for (i = 0; i < sizeof(pgpk_commands) / sizeof(pgpk_commands[0]); i++)
		fprintf(out, "  %-8s %s\n", pgpk_commands[i].name,
			pgpk_commands[i].usage);
}

int main(int argc, char **argv)
{
	size_t i;

	/*
	 * No openssl.cnf: a third of a verification's instructions went to
	 * parsing it, and nothing in it is ours to obey (the policy is
	 * pgpk.conf's; the default provider is loaded without it).  The
	 * other flags: sandbox/pgpk_sandbox.h, PGPK_OPENSSL_INIT.
	 */
	if (!OPENSSL_init_crypto(PGPK_OPENSSL_INIT, NULL)) {
		fprintf(stderr, "pgpk-helper: OpenSSL initialisation failed\n");
		return 2;
	}
	if (argc < 2) {
		pgpk_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		pgpk_usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(pgpk_commands) / sizeof(pgpk_commands[0]); i++)
		if (!strcmp(argv[1], pgpk_commands[i].name))
			return pgpk_commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "pgpk-helper: unknown command '%s'\n", argv[1]);
	pgpk_usage(stderr);
	return 2;
}
