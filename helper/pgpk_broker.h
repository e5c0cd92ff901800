/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The privileged half of pgpk-helper: it never parses OpenPGP.
 *
 *   broker (root, or the caller)            parser child (own uid, seccomp)
 *   ---------------------------            ------------------------------
 *   request description, blob
 *   pgpk_sandbox_prepare()
 *   fork() ------------------------------> pgpk_sandbox_enter()
 *   input pipe  ---- OpenPGP bytes ------> read fd 0 until EOF
 *                                          child work (pgpk_convert())
 *   output pipe <--- framed answer ------- write fd 1, _exit()
 *   watchdog, size bound, reap
 *   pgpk_canon_decode() (the kernel's decoder), kind + binding checks,
 *   policy -> ops->instantiate() or ops->reject(errno)
 *
 * Answer frame (all integers big-endian), written by pgpk_answer_write():
 *   "PGKA"  u32 status  u32 length  payload[length]
 * status 0: payload is a canonical blob; status = a positive errno
 * (EBADMSG, ENOPKG, ENOKEY, EKEYREJECTED, EKEYEXPIRED, ENOMEM): payload is
 * the parser's message, printable text.  ENOMEM is passed on as ENOMEM,
 * not cached.
 *
 * Errnos given to reject (fixed meanings), and for how long.  A verdict
 * about the submitted bytes is the same for every requester: it is
 * rejected for --negative-timeout seconds and the kernel shares it from
 * its cache.  Anything that depends on this request's circumstances (the
 * requester's key quota, a signal, a time-out, a resource limit, memory,
 * fork) is rejected for PGPK_POLICY_CIRCUMSTANCE_TIMEOUT (2) seconds, so
 * that this requester is told his errno (with 0 the kernel would tell him
 * ENOKEY), and the kernel serves it to nobody else: the next requester
 * gets an upcall of his own.  pgpk_errno_is_verdict() is the list;
 * kernel/pgpk_upcall.c keeps the same one and enforces it.
 *
 *   verdicts, cached:
 *   EBADMSG       malformed input (parser verdict), or an answer that the
 *                 strict decoder refuses
 *   ENOPKG        unsupported algorithm or version (parser verdict)
 *   EKEYREJECTED  bad self-signature (parser verdict), a policy rule, an
 *                 input over --max-input, or an answer that is not what
 *                 was asked (wrong kind, not bound to the submitted bytes)
 *   EKEYEXPIRED   expired key or signature (policy)
 *   EMSGSIZE      (reserved: too big; the kernel treats it as a verdict)
 *   not cached:
 *   ENOKEY        no (selected) key in the input (parser): about the
 *                 bytes, but request_key() makes the same errno when the
 *                 helper cannot run at all, so the kernel shares neither
 *
 *   circumstances, not cached (timeout 2, never shared by pgpk.ko):
 *   ETIMEDOUT     the parser did not finish within the watchdog time
 *   ECHILD        the parser died (any signal: SIGKILL from outside or
 *                 the CPU limit, SIGSYS from the seccomp filter, a
 *                 crash), exited without an answer, broke the answer
 *                 framing (garbage, too large, trailing bytes), or the
 *                 sandbox could not be prepared
 *   ENOMEM        the parser (under its address-space limit) or the
 *                 broker ran out of memory
 *   EAGAIN, EMFILE, ENFILE  fork or pipe failed
 *   the kernel's errno  keyctl_instantiate() refused the answer (EDQUOT:
 *                 the requester's key quota; ENOMEM)
 *   EBADMSG       the callout data is not the bytes the description names
 *                 (SHA-256 mismatch): nothing to say about those bytes
 */
#ifndef PGPK_BROKER_H
#define PGPK_BROKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "helper/pgpk_convert.h"
#include "helper/pgpk_policy.h"
#include "sandbox/pgpk_sandbox.h"

#define PGPK_ANSWER_MAGIC "PGKA"
#define PGPK_ANSWER_HDR 12
#define PGPK_ANSWER_MAX_MSG 1024
#define PGPK_SELECT_MAX 64 /* v6 fingerprint, in hex */

/* What the kernel asked for (request_key description, see common.md). */
struct pgpk_request {
	enum pgpk_want want;
	char select[PGPK_SELECT_MAX + 1]; /* "" = primary key */
	uint8_t sha256[32]; /* of the callout data */
};

/*
 * Parse "key:<sha256hex>", "key:<sha256hex>:<select>" or "sig:<sha256hex>".
 * Returns 0 or -EBADMSG with the problem in why.
 */
int pgpk_request_parse(const char *desc, struct pgpk_request *req, char *why,
		       size_t why_len);

/* What the child work function gets, inside the sandbox. */
struct pgpk_child_ctx {
	const struct pgpk_request *req;
	const struct pgpk_policy *policy;
	int64_t now;
	void *arg; /* the work function's own argument */
};

/*
 * The work the sandboxed child does with the input it read from its pipe:
 * write one answer frame to out_fd and return the exit status.  The real
 * one is pgpk_child_convert() (helper/child.c); tests plug in others.
 */
typedef int (*pgpk_child_fn)(const struct pgpk_child_ctx *ctx,
			     const uint8_t *in, size_t len, int out_fd);

/* How the verdict leaves the broker: keyctl, or a test, or debug output. */
struct pgpk_broker_ops {
	int (*instantiate)(void *ctx, const uint8_t *blob, size_t len);
	int (*reject)(void *ctx, unsigned int timeout, int error);
};

/*
 * Ops that keep a copy of the answer (ops_ctx: a struct
 * pgpk_broker_capture, its blob freed by the caller) and ignore
 * refusals: for callers that read the answer themselves (selftest,
 * ima-sign).
 */
struct pgpk_broker_capture {
	uint8_t *blob;
	size_t len;
};

extern const struct pgpk_broker_ops pgpk_broker_capture_ops;

struct pgpk_broker {
	const struct pgpk_policy *policy;
	const struct pgpk_broker_ops *ops;
	void *ops_ctx;
	pgpk_child_fn child;
	void *child_arg;
	/* A prepared sandbox to reuse, or NULL to prepare one per run. */
	const struct pgpk_sandbox *sandbox;
	/* "Now" for expiry, 0 = time(NULL). */
	int64_t now;
};

struct pgpk_broker_result {
	int error; /* 0 = instantiated, else the errno rejected */
	unsigned int timeout; /* seconds the rejection was given */
	int ops_error; /* negative errno from instantiate/reject */
	char reason[384]; /* one line: what happened and why */
	size_t answer_len; /* octets of the canonical blob, if any */
	uint64_t elapsed_us; /* fork to verdict */
};

/*
 * Run one request through the whole pipeline and hand the verdict to the
 * ops.  Returns res->error.  Never returns with a child alive or an fd
 * of its own open.
 */
int pgpk_broker_run(const struct pgpk_broker *broker,
		    const struct pgpk_request *req, const uint8_t *data,
		    size_t len, struct pgpk_broker_result *res);

/* Write one answer frame; status 0 with a blob, or an errno and text. */
int pgpk_answer_write(int fd, int status, const void *payload, size_t len);

/*
 * True for the errnos that are verdicts about the submitted bytes (cached
 * and shared), false for circumstances of one request (see the table).
 */
bool pgpk_errno_is_verdict(int error);

/* "EBADMSG" etc. for the errnos above, "E?" otherwise. */
const char *pgpk_errno_name(int error);

#endif /* PGPK_BROKER_H */
