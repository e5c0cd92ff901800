// SPDX-License-Identifier: GPL-2.0
/*
 * The broker: runs the sandboxed parser, treats its answer as hostile, and
 * turns it into exactly one instantiate or reject.  See pgpk_broker.h for
 * the process diagram, the answer frame and the errno table.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "helper/pgpk_broker.h"
#include "helper/pgpk_digest.h"
#include "kernel/pgpk_rebuild.h"

/* Exit statuses of the child wrapper (the work returns its own). */
#define PGPK_CHILD_EXIT_SANDBOX 64 /* + the failed pgpk_sandbox_step */
#define PGPK_CHILD_EXIT_INPUT 80 /* reading the input pipe failed */
#define PGPK_CHILD_EXIT_NOMEM 81

static const struct {
	int error;
	const char *name;
} pgpk_errnos[] = {
	{ 0, "OK" },
	{ EBADMSG, "EBADMSG" },
	{ ENOPKG, "ENOPKG" },
	{ ENOKEY, "ENOKEY" },
	{ EKEYREJECTED, "EKEYREJECTED" },
	{ EKEYEXPIRED, "EKEYEXPIRED" },
	{ ETIMEDOUT, "ETIMEDOUT" },
	{ ECHILD, "ECHILD" },
	{ ENOMEM, "ENOMEM" },
	{ EMSGSIZE, "EMSGSIZE" },
	{ EDQUOT, "EDQUOT" },
	{ EAGAIN, "EAGAIN" },
	{ EINVAL, "EINVAL" },
	{ EIO, "EIO" },
	{ EPERM, "EPERM" },
	{ EMFILE, "EMFILE" },
	{ ENFILE, "ENFILE" },
};

const char *pgpk_errno_name(int error)
{
	size_t i;

	for (i = 0; i < sizeof(pgpk_errnos) / sizeof(pgpk_errnos[0]); i++)
		if (pgpk_errnos[i].error == error)
			return pgpk_errnos[i].name;
	return "E?";
}

bool pgpk_errno_is_verdict(int error)
{
	switch (error) {
	case EBADMSG:
	case ENOPKG:
	case EKEYREJECTED:
	case EKEYEXPIRED:
	case EMSGSIZE:
		return true;
	}
	return false;
}

/*
 * An errno keyctl_reject() takes (1..MAX_ERRNO-1, none of the kernel's
 * restart codes 512..516): else EIO, so that the key still gets a verdict.
 */
static int pgpk_reject_errno(int error)
{
	if (error <= 0 || error >= 4095 || (error >= 512 && error <= 516))
		return EIO;
	return error;
}

/* The verdicts a parser may give about its input (pgpk_convert.h). */
static bool pgpk_parser_errno_ok(unsigned int status)
{
	return status == EBADMSG || status == ENOPKG || status == ENOKEY ||
	       status == EKEYREJECTED || status == EKEYEXPIRED ||
	       status == ENOMEM;
}

static int pgpk_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int pgpk_request_parse(const char *desc, struct pgpk_request *req, char *why,
		       size_t why_len)
{
	const char *p;
	size_t i, sel_len;

	memset(req, 0, sizeof(*req));
	if (strncmp(desc, "key:", 4) == 0) {
		req->want = PGPK_WANT_KEY;
	} else if (strncmp(desc, "sig:", 4) == 0) {
		req->want = PGPK_WANT_SIG;
	} else {
		snprintf(why, why_len,
			 "description does not start with key: or sig:");
		return -EBADMSG;
	}
	/* 64 lowercase hex digits: the SHA-256 of the callout data. */
	for (p = desc + 4, i = 0; i < 32; i++) {
		int hi = pgpk_hexval(p[2 * i]), lo;

		lo = hi < 0 ? -1 : pgpk_hexval(p[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			snprintf(why, why_len,
				 "description: bad SHA-256 hex "
				 "at character %zu",
				 4 + 2 * i);
			return -EBADMSG;
		}
		req->sha256[i] = (uint8_t)(hi << 4 | lo);
	}
	p += 64;
	if (!*p)
		return 0;
	if (*p != ':' || req->want != PGPK_WANT_KEY) {
		snprintf(why, why_len,
			 "description: junk after the SHA-256 at character %zu",
			 (size_t)(p - desc));
		return -EBADMSG;
	}
	/* Key ID (16) or fingerprint (40 v4, 64 v6), uppercase hex. */
	sel_len = strlen(++p);
	if (sel_len != 16 && sel_len != 40 && sel_len != 64) {
		snprintf(why, why_len,
			 "description: selector of %zu "
			 "characters, want 16, 40 or 64",
			 sel_len);
		return -EBADMSG;
	}
	for (i = 0; i < sel_len; i++) {
		if (!((p[i] >= '0' && p[i] <= '9') ||
		      (p[i] >= 'A' && p[i] <= 'F'))) {
			snprintf(why, why_len,
				 "description: selector is not "
				 "uppercase hex at character %zu",
				 (size_t)(p - desc) + i);
			return -EBADMSG;
		}
	}
	memcpy(req->select, p, sel_len + 1);
	return 0;
}

static int pgpk_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void pgpk_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t pgpk_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

int pgpk_answer_write(int fd, int status, const void *payload, size_t len)
{
	uint8_t hdr[PGPK_ANSWER_HDR];

	if (len > UINT32_MAX)
		return -EMSGSIZE;
	memcpy(hdr, PGPK_ANSWER_MAGIC, 4);
	pgpk_put_be32(hdr + 4, (uint32_t)status);
	pgpk_put_be32(hdr + 8, (uint32_t)len);
	if (pgpk_write_all(fd, hdr, sizeof(hdr)))
		return -EIO;
	return len ? pgpk_write_all(fd, payload, len) : 0;
}

/*
 * The child: sandbox first, then read the whole input from the pipe, then
 * the work.  Never returns; never runs atexit handlers or stdio flushes
 * inherited from the broker.
 */
static void __attribute__((noreturn))
pgpk_child_main(const struct pgpk_broker *broker, const struct pgpk_sandbox *sb,
		const struct pgpk_request *req, int64_t now, int in_fd,
		int out_fd)
{
	struct pgpk_child_ctx ctx = {
		.req = req,
		.policy = broker->policy,
		.now = now,
		.arg = broker->child_arg,
	};
	size_t cap = broker->policy->max_input + 1, len = 0;
	enum pgpk_sandbox_step step;
	uint8_t *in;
	ssize_t n;

	step = pgpk_sandbox_enter(sb, in_fd, out_fd);
	if (step != PGPK_SANDBOX_OK)
		_exit(PGPK_CHILD_EXIT_SANDBOX + step);
	in = malloc(cap);
	if (!in)
		_exit(PGPK_CHILD_EXIT_NOMEM);
	for (;;) {
		n = read(PGPK_SANDBOX_IN_FD, in + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			_exit(PGPK_CHILD_EXIT_INPUT);
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == cap) /* more than the broker may send */
			_exit(PGPK_CHILD_EXIT_INPUT);
	}
	_exit(broker->child(&ctx, in, len, PGPK_SANDBOX_OUT_FD));
}

/* Everything one exchange with a child owns, so cleanup is one place. */
struct pgpk_exchange {
	pid_t pid;
	int to_child; /* write end of the input pipe */
	int from_child; /* read end of the output pipe */
	int pidfd; /* readable when the child has exited */
	bool reaped;
	int status; /* wait status once reaped */
	uint8_t *answer;
	size_t answer_len;
	size_t answer_cap;
	bool too_large;
	bool timed_out;
};

static uint64_t pgpk_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void pgpk_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Kill (if still running) and reap: the child is always collected. */
static void pgpk_exchange_end(struct pgpk_exchange *x)
{
	pgpk_close(&x->to_child);
	pgpk_close(&x->from_child);
	if (x->pid > 0 && !x->reaped) {
		kill(x->pid, SIGKILL);
		while (waitpid(x->pid, &x->status, 0) < 0 && errno == EINTR)
			;
		x->reaped = true;
	}
	pgpk_close(&x->pidfd);
}

/*
 * Pipes and fork.  Their failures (EMFILE, ENFILE, EAGAIN, ENOMEM) are the
 * machine's state at this moment: returned as they are, never cached.
 */
static int pgpk_spawn(const struct pgpk_broker *broker,
		      const struct pgpk_sandbox *sb,
		      const struct pgpk_request *req, int64_t now,
		      struct pgpk_exchange *x, char *why, size_t why_len)
{
	int in_pipe[2], out_pipe[2], err;

	if (pipe2(in_pipe, O_CLOEXEC)) {
		err = errno;
		snprintf(why, why_len, "pipe: %s", strerror(err));
		return -err;
	}
	if (pipe2(out_pipe, O_CLOEXEC)) {
		err = errno;
		snprintf(why, why_len, "pipe: %s", strerror(err));
		goto error_close_in;
	}
	x->pid = fork();
	if (x->pid < 0) {
		err = errno;
		snprintf(why, why_len, "fork: %s", strerror(err));
		goto error_close_out;
	}
	if (x->pid == 0)
		pgpk_child_main(broker, sb, req, now, in_pipe[0], out_pipe[1]);
	close(in_pipe[0]);
	close(out_pipe[1]);
	x->to_child = in_pipe[1];
	x->from_child = out_pipe[0];
	/* Never block on a child that stops reading; SIGPIPE is ignored. */
	fcntl(x->to_child, F_SETFL, O_NONBLOCK);
	x->pidfd = (int)syscall(SYS_pidfd_open, x->pid, 0);
	return 0;

error_close_out:
	close(out_pipe[0]);
	close(out_pipe[1]);
error_close_in:
	close(in_pipe[0]);
	close(in_pipe[1]);
	return -err;
}

/* Read what is there; false once the answer exceeds its bound. */
static bool pgpk_exchange_read(struct pgpk_exchange *x)
{
	uint8_t buf[65536];
	ssize_t n;

	n = read(x->from_child, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0) {
		pgpk_close(&x->from_child); /* EOF (or error: same) */
		return true;
	}
	if ((size_t)n > x->answer_cap - x->answer_len) {
		x->too_large = true;
		return false;
	}
	memcpy(x->answer + x->answer_len, buf, (size_t)n);
	x->answer_len += (size_t)n;
	return true;
}

static void pgpk_exchange_reap_nohang(struct pgpk_exchange *x)
{
	if (!x->reaped && waitpid(x->pid, &x->status, WNOHANG) == x->pid)
		x->reaped = true;
}

/*
 * Feed the input, collect the answer, and wait for the child's exit, all
 * before the deadline.  Returns with the child reaped (killed if late or
 * over the size bound).
 */
static void pgpk_exchange_run(struct pgpk_exchange *x, const uint8_t *data,
			      size_t len, uint64_t deadline)
{
	size_t sent = 0;

	for (;;) {
		struct pollfd fds[3];
		nfds_t nfds = 0;
		int idx_in = -1, idx_out = -1;
		uint64_t now = pgpk_now_us();
		int wait_ms;

		if (x->to_child >= 0 && sent == len)
			pgpk_close(&x->to_child); /* EOF for the child */
		if (x->from_child < 0) {
			pgpk_exchange_reap_nohang(x);
			if (x->reaped)
				break;
		}
		if (now >= deadline) {
			x->timed_out = true;
			break;
		}
		wait_ms = (int)((deadline - now + 999) / 1000);
		if (x->to_child >= 0) {
			idx_in = (int)nfds;
			fds[nfds++] =
				(struct pollfd){ x->to_child, POLLOUT, 0 };
		}
		if (x->from_child >= 0) {
			idx_out = (int)nfds;
			fds[nfds++] =
				(struct pollfd){ x->from_child, POLLIN, 0 };
		} else if (x->pidfd >= 0) {
			fds[nfds++] = (struct pollfd){ x->pidfd, POLLIN, 0 };
		} else if (wait_ms > 1) {
			wait_ms = 1; /* no pidfd (old kernel): poll waitpid */
		}
		if (poll(fds, nfds, wait_ms) < 0 && errno != EINTR)
			break;
		if (idx_in >= 0 && fds[idx_in].revents) {
			ssize_t n = write(x->to_child, data + sent, len - sent);

			if (n > 0)
				sent += (size_t)n;
			else if (n < 0 && errno != EAGAIN && errno != EINTR)
				pgpk_close(&x->to_child); /* child gone */
		}
		if (idx_out >= 0 && fds[idx_out].revents &&
		    !pgpk_exchange_read(x))
			break;
	}
	pgpk_exchange_end(x);
}

/* Add to a reason line, bounded. */
static void __attribute__((format(printf, 3, 4)))
pgpk_append(char *dst, size_t dst_len, const char *fmt, ...)
{
	size_t used = strnlen(dst, dst_len);
	va_list ap;

	if (used + 1 >= dst_len)
		return;
	va_start(ap, fmt);
	vsnprintf(dst + used, dst_len - used, fmt, ap);
	va_end(ap);
}

/* Parser text goes to logs: printable ASCII only, bounded. */
static void pgpk_copy_text(char *dst, size_t dst_len, const uint8_t *src,
			   size_t len)
{
	size_t i;

	if (!dst_len)
		return;
	if (len > dst_len - 1)
		len = dst_len - 1;
	for (i = 0; i < len; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	dst[len] = '\0';
}

/*
 * Judge how the child ended and what it framed.  On success points *blob
 * at the canonical answer; otherwise returns the errno and says why.
 */
static int pgpk_exchange_verdict(const struct pgpk_exchange *x,
				 size_t max_answer, const uint8_t **blob,
				 size_t *blob_len, char *why, size_t why_len)
{
	uint32_t status, plen;
	static const char prefix[] = "parser: ";

	if (x->timed_out) {
		snprintf(why, why_len, "parser killed by the watchdog");
		return ETIMEDOUT;
	}
	if (x->too_large) {
		snprintf(why, why_len, "parser answer exceeds %zu octets",
			 max_answer + PGPK_ANSWER_HDR);
		return ECHILD;
	}
	if (WIFSIGNALED(x->status)) {
		snprintf(why, why_len, "parser died of signal %d (%s)",
			 WTERMSIG(x->status), strsignal(WTERMSIG(x->status)));
		return ECHILD;
	}
	if (WIFEXITED(x->status) && WEXITSTATUS(x->status) != 0) {
		int code = WEXITSTATUS(x->status);

		if (code > PGPK_CHILD_EXIT_SANDBOX &&
		    code < PGPK_CHILD_EXIT_SANDBOX + PGPK_SANDBOX_NR_STEPS)
			snprintf(why, why_len, "sandbox failed: %s",
				 pgpk_sandbox_step_str(
					 code - PGPK_CHILD_EXIT_SANDBOX));
		else
			snprintf(why, why_len, "parser exited with status %d",
				 code);
		return ECHILD;
	}
	if (x->answer_len < PGPK_ANSWER_HDR) {
		snprintf(why, why_len,
			 "parser exited without an answer "
			 "(%zu octets)",
			 x->answer_len);
		return ECHILD;
	}
	if (memcmp(x->answer, PGPK_ANSWER_MAGIC, 4)) {
		snprintf(why, why_len, "parser answer has no frame magic");
		return ECHILD;
	}
	status = pgpk_get_be32(x->answer + 4);
	plen = pgpk_get_be32(x->answer + 8);
	if (plen != x->answer_len - PGPK_ANSWER_HDR) {
		snprintf(why, why_len,
			 "parser answer frame says %u octets, "
			 "%zu sent",
			 plen, x->answer_len - PGPK_ANSWER_HDR);
		return ECHILD;
	}
	if (status == 0) {
		*blob = x->answer + PGPK_ANSWER_HDR;
		*blob_len = plen;
		return 0;
	}
	if (!pgpk_parser_errno_ok(status) || plen > PGPK_ANSWER_MAX_MSG) {
		snprintf(why, why_len,
			 "parser answer has bad status %u or a "
			 "message of %u octets",
			 status, plen);
		return ECHILD;
	}
	/* The parser's own words, made safe for a log line. */
	if (why_len > sizeof(prefix)) {
		memcpy(why, prefix, sizeof(prefix) - 1);
		pgpk_copy_text(why + sizeof(prefix) - 1,
			       why_len - (sizeof(prefix) - 1),
			       x->answer + PGPK_ANSWER_HDR, plen);
	}
	/*
	 * ENOMEM stays ENOMEM: memory may have been short for this request
	 * only (pgpk_errno_is_verdict() says no), so it is not cached.
	 */
	return (int)status;
}

static bool pgpk_contains(const uint8_t *hay, size_t hay_len,
			  const struct pgpk_bytes *needle)
{
	return needle->len && memmem(hay, hay_len, needle->data, needle->len);
}

static bool pgpk_is_at(const uint8_t *data, size_t len, u32 offset,
		       const uint8_t *want, size_t want_len)
{
	return offset <= len && want_len <= len - offset &&
	       !memcmp(data + offset, want, want_len);
}

/*
 * RFC 9580 5.5.2: the key packet body rebuilt from the answer (by the
 * kernel's own kernel/pgpk_rebuild.c) must be the octets at the offset the
 * parser named; without an offset, the modulus must at least occur.
 */
static bool pgpk_key_bound(const struct pgpk_key_material *m, bool has_offset,
			   u32 offset, const uint8_t *data, size_t len)
{
	size_t body_len;
	uint8_t *body;
	bool ok;

	if (!has_offset)
		return pgpk_contains(data, len, &m->rsa_n);
	body_len = pgpk_rebuild_key_len(m);
	body = malloc(body_len);
	if (!body)
		return false;
	ok = pgpk_rebuild_key(m, body) == body_len &&
	     pgpk_is_at(data, len, offset, body, body_len);
	free(body);
	return ok;
}

/* Every signature's RSA value (RFC 9580 5.2.3.1) occurs in the input. */
static bool pgpk_sigs_bound(const struct pgpk_canon *canon, const uint8_t *data,
			    size_t len)
{
	struct pgpk_sig sig;
	u32 pos = 0;
	int ret;

	if (!pgpk_contains(data, len, &canon->sig.rsa_s))
		return false;
	while (!(ret = pgpk_canon_next(&canon->more_signatures, &pos, &sig)))
		if (!pgpk_contains(data, len, &sig.rsa_s))
			return false;
	return ret == -ENOENT;
}

static bool pgpk_answer_bound(const struct pgpk_canon *canon,
			      enum pgpk_want want, const uint8_t *data,
			      size_t len)
{
	const struct pgpk_key *key = &canon->key;

	/*
	 * A detached signature's packet is in the input verbatim.  A signed
	 * message's may sit inside a compressed packet (RFC 9580 5.6): there
	 * the kernel's own digest over the content is the only check.
	 */
	if (want == PGPK_WANT_SIG)
		return PGPK_HAS(canon, PGPK_CANON_CONTENT) ||
		       pgpk_sigs_bound(canon, data, len);
	if (!pgpk_key_bound(&key->material,
			    PGPK_HAS(key, PGPK_KEY_PACKET_OFFSET),
			    key->packet_offset, data, len))
		return false;
	if (PGPK_HAS(key, PGPK_KEY_PRIMARY) &&
	    !pgpk_key_bound(&key->primary,
			    PGPK_HAS(key, PGPK_KEY_PRIMARY_OFFSET),
			    key->primary_offset, data, len))
		return false;
	if (!PGPK_HAS(key, PGPK_KEY_USER_ID))
		return true;
	if (PGPK_HAS(key, PGPK_KEY_USER_ID_OFFSET))
		return pgpk_is_at(data, len, key->user_id_offset,
				  key->user_id.data, key->user_id.len);
	return pgpk_contains(data, len, &key->user_id);
}

/*
 * The answer must be what was asked for and come from the bytes that were
 * submitted.  For binary input the broker does what the kernel will do:
 * the key packet (and primary key packet) rebuilt from the answer must sit
 * at the offsets the answer names, the user ID too; a detached signature's
 * RSA value must occur in the input.  Armored input is left to the kernel,
 * which dearmors before it compares: the broker does not dearmor.
 */
static int pgpk_check_answer(const struct pgpk_canon *canon,
			     const struct pgpk_request *req,
			     const uint8_t *data, size_t len, char *why,
			     size_t why_len)
{
	bool binary = len && (data[0] & 0x80); /* RFC 9580 4.2 tag octet */

	if (req->want == PGPK_WANT_KEY && !PGPK_HAS(canon, PGPK_CANON_KEY)) {
		snprintf(why, why_len,
			 "parser answered a signature, a key "
			 "was asked");
		return EKEYREJECTED;
	}
	if (req->want == PGPK_WANT_SIG &&
	    !PGPK_HAS(canon, PGPK_CANON_SIGNATURE)) {
		snprintf(why, why_len,
			 "parser answered a key, a signature "
			 "was asked");
		return EKEYREJECTED;
	}
	if (binary && !pgpk_answer_bound(canon, req->want, data, len)) {
		snprintf(why, why_len,
			 "parser answered a %s that is not in "
			 "the submitted bytes",
			 req->want == PGPK_WANT_KEY ? "key" : "signature");
		return EKEYREJECTED;
	}
	return 0;
}

static void pgpk_describe_ok(const struct pgpk_canon *canon,
			     enum pgpk_want want, size_t blob_len, char *why,
			     size_t why_len)
{
	const struct pgpk_key_material *m = &canon->key.material;
	const char *hash;

	if (want == PGPK_WANT_KEY) {
		snprintf(why, why_len, "v%u %u-bit RSA %s, %zu octets",
			 m->version, pgpk_be_bits(&m->rsa_n),
			 canon->key.subkey ? "subkey" : "key", blob_len);
		return;
	}
	hash = pgpk_hash_name(canon->sig.hash_algorithm);
	snprintf(why, why_len,
		 "v%u signature type 0x%02x %s%s (%u more), %zu octets",
		 canon->sig.version, canon->sig.type, hash ? hash : "?",
		 PGPK_HAS(canon, PGPK_CANON_CONTENT) ? " with content" : "",
		 canon->more_signatures.count, blob_len);
}

static bool pgpk_sha256_matches(const uint8_t *data, size_t len,
				const uint8_t want[32])
{
	uint8_t md[PGPK_DIGEST_MAX];
	size_t md_len = 0;

	return !pgpk_digest(PGPK_HASH_SHA256, data, len, md, &md_len) &&
	       md_len == 32 && memcmp(md, want, 32) == 0;
}

/* Convert, re-validate, apply policy: the errno, or 0 with *blob set. */
static int pgpk_broker_judge(const struct pgpk_broker *broker,
			     const struct pgpk_sandbox *sb,
			     const struct pgpk_request *req,
			     const uint8_t *data, size_t len, int64_t now,
			     struct pgpk_exchange *x, const uint8_t **blob,
			     size_t *blob_len, struct pgpk_broker_result *res)
{
	const struct pgpk_policy *policy = broker->policy;
	struct pgpk_canon_error cerr;
	struct pgpk_canon canon;
	char *why = res->reason;
	size_t why_len = sizeof(res->reason);
	uint64_t start;
	int ret;

	start = pgpk_now_us();
	x->answer_cap = policy->max_answer + PGPK_ANSWER_HDR;
	x->answer = malloc(x->answer_cap);
	if (!x->answer) {
		snprintf(why, why_len, "out of memory for the answer");
		return ENOMEM;
	}
	ret = pgpk_spawn(broker, sb, req, now, x, why, why_len);
	if (ret)
		return -ret;
	pgpk_exchange_run(x, data, len,
			  start + (uint64_t)policy->timeout_ms * 1000);
	ret = pgpk_exchange_verdict(x, policy->max_answer, blob, blob_len, why,
				    why_len);
	if (ret)
		return ret;
	res->answer_len = *blob_len;
	/* The kernel's own decoder: if it would refuse, refuse now. */
	if (pgpk_canon_decode(*blob, *blob_len, &canon, &cerr)) {
		snprintf(why, why_len,
			 "parser answer is not canonical: %s at "
			 "octet %u (field %u)",
			 pgpk_canon_reason_str(cerr.reason), cerr.offset,
			 cerr.field);
		return EBADMSG;
	}
	ret = pgpk_check_answer(&canon, req, data, len, why, why_len);
	if (ret)
		return ret;
	ret = pgpk_policy_check(policy, &canon, req->want, now, why, why_len);
	if (ret)
		return -ret;
	pgpk_describe_ok(&canon, req->want, *blob_len, why, why_len);
	return 0;
}

/*
 * Hand the verdict to the ops: a verdict about the bytes is rejected for
 * --negative-timeout seconds (the kernel shares it with every requester
 * of these bytes), anything else for PGPK_POLICY_CIRCUMSTANCE_TIMEOUT
 * seconds, just long enough for this requester to be told his errno; the
 * kernel never serves it to the next one, who gets an upcall of his own.
 */
static void pgpk_broker_hand_over(const struct pgpk_broker *broker, int error,
				  bool about_bytes, const uint8_t *blob,
				  size_t blob_len,
				  struct pgpk_broker_result *res)
{
	const struct pgpk_policy *policy = broker->policy;

	if (!error) {
		res->ops_error = broker->ops->instantiate(broker->ops_ctx, blob,
							  blob_len);
		if (!res->ops_error)
			return;
		/*
		 * The kernel refused the answer (the requester's key quota,
		 * memory): that is this request's circumstance, not a
		 * verdict about the bytes.  Still exactly one verdict, with
		 * the kernel's own errno, or the requester would get the
		 * kernel's ENOKEY (cached 60 s) once the helper exits.
		 */
		error = pgpk_reject_errno(-res->ops_error);
		about_bytes = false;
		pgpk_append(res->reason, sizeof(res->reason),
			    "; the kernel refused the answer: %s",
			    strerror(-res->ops_error));
	}
	res->error = error;
	res->timeout = about_bytes && pgpk_errno_is_verdict(error) ?
			       policy->negative_timeout :
			       PGPK_POLICY_CIRCUMSTANCE_TIMEOUT;
	res->ops_error =
		broker->ops->reject(broker->ops_ctx, res->timeout, error);
}

int pgpk_broker_run(const struct pgpk_broker *broker,
		    const struct pgpk_request *req, const uint8_t *data,
		    size_t len, struct pgpk_broker_result *res)
{
	const struct pgpk_policy *policy = broker->policy;
	struct pgpk_exchange x = {
		.pid = -1,
		.to_child = -1,
		.from_child = -1,
		.pidfd = -1,
	};
	struct pgpk_sandbox own_sb = { 0 };
	const struct pgpk_sandbox *sb = broker->sandbox;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old_chld;
	const uint8_t *blob = NULL;
	size_t blob_len = 0;
	int64_t now = broker->now ? broker->now : (int64_t)time(NULL);
	uint64_t start = pgpk_now_us();
	bool about_bytes = true;
	int error;

	memset(res, 0, sizeof(*res));
	/* A dead child must not kill us; it must stay reapable (SIGCHLD
	 * ignored by whoever started us would auto-reap it). */
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigaction(SIGCHLD, &dfl, &old_chld);
	if (len > policy->max_input) {
		snprintf(res->reason, sizeof(res->reason),
			 "policy: input of %zu octets exceeds --max-input %zu",
			 len, policy->max_input);
		error = EKEYREJECTED;
		goto verdict;
	}
	if (!pgpk_sha256_matches(data, len, req->sha256)) {
		/* Not the bytes the description names: nothing to say
		 * about those, so nothing to cache under their name. */
		snprintf(res->reason, sizeof(res->reason),
			 "callout data does not match the SHA-256 in the "
			 "description");
		error = EBADMSG;
		about_bytes = false;
		goto verdict;
	}
	if (!sb) {
		struct pgpk_sandbox_conf conf = {
			.user = policy->sandbox_user,
			.cpu_seconds = (policy->timeout_ms + 999) / 1000,
		};

		if (pgpk_sandbox_prepare(&own_sb, &conf, res->reason,
					 sizeof(res->reason))) {
			error = ECHILD;
			goto verdict;
		}
		sb = &own_sb;
	}
	error = pgpk_broker_judge(broker, sb, req, data, len, now, &x, &blob,
				  &blob_len, res);

verdict:
	res->elapsed_us = pgpk_now_us() - start;
	pgpk_broker_hand_over(broker, error, about_bytes, blob, blob_len, res);
	pgpk_exchange_end(&x);
	free(x.answer);
	pgpk_sandbox_release(&own_sb);
	sigaction(SIGCHLD, &old_chld, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	return res->error;
}

static int pgpk_capture_instantiate(void *ctx, const uint8_t *blob, size_t len)
{
	struct pgpk_broker_capture *cap = ctx;

	free(cap->blob);
	cap->blob = malloc(len);
	if (!cap->blob)
		return -ENOMEM;
	memcpy(cap->blob, blob, len);
	cap->len = len;
	return 0;
}

static int pgpk_capture_reject(void *ctx, unsigned int timeout, int error)
{
	return 0;
}

const struct pgpk_broker_ops pgpk_broker_capture_ops = {
	.instantiate = pgpk_capture_instantiate,
	.reject = pgpk_capture_reject,
};
