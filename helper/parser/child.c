// SPDX-License-Identifier: GPL-2.0
/*
 * The parser child's real work, run inside the sandbox: pgpk_convert() on
 * the bytes from the input pipe, its answer frame(s) on the output pipe.
 * Nothing here may open a file, ask for randomness or allocate a
 * descriptor: the seccomp allowlist would kill the process.  The trust
 * anchors are in memory already (the broker read them before fork()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/openpgp.h"
#include "helper/broker/pgpk_broker.h"
#include "helper/parser/pgpk_child.h"

/* The signatures of the answer are those the broker's policy allows. */
static int pgpk_child_sig_filter(const void *arg, const struct pgpk_sig *sig,
				 char *why, size_t why_len)
{
	const struct pgpk_child_ctx *ctx = arg;

	return pgpk_policy_check_sig(ctx->policy, sig, ctx->now, why, why_len);
}

/* A refusal's frame: its errno and "what (at octet N)". */
static int pgpk_child_refusal(int out_fd, int ret, const struct pgpk_error *err,
			      const char *what)
{
	char msg[PGPK_ANSWER_MAX_MSG];

	snprintf(msg, sizeof(msg), "%s%.*s (at octet %zu)", what,
		 (int)sizeof(err->msg), err->msg, err->offset);
	return pgpk_answer_write(out_fd, ret < 0 ? -ret : ret, msg,
				 strlen(msg)) ?
		       1 :
		       0;
}

int pgpk_child_convert(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		       size_t len, int out_fd)
{
	struct pgpk_convert_opts opts = {
		.select = ctx->req->select[0] ? ctx->req->select : NULL,
		.now = ctx->now,
		.allow_revoked = ctx->policy->allow_revoked,
		.allow_expired = ctx->policy->allow_expired,
		.anchors = ctx->anchors,
		.nanchors = ctx->nanchors,
		.sig_filter = pgpk_child_sig_filter,
		.sig_filter_arg = ctx,
	};
	struct pgpk_error err;
	uint8_t *out = NULL;
	size_t out_len = 0;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = pgpk_convert(in, len, ctx->req->want, &opts, &out, &out_len,
			   &err);
	if (ret)
		return pgpk_child_refusal(out_fd, ret, &err, "");
	ret = pgpk_answer_write(out_fd, 0, out, out_len);
	free(out);
	return ret ? 1 : 0;
}

/*
 * One key of the certificate: its canonical Key (offsets included: the
 * importer checks them against the certificate it sent), or ENOKEY with
 * "KEYID key|subkey ALGO: skipped: why" when it is not to be added, or
 * the conversion's errno with "KEYID key|subkey ALGO: why".
 */
static int pgpk_child_import_key(const struct pgpk_child_ctx *ctx,
				 const struct pgpk_keyring *ring,
				 const struct pgpk_cert *cert,
				 const struct pgpk_pubkey *key, int out_fd)
{
	unsigned int use =
		(ctx->policy->allow_revoked ? PGPK_USE_ALLOW_REVOKED : 0) |
		(ctx->policy->allow_expired ? PGPK_USE_ALLOW_EXPIRED : 0);
	struct pgpk_anchors anchors = { ctx->anchors, ctx->nanchors, ctx->now,
					use };
	struct pgpk_error err = { 0 };
	char what[64];
	uint8_t *blob;
	size_t len, i;
	int ret;

	for (i = 0; i < PGPK_KEYID_LEN; i++)
		snprintf(what + 2 * i, 3, "%02X", key->keyid[i]);
	snprintf(what + 2 * PGPK_KEYID_LEN, sizeof(what) - 2 * PGPK_KEYID_LEN,
		 " %s %s: ", key->subkey ? "subkey" : "key", key->algo_name);
	/* The one validity rule (valid.c), first, so that every command
	 * names the same reason; subkeys must sign. */
	ret = pgpk_key_usable(cert, key,
			      use | (key->subkey ? PGPK_USE_SIGN : 0), &err);
	if (!ret && key->algo != PGPK_PK_RSA && key->algo != PGPK_PK_RSA_S) {
		snprintf(err.msg, sizeof(err.msg), "not RSA");
		err.offset = key->offset;
		ret = -ENOKEY;
	}
	if (ret) {
		strncat(what, "skipped: ", sizeof(what) - strlen(what) - 1);
		return pgpk_child_refusal(out_fd, -ENOKEY, &err, what);
	}
	ret = pgpk_key_canonical(ring, cert, key, &anchors, 0, &blob, &len,
				 &err);
	if (ret)
		return pgpk_child_refusal(out_fd, ret, &err, what);
	ret = pgpk_answer_write(out_fd, 0, blob, len);
	free(blob);
	return ret ? 1 : 0;
}

int pgpk_child_import(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		      size_t len, int out_fd)
{
	struct pgpk_parse_opts popts = { .now = ctx->now,
					 .borrow_input = true };
	struct pgpk_error err = { 0 };
	const struct pgpk_cert *cert;
	struct pgpk_keyring *ring;
	size_t k;
	int ret;

	ret = pgpk_keyring_parse(in, len, &popts, &ring, &err);
	if (ret)
		return pgpk_child_refusal(out_fd, ret, &err, "");
	cert = &ring->certs[0];
	ret = pgpk_child_import_key(ctx, ring, cert, &cert->primary, out_fd);
	for (k = 0; !ret && k < cert->nsubkeys; k++)
		ret = pgpk_child_import_key(ctx, ring, cert, &cert->subkeys[k],
					    out_fd);
	pgpk_keyring_free(ring);
	return ret;
}
