// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk list [--json] FILE|-
 *
 * Every primary key and subkey of a keyring or certificate, parsed and
 * validated in the sandboxed child (helper/parser/list.c) on every CPU.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper/cli/commands.h"

static const struct pgpk_usage pgpk_list_usage = {
	.prog = "pgpk",
	.cmd = "list",
	.args = "[--json] FILE|-",
	.about =
		"List every key and subkey of FILE (binary or armored; - for stdin):\n"
		"algorithm, size, key ID, creation and expiry dates, usage, validity,\n"
		"fingerprint, the name the kernel would give it, the user IDs.\n"
		"--json: one object per line, the keys gpg --show-keys would keep.\n",
	.options = "  --json  one JSON object per key\n",
	.status =
		"  0 listed, 2 a usage or input error (unreadable, malformed)\n",
};

struct pgpk_list {
	struct pgpk_file in;
	bool json;
	unsigned int threads;
};

static int pgpk_list_work(struct pgpk_reply *r, void *arg)
{
	const struct pgpk_list *l = arg;

	return pgpk_parse_list(r, &l->in, l->json, l->threads);
}

int pgpk_cmd_list(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct pgpk_list l = { 0 };
	struct pgpk_cli_child c = { .work = pgpk_list_work, .arg = &l };
	const char *path = NULL;
	int ret;

	pgpk_cli_begin(&pgpk_list_usage);
	ret = pgpk_cli_json_file(
		argc, argv, &l.json, &path,
		"FILE (a keyring, a certificate, or - for stdin)");
	if (ret)
		return ret < 0 ? 0 : ret;
	l.threads = ncpu > 1 ? (unsigned int)(ncpu > 8 ? 8 : ncpu) : 1;
	c.threads = l.threads;
	if (pgpk_cli_read(path, PGPK_CLI_MAX_INPUT, &l.in))
		return 2;
	ret = pgpk_cli_sandboxed(&c);
	pgpk_cli_release(&l.in);
	return ret;
}
