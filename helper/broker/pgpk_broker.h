/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The privileged half of pgpk-helper: it never parses OpenPGP.
 *
 *   broker (root, or the caller)            parser child (own uid, seccomp)
 *   ---------------------------            ------------------------------
 *   request description, OpenPGP bytes,
 *   the trust anchors' files (root's
 *   configuration, read here)
 *   pgpk_sandbox_prepare()
 *   fork() ------------------------------> pgpk_sandbox_enter()
 *     (the anchors' octets are in the      the anchors: in its memory,
 *     child's memory, copied by fork)      as the broker read them
 *   input pipe  ---- OpenPGP bytes ------> read fd 0 until EOF
 *                                          child work (pgpk_convert())
 *   output pipe <--- framed answer ------- write fd 1, _exit()
 *   watchdog, size bound, reap
 *   pgpk_canon_decode() (the kernel's decoder), kind, size and binding
 *   checks (the kernel's pgpk_packet_at(), pgpk_bytes_at()), policy
 *   -> ops->instantiate() or ops->reject(errno)
 *
 * Answer frame (all integers big-endian), written by pgpk_answer_write():
 *   "PGKA"  u32 status  u32 length  payload[length]
 * status 0: payload is a canonical blob; status = a positive errno
 * (EBADMSG, ENOPKG, ENOKEY, EKEYREJECTED, EKEYEXPIRED, ENOMEM): payload is
 * the parser's message, printable text.  A request answers one frame
 * (pgpk_broker_run()); pgpk import's children answer one frame per
 * key of their certificate (pgpk_broker_frames()).
 *
 * The kernel caches nothing and shares no answer: each request is its
 * requester's own, in a keyring of its own (kernel/pgpk_key.c), and the
 * kernel waits for it at most upcall_timeout seconds (ETIMEDOUT).  Every
 * rejection is therefore given for PGPK_REJECT_TIMEOUT seconds, whatever
 * its errno, just long enough for the requester to read it.  Errnos
 * (fixed meanings):
 *
 *   EBADMSG       malformed input (parser), an answer that the strict
 *                 decoder refuses, a description that is not
 *                 "key:<32 hex digits>", input that is not binary OpenPGP
 *   ENOPKG        unsupported algorithm or version (parser)
 *   EKEYREJECTED  bad self-signature (parser), a policy rule, an input
 *                 over --max-input, a bad command line, or an answer that
 *                 is not what was asked (not the primary key, not bound to
 *                 the submitted bytes)
 *   EKEYEXPIRED   expired key or signature (policy)
 *   EMSGSIZE      an answer over the policy's max_answer: 32767 octets,
 *                 what the kernel stores with user_preparse()
 *   ENOKEY        no (selected) key in the input (parser)
 *   ETIMEDOUT     the parser used --timeout-ms of CPU time, or did not
 *                 end within the watchdog's wall-clock bound
 *   ECHILD        the parser died (any signal: SIGKILL from outside or
 *                 the CPU limit, SIGSYS from the seccomp filter, a
 *                 crash), exited without an answer, broke the answer
 *                 framing (garbage, too large, trailing bytes), or the
 *                 sandbox could not be prepared
 *   ENOMEM        the parser (under its address-space limit) or the
 *                 broker ran out of memory
 *   EAGAIN, EMFILE, ENFILE  fork or pipe failed
 *   the kernel's errno  keyctl_instantiate() refused the answer
 *
 * and, from the upcall before any of this (helper/upcall/upcall.c):
 *
 *   EDQUOT        the requester already has --max-per-uid upcalls in
 *                 flight (helper/broker/pgpk_quota.h)
 *   EIO           /run/pgpk is unusable (not root's alone), or the
 *                 kernel's description or callout could not be read
 */
#ifndef PGPK_BROKER_H
#define PGPK_BROKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "helper/pgpk_convert.h"
#include "helper/broker/pgpk_policy.h"
#include "sandbox/pgpk_sandbox.h"

#define PGPK_ANSWER_MAGIC "PGKA"
#define PGPK_ANSWER_HDR 12
#define PGPK_ANSWER_MAX_MSG 1024
#define PGPK_SELECT_MAX 64 /* v6 fingerprint, in hex */
/*
 * Seconds every rejection is given: not 0, so that the requester, whose
 * key it is (the kernel shares none), reads the errno and not an expired
 * key's; nobody else ever finds it.
 */
#define PGPK_REJECT_TIMEOUT 2

/* What is asked. */
struct pgpk_request {
	enum pgpk_want want;
	/* A key or subkey by fingerprint or key ID, in hex ("" = the first
	 * certificate's primary key).  Never from the kernel: ima-sign,
	 * debug --select. */
	char select[PGPK_SELECT_MAX + 1];
};

/*
 * The kernel's description of an upcall: "key:" and 32 lowercase hex
 * digits (128 random bits, nothing else).  0 with req set (the primary
 * key), or -EBADMSG with the problem in why.
 */
int pgpk_request_parse(const char *desc, struct pgpk_request *req, char *why,
		       size_t why_len);

/* What the child work function gets, inside the sandbox. */
struct pgpk_child_ctx {
	const struct pgpk_request *req;
	const struct pgpk_policy *policy;
	int64_t now;
	/* The trust anchors' files, read by the broker before fork(). */
	const struct pgpk_blob *anchors;
	size_t nanchors;
	void *arg; /* the work function's own argument */
};

/*
 * The work the sandboxed child does with the input it read from its pipe:
 * write its answer frame(s) to out_fd and return the exit status.  The
 * real ones are pgpk_child_convert() and pgpk_child_import()
 * (helper/parser/child.c); tests plug in others.
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
	/* The trust anchors (pgpk_anchors_read()), handed to the child. */
	const struct pgpk_blob *anchors;
	size_t nanchors;
	/* The watchdog's wall-clock bound, ms; 0: pgpk_watchdog_start()'s. */
	unsigned int wall_ms;
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

/*
 * The same exchange for a child that answers several frames (the ops are
 * not used): each frame goes to each(), in order: status 0 with a
 * payload the caller must still decode and check, or a parser errno with
 * its text (not yet made printable).  Returns 0 when the child ended
 * well and its frames were well formed (each() was called for every
 * one), else the errno (as pgpk_broker_run()) with res->reason.
 */
int pgpk_broker_frames(const struct pgpk_broker *broker,
		       const struct pgpk_request *req, const uint8_t *data,
		       size_t len,
		       void (*each)(void *ctx, int status,
				    const uint8_t *payload, size_t n),
		       void *ctx, struct pgpk_broker_result *res);

/* Write one answer frame; status 0 with a blob, or an errno and text. */
int pgpk_answer_write(int fd, int status, const void *payload, size_t len);
/*
 * Write all of buf to fd (EINTR retried): 0, or -errno (-EIO for a write
 * of nothing).  The frames' writer on both sides, and pgpk's output.
 */
int pgpk_write_all(int fd, const void *buf, size_t len);

/*
 * Is decoded Key k an honest description of the OpenPGP octets data?
 * What the kernel's binding checks (kernel/pgpk_key.c pgpk_bind()), for
 * subkeys too: its key packet (tag 6, a subkey's 14 and its primary's 6)
 * and user ID packet (13) whole top-level packets at the offsets named
 * (pgpk_packet_at()), the certification's RSA value at its offset
 * (pgpk_bytes_at()).  0, or -EKEYREJECTED (-ENOMEM) naming the part.
 */
int pgpk_key_bound(const struct pgpk_key *k, const uint8_t *data, size_t len,
		   char *why, size_t why_len);

/* "EBADMSG" etc. for the errnos above, "E?" otherwise. */
const char *pgpk_errno_name(int error);

/* Printable ASCII only, bounded: parser text goes to logs. */
void pgpk_copy_text(char *dst, size_t dst_len, const uint8_t *src, size_t len);

#endif /* PGPK_BROKER_H */
