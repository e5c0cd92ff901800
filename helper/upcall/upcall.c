// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper upcall: what /sbin/request-key runs for a "pgpk" key.
 *
 * /etc/request-key.d/pgpk.conf (policy/request-key.d/pgpk.conf):
 *
 *   #OP    TYPE  DESCRIPTION  CALLOUT-INFO  PROGRAM ARG1 ARG2 ...
 *   create pgpk  *            *             /usr/sbin/pgpk-helper upcall %k
 *
 * The kernel's pgpk key parser, given binary OpenPGP bytes by add_key(),
 * calls request_key("pgpk", "key:<32 hex digits>", those bytes): the
 * description is 128 random bits, the request its requester's own.  This
 * program assumes the authority to instantiate that key, reads the
 * OpenPGP bytes from the authorisation key and the trust anchors from
 * their directory (--anchors, /etc/pgpk/anchors/), has the sandboxed
 * parser convert the certificate's primary key (helper/broker/broker.c), and
 * either instantiates the key with the re-validated canonical blob or
 * rejects it with an errno for PGPK_REJECT_TIMEOUT seconds.  One log line
 * per request says which, naming the requester (the key's owner).  The
 * kernel waits at most its upcall_timeout (module parameter, 5 s by
 * default): --timeout-ms, the parser's budget of CPU time, must stay
 * below it; a stalled parser is killed at three quarters of it
 * (pgpk_upcall_check_timeout()).
 *
 * Before it reads the OpenPGP bytes, the request takes one of its
 * requester's --max-per-uid slots (4) for the rest of the process, at
 * that slot's nice value, or is refused at once with EDQUOT; a user's
 * log lines are rate-limited (helper/broker/pgpk_quota.h).
 *
 * Only this file talks to the kernel's key management (libkeyutils).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <sys/resource.h>

#include <keyutils.h>

#include "helper/broker/pgpk_anchors.h"
#include "helper/broker/pgpk_broker.h"
#include "helper/broker/pgpk_quota.h"
#include "helper/parser/pgpk_child.h"
#include "helper/upcall/pgpk_log.h"
#include "helper/upcall/pgpk_runtime.h"

struct pgpk_upcall {
	key_serial_t key;
	const char *key_type; /* "pgpk"; tests route "user" keys here */
	const char *anchors; /* NULL: PGPK_ANCHORS_DIR */
	struct pgpk_log log;
	struct pgpk_quota quota; /* the requester's slot and log lines */
	unsigned int wall_ms; /* the parser's wall-clock bound; 0: default */
};

static int pgpk_upcall_instantiate(void *ctx, const uint8_t *blob, size_t len)
{
	const struct pgpk_upcall *up = ctx;

	if (keyctl_instantiate(up->key, blob, len, 0) < 0)
		return -errno;
	return 0;
}

static int pgpk_upcall_reject(void *ctx, unsigned int timeout, int error)
{
	const struct pgpk_upcall *up = ctx;

	if (keyctl_reject(up->key, timeout, (unsigned int)error, 0) < 0)
		return -errno;
	return 0;
}

static const struct pgpk_broker_ops pgpk_upcall_ops = {
	.instantiate = pgpk_upcall_instantiate,
	.reject = pgpk_upcall_reject,
};

static void pgpk_upcall_usage(FILE *out)
{
	fprintf(out,
		"usage: pgpk-helper upcall [options] <key-serial>\n"
		"  %-24s %s\n  %-24s %s\n  %-24s %s\n",
		"--syslog|--kmsg|--stderr",
		"where the log line goes [stderr on a tty, else syslog]",
		"--key-type=TYPE", "serve TYPE keys, not pgpk (host tests)",
		"--anchors=DIR", "trust anchors [" PGPK_ANCHORS_DIR "]");
	pgpk_policy_usage(out);
}

/*
 * "type;uid;gid;perm;description" -> description, after a type check,
 * and the uid (decimal: keyctl_describe(3)).
 */
static const char *pgpk_upcall_description(const char *raw, const char *type,
					   uid_t *uid)
{
	size_t type_len = strlen(type);
	unsigned long v;
	const char *p;
	char *end;
	int i;

	if (strncmp(raw, type, type_len) != 0 || raw[type_len] != ';')
		return NULL;
	p = raw + type_len + 1;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (*p < '0' || *p > '9' || *end != ';' || errno ||
	    v >= PGPK_QUOTA_UNKNOWN)
		return NULL;
	*uid = (uid_t)v;
	for (p = end, i = 0; i < 3; i++) {
		p = strchr(p, ';');
		if (!p)
			return NULL;
		p++;
	}
	return p;
}

/* Parse the command line; returns 0, or the exit status for a bad one. */
static int pgpk_upcall_args(int argc, char **argv, struct pgpk_policy *policy,
			    enum pgpk_log_mode *mode, struct pgpk_upcall *up)
{
	const char *serial = NULL;
	char *end;
	long v;
	int i, r;

	for (i = 1; i < argc;) {
		r = pgpk_policy_option(policy, argc, argv, &i, stderr);
		if (!r)
			r = pgpk_anchors_option(argc, argv, &i, &up->anchors);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "--stderr") == 0)
			*mode = PGPK_LOG_STDERR;
		else if (strcmp(argv[i], "--syslog") == 0)
			*mode = PGPK_LOG_SYSLOG;
		else if (strcmp(argv[i], "--kmsg") == 0)
			*mode = PGPK_LOG_KMSG;
		else if (strncmp(argv[i], "--key-type=", 11) == 0 &&
			 argv[i][11])
			up->key_type = argv[i] + 11;
		else if (argv[i][0] != '-' && !serial)
			serial = argv[i];
		else
			goto usage;
		i++;
	}
	if (!serial)
		goto usage;
	errno = 0;
	v = strtol(serial, &end, 10);
	if (!serial[0] || *end || errno || v <= 0 || v > 0x7fffffff) {
		fprintf(stderr, "pgpk-helper upcall: bad key serial '%s'\n",
			serial);
		return 2;
	}
	up->key = (key_serial_t)v;
	return 0;

usage:
	pgpk_upcall_usage(stderr);
	return 2;
}

/*
 * A mis-edited pgpk.conf: say so in the log, and if the last argument is
 * the key (%k), refuse it now rather than leave the requester waiting
 * for the kernel's upcall_timeout.  Fail closed: no policy, no key.
 */
static void pgpk_upcall_bad_args(int argc, char **argv, enum pgpk_log_mode mode)
{
	struct pgpk_log log;
	key_serial_t key = 0;
	char *end;
	long v;

	pgpk_log_open(&log, mode);
	if (argc > 1) {
		errno = 0;
		v = strtol(argv[argc - 1], &end, 10);
		if (!*end && !errno && v > 0 && v <= 0x7fffffff)
			key = (key_serial_t)v;
	}
	if (key && keyctl_assume_authority(key) >= 0 &&
	    keyctl_reject(key, PGPK_REJECT_TIMEOUT, EKEYREJECTED, 0) == 0)
		pgpk_log_line(&log, LOG_ERR,
			      "key %d: rejected EKEYREJECTED for %u s: bad "
			      "helper command line (check pgpk.conf)",
			      key, PGPK_REJECT_TIMEOUT);
	else
		pgpk_log_line(&log, LOG_ERR,
			      "bad command line (check pgpk.conf): %s",
			      strerror(errno));
	pgpk_log_close(&log);
}

/* Refusals that say something about the submitted bytes: a warning. */
static int pgpk_upcall_level(int error)
{
	switch (error) {
	case EBADMSG:
	case ENOPKG:
	case EKEYREJECTED:
	case EKEYEXPIRED:
	case EMSGSIZE:
	case ENOKEY:
	case EDQUOT:
		return LOG_WARNING;
	}
	return LOG_ERR;
}

/*
 * A line about this request, naming its requester ("uid ?" before he is
 * known); at most PGPK_QUOTA_LOG_BURST in a window for each user
 * (helper/broker/pgpk_quota.h), then one saying how many were left out.
 */
static void __attribute__((format(printf, 3, 4)))
pgpk_upcall_log(struct pgpk_upcall *up, int priority, const char *fmt, ...)
{
	unsigned long missed;
	char who[16], line[448];
	va_list ap;

	if (!pgpk_quota_log_ok(&up->quota, pgpk_monotonic_us() / 1000, &missed))
		return;
	if (up->quota.uid == PGPK_QUOTA_UNKNOWN)
		snprintf(who, sizeof(who), "uid ?");
	else
		snprintf(who, sizeof(who), "uid %u",
			 (unsigned int)up->quota.uid);
	if (missed)
		pgpk_log_line(&up->log, LOG_WARNING,
			      "%s: %lu lines suppressed (over %u in %u s)", who,
			      missed, PGPK_QUOTA_LOG_BURST,
			      PGPK_QUOTA_LOG_WINDOW / 1000);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	pgpk_log_line(&up->log, priority, "%s: %s", who, line);
}

/*
 * The module waits upcall_timeout seconds for the answer, then refuses
 * with ETIMEDOUT and kills the helper: a CPU-time budget as long kills
 * the parser too late.  The watchdog's wall-clock bound is three
 * quarters of it (the rest: request-key's start, the verdict), so that
 * a stalled or starved parser is still the helper's to end and to log.
 * Returns that bound in ms, 0 if the module's is unknown.
 */
static unsigned int pgpk_upcall_check_timeout(struct pgpk_upcall *up,
					      const struct pgpk_policy *policy)
{
	unsigned int secs = 0;
	FILE *f = fopen("/sys/module/pgpk/parameters/upcall_timeout", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%u", &secs) == 1 && secs &&
	    policy->timeout_ms >= secs * 1000U)
		pgpk_upcall_log(up, LOG_WARNING,
				"--timeout-ms=%u is not below the module's "
				"upcall_timeout of %u s: the kernel gives up "
				"first (check pgpk.conf)",
				policy->timeout_ms, secs);
	fclose(f);
	return secs <= 60 ? secs * 750 : 0;
}

/*
 * What the kernel sent, vetted there (a bad one is malformed): the key's
 * description, and its owner, the requester (request_key() makes the
 * key with his fsuid).  0, or the errno to reject with.
 */
static int pgpk_upcall_describe(struct pgpk_upcall *up, char **raw,
				const char **desc, struct pgpk_request *req,
				char *why, size_t why_len)
{
	int err;

	if (keyctl_describe_alloc(up->key, raw) < 0) {
		err = errno;
		snprintf(why, why_len, "cannot describe the key: %s",
			 strerror(err));
		return err == EBADMSG ? EIO : err;
	}
	*desc = pgpk_upcall_description(*raw, up->key_type, &up->quota.uid);
	if (!*desc) {
		snprintf(why, why_len, "not a %s key: %.64s", up->key_type,
			 *raw);
		return EBADMSG;
	}
	return -pgpk_request_parse(*desc, req, why, why_len);
}

/*
 * One of the requester's --max-per-uid slots for the rest of this
 * process, and its parser's, at the slot's nice value.  0, or the errno
 * to reject with: EDQUOT (every slot of his is held), EIO (the state
 * directory, or a slot file, is unusable: root's to fix).  Without room
 * for the files (@state_err a shortage) the request runs slotless at
 * nice 19.
 */
static int pgpk_upcall_admit(struct pgpk_upcall *up,
			     const struct pgpk_policy *policy, int state_err,
			     const char *state, char *why, size_t why_len)
{
	int ret = 0;

	if (state_err && !pgpk_quota_shortage(-state_err)) {
		snprintf(why, why_len, "%s", state);
		return EIO;
	}
	if (state_err)
		snprintf(
			why, why_len,
			"%s; running without a slot, at nice 19 (make room in /run)",
			state);
	else
		ret = pgpk_quota_take(&up->quota, policy->max_per_uid, why,
				      why_len);
	if (ret)
		return -ret;
	if (why[0])
		pgpk_upcall_log(up, LOG_WARNING, "key %d: %s", up->key, why);
	/* Only raises it (a broker starts at the kernel's nice 0). */
	setpriority(PRIO_PROCESS, 0,
		    pgpk_quota_nice(up->quota.slot, policy->max_per_uid));
	return 0;
}

/* The OpenPGP bytes: the authorisation key's payload.  0 or an errno. */
static int pgpk_upcall_callout(void **data, size_t *len, char *why,
			       size_t why_len)
{
	long n = keyctl_read_alloc(KEY_SPEC_REQKEY_AUTH_KEY, data);
	int err = errno;

	if (n > 0) {
		*len = (size_t)n;
		return 0;
	}
	snprintf(why, why_len, "no callout data: %s",
		 n < 0 ? strerror(err) : "empty");
	if (n < 0)
		return err == EBADMSG ? EIO : err;
	return EBADMSG;
}

/* The verdict, with the time it took and where it ran (slot, nice). */
static void pgpk_upcall_verdict(struct pgpk_upcall *up, const char *desc,
				const struct pgpk_broker_result *res)
{
	int nice = getpriority(PRIO_PROCESS, 0);

	if (res->error)
		pgpk_upcall_log(up, pgpk_upcall_level(res->error),
				"key %d %.20s...: rejected %s for %u s: %s "
				"(%llu us, slot %d, nice %d)%s",
				up->key, desc, pgpk_errno_name(res->error),
				res->timeout, res->reason,
				(unsigned long long)res->elapsed_us,
				up->quota.slot, nice,
				res->ops_error ? "; keyctl_reject failed" : "");
	else
		pgpk_upcall_log(up, res->ops_error ? LOG_ERR : LOG_INFO,
				"key %d %.20s...: instantiated: %s "
				"(%llu us, slot %d, nice %d)%s",
				up->key, desc, res->reason,
				(unsigned long long)res->elapsed_us,
				up->quota.slot, nice,
				res->ops_error ? "; keyctl_instantiate failed" :
						 "");
}

/* The sandboxed conversion and its verdict; the exit status. */
static int pgpk_upcall_convert(struct pgpk_upcall *up,
			       const struct pgpk_policy *policy,
			       const struct pgpk_request *req, const char *desc,
			       const void *data, size_t len)
{
	struct pgpk_anchor_set anchors = { 0 };
	struct pgpk_broker_result res;
	struct pgpk_broker broker = {
		.policy = policy,
		.ops = &pgpk_upcall_ops,
		.ops_ctx = up,
		.child = pgpk_child_convert,
		.wall_ms = up->wall_ms,
	};
	char note[320];

	/* Root's configuration: read here, parsed only in the sandbox. */
	if (pgpk_anchors_read(up->anchors, &anchors, note, sizeof(note)) ||
	    anchors.skipped)
		pgpk_upcall_log(up, LOG_WARNING, "key %d: %s (%zu skipped)",
				up->key, note, anchors.skipped);
	broker.anchors = anchors.files;
	broker.nanchors = anchors.n;
	pgpk_broker_run(&broker, req, data, len, &res);
	pgpk_anchors_release(&anchors);
	pgpk_upcall_verdict(up, desc, &res);
	return res.ops_error ? 1 : 0;
}

/* Everything after the authority is assumed; the exit status. */
static int pgpk_upcall_serve(struct pgpk_upcall *up,
			     const struct pgpk_policy *policy, int state_err,
			     const char *state)
{
	struct pgpk_request req;
	const char *desc = NULL;
	char *raw = NULL, why[384] = "";
	void *data = NULL;
	size_t len = 0;
	int err, ret;

	err = pgpk_upcall_describe(up, &raw, &desc, &req, why, sizeof(why)) ?:
		      pgpk_upcall_admit(up, policy, state_err, state, why,
					sizeof(why));
	if (!err) {
		up->wall_ms = pgpk_upcall_check_timeout(up, policy);
		err = pgpk_upcall_callout(&data, &len, why, sizeof(why));
	}
	if (err) {
		ret = pgpk_upcall_reject(up, PGPK_REJECT_TIMEOUT, err) ? 1 : 0;
		pgpk_upcall_log(up, pgpk_upcall_level(err),
				"key %d: rejected %s for %u s: %s", up->key,
				pgpk_errno_name(err), PGPK_REJECT_TIMEOUT, why);
	} else {
		ret = pgpk_upcall_convert(up, policy, &req, desc, data, len);
	}
	free(data);
	free(raw);
	return ret;
}

int pgpk_cmd_upcall(int argc, char **argv)
{
	enum pgpk_log_mode mode = PGPK_LOG_AUTO;
	struct pgpk_upcall up = {
		.key_type = "pgpk",
		.quota.uid = PGPK_QUOTA_UNKNOWN,
	};
	struct pgpk_policy policy;
	char state[256];
	int ret, state_err;

	pgpk_policy_default(&policy);
	ret = pgpk_upcall_args(argc, argv, &policy, &mode, &up);
	if (ret) {
		pgpk_upcall_bad_args(argc, argv, mode);
		return ret;
	}
	pgpk_log_open(&up.log, mode);
	/* The requester's slots and log lines (helper/broker/pgpk_quota.h). */
	state_err = pgpk_quota_open(&up.quota, PGPK_QUOTA_DIR, state,
				    sizeof(state));
	if (keyctl_assume_authority(up.key) < 0) {
		pgpk_upcall_log(&up, LOG_ERR,
				"key %d: cannot assume authority: %s", up.key,
				strerror(errno));
		ret = 1;
	} else {
		ret = pgpk_upcall_serve(&up, &policy, state_err, state);
	}
	pgpk_quota_close(&up.quota);
	pgpk_log_close(&up.log);
	return ret;
}
