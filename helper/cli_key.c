// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper convert [--select FPR|KEYID] [--anchors DIR] [--data FILE]
 *                     [POLICY] FILE|- > blob
 * pgpk-helper key [--select FPR|KEYID] [--anchors DIR] [POLICY] FILE|-
 * pgpk-helper sig [--data FILE] [POLICY] FILE|-
 *
 * The canonical blob pgpk_convert() produces, on stdout: what
 * `keyctl padd asymmetric` (a key) and `keyctl padd pgpk_test` (a
 * signature) take without an upcall.  convert
 * decides by the input: a certificate (a public key packet first, or an
 * armored PUBLIC KEY BLOCK) becomes a Key, anything else Signatures.
 *
 *   a key        the primary key of the first certificate, or the key or
 *                subkey --select names; for a primary key the
 *                certification of a trust anchor (--anchors, default
 *                /etc/pgpk/anchors/) if one verifies, else its own
 *   signatures   every one the policy lets through (at most 16), each
 *                left out named on stderr with its reason (SHA-1, v3, a
 *                non-RSA key, made in the future...); an inline or
 *                cleartext message's content with them; a detached
 *                signature's data with --data (a text signature's data
 *                canonicalised as gpg hashes it: the kernel hashes the
 *                content as given)
 *
 * Exit status 0, 2 with the reason on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helper/commands.h"
#include "helper/openpgp/openpgp.h"
#include "helper/pgpk_anchors.h"
#include "helper/pgpk_policy.h"

struct pgpk_cli_conv {
	const char *cmd;
	const char *path;
	const char *select;
	const char *anchors;
	const char *data;
	struct pgpk_policy policy;
	int64_t now;
};

/* The signatures of the answer are those the policy allows. */
static int pgpk_cli_sig_filter(const void *arg, const struct pgpk_sig *sig,
			       char *why, size_t why_len)
{
	const struct pgpk_cli_conv *cv = arg;

	return pgpk_policy_check_sig(&cv->policy, sig, cv->now, why, why_len);
}

static void pgpk_cli_left_out(void *arg, size_t idx,
			      const struct pgpk_error *why)
{
	const struct pgpk_cli_conv *cv = arg;

	fprintf(stderr, "pgpk-helper: %s: %s: signature %zu left out: %s\n",
		cv->cmd, cv->path, idx + 1, why->msg);
}

/* RFC 9580 4.2, 6.2: a public key packet first, or its armor label. */
static bool pgpk_cli_is_key(const uint8_t *data, size_t len)
{
	static const char label[] = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
	uint8_t tag;

	if (len && (data[0] & 0x80)) {
		tag = data[0] & 0x40 ? data[0] & 0x3f : (data[0] >> 2) & 0x0f;
		return tag == 6;
	}
	return memmem(data, len, label, sizeof(label) - 1) != NULL;
}

static int pgpk_cli_convert(struct pgpk_cli_conv *cv, int want)
{
	struct pgpk_anchor_set anchors = { 0 };
	struct pgpk_blob data_blob;
	struct pgpk_convert_opts opts = {
		.select = cv->select,
		.now = cv->now,
		.allow_revoked = cv->policy.allow_revoked,
		.allow_expired = cv->policy.allow_expired,
		.sig_filter = pgpk_cli_sig_filter,
		.sig_filter_arg = cv,
		.left_out = pgpk_cli_left_out,
		.left_out_arg = cv,
	};
	struct pgpk_error err = { 0 };
	uint8_t *in, *blob = NULL, *data = NULL;
	size_t len, blob_len, data_len;
	char note[320];
	int ret = 2;

	if (pgpk_cli_read_file(cv->path, &in, &len))
		return 2;
	if (cv->data && pgpk_cli_read_file(cv->data, &data, &data_len))
		goto out_free;
	if (want < 0)
		want = pgpk_cli_is_key(in, len) ? PGPK_WANT_KEY : PGPK_WANT_SIG;
	if (want == PGPK_WANT_KEY && cv->data) {
		fprintf(stderr,
			"pgpk-helper: %s: %s: --data is for signatures\n",
			cv->cmd, cv->path);
		goto out_free;
	}
	if (want == PGPK_WANT_KEY) {
		if (pgpk_anchors_read(cv->anchors, &anchors, note,
				      sizeof(note)) ||
		    anchors.skipped)
			fprintf(stderr, "pgpk-helper: %s: %s (%zu skipped)\n",
				cv->cmd, note, anchors.skipped);
		opts.anchors = anchors.files;
		opts.nanchors = anchors.n;
	}
	if (data) {
		data_blob = (struct pgpk_blob){ data, data_len };
		opts.data = &data_blob;
	}
	if (pgpk_convert(in, len, want, &opts, &blob, &blob_len, &err))
		fprintf(stderr, "pgpk-helper: %s: %s: %s (offset %zu)\n",
			cv->cmd, cv->path, err.msg, err.offset);
	else
		ret = pgpk_cli_write_stdout(blob, blob_len) ? 2 : 0;
out_free:
	pgpk_anchors_release(&anchors);
	free(blob);
	free(data);
	free(in);
	return ret;
}

/* want < 0: decided by the input (convert). */
static int pgpk_cli_main(int argc, char **argv, int want, const char *usage)
{
	struct pgpk_cli_conv cv = { .cmd = argv[0],
				    .now = (int64_t)time(NULL) };
	int a, r;

	pgpk_policy_default(&cv.policy);
	for (a = 1; a < argc;) {
		r = pgpk_policy_option(&cv.policy, argc, argv, &a, stderr);
		if (!r && want != PGPK_WANT_SIG)
			r = pgpk_anchors_option(argc, argv, &a, &cv.anchors);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		if (want != PGPK_WANT_SIG && !strcmp(argv[a], "--select") &&
		    a + 1 < argc)
			cv.select = argv[++a];
		else if (want != PGPK_WANT_SIG &&
			 !strncmp(argv[a], "--select=", 9))
			cv.select = argv[a] + 9;
		else if (want != PGPK_WANT_KEY && !strcmp(argv[a], "--data") &&
			 a + 1 < argc)
			cv.data = argv[++a];
		else if (!cv.path && (argv[a][0] != '-' || !argv[a][1]))
			cv.path = argv[a];
		else
			goto usage;
		a++;
	}
	if (!cv.path)
		goto usage;
	return pgpk_cli_convert(&cv, want);

usage:
	fprintf(stderr, "usage: pgpk-helper %s %s\n", argv[0], usage);
	pgpk_policy_usage(stderr);
	return 2;
}

int pgpk_cmd_convert(int argc, char **argv)
{
	return pgpk_cli_main(argc, argv, -1,
			     "[--select FPR|KEYID] [--anchors DIR] "
			     "[--data FILE] [POLICY] FILE|-");
}

int pgpk_cmd_key(int argc, char **argv)
{
	return pgpk_cli_main(argc, argv, PGPK_WANT_KEY,
			     "[--select FPR|KEYID] [--anchors DIR] [POLICY] "
			     "FILE|-");
}

int pgpk_cmd_sig(int argc, char **argv)
{
	return pgpk_cli_main(argc, argv, PGPK_WANT_SIG,
			     "[--data FILE] [POLICY] FILE|-");
}
