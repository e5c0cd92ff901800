// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk verify [POLICY] [--now TIME] [--signatures N] --keyring FILE
 *             [--keyring FILE ...] SIG [DATA]
 *
 * The user-space reference of the kernel's signature check, as gpgv and
 * sqv are used: this process reads SIG, DATA and the keyrings; the
 * sandboxed child parses and checks them (helper/parser/verify.c) and
 * says, signature by signature, what it found.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helper/cli/commands.h"

#define PGPK_VERIFY_MAX_KEYRINGS 16
#define PGPK_VERIFY_MAX_NEED 65536 /* --signatures */

static const struct pgpk_usage pgpk_verify_usage = {
	.prog = "pgpk",
	.cmd = "verify",
	.args = "[POLICY] [--now TIME] [--signatures N] --keyring FILE [--keyring FILE ...] SIG [DATA]",
	.about =
		"Check every signature of SIG (detached over DATA, inline, cleartext,\n"
		"or a canonical blob) with the keys of the keyrings, as the kernel\n"
		"checks them.  Good signatures on stdout, one line each; every other\n"
		"signature's reason, then a count, on stderr.  The document is good\n"
		"when N signatures are good and none is bad, as gpgv and apt judge.\n",
	.options =
		"  --keyring FILE     keys to check with (binary or armored); up to 16\n"
		"  --signatures N     good signatures needed [1]\n"
		"  --now TIME         judge expiry at TIME (2026-12-04T13:00:00Z, or\n"
		"                     Unix seconds), not now\n",
	.policy = pgpk_cli_policy,
	.status =
		"  0 at least N good signatures and none bad, 1 a bad signature (the\n"
		"  data or signature was changed), 2 fewer than N good and none bad\n"
		"  (nothing checkable), or a usage or input error\n",
};

struct pgpk_verify_cmd {
	struct pgpk_file sig, data, keyrings[PGPK_VERIFY_MAX_KEYRINGS];
	struct pgpk_policy policy;
	struct pgpk_verify_job job;
};

static int pgpk_verify_work(struct pgpk_reply *r, void *arg)
{
	const struct pgpk_verify_cmd *v = arg;

	return pgpk_parse_verify(r, &v->job);
}

/* Unix seconds, or ISO 8601 in UTC ("2026-12-04T13:00:00Z"). */
static int pgpk_verify_time(const char *s, int64_t *t)
{
	struct tm tm = { 0 };
	char *end;

	errno = 0;
	*t = strtoll(s, &end, 10);
	if (!*end && end != s && !errno)
		return 0;
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return -EINVAL;
	*t = (int64_t)timegm(&tm);
	return 0;
}

static int pgpk_verify_run(struct pgpk_verify_cmd *v, const char *sig_path,
			   const char *data_path, const char *const *keyrings,
			   size_t nkeyrings)
{
	struct pgpk_cli_child c = {
		.work = pgpk_verify_work,
		.arg = v,
		.threads = 2,
		.timeout_ms = v->policy.timeout_ms,
		.sandbox_user = v->policy.sandbox_user,
	};
	size_t i, max = v->policy.max_input;
	int ret = 2;

	if (pgpk_cli_read(sig_path, max, &v->sig))
		return 2;
	if (data_path && pgpk_cli_read(data_path, PGPK_CLI_MAX_INPUT, &v->data))
		goto out;
	for (i = 0; i < nkeyrings; i++)
		if (pgpk_cli_read(keyrings[i], max, &v->keyrings[i]))
			goto out;
	v->job.sig = &v->sig;
	v->job.data = data_path ? &v->data : NULL;
	v->job.keyrings = v->keyrings;
	v->job.nkeyrings = nkeyrings;
	v->job.policy = &v->policy;
	v->job.threads = c.threads;
	ret = pgpk_cli_sandboxed(&c);
out:
	for (i = 0; i < nkeyrings; i++)
		if (v->keyrings[i].data)
			pgpk_cli_release(&v->keyrings[i]);
	if (v->data.data)
		pgpk_cli_release(&v->data);
	if (v->sig.data)
		pgpk_cli_release(&v->sig);
	return ret;
}

int pgpk_cmd_verify(int argc, char **argv)
{
	const char *keyrings[PGPK_VERIFY_MAX_KEYRINGS];
	const char *sig = NULL, *data = NULL;
	struct pgpk_verify_cmd *v;
	size_t nkeyrings = 0;
	char *end;
	int a, r, ret;

	pgpk_cli_begin(&pgpk_verify_usage);
	v = calloc(1, sizeof(*v));
	if (!v) {
		pgpk_cli_err("out of memory");
		return 2;
	}
	pgpk_cli_policy_default(&v->policy);
	v->job.need = 1;
	v->job.now = (int64_t)time(NULL);
	for (a = 1; a < argc;) {
		if (pgpk_cli_is_help(argv[a])) {
			free(v);
			return pgpk_cli_help();
		}
		r = pgpk_cli_policy_option(&v->policy, argc, argv, &a);
		if (r < 0)
			goto error;
		if (r > 0)
			continue;
		if ((!strcmp(argv[a], "--keyring") ||
		     !strcmp(argv[a], "--signatures") ||
		     !strcmp(argv[a], "--now")) &&
		    a + 1 == argc) {
			ret = pgpk_cli_usage_err("%s wants a value", argv[a]);
			goto out;
		}
		if (!strcmp(argv[a], "--keyring")) {
			if (nkeyrings == PGPK_VERIFY_MAX_KEYRINGS) {
				ret = pgpk_cli_usage_err(
					"more than %d keyrings",
					PGPK_VERIFY_MAX_KEYRINGS);
				goto out;
			}
			keyrings[nkeyrings++] = argv[++a];
		} else if (!strcmp(argv[a], "--signatures")) {
			errno = 0;
			v->job.need = strtoul(argv[++a], &end, 10);
			if (*end || end == argv[a] || argv[a][0] == '-' ||
			    errno || !v->job.need ||
			    v->job.need > PGPK_VERIFY_MAX_NEED) {
				ret = pgpk_cli_usage_err(
					"--signatures wants 1..%d, got '%s'",
					PGPK_VERIFY_MAX_NEED, argv[a]);
				goto out;
			}
		} else if (!strcmp(argv[a], "--now")) {
			if (pgpk_verify_time(argv[++a], &v->job.now)) {
				ret = pgpk_cli_usage_err(
					"--now wants 2026-12-04T13:00:00Z or Unix seconds, got '%s'",
					argv[a]);
				goto out;
			}
		} else if (argv[a][0] == '-' && argv[a][1]) {
			ret = pgpk_cli_usage_err("unknown option '%s'",
						 argv[a]);
			goto out;
		} else if (!sig) {
			sig = argv[a];
		} else if (!data) {
			data = argv[a];
		} else {
			ret = pgpk_cli_usage_err(
				"SIG and DATA only, '%s' is a third", argv[a]);
			goto out;
		}
		a++;
	}
	if (!nkeyrings) {
		ret = pgpk_cli_usage_err(
			"no --keyring FILE: the keys to check with");
		goto out;
	}
	if (!sig) {
		ret = pgpk_cli_usage_err(
			"missing SIG (a signature, a signed message or a canonical blob)");
		goto out;
	}
	ret = pgpk_verify_run(v, sig, data, keyrings, nkeyrings);
	goto out;
error:
	ret = 2;
out:
	free(v);
	return ret;
}
