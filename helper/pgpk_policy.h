/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The broker's policy: what it refuses even when the parser and the strict
 * decoder are happy.  Set from the helper's command line, i.e. from the
 * request-key configuration line (policy/request-key.d/pgpk.conf documents
 * every option).  Policy refusals are -EKEYREJECTED, expiry -EKEYEXPIRED.
 */
#ifndef PGPK_POLICY_H
#define PGPK_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "helper/pgpk_convert.h"
#include "kernel/pgpk_canon.h"

/* RFC 9580 9.5 hash algorithm IDs. */
#define PGPK_POLICY_HASH_MD5 1
#define PGPK_POLICY_HASH_SHA1 2
#define PGPK_POLICY_HASH_RIPEMD160 3
#define PGPK_POLICY_HASH_SHA256 8
#define PGPK_POLICY_HASH_SHA384 9
#define PGPK_POLICY_HASH_SHA512 10
#define PGPK_POLICY_HASH_SHA224 11
#define PGPK_POLICY_HASH_SHA3_256 12
#define PGPK_POLICY_HASH_SHA3_512 14

#define PGPK_POLICY_MIN_RSA_BITS 2048
#define PGPK_POLICY_HASHES "sha256,sha384,sha512"
#define PGPK_POLICY_MAX_INPUT (1024 * 1024)
#define PGPK_POLICY_TIMEOUT_MS 2000
/* Requests of one uid in flight (helper/pgpk_quota.h); 0: no bound. */
#define PGPK_POLICY_MAX_PER_UID 4
/*
 * Seconds a signature's creation time may lie ahead of the clock before
 * it is refused as made in the future (clocks of signer and verifier
 * disagree a little).  Measured: gpgv accepts any; sqv refuses any made
 * after now (its --not-after), although Sequoia itself allows 30 min.
 */
#define PGPK_POLICY_CLOCK_SKEW PGPK_CLOCK_SKEW
/*
 * The largest upcall answer: the kernel stores it with user_preparse(),
 * which takes at most 32767 octets.  A larger one is refused (EMSGSIZE).
 */
#define PGPK_POLICY_MAX_ANSWER 32767

struct pgpk_policy {
	unsigned int min_rsa_bits; /* keys (and their primary) below: refused */
	uint32_t hash_mask; /* bit n: hash n allowed for data sigs */
	bool allow_expired; /* accept expired keys and signatures */
	bool allow_revoked; /* convert revoked keys instead of refusing */
	size_t max_input; /* largest callout blob, octets */
	unsigned int timeout_ms; /* watchdog for the parser child */
	size_t max_answer; /* largest answer accepted, octets */
	const char *sandbox_user; /* user the parser runs as (when root) */
	unsigned int max_per_uid; /* upcalls of one uid in flight, 0: any */
};

void pgpk_policy_default(struct pgpk_policy *policy);

/*
 * If argv[*i] is a policy option ("--name=value" or "--name value"),
 * apply it, advance *i past it and return 1; return 0 if it is not a
 * policy option, -1 (with a message on err) if its value is bad.
 */
int pgpk_policy_option(struct pgpk_policy *policy, int argc, char **argv,
		       int *i, FILE *err);
void pgpk_policy_usage(FILE *out);

/* Name of an RFC 9580 9.5 hash ID ("SHA256"), or NULL if unknown. */
const char *pgpk_hash_name(unsigned int id);
/* Bits in an unsigned big-endian integer without leading zero octets. */
unsigned int pgpk_be_bits(const struct pgpk_bytes *b);

/*
 * Apply the policy to a decoded answer of the kind asked for (for a
 * signature: to every one, Canonical.signature and more_signatures).
 * Returns 0, -EKEYREJECTED or -EKEYEXPIRED, with the rule that refused
 * in why.
 */
int pgpk_policy_check(const struct pgpk_policy *policy,
		      const struct pgpk_canon *canon, enum pgpk_want want,
		      int64_t now, char *why, size_t why_len);

/*
 * The policy for one data signature: hash in --hashes, not made in the
 * future (beyond PGPK_POLICY_CLOCK_SKEW), not expired.  Used by the
 * broker (every signature of an answer), by the parser child to choose
 * the signatures of its answer, and by `verify` for each signature.
 */
int pgpk_policy_check_sig(const struct pgpk_policy *policy,
			  const struct pgpk_sig *sig, int64_t now, char *why,
			  size_t why_len);
bool pgpk_policy_hash_allowed(const struct pgpk_policy *policy, uint32_t hash);

#endif /* PGPK_POLICY_H */
