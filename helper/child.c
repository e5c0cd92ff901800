// SPDX-License-Identifier: GPL-2.0
/*
 * The parser child's real work, run inside the sandbox: pgpk_convert() on
 * the bytes from the input pipe, one answer frame on the output pipe.
 * Nothing here may open a file, ask for randomness or allocate a
 * descriptor: the seccomp allowlist would kill the process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/pgpk_broker.h"
#include "helper/pgpk_child.h"

/* The signatures of the answer are those the broker's policy allows. */
static int pgpk_child_sig_filter(const void *arg, const struct pgpk_sig *sig,
				 char *why, size_t why_len)
{
	const struct pgpk_child_ctx *ctx = arg;

	return pgpk_policy_check_sig(ctx->policy, sig, ctx->now, why, why_len);
}

int pgpk_child_convert(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		       size_t len, int out_fd)
{
	struct pgpk_convert_opts opts = {
		.select = ctx->req->select[0] ? ctx->req->select : NULL,
		.now = ctx->now,
		.allow_revoked = ctx->policy->allow_revoked,
		.allow_expired = ctx->policy->allow_expired,
		.sig_filter = pgpk_child_sig_filter,
		.sig_filter_arg = ctx,
	};
	struct pgpk_error err;
	char msg[PGPK_ANSWER_MAX_MSG];
	uint8_t *out = NULL;
	size_t out_len = 0;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = pgpk_convert(in, len, ctx->req->want, &opts, &out, &out_len,
			   &err);
	if (ret) {
		err.msg[sizeof(err.msg) - 1] = '\0';
		snprintf(msg, sizeof(msg), "%s (at octet %zu)", err.msg,
			 err.offset);
		return pgpk_answer_write(out_fd, ret < 0 ? -ret : ret, msg,
					 strlen(msg)) ?
			       1 :
			       0;
	}
	ret = pgpk_answer_write(out_fd, 0, out, out_len);
	free(out);
	return ret ? 1 : 0;
}
