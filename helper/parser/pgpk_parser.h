/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user commands' work inside the sandbox.  pgpk's commands read their
 * files, then fork a child (helper/cli/run.c) that enters the sandbox
 * (sandbox/pgpk_sandbox.h: the upcall's seccomp allowlist) before it
 * parses a single octet of them: the functions below run only there,
 * on the bytes the command read before fork().  What they say leaves on
 * the child's one descriptor, fd 1, in frames (struct pgpk_reply):
 *
 *   kind (1 octet)  length (u32, big-endian)  payload[length]
 *     'O'  standard output, as it is (at most PGPK_REPLY_MAX_OUT)
 *     'E'  messages: lines without the "pgpk COMMAND: " the command
 *          puts before each (at most PGPK_REPLY_MAX_ERR)
 *     'B'  a canonical blob (key, sig, convert), which the command
 *          decodes and checks before it writes it, or a certificate's
 *          binary octets (import)
 *     'X'  the exit status, one octet (0, 1 or 2); the last frame
 *
 * The command treats them as hostile: a frame of an unknown kind or
 * over its bound, a missing or bad exit status, a child that dies, and
 * the command exits 2 saying so, having used nothing of it.
 */
#ifndef PGPK_PARSER_H
#define PGPK_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "helper/broker/pgpk_anchors.h"
#include "helper/broker/pgpk_policy.h"

#define PGPK_REPLY_OUT 'O'
#define PGPK_REPLY_ERR 'E'
#define PGPK_REPLY_BLOB 'B'
#define PGPK_REPLY_EXIT 'X'
#define PGPK_REPLY_HDR 5
#define PGPK_REPLY_MAX_OUT (1u << 20)
#define PGPK_REPLY_MAX_ERR (64u << 10)
#define PGPK_REPLY_MAX_BLOB (64u << 20)

/* The child's side: its standard output and its messages, framed. */
struct pgpk_reply {
	FILE *out;
	FILE *err; /* flushes out first: the two stay in order */
	int fd;
};

/* 0, or -errno: nothing can be said (the child exits without a word). */
int pgpk_reply_open(struct pgpk_reply *r, int fd);
int pgpk_reply_blob(struct pgpk_reply *r, const void *blob, size_t len);
/* Flush both streams, then the exit status frame; 0 or -EIO. */
int pgpk_reply_end(struct pgpk_reply *r, int status);

/*
 * The parser's validation threads (n in all, with the caller), started
 * before the filter, which forbids clone(): pgpk_workers_start().
 */
int pgpk_parser_threads(unsigned int n);

/* A whole input the command read: a file's octets, and its name. */
struct pgpk_file {
	const char *path;
	const uint8_t *data;
	size_t len;
	bool mapped; /* the command's: how it releases it */
};

/* pgpk list: every key and subkey, text or JSON lines.  0 or 2. */
int pgpk_parse_list(struct pgpk_reply *r, const struct pgpk_file *in, bool json,
		    unsigned int threads);

/* pgpk dump: a canonical blob, decoded as the kernel decodes it.  0 or 2. */
int pgpk_parse_dump(struct pgpk_reply *r, const struct pgpk_file *in,
		    bool json);

/* pgpk key, sig, convert: what pgpk_convert() makes of the input. */
struct pgpk_convert_job {
	const struct pgpk_file *in;
	const struct pgpk_file *data; /* --data, or NULL */
	int want; /* enum pgpk_want; < 0: by the input (convert) */
	const char *select;
	const struct pgpk_policy *policy;
	const struct pgpk_anchor_set *anchors;
	int64_t now;
};

/*
 * One 'B' frame, the canonical blob, and 0; or the reason and 1 (a key
 * or signatures refused: unsupported, expired, revoked, not allowed) or
 * 2 (malformed input, no such key).  Signatures left out are named one
 * message each.
 */
int pgpk_parse_convert(struct pgpk_reply *r,
		       const struct pgpk_convert_job *job);

/* pgpk verify: every signature of sig checked against the keyrings. */
struct pgpk_verify_job {
	const struct pgpk_file *sig;
	const struct pgpk_file *data; /* DATA, or NULL */
	const struct pgpk_file *keyrings;
	size_t nkeyrings;
	const struct pgpk_policy *policy;
	size_t need; /* --signatures */
	int64_t now;
	unsigned int threads;
};

/* 0 at least need good and none bad, 1 a bad one, 2 otherwise. */
int pgpk_parse_verify(struct pgpk_reply *r, const struct pgpk_verify_job *job);

/*
 * pgpk import: the file's certificates, one 'B' frame each with its
 * binary octets (armor removed) and its offset in them as a u64 first
 * (big-endian); 0, or 2 with the reason.
 */
int pgpk_parse_split(struct pgpk_reply *r, const struct pgpk_file *in);

#endif /* PGPK_PARSER_H */
