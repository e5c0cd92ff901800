// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper key [--select FPR|KEYID] FILE|- > blob
 * pgpk-helper sig FILE|- > blob
 *
 * The canonical blob pgpk_convert() produces, on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helper/commands.h"
#include "helper/pgpk_convert.h"

static int pgpk_cli_convert(const char *cmd, const char *path,
			    enum pgpk_want want, const char *select)
{
	struct pgpk_convert_opts opts = {
		.select = select,
		.now = (int64_t)time(NULL),
	};
	struct pgpk_error err = { 0 };
	uint8_t *data, *blob;
	size_t len, blob_len;
	int ret;

	ret = pgpk_cli_read_file(path, &data, &len);
	if (ret)
		return 2;
	ret = pgpk_convert(data, len, want, &opts, &blob, &blob_len, &err);
	free(data);
	if (ret) {
		fprintf(stderr, "pgpk-helper: %s: %s: %s (offset %zu)\n", cmd,
			path, err.msg, err.offset);
		return 2;
	}
	ret = pgpk_cli_write_stdout(blob, blob_len);
	free(blob);
	return ret ? 2 : 0;
}

int pgpk_cmd_key(int argc, char **argv)
{
	const char *select = NULL, *path = NULL;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--select") && a + 1 < argc)
			select = argv[++a];
		else if (!strncmp(argv[a], "--select=", 9))
			select = argv[a] + 9;
		else if (!path)
			path = argv[a];
		else
			goto usage;
	}
	if (!path)
		goto usage;
	return pgpk_cli_convert("key", path, PGPK_WANT_KEY, select);

usage:
	fprintf(stderr, "usage: pgpk-helper key [--select FPR|KEYID] FILE|-\n");
	return 2;
}

int pgpk_cmd_sig(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pgpk-helper sig FILE|-\n");
		return 2;
	}
	return pgpk_cli_convert("sig", argv[1], PGPK_WANT_SIG, NULL);
}
