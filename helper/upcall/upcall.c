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
 * per request says which.  The kernel waits at most its upcall_timeout
 * (module parameter, 5 s by default): --timeout-ms must stay below it.
 *
 * Only this file talks to the kernel's key management (libkeyutils).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <keyutils.h>

#include "helper/broker/pgpk_anchors.h"
#include "helper/broker/pgpk_broker.h"
#include "helper/parser/pgpk_child.h"
#include "helper/upcall/pgpk_log.h"
#include "helper/upcall/pgpk_runtime.h"

struct pgpk_upcall {
	key_serial_t key;
	const char *key_type; /* "pgpk"; tests route "user" keys here */
	const char *anchors; /* NULL: PGPK_ANCHORS_DIR */
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

/* "type;uid;gid;perm;description" -> description, after a type check. */
static const char *pgpk_upcall_description(const char *raw, const char *type)
{
	size_t type_len = strlen(type);
	const char *p = raw;
	int i;

	if (strncmp(raw, type, type_len) != 0 || raw[type_len] != ';')
		return NULL;
	for (i = 0; i < 4; i++) {
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
		return LOG_WARNING;
	}
	return LOG_ERR;
}

/*
 * The module waits upcall_timeout seconds for the answer, then refuses
 * with ETIMEDOUT: a watchdog as long kills the parser too late.
 */
static void pgpk_upcall_check_timeout(const struct pgpk_log *log,
				      const struct pgpk_policy *policy)
{
	unsigned int secs = 0;
	FILE *f = fopen("/sys/module/pgpk/parameters/upcall_timeout", "re");

	if (!f)
		return;
	if (fscanf(f, "%u", &secs) == 1 && secs &&
	    policy->timeout_ms >= secs * 1000U)
		pgpk_log_line(log, LOG_WARNING,
			      "--timeout-ms=%u is not below the module's "
			      "upcall_timeout of %u s: the kernel gives up "
			      "first (check pgpk.conf)",
			      policy->timeout_ms, secs);
	fclose(f);
}

int pgpk_cmd_upcall(int argc, char **argv)
{
	enum pgpk_log_mode mode = PGPK_LOG_AUTO;
	struct pgpk_upcall up = { .key_type = "pgpk" };
	struct pgpk_anchor_set anchors = { 0 };
	struct pgpk_broker_result res;
	struct pgpk_request req;
	struct pgpk_policy policy;
	struct pgpk_broker broker = {
		.policy = &policy,
		.ops = &pgpk_upcall_ops,
		.ops_ctx = &up,
		.child = pgpk_child_convert,
	};
	struct pgpk_log log;
	char *raw = NULL, why[256], note[320];
	void *data = NULL;
	const char *desc;
	long len;
	int ret, err;

	pgpk_policy_default(&policy);
	ret = pgpk_upcall_args(argc, argv, &policy, &mode, &up);
	if (ret) {
		pgpk_upcall_bad_args(argc, argv, mode);
		return ret;
	}
	pgpk_log_open(&log, mode);
	if (keyctl_assume_authority(up.key) < 0) {
		pgpk_log_line(&log, LOG_ERR,
			      "key %d: cannot assume authority:"
			      " %s",
			      up.key, strerror(errno));
		ret = 1;
		goto out_close_log;
	}
	pgpk_upcall_check_timeout(&log, &policy);
	/* What the kernel sent is vetted there: a bad one is malformed. */
	err = EBADMSG;
	if (keyctl_describe_alloc(up.key, &raw) < 0) {
		err = errno == EBADMSG ? EIO : errno;
		snprintf(why, sizeof(why), "cannot describe the key: %s",
			 strerror(errno));
		goto reject;
	}
	desc = pgpk_upcall_description(raw, up.key_type);
	if (!desc) {
		snprintf(why, sizeof(why), "not a %s key: %.64s", up.key_type,
			 raw);
		goto reject;
	}
	if (pgpk_request_parse(desc, &req, why, sizeof(why)))
		goto reject;
	len = keyctl_read_alloc(KEY_SPEC_REQKEY_AUTH_KEY, &data);
	if (len <= 0) {
		if (len < 0)
			err = errno == EBADMSG ? EIO : errno;
		snprintf(why, sizeof(why), "no callout data: %s",
			 len < 0 ? strerror(errno) : "empty");
		goto reject;
	}
	/* Root's configuration: read here, parsed only in the sandbox. */
	if (pgpk_anchors_read(up.anchors, &anchors, note, sizeof(note)) ||
	    anchors.skipped)
		pgpk_log_line(&log, LOG_WARNING, "key %d: %s (%zu skipped)",
			      up.key, note, anchors.skipped);
	broker.anchors = anchors.files;
	broker.nanchors = anchors.n;
	pgpk_broker_run(&broker, &req, data, (size_t)len, &res);
	if (res.error)
		pgpk_log_line(&log, pgpk_upcall_level(res.error),
			      "key %d %.20s...: rejected %s for %u s: %s "
			      "(%llu us)%s",
			      up.key, desc, pgpk_errno_name(res.error),
			      res.timeout, res.reason,
			      (unsigned long long)res.elapsed_us,
			      res.ops_error ? "; keyctl_reject failed" : "");
	else
		pgpk_log_line(
			&log, res.ops_error ? LOG_ERR : LOG_INFO,
			"key %d %.20s...: instantiated: %s (%llu us)%s", up.key,
			desc, res.reason, (unsigned long long)res.elapsed_us,
			res.ops_error ? "; keyctl_instantiate failed" : "");
	ret = res.ops_error ? 1 : 0;
	goto out_free;

reject:
	ret = pgpk_upcall_reject(&up, PGPK_REJECT_TIMEOUT, err) ? 1 : 0;
	pgpk_log_line(&log, pgpk_upcall_level(err),
		      "key %d: rejected %s for %u s: %s", up.key,
		      pgpk_errno_name(err), PGPK_REJECT_TIMEOUT, why);
out_free:
	pgpk_anchors_release(&anchors);
	free(data);
	free(raw);
out_close_log:
	pgpk_log_close(&log);
	return ret;
}
