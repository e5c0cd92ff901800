// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection for the broker: parser children that crash, hang, write
 * too much, write garbage, answer for other bytes, at other offsets, with
 * a subkey or the wrong kind, too large, or exit without answering.
 * Every case must end in exactly one reject with the documented errno,
 * for PGPK_REJECT_TIMEOUT seconds, within the watchdog time, and never
 * instantiate.  The watchdog counts the child's CPU time: a child that
 * spins is killed at its budget, one that waits longer than the budget
 * without using CPU time (a loaded machine) is not, one that never ends
 * is, at the wall-clock bound.  The good cases check the converse: exactly one
 * instantiate, with the very bytes the child framed.  Also: no fd leaked,
 * no child left behind; and pgpk_broker_frames(), import's exchange, hands
 * over every frame of a well-framed answer and none of a broken one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/futex.h>

#include "helper/broker/pgpk_broker.h"
#include "tests/broker/check.h"
#include "tests/broker/pgpk_test_blobs.h"

#define PGPK_TEST_TIMEOUT_MS 400
#define PGPK_TEST_SLACK_US 400000 /* reaping and scheduling */

/* What the ops saw. */
struct pgpk_record {
	int instantiated;
	int refused; /* instantiate calls that failed */
	int rejected;
	int error;
	unsigned int timeout;
	uint8_t *blob;
	size_t blob_len;
};

static int pgpk_rec_instantiate(void *ctx, const uint8_t *blob, size_t len)
{
	struct pgpk_record *rec = ctx;

	rec->instantiated++;
	free(rec->blob);
	rec->blob = malloc(len);
	memcpy(rec->blob, blob, len);
	rec->blob_len = len;
	return 0;
}

static int pgpk_rec_reject(void *ctx, unsigned int timeout, int error)
{
	struct pgpk_record *rec = ctx;

	rec->rejected++;
	rec->error = error;
	rec->timeout = timeout;
	return 0;
}

static const struct pgpk_broker_ops pgpk_rec_ops = {
	.instantiate = pgpk_rec_instantiate,
	.reject = pgpk_rec_reject,
};

/* What a fabricated child should send. */
struct pgpk_fake {
	const uint8_t *blob;
	size_t len;
	const uint8_t *expect_in; /* input the child must have read */
	size_t expect_len;
};

static int child_crash(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		       size_t len, int out)
{
	volatile uintptr_t unmapped = 16;

	*(volatile int *)unmapped = 1; /* SIGSEGV */
	return 0;
}

static int child_hang(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		      size_t len, int out)
{
	volatile unsigned long spin = 0;

	for (;;)
		spin++;
	return 0;
}

/* Sleep on a futex no one wakes (the filter allows futex): no CPU time. */
static void pgpk_idle(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
	uint32_t word = 0;

	syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, ms ? &ts : NULL);
}

static int child_stall(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		       size_t len, int out)
{
	for (;;)
		pgpk_idle(0);
	return 0;
}

static int child_answer(const struct pgpk_child_ctx *ctx, const uint8_t *in,
			size_t len, int out);

/* Twice the budget of wall-clock time, as if the machine were busy. */
static int child_idle_then_answer(const struct pgpk_child_ctx *ctx,
				  const uint8_t *in, size_t len, int out)
{
	pgpk_idle(2 * PGPK_TEST_TIMEOUT_MS);
	return child_answer(ctx, in, len, out);
}

static int child_too_much(const struct pgpk_child_ctx *ctx, const uint8_t *in,
			  size_t len, int out)
{
	static uint8_t junk[65536];

	memcpy(junk, PGPK_ANSWER_MAGIC, 4);
	for (;;)
		if (write(out, junk, sizeof(junk)) < 0)
			return 1;
	return 0;
}

static int child_garbage(const struct pgpk_child_ctx *ctx, const uint8_t *in,
			 size_t len, int out)
{
	static const char junk[] = "this is not an answer frame at all";

	return write(out, junk, sizeof(junk)) < 0;
}

static int child_silent(const struct pgpk_child_ctx *ctx, const uint8_t *in,
			size_t len, int out)
{
	return 0;
}

static int child_exit3(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		       size_t len, int out)
{
	return 3;
}

static int child_truncated(const struct pgpk_child_ctx *ctx, const uint8_t *in,
			   size_t len, int out)
{
	const struct pgpk_fake *fake = ctx->arg;
	uint8_t hdr[PGPK_ANSWER_HDR] = { 'P', 'G', 'K', 'A', 0,	   0,
					 0,   0,   0,	0,   0x10, 0 };

	if (write(out, hdr, sizeof(hdr)) < 0 ||
	    write(out, fake->blob, fake->len / 2) < 0)
		return 1;
	return 0;
}

static int child_forbidden(const struct pgpk_child_ctx *ctx, const uint8_t *in,
			   size_t len, int out)
{
	const struct pgpk_fake *fake = ctx->arg;

	syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY);
	return pgpk_answer_write(out, 0, fake->blob, fake->len) ? 1 : 0;
}

static int child_answer(const struct pgpk_child_ctx *ctx, const uint8_t *in,
			size_t len, int out)
{
	const struct pgpk_fake *fake = ctx->arg;

	if (fake->expect_in &&
	    (len != fake->expect_len || memcmp(in, fake->expect_in, len)))
		return pgpk_answer_write(out, EBADMSG, "input differs", 13);
	return pgpk_answer_write(out, 0, fake->blob, fake->len) ? 1 : 0;
}

static int child_answer_then_hang(const struct pgpk_child_ctx *ctx,
				  const uint8_t *in, size_t len, int out)
{
	child_answer(ctx, in, len, out);
	return child_hang(ctx, in, len, out);
}

static int child_verdict_ebadmsg(const struct pgpk_child_ctx *ctx,
				 const uint8_t *in, size_t len, int out)
{
	static const char msg[] = "packet 2 length runs past the end\n\x01";

	return pgpk_answer_write(out, EBADMSG, msg, sizeof(msg) - 1);
}

static int child_verdict_enopkg(const struct pgpk_child_ctx *ctx,
				const uint8_t *in, size_t len, int out)
{
	return pgpk_answer_write(out, ENOPKG, "DSA (17) unsupported", 20);
}

static int child_verdict_enomem(const struct pgpk_child_ctx *ctx,
				const uint8_t *in, size_t len, int out)
{
	return pgpk_answer_write(out, ENOMEM, "out of memory", 13);
}

static int child_verdict_enokey(const struct pgpk_child_ctx *ctx,
				const uint8_t *in, size_t len, int out)
{
	return pgpk_answer_write(out, ENOKEY, "no subkey 7DF4F6CEDFE00F04", 26);
}

static int child_verdict_eio(const struct pgpk_child_ctx *ctx,
			     const uint8_t *in, size_t len, int out)
{
	return pgpk_answer_write(out, EIO, "nonsense status", 15);
}

static int pgpk_count_fds(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

/* Input bytes that look like a binary signature containing `needle`. */
static uint8_t *pgpk_make_input(const uint8_t *needle, size_t needle_len,
				size_t total, size_t *len)
{
	uint8_t *in = calloc(1, total);
	size_t i;

	for (i = 0; i < total; i++)
		in[i] = (uint8_t)(i * 7 + 3);
	in[0] = 0x89; /* RFC 9580 4.2: old-format signature packet */
	memcpy(in + 9, needle, needle_len);
	*len = total;
	return in;
}

struct pgpk_env {
	struct pgpk_sandbox sb;
	struct pgpk_policy policy;
	uint8_t n[256], other_n[256], s[256];
	uint8_t *key_blob, *other_key_blob, *sig_blob, *sha1_sig_blob;
	uint8_t *small_key_blob, *expired_sig_blob, *moved_key_blob;
	size_t key_len, other_key_len, sig_len, sha1_sig_len;
	size_t small_key_len, expired_sig_len, moved_key_len;
	uint8_t *key_input, *sig_input, *small_input, *uid_input;
	size_t key_input_len, sig_input_len, small_input_len, uid_input_len;
	bool nofile_zero; /* no descriptor left for the run */
	struct pgpk_broker_result last; /* the last case's */
	unsigned int wall_ms; /* the broker's wall-clock bound; 0: default */
};

/*
 * The one fixture: run the broker on `in` with child `child` (argument
 * `fake`) and ops `ops`, and check the verdict: exactly one of
 * instantiate (want_error 0, with the bytes the child framed) or reject
 * (with want_error, for PGPK_REJECT_TIMEOUT), in time, with no fd or
 * child left behind.  A good case whose instantiate fails also rejects.
 */
static void pgpk_run_case(const char *name, struct pgpk_env *env,
			  const struct pgpk_broker_ops *ops,
			  pgpk_child_fn child, struct pgpk_fake *fake,
			  enum pgpk_want want, const uint8_t *in, size_t in_len,
			  int want_error)
{
	struct pgpk_record rec = { 0 };
	struct pgpk_broker broker = {
		.policy = &env->policy,
		.ops = ops,
		.ops_ctx = &rec,
		.child = child,
		.child_arg = fake,
		.sandbox = &env->sb,
		.wall_ms = env->wall_ms,
	};
	unsigned int want_timeout = PGPK_REJECT_TIMEOUT;
	struct pgpk_broker_result res;
	struct pgpk_request req = { .want = want };
	struct rlimit nofile;
	int fds_before = pgpk_count_fds(), before = pgpk_failures;
	int ret;

	getrlimit(RLIMIT_NOFILE, &nofile);
	if (env->nofile_zero) /* soft limit only: the hard one stays */
		setrlimit(RLIMIT_NOFILE,
			  &(struct rlimit){ 0, nofile.rlim_max });
	ret = pgpk_broker_run(&broker, &req, in, in_len, &res);
	setrlimit(RLIMIT_NOFILE, &nofile);
	CHECK(ret == want_error && res.error == want_error,
	      "%s: got %s, want %s (%s)", name, pgpk_errno_name(ret),
	      pgpk_errno_name(want_error), res.reason);
	CHECK(res.elapsed_us < PGPK_TEST_TIMEOUT_MS * 1000ULL *
					       PGPK_WATCHDOG_WALL_FACTOR +
				       PGPK_TEST_SLACK_US,
	      "%s: took %llu us", name, (unsigned long long)res.elapsed_us);
	CHECK(!res.ops_error, "%s: ops error %d", name, res.ops_error);
	if (want_error) {
		CHECK(rec.rejected == 1, "%s: %d reject calls", name,
		      rec.rejected);
		CHECK(rec.instantiated == rec.refused,
		      "%s: %d instantiate calls, %d refused", name,
		      rec.instantiated, rec.refused);
		CHECK(rec.error == want_error, "%s: rejected with %s", name,
		      pgpk_errno_name(rec.error));
		CHECK(rec.timeout == want_timeout &&
			      res.timeout == want_timeout,
		      "%s: rejected for %u s (reported %u), want %u", name,
		      rec.timeout, res.timeout, want_timeout);
	} else {
		CHECK(rec.instantiated == 1 && !rec.rejected && fake &&
			      rec.blob_len == fake->len &&
			      !memcmp(rec.blob, fake->blob, fake->len),
		      "%s: %d instantiate + %d reject calls, or other bytes",
		      name, rec.instantiated, rec.rejected);
	}
	CHECK(pgpk_count_fds() == fds_before, "%s: fds %d -> %d", name,
	      fds_before, pgpk_count_fds());
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	      "%s: a child is left", name);
	printf("%s %s: %s for %u s: %s (%llu us)\n",
	       pgpk_failures == before ? "ok  " : "FAIL", name,
	       pgpk_errno_name(ret), res.timeout, res.reason,
	       (unsigned long long)res.elapsed_us);
	free(rec.blob);
	env->last = res;
}

/* The common case: the recording ops. */
static void pgpk_case(const char *name, struct pgpk_env *env,
		      pgpk_child_fn child, struct pgpk_fake *fake,
		      enum pgpk_want want, const uint8_t *in, size_t in_len,
		      int want_error)
{
	pgpk_run_case(name, env, &pgpk_rec_ops, child, fake, want, in, in_len,
		      want_error);
}

static void pgpk_env_init(struct pgpk_env *env)
{
	char msg[256];

	pgpk_policy_default(&env->policy);
	env->policy.timeout_ms = PGPK_TEST_TIMEOUT_MS;
	env->policy.max_answer = 8192;
	if (pgpk_sandbox_prepare(&env->sb, NULL, msg, sizeof(msg))) {
		printf("FAIL sandbox: %s\n", msg);
		exit(1);
	}
	/* The parser's own identity, shared with no other process. */
	if (env->sb.drop_user)
		CHECK(env->sb.uid == PGPK_SANDBOX_ID_BASE + (uid_t)getpid() &&
			      env->sb.gid == (gid_t)env->sb.uid,
		      "sandbox: parser uid %u gid %u, want %u",
		      (unsigned int)env->sb.uid, (unsigned int)env->sb.gid,
		      PGPK_SANDBOX_ID_BASE + (unsigned int)getpid());
	pgpk_test_modulus(env->n, 2048, 1);
	pgpk_test_modulus(env->other_n, 2048, 2);
	pgpk_test_modulus(env->s, 2047, 3);
	env->key_blob = pgpk_test_key_blob(env->n, 256, 3, &env->key_len);
	env->other_key_blob =
		pgpk_test_key_blob(env->other_n, 256, 3, &env->other_key_len);
	env->moved_key_blob =
		pgpk_test_key_blob(env->n, 256, 4, &env->moved_key_len);
	env->expired_sig_blob = pgpk_test_sig_blob(env->s, 256, 8, 1700000001,
						   &env->expired_sig_len);
	env->small_key_blob =
		pgpk_test_key_blob(env->n, 128, 3, &env->small_key_len);
	env->sig_blob = pgpk_test_sig_blob(env->s, 256, 8, 0, &env->sig_len);
	env->sha1_sig_blob =
		pgpk_test_sig_blob(env->s, 256, 2, 0, &env->sha1_sig_len);
	env->key_input_len = 700;
	env->key_input = pgpk_test_key_input(env->n, 256, 700);
	env->small_input_len = 300;
	env->small_input = pgpk_test_key_input(env->n, 128, 300);
	env->sig_input = pgpk_make_input(env->s, 256, 400, &env->sig_input_len);
	env->uid_input_len = 900;
	env->uid_input = pgpk_test_key_uid_input(env->n, 256, "T <t@pgpk>",
						 env->uid_input_len);
}

static void pgpk_env_free(struct pgpk_env *env)
{
	pgpk_sandbox_release(&env->sb);
	free(env->key_blob);
	free(env->other_key_blob);
	free(env->moved_key_blob);
	free(env->expired_sig_blob);
	free(env->small_key_blob);
	free(env->sig_blob);
	free(env->sha1_sig_blob);
	free(env->key_input);
	free(env->sig_input);
	free(env->small_input);
	free(env->uid_input);
}

static void pgpk_fault_cases(struct pgpk_env *env)
{
	struct pgpk_fake key = { env->key_blob, env->key_len, NULL, 0 };
	struct pgpk_fake other = { env->other_key_blob, env->other_key_len,
				   NULL, 0 };
	struct pgpk_fake moved = { env->moved_key_blob, env->moved_key_len,
				   NULL, 0 };
	struct pgpk_fake sig = { env->sig_blob, env->sig_len, NULL, 0 };
	static const uint8_t not_canon[] = "\x7fPGK\x01\x0a\x00";
	struct pgpk_fake bad = { not_canon, sizeof(not_canon) - 1, NULL, 0 };
	const uint8_t *in = env->key_input;
	size_t len = env->key_input_len;

	pgpk_case("crash", env, child_crash, NULL, PGPK_WANT_KEY, in, len,
		  ECHILD);
	pgpk_case("hang", env, child_hang, NULL, PGPK_WANT_KEY, in, len,
		  ETIMEDOUT);
	CHECK(strstr(env->last.reason, "ms of CPU time (--timeout-ms)"),
	      "hang: not the CPU-time bound: %s", env->last.reason);
	pgpk_case("answer-then-hang", env, child_answer_then_hang, &key,
		  PGPK_WANT_KEY, in, len, ETIMEDOUT);
	pgpk_case("idle-then-answer", env, child_idle_then_answer, &key,
		  PGPK_WANT_KEY, in, len, 0);
	CHECK(env->last.elapsed_us >= 2 * PGPK_TEST_TIMEOUT_MS * 1000ULL,
	      "idle-then-answer: answered after %llu us, not after idling",
	      (unsigned long long)env->last.elapsed_us);
	pgpk_case("stall", env, child_stall, NULL, PGPK_WANT_KEY, in, len,
		  ETIMEDOUT);
	CHECK(strstr(env->last.reason, "no end in") &&
		      env->last.elapsed_us >= PGPK_TEST_TIMEOUT_MS * 1000ULL *
						      PGPK_WATCHDOG_WALL_FACTOR,
	      "stall: not the wall-clock bound: %s", env->last.reason);
	/* The upcall's bound (three quarters of the kernel's), if shorter. */
	env->wall_ms = PGPK_TEST_TIMEOUT_MS * 3 / 2;
	pgpk_case("stall-own-bound", env, child_stall, NULL, PGPK_WANT_KEY, in,
		  len, ETIMEDOUT);
	CHECK(strstr(env->last.reason, "no end in 600 ms") &&
		      env->last.elapsed_us >= 600000 &&
		      env->last.elapsed_us < PGPK_TEST_TIMEOUT_MS * 1000ULL *
						     PGPK_WATCHDOG_WALL_FACTOR,
	      "stall-own-bound: not the broker's wall_ms: %s (%llu us)",
	      env->last.reason, (unsigned long long)env->last.elapsed_us);
	env->wall_ms = 0;
	pgpk_case("too-much", env, child_too_much, NULL, PGPK_WANT_KEY, in, len,
		  ECHILD);
	pgpk_case("garbage", env, child_garbage, NULL, PGPK_WANT_KEY, in, len,
		  ECHILD);
	pgpk_case("no-answer", env, child_silent, NULL, PGPK_WANT_KEY, in, len,
		  ECHILD);
	pgpk_case("exit-status", env, child_exit3, NULL, PGPK_WANT_KEY, in, len,
		  ECHILD);
	pgpk_case("truncated", env, child_truncated, &key, PGPK_WANT_KEY, in,
		  len, ECHILD);
	pgpk_case("forbidden-syscall", env, child_forbidden, &key,
		  PGPK_WANT_KEY, in, len, ECHILD);
	pgpk_case("not-canonical", env, child_answer, &bad, PGPK_WANT_KEY, in,
		  len, EBADMSG);
	pgpk_case("other-blob", env, child_answer, &other, PGPK_WANT_KEY, in,
		  len, EKEYREJECTED);
	pgpk_case("other-offset", env, child_answer, &moved, PGPK_WANT_KEY, in,
		  len, EKEYREJECTED);
	pgpk_case("wrong-kind-sig", env, child_answer, &sig, PGPK_WANT_KEY, in,
		  len, EKEYREJECTED);
	pgpk_case("wrong-kind-key", env, child_answer, &key, PGPK_WANT_SIG,
		  env->sig_input, env->sig_input_len, EKEYREJECTED);
	pgpk_case("verdict-ebadmsg", env, child_verdict_ebadmsg, NULL,
		  PGPK_WANT_KEY, in, len, EBADMSG);
	pgpk_case("verdict-enopkg", env, child_verdict_enopkg, NULL,
		  PGPK_WANT_KEY, in, len, ENOPKG);
	pgpk_case("verdict-enokey", env, child_verdict_enokey, NULL,
		  PGPK_WANT_KEY, in, len, ENOKEY);
	pgpk_case("verdict-bad-status", env, child_verdict_eio, NULL,
		  PGPK_WANT_KEY, in, len, ECHILD);
}

static void pgpk_good_and_policy_cases(struct pgpk_env *env)
{
	struct pgpk_fake key = { env->key_blob, env->key_len, env->key_input,
				 env->key_input_len };
	struct pgpk_fake sig = { env->sig_blob, env->sig_len, NULL, 0 };
	struct pgpk_fake msg = { NULL, 0, NULL, 0 };
	struct pgpk_fake sha1 = { env->sha1_sig_blob, env->sha1_sig_len, NULL,
				  0 };
	struct pgpk_fake small = { env->small_key_blob, env->small_key_len,
				   NULL, 0 };
	struct pgpk_fake expired = { env->expired_sig_blob,
				     env->expired_sig_len, NULL, 0 };
	struct pgpk_fake big = { env->key_blob, env->key_len, NULL, 0 };
	uint8_t *big_in;
	size_t big_len;

	pgpk_case("good-key", env, child_answer, &key, PGPK_WANT_KEY,
		  env->key_input, env->key_input_len, 0);
	pgpk_case("good-sig", env, child_answer, &sig, PGPK_WANT_SIG,
		  env->sig_input, env->sig_input_len, 0);
	/* A compressed signed message hides the signature packet. */
	msg.blob = pgpk_test_msg_blob(env->s, 256, 8, (const uint8_t *)"hi", 2,
				      &msg.len);
	pgpk_case("good-msg-compressed", env, child_answer, &msg, PGPK_WANT_SIG,
		  env->key_input, env->key_input_len, 0);
	pgpk_case("other-detached-sig", env, child_answer, &sig, PGPK_WANT_SIG,
		  env->key_input, env->key_input_len, EKEYREJECTED);
	free((void *)(uintptr_t)msg.blob);
	pgpk_case("policy-sha1", env, child_answer, &sha1, PGPK_WANT_SIG,
		  env->sig_input, env->sig_input_len, EKEYREJECTED);
	pgpk_case("policy-1024-bit", env, child_answer, &small, PGPK_WANT_KEY,
		  env->small_input, env->small_input_len, EKEYREJECTED);
	/* A signature's expiry, as its hashed area says (the kernel's walk). */
	pgpk_case("policy-expired", env, child_answer, &expired, PGPK_WANT_SIG,
		  env->sig_input, env->sig_input_len, EKEYEXPIRED);
	env->policy.allow_expired = true;
	pgpk_case("policy-allow-expired", env, child_answer, &expired,
		  PGPK_WANT_SIG, env->sig_input, env->sig_input_len, 0);
	env->policy.allow_expired = false;
	env->policy.min_rsa_bits = 1024;
	pgpk_case("policy-min-1024", env, child_answer, &small, PGPK_WANT_KEY,
		  env->small_input, env->small_input_len, 0);
	env->policy.min_rsa_bits = 2048;

	/* Larger than a pipe buffer: the exchange must not deadlock. */
	big_len = 600000;
	big_in = pgpk_test_key_input(env->n, 256, big_len);
	big.expect_in = big_in;
	big.expect_len = big_len;
	pgpk_case("large-input", env, child_answer, &big, PGPK_WANT_KEY, big_in,
		  big_len, 0);
	env->policy.max_input = 100000;
	pgpk_case("policy-max-input", env, child_answer, &big, PGPK_WANT_KEY,
		  big_in, big_len, EKEYREJECTED);
	env->policy.max_input = PGPK_POLICY_MAX_INPUT;
	free(big_in);
}

/* The kernel refuses the answer: the key must still get one verdict. */
static int pgpk_rec_instantiate_edquot(void *ctx, const uint8_t *blob,
				       size_t len)
{
	struct pgpk_record *rec = ctx;

	rec->instantiated++;
	rec->refused++;
	return -EDQUOT;
}

static int pgpk_rec_instantiate_enomem(void *ctx, const uint8_t *blob,
				       size_t len)
{
	struct pgpk_record *rec = ctx;

	rec->instantiated++;
	rec->refused++;
	return -ENOMEM;
}

static const struct pgpk_broker_ops pgpk_edquot_ops = {
	.instantiate = pgpk_rec_instantiate_edquot,
	.reject = pgpk_rec_reject,
};

static const struct pgpk_broker_ops pgpk_enomem_ops = {
	.instantiate = pgpk_rec_instantiate_enomem,
	.reject = pgpk_rec_reject,
};

/*
 * Failures that belong to this request, not to the bytes: each rejected
 * with its own errno (nothing is shared in the kernel any more: issue 19).
 */
static void pgpk_circumstance_cases(struct pgpk_env *env)
{
	struct pgpk_fake key = { env->key_blob, env->key_len, NULL, 0 };
	const uint8_t *in = env->key_input;
	size_t len = env->key_input_len;

	/* The requester's key quota is full: never EKEYREJECTED. */
	pgpk_run_case("instantiate-edquot", env, &pgpk_edquot_ops, child_answer,
		      &key, PGPK_WANT_KEY, in, len, EDQUOT);
	pgpk_run_case("instantiate-enomem", env, &pgpk_enomem_ops, child_answer,
		      &key, PGPK_WANT_KEY, in, len, ENOMEM);
	pgpk_case("verdict-enomem", env, child_verdict_enomem, NULL,
		  PGPK_WANT_KEY, in, len, ENOMEM);
	/* No descriptor left for the pipes (EMFILE): the moment's state. */
	env->nofile_zero = true;
	pgpk_case("pipe-emfile", env, child_answer, &key, PGPK_WANT_KEY, in,
		  len, EMFILE);
	env->nofile_zero = false;
}

/*
 * The kernel's binding checks, made by the broker first: the answer is
 * the certificate's primary key, its packets whole top-level packets of
 * the input at the offsets it names, its certification's value at its
 * offset; binary input only; at most max_answer octets (EMSGSIZE).
 */
static void pgpk_binding_cases(struct pgpk_env *env)
{
	static const char armored[] =
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBGVT8QA=\n"
		"-----END PGP PUBLIC KEY BLOCK-----\n";
	struct pgpk_test_key_opts o = { .user_id = "T <t@pgpk>" };
	uint32_t uid_at = pgpk_test_uid_offset(256), s_at = 600;
	const uint8_t *in = env->uid_input;
	size_t len = env->uid_input_len, n;
	struct pgpk_fake f = { NULL, 0, NULL, 0 };
	uint8_t *blob;
	size_t blob_len;

#define BLOB_CASE(name, input, input_len, want)                                \
	do {                                                                   \
		blob = pgpk_test_key_blob_opts(env->n, 256, 3, &o, &blob_len); \
		f = (struct pgpk_fake){ blob, blob_len, NULL, 0 };             \
		pgpk_case(name, env, child_answer, &f, PGPK_WANT_KEY, input,   \
			  input_len, want);                                    \
		free(blob);                                                    \
	} while (0)

	/* the certification's value, where the input has it */
	memcpy(env->uid_input + s_at, env->s, 256);
	o.user_id_offset = uid_at;
	BLOB_CASE("bound-user-id", in, len, 0);
	o.user_id_offset = uid_at + 1;
	BLOB_CASE("user-id-moved", in, len, EKEYREJECTED);
	o.user_id_offset = uid_at;
	o.user_id = "T <t@pgpl>";
	BLOB_CASE("user-id-other", in, len, EKEYREJECTED);
	o.user_id = "T <t@pgpk>";
	o.cert_s = env->s;
	o.cert_s_len = 256;
	o.cert_s_at = true;
	o.cert_s_offset = s_at;
	BLOB_CASE("bound-certification", in, len, 0);
	o.cert_s_offset = s_at + 1;
	BLOB_CASE("certification-moved", in, len, EKEYREJECTED);
	o.cert_s_offset = 0xffffffff;
	BLOB_CASE("certification-past-end", in, len, EKEYREJECTED);
	o.cert_s_at = false;
	BLOB_CASE("certification-without-offset", in, len, EKEYREJECTED);
	o.cert_s_at = true;
	o.cert_s_offset = s_at;
	/* exactly max_answer octets, then one more */
	blob = pgpk_test_key_blob_opts(env->n, 256, 3, &o, &blob_len);
	free(blob);
	n = blob_len;
	env->policy.max_answer = n;
	BLOB_CASE("answer-of-max-answer-octets", in, len, 0);
	o.cert_area_len = 1; /* one more octet of hashed area */
	BLOB_CASE("answer-over-max-answer", in, len, EMSGSIZE);
	o.cert_area_len = 40000;
	env->policy.max_answer = PGPK_POLICY_MAX_ANSWER;
	BLOB_CASE("answer-over-32767-octets", in, len, EMSGSIZE);
	o.cert_area_len = 0;
	env->policy.max_answer = 8192;
	/* only the primary key: the kernel refuses a subkey answer */
	o.subkey = true;
	BLOB_CASE("subkey-answer", in, len, EKEYREJECTED);
	o.subkey = false;
	/* the kernel takes binary OpenPGP only: offsets name its octets */
	BLOB_CASE("armored-input", (const uint8_t *)armored,
		  sizeof(armored) - 1, EBADMSG);
	BLOB_CASE("empty-input", in, 0, EBADMSG);
#undef BLOB_CASE
}

/* What pgpk_broker_frames() handed over. */
struct pgpk_frames {
	int status[8];
	size_t len[8];
	int n;
};

static void pgpk_frames_each(void *ctx, int status, const uint8_t *payload,
			     size_t n)
{
	struct pgpk_frames *fr = ctx;

	if (fr->n < 8) {
		fr->status[fr->n] = status;
		fr->len[fr->n] = n;
	}
	fr->n++;
}

static int child_three_frames(const struct pgpk_child_ctx *ctx,
			      const uint8_t *in, size_t len, int out)
{
	const struct pgpk_fake *fake = ctx->arg;

	return pgpk_answer_write(out, 0, fake->blob, fake->len) ||
	       pgpk_answer_write(out, ENOKEY, "skipped: not RSA", 16) ||
	       pgpk_answer_write(out, EBADMSG, "bad", 3);
}

static int child_frame_then_garbage(const struct pgpk_child_ctx *ctx,
				    const uint8_t *in, size_t len, int out)
{
	const struct pgpk_fake *fake = ctx->arg;

	return pgpk_answer_write(out, 0, fake->blob, fake->len) ||
	       write(out, "PGKA\0\0\0", 7) != 7;
}

static void pgpk_frames_case(const char *name, struct pgpk_env *env,
			     pgpk_child_fn child, struct pgpk_fake *fake,
			     int want_error, int want_frames)
{
	struct pgpk_broker broker = {
		.policy = &env->policy,
		.child = child,
		.child_arg = fake,
		.sandbox = &env->sb,
	};
	struct pgpk_request req = { .want = PGPK_WANT_KEY };
	struct pgpk_frames fr = { .n = 0 };
	struct pgpk_broker_result res;
	int fds_before = pgpk_count_fds(), before = pgpk_failures, ret;

	ret = pgpk_broker_frames(&broker, &req, env->key_input,
				 env->key_input_len, pgpk_frames_each, &fr,
				 &res);
	CHECK(ret == want_error && res.error == want_error,
	      "%s: got %s, want %s (%s)", name, pgpk_errno_name(ret),
	      pgpk_errno_name(want_error), res.reason);
	CHECK(fr.n == want_frames, "%s: %d frames, want %d", name, fr.n,
	      want_frames);
	CHECK(pgpk_count_fds() == fds_before, "%s: fds %d -> %d", name,
	      fds_before, pgpk_count_fds());
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	      "%s: a child is left", name);
	printf("%s frames %s: %s, %d frames: %s\n",
	       pgpk_failures == before ? "ok  " : "FAIL", name,
	       pgpk_errno_name(ret), fr.n, res.reason);
}

static void pgpk_frames_cases(struct pgpk_env *env)
{
	struct pgpk_fake key = { env->key_blob, env->key_len, NULL, 0 };
	struct pgpk_frames fr = { .n = 0 };
	struct pgpk_broker broker = {
		.policy = &env->policy,
		.child = child_three_frames,
		.child_arg = &key,
		.sandbox = &env->sb,
	};
	struct pgpk_request req = { .want = PGPK_WANT_KEY };
	struct pgpk_broker_result res;

	pgpk_frames_case("three", env, child_three_frames, &key, 0, 3);
	pgpk_broker_frames(&broker, &req, env->key_input, env->key_input_len,
			   pgpk_frames_each, &fr, &res);
	CHECK(fr.n == 3 && fr.status[0] == 0 && fr.len[0] == key.len &&
		      fr.status[1] == ENOKEY && fr.len[1] == 16 &&
		      fr.status[2] == EBADMSG && fr.len[2] == 3,
	      "three frames: statuses %d %d %d", fr.status[0], fr.status[1],
	      fr.status[2]);
	pgpk_frames_case("one", env, child_answer, &key, 0, 1);
	/* a broken answer: no frame of it is used */
	pgpk_frames_case("then-garbage", env, child_frame_then_garbage, &key,
			 ECHILD, 0);
	pgpk_frames_case("silent", env, child_silent, NULL, ECHILD, 0);
	pgpk_frames_case("crash", env, child_crash, NULL, ECHILD, 0);
	pgpk_frames_case("hang", env, child_hang, NULL, ETIMEDOUT, 0);
	pgpk_frames_case("bad-status", env, child_verdict_eio, NULL, ECHILD, 0);
}

int main(void)
{
	struct pgpk_env env = { 0 };

	pgpk_env_init(&env);
	pgpk_fault_cases(&env);
	pgpk_good_and_policy_cases(&env);
	pgpk_binding_cases(&env);
	pgpk_circumstance_cases(&env);
	pgpk_frames_cases(&env);
	pgpk_env_free(&env);
	printf("%s: %d failure(s)\n", pgpk_failures ? "FAIL" : "PASS",
	       pgpk_failures);
	return pgpk_failures ? 1 : 0;
}
