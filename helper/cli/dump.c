// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk dump [--json] BLOB|-
 *
 * A canonical blob as the kernel's own strict decoder reads it, decoded
 * in the sandboxed child (helper/parser/dump.c).
 */
#include <string.h>

#include "helper/cli/commands.h"

static const struct pgpk_usage pgpk_dump_usage = {
	.prog = "pgpk",
	.cmd = "dump",
	.args = "[--json] BLOB|-",
	.about =
		"Decode a canonical blob (pgpk key, pgpk sig) with the kernel's own\n"
		"strict decoder and show every field: what the kernel would see,\n"
		"with the fingerprint, key ID and name it would compute.\n",
	.options = "  --json  one JSON object\n",
	.status =
		"  0 decoded, 2 a usage or input error (not a canonical blob)\n",
};

struct pgpk_dump_job {
	struct pgpk_file in;
	bool json;
};

static int pgpk_dump_work(struct pgpk_reply *r, void *arg)
{
	const struct pgpk_dump_job *d = arg;

	return pgpk_parse_dump(r, &d->in, d->json);
}

int pgpk_cmd_dump(int argc, char **argv)
{
	struct pgpk_dump_job d = { 0 };
	struct pgpk_cli_child c = { .work = pgpk_dump_work, .arg = &d };
	const char *path = NULL;
	int ret;

	pgpk_cli_begin(&pgpk_dump_usage);
	ret = pgpk_cli_json_file(
		argc, argv, &d.json, &path,
		"BLOB (a canonical key or signature, or - for stdin)");
	if (ret)
		return ret < 0 ? 0 : ret;
	if (pgpk_cli_read(path, PGPK_CLI_MAX_INPUT, &d.in))
		return 2;
	ret = pgpk_cli_sandboxed(&c);
	pgpk_cli_release(&d.in);
	return ret;
}
