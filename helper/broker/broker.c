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

#include "helper/broker/pgpk_broker.h"
#include "helper/broker/pgpk_canon_key.h"
#include "proto/pgpk_fields.h"

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
	{ EACCES, "EACCES" },
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
	size_t i;

	memset(req, 0, sizeof(*req));
	req->want = PGPK_WANT_KEY;
	if (strncmp(desc, "key:", 4) != 0) {
		snprintf(why, why_len, "description does not start with key:");
		return -EBADMSG;
	}
	/* kernel/pgpk_key.c pgpk_upcall(): "key:%*phN" of 16 random octets */
	for (i = 0; i < 32; i++) {
		if (pgpk_hexval(desc[4 + i]) < 0) {
			snprintf(
				why, why_len,
				"description: not 32 lowercase hex digits at character %zu",
				4 + i);
			return -EBADMSG;
		}
	}
	if (desc[36]) {
		snprintf(
			why, why_len,
			"description: junk after the 32 hex digits at character 36");
		return -EBADMSG;
	}
	return 0;
}

int pgpk_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
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
		.anchors = broker->anchors,
		.nanchors = broker->nanchors,
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
	struct pgpk_watchdog dog;
	enum pgpk_watchdog_state killed; /* by the watchdog, if not RUNNING */
};

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
 * within @budget_ms of its CPU time and @wall_ms of wall-clock time
 * (pgpk_watchdog_check()).  Returns
 * with the child reaped (killed if over its budget or the size bound).
 */
static void pgpk_exchange_run(struct pgpk_exchange *x, const uint8_t *data,
			      size_t len, unsigned int budget_ms,
			      unsigned int wall_ms)
{
	size_t sent = 0;

	pgpk_watchdog_start(&x->dog, x->pid, budget_ms, wall_ms);
	for (;;) {
		struct pollfd fds[3];
		nfds_t nfds = 0;
		int idx_in = -1, idx_out = -1;
		int wait_ms;

		if (x->to_child >= 0 && sent == len)
			pgpk_close(&x->to_child); /* EOF for the child */
		if (x->from_child < 0) {
			pgpk_exchange_reap_nohang(x);
			if (x->reaped)
				break;
		}
		x->killed = pgpk_watchdog_check(&x->dog, &wait_ms);
		if (x->killed != PGPK_WATCHDOG_RUNNING)
			break;
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

void pgpk_copy_text(char *dst, size_t dst_len, const uint8_t *src, size_t len)
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

/* How the child ended: 0 if it exited 0 in time with a bounded answer. */
static int pgpk_exchange_ended(const struct pgpk_exchange *x, char *why,
			       size_t why_len)
{
	int code;

	if (x->killed == PGPK_WATCHDOG_CPU) {
		snprintf(
			why, why_len,
			"parser killed by the watchdog: %llu ms of CPU time (--timeout-ms)",
			(unsigned long long)x->dog.cpu_us / 1000);
		return ETIMEDOUT;
	}
	if (x->killed == PGPK_WATCHDOG_STALLED) {
		snprintf(
			why, why_len,
			"parser killed by the watchdog: no end in %llu ms, %llu ms of CPU time",
			(unsigned long long)x->dog.wall_us / 1000,
			(unsigned long long)x->dog.cpu_us / 1000);
		return ETIMEDOUT;
	}
	if (x->too_large) {
		snprintf(why, why_len, "parser answer exceeds %zu octets",
			 x->answer_cap);
		return ECHILD;
	}
	if (WIFSIGNALED(x->status)) {
		snprintf(why, why_len, "parser died of signal %d (%s)",
			 WTERMSIG(x->status), strsignal(WTERMSIG(x->status)));
		return ECHILD;
	}
	code = WIFEXITED(x->status) ? WEXITSTATUS(x->status) : 0;
	if (code > PGPK_CHILD_EXIT_SANDBOX &&
	    code < PGPK_CHILD_EXIT_SANDBOX + PGPK_SANDBOX_NR_STEPS) {
		snprintf(why, why_len, "sandbox failed: %s",
			 pgpk_sandbox_step_str(code - PGPK_CHILD_EXIT_SANDBOX));
		return ECHILD;
	}
	if (code) {
		snprintf(why, why_len, "parser exited with status %d", code);
		return ECHILD;
	}
	return 0;
}

/*
 * The answer frame at *pos: its status and payload, *pos moved past it;
 * or ECHILD for a broken frame (the parser is not to be believed).
 */
static int pgpk_frame_next(const struct pgpk_exchange *x, size_t *pos,
			   uint32_t *status, const uint8_t **payload,
			   uint32_t *plen, char *why, size_t why_len)
{
	const uint8_t *p = x->answer + *pos;
	size_t left = x->answer_len - *pos;

	if (left < PGPK_ANSWER_HDR) {
		snprintf(why, why_len,
			 "parser exited without an answer (%zu octets)", left);
		return ECHILD;
	}
	if (memcmp(p, PGPK_ANSWER_MAGIC, 4)) {
		snprintf(why, why_len, "parser answer has no frame magic");
		return ECHILD;
	}
	*status = pgpk_get_be32(p + 4);
	*plen = pgpk_get_be32(p + 8);
	if (*plen > left - PGPK_ANSWER_HDR) {
		snprintf(why, why_len,
			 "parser answer frame says %u octets, %zu sent", *plen,
			 left - PGPK_ANSWER_HDR);
		return ECHILD;
	}
	if (*status &&
	    (!pgpk_parser_errno_ok(*status) || *plen > PGPK_ANSWER_MAX_MSG)) {
		snprintf(
			why, why_len,
			"parser answer has bad status %u or a message of %u octets",
			*status, *plen);
		return ECHILD;
	}
	*payload = p + PGPK_ANSWER_HDR;
	*pos += PGPK_ANSWER_HDR + *plen;
	return 0;
}

/*
 * The one frame of a request's answer.  On success points *blob at the
 * canonical answer; otherwise returns the errno and says why (ENOMEM
 * from the parser stays ENOMEM).
 */
static int pgpk_exchange_verdict(const struct pgpk_exchange *x,
				 const uint8_t **blob, size_t *blob_len,
				 char *why, size_t why_len)
{
	static const char prefix[] = "parser: ";
	const uint8_t *payload;
	uint32_t status, plen;
	size_t pos = 0;
	int ret;

	ret = pgpk_exchange_ended(x, why, why_len) ?:
		      pgpk_frame_next(x, &pos, &status, &payload, &plen, why,
				      why_len);
	if (ret)
		return ret;
	if (pos != x->answer_len) {
		snprintf(why, why_len,
			 "parser answer has %zu octets after its frame",
			 x->answer_len - pos);
		return ECHILD;
	}
	if (status == 0) {
		*blob = payload;
		*blob_len = plen;
		return 0;
	}
	/* The parser's own words, made safe for a log line. */
	if (why_len > sizeof(prefix)) {
		memcpy(why, prefix, sizeof(prefix) - 1);
		pgpk_copy_text(why + sizeof(prefix) - 1,
			       why_len - (sizeof(prefix) - 1), payload, plen);
	}
	return (int)status;
}

/* RFC 9580 4.2: the first octet of every packet has bit 7 set. */
static bool pgpk_is_binary(const uint8_t *data, size_t len)
{
	return len && (data[0] & 0x80);
}

static int __attribute__((format(printf, 4, 5)))
pgpk_unbound(int ret, char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * RFC 9580 5.5.2: the key packet body rebuilt from @m (by the kernel's
 * own pgpk_rebuild_key()) is a whole top-level @tag packet at @offset.
 */
static int pgpk_material_bound(const struct pgpk_key_material *m, bool has,
			       u32 offset, u8 tag, const uint8_t *data,
			       size_t len)
{
	size_t body_len = pgpk_rebuild_key(m, NULL);
	uint8_t *body;
	bool ok;

	if (!has)
		return -EKEYREJECTED;
	body = malloc(body_len);
	if (!body)
		return -ENOMEM;
	pgpk_rebuild_key(m, body);
	ok = pgpk_packet_at(data, len, offset, tag, body, body_len);
	free(body);
	return ok ? 0 : -EKEYREJECTED;
}

int pgpk_key_bound(const struct pgpk_key *k, const uint8_t *data, size_t len,
		   char *why, size_t why_len)
{
	const struct pgpk_sig *cert = &k->certification;
	int ret;

	ret = pgpk_material_bound(
		&k->material, PGPK_HAS(k, PGPK_KEY_PACKET_OFFSET),
		k->packet_offset,
		k->subkey ? PGPK_TAG_PUBLIC_SUBKEY : PGPK_TAG_PUBLIC_KEY, data,
		len);
	if (ret)
		return pgpk_unbound(ret, why, why_len,
				    "%s packet not at the offset named (%u)",
				    k->subkey ? "subkey" : "key",
				    k->packet_offset);
	if (PGPK_HAS(k, PGPK_KEY_USER_ID) &&
	    (!PGPK_HAS(k, PGPK_KEY_USER_ID_OFFSET) ||
	     !pgpk_packet_at(data, len, k->user_id_offset, PGPK_TAG_USER_ID,
			     k->user_id.data, k->user_id.len)))
		return pgpk_unbound(
			-EKEYREJECTED, why, why_len,
			"user ID packet not at the offset named (%u)",
			k->user_id_offset);
	if (PGPK_HAS(k, PGPK_KEY_CERTIFICATION) &&
	    (!PGPK_HAS(cert, PGPK_SIG_RSA_S_OFFSET) ||
	     !pgpk_bytes_at(data, len, cert->rsa_s_offset, cert->rsa_s.data,
			    cert->rsa_s.len)))
		return pgpk_unbound(
			-EKEYREJECTED, why, why_len,
			"certification value not at the offset named (%u)",
			cert->rsa_s_offset);
	return 0;
}

/* Every signature's RSA value (RFC 9580 5.2.3.1) occurs in the input. */
static bool pgpk_sigs_bound(const struct pgpk_canon *canon, const uint8_t *data,
			    size_t len)
{
	u32 i;

	for (i = 0; i <= canon->nr_more; i++)
		if (!memmem(data, len, canon->sigs[i].rsa_s.data,
			    canon->sigs[i].rsa_s.len))
			return false;
	return true;
}

/*
 * The answer must be what was asked for and come from the bytes that were
 * submitted.  A key: the kernel's own binding checks (pgpk_key_bound()),
 * on binary input only (the kernel takes no ASCII armor), and for an
 * upcall (no selection) the certificate's primary key, which is all the
 * kernel takes.  A signature: a detached one's RSA values occur in
 * binary input; a signed message's may sit inside a compressed packet
 * (RFC 9580 5.6), where the digest over the content is the only check.
 */
static int pgpk_check_answer(const struct pgpk_canon *canon,
			     const struct pgpk_request *req,
			     const uint8_t *data, size_t len, char *why,
			     size_t why_len)
{
	const struct pgpk_key *key = &canon->key;
	char bound[256];
	int ret;

	if (req->want == PGPK_WANT_SIG) {
		if (!PGPK_HAS(canon, PGPK_CANON_SIGNATURE)) {
			snprintf(
				why, why_len,
				"parser answered a key, a signature was asked");
			return EKEYREJECTED;
		}
		if (pgpk_is_binary(data, len) &&
		    !PGPK_HAS(canon, PGPK_CANON_CONTENT) &&
		    !pgpk_sigs_bound(canon, data, len)) {
			snprintf(
				why, why_len,
				"parser answered a signature that is not in the submitted bytes");
			return EKEYREJECTED;
		}
		return 0;
	}
	if (!PGPK_HAS(canon, PGPK_CANON_KEY)) {
		snprintf(why, why_len,
			 "parser answered a signature, a key was asked");
		return EKEYREJECTED;
	}
	if (key->subkey && !req->select[0]) {
		snprintf(why, why_len,
			 "parser answered a subkey, the primary key was asked");
		return EKEYREJECTED;
	}
	ret = pgpk_key_bound(key, data, len, bound, sizeof(bound));
	if (ret) {
		snprintf(
			why, why_len,
			"parser answered a key that is not in the submitted bytes: %s",
			bound);
		return -ret;
	}
	return 0;
}

/* Who vouches for the key (Key.certification): itself or another key. */
static const char *pgpk_certifier_name(const struct pgpk_key *k, char *buf,
				       size_t size)
{
	const struct pgpk_sig *c = &k->certification;
	u8 fpr[PGPK_CANON_FPR_MAX], keyid[PGPK_CANON_KEYID_LEN];
	size_t fpr_len, i, n;

	if (!PGPK_HAS(k, PGPK_KEY_CERTIFICATION))
		return "no certification";
	if (c->type == 0x18 || c->type == 0x1f)
		return c->type == 0x18 ? "its binding" :
					 "its direct-key signature";
	fpr_len = pgpk_canon_key_ids(&k->material, fpr, keyid);
	if (PGPK_HAS(c, PGPK_SIG_ISSUER_FINGERPRINT) ?
		    c->issuer_fingerprint.len == fpr_len &&
			    !memcmp(c->issuer_fingerprint.data, fpr, fpr_len) :
		    !PGPK_HAS(c, PGPK_SIG_ISSUER_KEY_ID) ||
			    !memcmp(c->issuer_key_id.data, keyid,
				    sizeof(keyid)))
		return "its own certification";
	n = (size_t)snprintf(buf, size, "certified by ");
	if (PGPK_HAS(c, PGPK_SIG_ISSUER_FINGERPRINT))
		for (i = 0; i < c->issuer_fingerprint.len && n + 3 <= size; i++)
			n += (size_t)snprintf(buf + n, size - n, "%02X",
					      c->issuer_fingerprint.data[i]);
	else
		for (i = 0; i < c->issuer_key_id.len && n + 3 <= size; i++)
			n += (size_t)snprintf(buf + n, size - n, "%02X",
					      c->issuer_key_id.data[i]);
	return buf;
}

static void pgpk_describe_ok(const struct pgpk_canon *canon,
			     enum pgpk_want want, size_t blob_len, char *why,
			     size_t why_len)
{
	const struct pgpk_key_material *m = &canon->key.material;
	const struct pgpk_sig *sig = &canon->sigs[0];
	char certifier[96];
	const char *hash;

	if (want == PGPK_WANT_KEY) {
		snprintf(why, why_len, "v%u %u-bit RSA %s, %s, %zu octets",
			 m->version, pgpk_be_bits(&m->rsa_n),
			 canon->key.subkey ? "subkey" : "key",
			 pgpk_certifier_name(&canon->key, certifier,
					     sizeof(certifier)),
			 blob_len);
		return;
	}
	hash = pgpk_hash_name(sig->hash_algorithm);
	snprintf(why, why_len,
		 "v%u signature type 0x%02x %s%s (%u more), %zu octets",
		 sig->version, sig->type, hash ? hash : "?",
		 PGPK_HAS(canon, PGPK_CANON_CONTENT) ? " with content" : "",
		 canon->nr_more, blob_len);
}

/*
 * Checks before any child: the input's size and, for a key, its form.
 * Then the sandbox (@own, unless the broker has one) and the exchange.
 * The errno, or 0 with the child's output in @x.
 */
static int pgpk_broker_exchange(const struct pgpk_broker *broker,
				const struct pgpk_request *req,
				const uint8_t *data, size_t len, int64_t now,
				struct pgpk_sandbox *own,
				struct pgpk_exchange *x,
				struct pgpk_broker_result *res)
{
	const struct pgpk_policy *policy = broker->policy;
	const struct pgpk_sandbox *sb = broker->sandbox;
	char *why = res->reason;
	size_t why_len = sizeof(res->reason);
	int ret;

	if (len > policy->max_input) {
		snprintf(why, why_len,
			 "policy: input of %zu octets exceeds --max-input %zu",
			 len, policy->max_input);
		return EKEYREJECTED;
	}
	/* Offsets in an answer name octets of the input as submitted. */
	if (req->want == PGPK_WANT_KEY && !pgpk_is_binary(data, len)) {
		snprintf(
			why, why_len,
			"not binary OpenPGP (ASCII armor? the kernel takes none: gpg --dearmor, pgpk import)");
		return EBADMSG;
	}
	if (!sb) {
		struct pgpk_sandbox_conf conf = {
			.user = policy->sandbox_user,
			/* a backstop: the watchdog kills at timeout_ms */
			.cpu_seconds = policy->timeout_ms / 1000 + 1,
		};

		if (pgpk_sandbox_prepare(own, &conf, why, why_len))
			return ECHILD;
		sb = own;
	}
	/* Room for any frame the parser may write: the size bound of an
	 * answer is the policy's, checked once it is decoded (EMSGSIZE). */
	x->answer_cap = PGPK_MAX_BLOB + PGPK_ANSWER_HDR;
	x->answer = malloc(x->answer_cap);
	if (!x->answer) {
		snprintf(why, why_len, "out of memory for the answer");
		return ENOMEM;
	}
	ret = pgpk_spawn(broker, sb, req, now, x, why, why_len);
	if (ret)
		return -ret;
	pgpk_exchange_run(x, data, len, policy->timeout_ms, broker->wall_ms);
	return 0;
}

/* Convert, re-validate, apply policy: the errno, or 0 with *blob set. */
static int pgpk_broker_judge(const struct pgpk_broker *broker,
			     const struct pgpk_request *req,
			     const uint8_t *data, size_t len, int64_t now,
			     struct pgpk_sandbox *own, struct pgpk_exchange *x,
			     const uint8_t **blob, size_t *blob_len,
			     struct pgpk_broker_result *res)
{
	const struct pgpk_policy *policy = broker->policy;
	struct pgpk_canon_error cerr;
	struct pgpk_canon *canon;
	char *why = res->reason;
	size_t why_len = sizeof(res->reason);
	int ret;

	ret = pgpk_broker_exchange(broker, req, data, len, now, own, x, res) ?:
		      pgpk_exchange_verdict(x, blob, blob_len, why, why_len);
	if (ret)
		return ret;
	res->answer_len = *blob_len;
	canon = malloc(sizeof(*canon));
	if (!canon) {
		snprintf(why, why_len, "out of memory for the answer");
		return ENOMEM;
	}
	/* The kernel's own decoder: if it would refuse, refuse now. */
	if (pgpk_canon_decode(*blob, *blob_len, canon, &cerr)) {
		snprintf(why, why_len,
			 "parser answer is not canonical: %s at octet %u",
			 cerr.why, cerr.offset);
		ret = EBADMSG;
	} else if (*blob_len > policy->max_answer) {
		snprintf(
			why, why_len,
			"answer of %zu octets exceeds the %zu the kernel takes (user_preparse())",
			*blob_len, policy->max_answer);
		ret = EMSGSIZE;
	} else {
		ret = pgpk_check_answer(canon, req, data, len, why, why_len) ?:
			      -pgpk_policy_check(policy, canon, req->want, now,
						 why, why_len);
	}
	if (!ret)
		pgpk_describe_ok(canon, req->want, *blob_len, why, why_len);
	free(canon);
	return ret;
}

/*
 * Hand the verdict to the ops: the answer, or one rejection with its
 * errno for PGPK_REJECT_TIMEOUT seconds (the kernel serves it to nobody
 * but this requester).
 */
static void pgpk_broker_hand_over(const struct pgpk_broker *broker, int error,
				  const uint8_t *blob, size_t blob_len,
				  struct pgpk_broker_result *res)
{
	if (!error) {
		res->ops_error = broker->ops->instantiate(broker->ops_ctx, blob,
							  blob_len);
		if (!res->ops_error)
			return;
		/*
		 * The kernel refused the answer (memory, a key that timed
		 * out meanwhile): still exactly one verdict, with the
		 * kernel's own errno.
		 */
		error = pgpk_reject_errno(-res->ops_error);
		pgpk_append(res->reason, sizeof(res->reason),
			    "; the kernel refused the answer: %s",
			    strerror(-res->ops_error));
	}
	res->error = error;
	res->timeout = PGPK_REJECT_TIMEOUT;
	res->ops_error =
		broker->ops->reject(broker->ops_ctx, res->timeout, error);
}

/* What a run needs around its exchange: signals, the sandbox, cleanup. */
struct pgpk_run {
	struct pgpk_exchange x;
	struct pgpk_sandbox own_sb;
	struct sigaction old_pipe, old_chld;
	int64_t now;
	uint64_t start;
};

static void pgpk_run_begin(const struct pgpk_broker *broker,
			   struct pgpk_run *run, struct pgpk_broker_result *res)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	memset(res, 0, sizeof(*res));
	memset(run, 0, sizeof(*run));
	run->x = (struct pgpk_exchange){
		.pid = -1,
		.to_child = -1,
		.from_child = -1,
		.pidfd = -1,
	};
	run->now = broker->now ? broker->now : (int64_t)time(NULL);
	run->start = pgpk_monotonic_us();
	/* A dead child must not kill us; it must stay reapable (SIGCHLD
	 * ignored by whoever started us would auto-reap it). */
	sigaction(SIGPIPE, &ign, &run->old_pipe);
	sigaction(SIGCHLD, &dfl, &run->old_chld);
}

static void pgpk_run_end(struct pgpk_run *run)
{
	pgpk_exchange_end(&run->x);
	free(run->x.answer);
	pgpk_sandbox_release(&run->own_sb);
	sigaction(SIGCHLD, &run->old_chld, NULL);
	sigaction(SIGPIPE, &run->old_pipe, NULL);
}

int pgpk_broker_run(const struct pgpk_broker *broker,
		    const struct pgpk_request *req, const uint8_t *data,
		    size_t len, struct pgpk_broker_result *res)
{
	const uint8_t *blob = NULL;
	size_t blob_len = 0;
	struct pgpk_run run;
	int error;

	pgpk_run_begin(broker, &run, res);
	error = pgpk_broker_judge(broker, req, data, len, run.now, &run.own_sb,
				  &run.x, &blob, &blob_len, res);
	res->elapsed_us = pgpk_monotonic_us() - run.start;
	pgpk_broker_hand_over(broker, error, blob, blob_len, res);
	pgpk_run_end(&run);
	return res->error;
}

int pgpk_broker_frames(const struct pgpk_broker *broker,
		       const struct pgpk_request *req, const uint8_t *data,
		       size_t len,
		       void (*each)(void *ctx, int status,
				    const uint8_t *payload, size_t n),
		       void *ctx, struct pgpk_broker_result *res)
{
	const uint8_t *payload;
	uint32_t status, plen;
	struct pgpk_run run;
	size_t pos = 0;
	int error;

	pgpk_run_begin(broker, &run, res);
	error = pgpk_broker_exchange(broker, req, data, len, run.now, &run.own_sb, &run.x, res) ?:
			pgpk_exchange_ended(&run.x, res->reason,
					    sizeof(res->reason));
	/* At least one frame, every one well formed before any is used. */
	if (!error && !run.x.answer_len)
		error = pgpk_frame_next(&run.x, &pos, &status, &payload, &plen,
					res->reason, sizeof(res->reason));
	while (!error && pos < run.x.answer_len)
		error = pgpk_frame_next(&run.x, &pos, &status, &payload, &plen,
					res->reason, sizeof(res->reason));
	for (pos = 0; !error && pos < run.x.answer_len;) {
		pgpk_frame_next(&run.x, &pos, &status, &payload, &plen,
				res->reason, sizeof(res->reason));
		each(ctx, (int)status, payload, plen);
	}
	res->error = error;
	res->elapsed_us = pgpk_monotonic_us() - run.start;
	pgpk_run_end(&run);
	return error;
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
