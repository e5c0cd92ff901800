// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk key, sig and convert's parsing, in the sandboxed child
 * (pgpk_parser.h): the canonical blob pgpk_convert() makes of the input.
 * convert decides by the input: a certificate (a public key packet first,
 * or an armored PUBLIC KEY BLOCK) becomes a Key, anything else
 * Signatures.
 *
 *   a key        the primary key of the first certificate, or the key or
 *                subkey --select names; for a primary key the
 *                certification of a trust anchor if one verifies, else
 *                its own
 *   signatures   every one the policy lets through (at most 16), each
 *                left out named with its reason (SHA-1, v3, a non-RSA
 *                key, made in the future...); an inline or cleartext
 *                message's content with them; a detached signature's
 *                data with --data (a text signature's data canonicalised
 *                as gpg hashes it: the kernel hashes the content as
 *                given)
 *
 * The command decodes the blob with the kernel's decoder and applies the
 * policy to it again before it writes it (helper/cli/key.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/openpgp.h"
#include "helper/parser/pgpk_parser.h"

/* The signatures of the answer are those the policy allows. */
static int pgpk_convert_sig_filter(const void *arg, const struct pgpk_sig *sig,
				   char *why, size_t why_len)
{
	const struct pgpk_convert_job *job = arg;

	return pgpk_policy_check_sig(job->policy, sig, job->now, why, why_len);
}

struct pgpk_convert_note {
	struct pgpk_reply *r;
	const char *path;
};

static void pgpk_convert_left_out(void *arg, size_t idx,
				  const struct pgpk_error *why)
{
	const struct pgpk_convert_note *note = arg;

	fprintf(note->r->err, "%s: signature %zu left out: %s\n", note->path,
		idx + 1, why->msg);
}

/* RFC 9580 4.2, 6.2: a public key packet first, or its armor label. */
static bool pgpk_convert_is_key(const uint8_t *data, size_t len)
{
	static const char label[] = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
	uint8_t tag;

	if (len && (data[0] & 0x80)) {
		tag = data[0] & 0x40 ? data[0] & 0x3f : (data[0] >> 2) & 0x0f;
		return tag == 6;
	}
	return memmem(data, len, label, sizeof(label) - 1) != NULL;
}

/* Refused (1): what the input is, refused; else (2) what it is not. */
static int pgpk_convert_status(int ret)
{
	return ret == -ENOPKG || ret == -EKEYREJECTED || ret == -EKEYEXPIRED ?
		       1 :
		       2;
}

int pgpk_parse_convert(struct pgpk_reply *r, const struct pgpk_convert_job *job)
{
	struct pgpk_convert_note note = { r, job->in->path };
	struct pgpk_convert_opts opts = {
		.select = job->select,
		.now = job->now,
		.allow_revoked = job->policy->allow_revoked,
		.allow_expired = job->policy->allow_expired,
		.sig_filter = pgpk_convert_sig_filter,
		.sig_filter_arg = job,
		.left_out = pgpk_convert_left_out,
		.left_out_arg = &note,
	};
	const struct pgpk_file *in = job->in;
	struct pgpk_error err = { 0 };
	struct pgpk_blob data;
	uint8_t *blob = NULL;
	size_t blob_len = 0;
	int want = job->want, ret;

	if (want < 0)
		want = pgpk_convert_is_key(in->data, in->len) ? PGPK_WANT_KEY :
								PGPK_WANT_SIG;
	if (want == PGPK_WANT_KEY && job->data) {
		fprintf(r->err, "%s: a key: --data is for signatures\n",
			in->path);
		return 2;
	}
	if (want == PGPK_WANT_KEY && job->anchors) {
		opts.anchors = job->anchors->files;
		opts.nanchors = job->anchors->n;
	}
	if (job->data) {
		data = (struct pgpk_blob){ job->data->data, job->data->len };
		opts.data = &data;
	}
	ret = pgpk_convert(in->data, in->len, want, &opts, &blob, &blob_len,
			   &err);
	if (ret) {
		fprintf(r->err, "%s: %s (offset %zu)\n", in->path, err.msg,
			err.offset);
		return pgpk_convert_status(ret);
	}
	ret = pgpk_reply_blob(r, blob, blob_len);
	free(blob);
	return ret ? 2 : 0;
}
