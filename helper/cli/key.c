// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk key [--select FPR|KEYID] [--anchors DIR] [-o FILE] [POLICY] FILE|-
 * pgpk sig [--data FILE] [-o FILE] [POLICY] FILE|-
 * pgpk convert [--select X] [--anchors DIR] [--data FILE] [-o FILE]
 *              [POLICY] FILE|-
 *
 * The canonical blob of a key or of signatures: what `keyctl padd
 * asymmetric` (a key) and `keyctl padd pgpk_test` (signatures) take
 * without an upcall.  The sandboxed child converts
 * (helper/parser/convert.c); this process decodes its blob with the
 * kernel's own decoder, applies the policy to it as the broker applies
 * it to an upcall's answer, and only then writes it: to -o FILE, or to
 * stdout if that is no terminal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helper/broker/pgpk_anchors.h"
#include "helper/cli/commands.h"
#include "kernel/pgpk_canon.h"
#include "proto/pgpk_fields.h"

#define PGPK_KEY_STATUS                                                       \
	"  0 the blob written, 1 refused (policy, unsupported algorithm,\n"   \
	"  expired, revoked), 2 a usage or input error (malformed, no such\n" \
	"  key, unreadable, a terminal for output)\n"

#define PGPK_KEY_OPT_SELECT \
	"  --select FPR|KEYID  that key or subkey, not the first primary key\n"
#define PGPK_KEY_OPT_ANCHORS                                                  \
	"  --anchors DIR       trust anchors whose certification may vouch\n" \
	"                      for the key [/etc/pgpk/anchors]\n"
#define PGPK_KEY_OPT_DATA \
	"  --data FILE         a detached signature's signed data\n"
#define PGPK_KEY_OPT_OUT                                                       \
	"  -o FILE             write the blob to FILE (- for stdout, even a\n" \
	"                      terminal); stdout if that is no terminal\n"

static const struct pgpk_usage pgpk_key_usage = {
	.prog = "pgpk",
	.cmd = "key",
	.args = "[--select FPR|KEYID] [--anchors DIR] [-o FILE] [POLICY] FILE|-",
	.about =
		"The canonical key blob of a certificate's primary key (or the key\n"
		"--select names): keyctl padd asymmetric NAME KEYRING < blob adds it\n"
		"without an upcall; the kernel checks it all the same.\n",
	.options = PGPK_KEY_OPT_SELECT PGPK_KEY_OPT_ANCHORS PGPK_KEY_OPT_OUT,
	.policy = pgpk_cli_policy,
	.status = PGPK_KEY_STATUS,
};

static const struct pgpk_usage pgpk_sig_usage = {
	.prog = "pgpk",
	.cmd = "sig",
	.args = "[--data FILE] [-o FILE] [POLICY] FILE|-",
	.about =
		"The canonical signature blob of FILE's signatures (detached with\n"
		"--data, inline, or cleartext): keyctl padd pgpk_test NAME KEYRING\n"
		"< blob has the kernel verify them.  Each signature the policy\n"
		"leaves out is named with its reason.\n",
	.options = PGPK_KEY_OPT_DATA PGPK_KEY_OPT_OUT,
	.policy = pgpk_cli_policy,
	.status = PGPK_KEY_STATUS,
};

static const struct pgpk_usage pgpk_convert_usage = {
	.prog = "pgpk",
	.cmd = "convert",
	.args = "[--select X] [--anchors DIR] [--data FILE] [-o FILE] [POLICY] FILE|-",
	.about = "pgpk key for a certificate, pgpk sig for anything else.\n",
	.options = PGPK_KEY_OPT_SELECT PGPK_KEY_OPT_ANCHORS PGPK_KEY_OPT_DATA
		PGPK_KEY_OPT_OUT,
	.policy = pgpk_cli_policy,
	.status = PGPK_KEY_STATUS,
};

struct pgpk_key_cmd {
	struct pgpk_file in, data;
	struct pgpk_policy policy;
	struct pgpk_anchor_set anchors;
	struct pgpk_convert_job job;
	uint8_t *blob; /* the child's, checked */
	size_t blob_len;
};

static int pgpk_key_work(struct pgpk_reply *r, void *arg)
{
	const struct pgpk_key_cmd *k = arg;

	return pgpk_parse_convert(r, &k->job);
}

/* The child's blob, judged as the broker judges an upcall's answer. */
static int pgpk_key_blob(void *ctx, const uint8_t *blob, size_t len)
{
	struct pgpk_key_cmd *k = ctx;
	struct pgpk_canon_error cerr;
	struct pgpk_canon *canon;
	char why[384];
	int want, ret = 0;

	if (k->blob) {
		pgpk_cli_err("the sandboxed parser answered twice: refused");
		return 2;
	}
	canon = malloc(sizeof(*canon));
	if (!canon) {
		pgpk_cli_err("out of memory");
		return 2;
	}
	if (pgpk_canon_decode(blob, len, canon, &cerr)) {
		pgpk_cli_err(
			"the sandboxed parser's answer is not canonical: %s at octet %u",
			cerr.why, cerr.offset);
		ret = 2;
		goto out;
	}
	want = PGPK_HAS(canon, PGPK_CANON_KEY) ? PGPK_WANT_KEY : PGPK_WANT_SIG;
	if (k->job.want >= 0 && want != k->job.want) {
		pgpk_cli_err(
			"the sandboxed parser answered a %s, a %s was asked",
			want == PGPK_WANT_KEY ? "key" : "signature",
			want == PGPK_WANT_KEY ? "signature" : "key");
		ret = 2;
		goto out;
	}
	ret = pgpk_policy_check(&k->policy, canon, want, k->job.now, why,
				sizeof(why));
	if (ret) {
		pgpk_cli_err("%s: %s", k->in.path, why);
		ret = 1;
		goto out;
	}
	k->blob = malloc(len);
	if (!k->blob) {
		pgpk_cli_err("out of memory");
		ret = 2;
		goto out;
	}
	memcpy(k->blob, blob, len);
	k->blob_len = len;
out:
	free(canon);
	return ret;
}

static int pgpk_key_run(struct pgpk_key_cmd *k, const char *path,
			const char *data_path, const char *dir,
			const char *out_path)
{
	struct pgpk_cli_child c = {
		.work = pgpk_key_work,
		.arg = k,
		.timeout_ms = k->policy.timeout_ms,
		.sandbox_user = k->policy.sandbox_user,
		.blob = pgpk_key_blob,
		.blob_ctx = k,
	};
	char note[320];
	int ret = 2;

	if (pgpk_cli_binary_ok(out_path))
		return 2;
	if (pgpk_cli_read(path, k->policy.max_input, &k->in))
		return 2;
	if (data_path && pgpk_cli_read(data_path, PGPK_CLI_MAX_INPUT, &k->data))
		goto out;
	if (k->job.want != PGPK_WANT_SIG &&
	    (pgpk_anchors_read(dir, &k->anchors, note, sizeof(note)) ||
	     k->anchors.skipped))
		pgpk_cli_err("%s (%zu skipped)", note, k->anchors.skipped);
	k->job.in = &k->in;
	k->job.data = data_path ? &k->data : NULL;
	k->job.policy = &k->policy;
	k->job.anchors = &k->anchors;
	k->job.now = (int64_t)time(NULL);
	ret = pgpk_cli_sandboxed(&c);
	if (!ret && !k->blob) {
		pgpk_cli_err("the sandboxed parser answered no blob");
		ret = 2;
	}
	if (!ret)
		ret = pgpk_cli_write_binary(out_path, k->blob, k->blob_len);
out:
	pgpk_anchors_release(&k->anchors);
	free(k->blob);
	if (k->data.data)
		pgpk_cli_release(&k->data);
	pgpk_cli_release(&k->in);
	return ret;
}

/* want < 0: decided by the input (convert). */
static int pgpk_key_main(int argc, char **argv, int want,
			 const struct pgpk_usage *u)
{
	struct pgpk_key_cmd k = { .job.want = want };
	const char *path = NULL, *data = NULL, *dir = NULL, *out = NULL;
	bool keys = want != PGPK_WANT_SIG, sigs = want != PGPK_WANT_KEY;
	int a, r;

	pgpk_cli_begin(u);
	pgpk_cli_policy_default(&k.policy);
	for (a = 1; a < argc;) {
		if (pgpk_cli_is_help(argv[a]))
			return pgpk_cli_help();
		r = pgpk_cli_policy_option(&k.policy, argc, argv, &a);
		if (!r && keys)
			r = pgpk_cli_anchors_option(argc, argv, &a, &dir);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		if (keys && !strcmp(argv[a], "--select") && a + 1 < argc)
			k.job.select = argv[++a];
		else if (keys && !strncmp(argv[a], "--select=", 9))
			k.job.select = argv[a] + 9;
		else if (sigs && !strcmp(argv[a], "--data") && a + 1 < argc)
			data = argv[++a];
		else if (!strcmp(argv[a], "-o") && a + 1 < argc)
			out = argv[++a];
		else if (argv[a][0] == '-' && argv[a][1])
			return pgpk_cli_usage_err(
				a + 1 == argc &&
						(!strcmp(argv[a], "--select") ||
						 !strcmp(argv[a], "--data") ||
						 !strcmp(argv[a], "-o")) ?
					"%s wants a value" :
					"unknown option '%s'",
				argv[a]);
		else if (!path)
			path = argv[a];
		else
			return pgpk_cli_usage_err(
				"one FILE only, '%s' is a second", argv[a]);
		a++;
	}
	if (!path)
		return pgpk_cli_usage_err(
			"missing FILE (%s, or - for stdin)",
			want == PGPK_WANT_KEY ? "a certificate" :
			want == PGPK_WANT_SIG ? "a signature" :
						"a certificate or a signature");
	return pgpk_key_run(&k, path, data, dir, out);
}

int pgpk_cmd_convert(int argc, char **argv)
{
	return pgpk_key_main(argc, argv, -1, &pgpk_convert_usage);
}

int pgpk_cmd_key(int argc, char **argv)
{
	return pgpk_key_main(argc, argv, PGPK_WANT_KEY, &pgpk_key_usage);
}

int pgpk_cmd_sig(int argc, char **argv)
{
	return pgpk_key_main(argc, argv, PGPK_WANT_SIG, &pgpk_sig_usage);
}
