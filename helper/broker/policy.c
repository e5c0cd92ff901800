// SPDX-License-Identifier: GPL-2.0
/*
 * Broker policy: defaults, command-line options, and the checks applied to
 * a re-validated answer before the key is instantiated.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "helper/broker/pgpk_policy.h"
#include "helper/broker/pgpk_quota.h"
#include "helper/pgpk_text.h"

static const struct {
	const char *name;
	unsigned int id;
} pgpk_hashes[] = {
	/* RFC 9580 9.5 (RIPEMD160 from RFC 4880 9.4). */
	{ "MD5", PGPK_POLICY_HASH_MD5 },
	{ "SHA1", PGPK_POLICY_HASH_SHA1 },
	{ "RIPEMD160", PGPK_POLICY_HASH_RIPEMD160 },
	{ "SHA256", PGPK_POLICY_HASH_SHA256 },
	{ "SHA384", PGPK_POLICY_HASH_SHA384 },
	{ "SHA512", PGPK_POLICY_HASH_SHA512 },
	{ "SHA224", PGPK_POLICY_HASH_SHA224 },
	{ "SHA3-256", PGPK_POLICY_HASH_SHA3_256 },
	{ "SHA3-512", PGPK_POLICY_HASH_SHA3_512 },
};

#define PGPK_NR_HASHES (sizeof(pgpk_hashes) / sizeof(pgpk_hashes[0]))

const char *pgpk_hash_name(unsigned int id)
{
	size_t i;

	for (i = 0; i < PGPK_NR_HASHES; i++)
		if (pgpk_hashes[i].id == id)
			return pgpk_hashes[i].name;
	return NULL;
}

/* "sha256,sha384" -> mask; returns -1 on an unknown or refused name. */
static int pgpk_parse_hashes(const char *list, uint32_t *mask, FILE *err)
{
	char buf[256], *tok, *save = NULL;
	size_t i;

	if (strlen(list) >= sizeof(buf)) {
		fprintf(err, "--hashes: list too long\n");
		return -1;
	}
	strcpy(buf, list);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < PGPK_NR_HASHES; i++)
			if (strcasecmp(tok, pgpk_hashes[i].name) == 0)
				break;
		if (i == PGPK_NR_HASHES) {
			fprintf(err, "--hashes: unknown hash %s\n", tok);
			return -1;
		}
		/*
		 * The kernel refuses these whatever the policy (its floor:
		 * collisions, RFC 9580 9.5 MUST NOT) or cannot check them
		 * (SHA-3): a policy may be stricter than the kernel, never
		 * allow what it refuses.
		 */
		if (pgpk_hashes[i].id == PGPK_POLICY_HASH_MD5 ||
		    pgpk_hashes[i].id == PGPK_POLICY_HASH_SHA1 ||
		    pgpk_hashes[i].id == PGPK_POLICY_HASH_RIPEMD160) {
			fprintf(err,
				"--hashes: %s is broken and cannot be "
				"allowed\n",
				pgpk_hashes[i].name);
			return -1;
		}
		if (pgpk_hashes[i].id == PGPK_POLICY_HASH_SHA3_256 ||
		    pgpk_hashes[i].id == PGPK_POLICY_HASH_SHA3_512) {
			fprintf(err,
				"--hashes: %s: the kernel cannot check "
				"SHA-3 signatures\n",
				pgpk_hashes[i].name);
			return -1;
		}
		*mask |= 1U << pgpk_hashes[i].id;
	}
	if (!*mask) {
		fprintf(err, "--hashes: empty list\n");
		return -1;
	}
	return 0;
}

void pgpk_policy_default(struct pgpk_policy *policy)
{
	memset(policy, 0, sizeof(*policy));
	policy->min_rsa_bits = PGPK_POLICY_MIN_RSA_BITS;
	policy->hash_mask = 1U << PGPK_POLICY_HASH_SHA256 |
			    1U << PGPK_POLICY_HASH_SHA384 |
			    1U << PGPK_POLICY_HASH_SHA512;
	policy->max_input = PGPK_POLICY_MAX_INPUT;
	policy->timeout_ms = PGPK_POLICY_TIMEOUT_MS;
	policy->max_answer = PGPK_POLICY_MAX_ANSWER;
	policy->sandbox_user = NULL;
	policy->max_per_uid = PGPK_POLICY_MAX_PER_UID;
}

static int pgpk_parse_ulong(const char *opt, const char *val, unsigned long lo,
			    unsigned long hi, unsigned long *out, FILE *err)
{
	char *end;

	errno = 0;
	*out = strtoul(val, &end, 10);
	if (!val[0] || *end || errno || val[0] == '-' || *out < lo ||
	    *out > hi) {
		fprintf(err, "%s: want a number in %lu..%lu, got '%s'\n", opt,
			lo, hi, val);
		return -1;
	}
	return 0;
}

enum pgpk_opt_id {
	PGPK_OPT_MIN_RSA_BITS,
	PGPK_OPT_HASHES,
	PGPK_OPT_ALLOW_EXPIRED,
	PGPK_OPT_ALLOW_REVOKED,
	PGPK_OPT_MAX_INPUT,
	PGPK_OPT_TIMEOUT_MS,
	PGPK_OPT_NEGATIVE_TIMEOUT,
	PGPK_OPT_SANDBOX_USER,
	PGPK_OPT_MAX_PER_UID,
};

static const struct {
	const char *name;
	enum pgpk_opt_id id;
	const char *value; /* placeholder in the usage; NULL: a flag */
	const char *help;
} pgpk_policy_opts[] = {
	{ "--min-rsa-bits", PGPK_OPT_MIN_RSA_BITS, "N",
	  "refuse RSA keys shorter than N bits [2048]" },
	{ "--hashes", PGPK_OPT_HASHES, "LIST",
	  "hashes allowed for data signatures [" PGPK_POLICY_HASHES "];"
	  " never md5, sha1" },
	{ "--allow-expired", PGPK_OPT_ALLOW_EXPIRED, NULL,
	  "accept expired keys and signatures [refuse]" },
	{ "--allow-revoked", PGPK_OPT_ALLOW_REVOKED, NULL,
	  "accept revoked keys [refuse]" },
	{ "--max-input", PGPK_OPT_MAX_INPUT, "N",
	  "largest OpenPGP input, octets [1048576]" },
	{ "--timeout-ms", PGPK_OPT_TIMEOUT_MS, "N",
	  "parser watchdog, milliseconds of its CPU time, below the module's"
	  " upcall_timeout [2000]" },
	{ "--negative-timeout", PGPK_OPT_NEGATIVE_TIMEOUT, "N",
	  "obsolete, ignored (the kernel caches no refusal)" },
	{ "--sandbox-user", PGPK_OPT_SANDBOX_USER, "USER",
	  "user the parser runs as when root [a uid of its own]" },
	{ "--max-per-uid", PGPK_OPT_MAX_PER_UID, "N",
	  "upcalls of one user in flight, more: EDQUOT; 0: no bound [4]" },
};

#define PGPK_NR_OPTS (sizeof(pgpk_policy_opts) / sizeof(pgpk_policy_opts[0]))

void pgpk_policy_usage(FILE *out)
{
	char opt[48];
	size_t i;

	fprintf(out, "policy options (also --name VALUE):\n");
	for (i = 0; i < PGPK_NR_OPTS; i++) {
		snprintf(opt, sizeof(opt), "%s%s%s", pgpk_policy_opts[i].name,
			 pgpk_policy_opts[i].value ? "=" : "",
			 pgpk_policy_opts[i].value ? pgpk_policy_opts[i].value :
						     "");
		fprintf(out, "  %-24s %s\n", opt, pgpk_policy_opts[i].help);
	}
}

static int pgpk_policy_apply(struct pgpk_policy *policy, enum pgpk_opt_id id,
			     const char *opt, const char *val, FILE *err)
{
	unsigned long n;

	switch (id) {
	case PGPK_OPT_MIN_RSA_BITS:
		/* Below the kernel's own floor (min_rsa_bits) is no policy. */
		if (pgpk_parse_ulong(opt, val, PGPK_POLICY_MIN_RSA_BITS, 16384,
				     &n, err))
			return -1;
		policy->min_rsa_bits = n;
		return 0;
	case PGPK_OPT_HASHES:
		return pgpk_parse_hashes(val, &policy->hash_mask, err);
	case PGPK_OPT_ALLOW_EXPIRED:
		policy->allow_expired = true;
		return 0;
	case PGPK_OPT_ALLOW_REVOKED:
		policy->allow_revoked = true;
		return 0;
	case PGPK_OPT_MAX_INPUT:
		if (pgpk_parse_ulong(opt, val, 1, 64UL << 20, &n, err))
			return -1;
		policy->max_input = n;
		return 0;
	case PGPK_OPT_TIMEOUT_MS:
		if (pgpk_parse_ulong(opt, val, 10, 600000, &n, err))
			return -1;
		policy->timeout_ms = n;
		return 0;
	case PGPK_OPT_NEGATIVE_TIMEOUT:
		/*
		 * Obsolete: refusals were cached in the kernel for N s until
		 * the module kept no cache.  Still checked and accepted, so
		 * that an edited pgpk.conf keeps working after an upgrade.
		 */
		return pgpk_parse_ulong(opt, val, 0, 86400, &n, err);
	case PGPK_OPT_SANDBOX_USER:
		if (!val[0]) {
			fprintf(err, "%s: empty user\n", opt);
			return -1;
		}
		policy->sandbox_user = val;
		return 0;
	case PGPK_OPT_MAX_PER_UID:
		if (pgpk_parse_ulong(opt, val, 0, PGPK_QUOTA_MAX_SLOTS, &n,
				     err))
			return -1;
		policy->max_per_uid = (unsigned int)n;
		return 0;
	}
	return -1;
}

int pgpk_policy_option(struct pgpk_policy *policy, int argc, char **argv,
		       int *i, FILE *err)
{
	const char *arg = argv[*i], *val = NULL;
	size_t k, len;

	for (k = 0; k < PGPK_NR_OPTS; k++) {
		len = strlen(pgpk_policy_opts[k].name);
		if (strncmp(arg, pgpk_policy_opts[k].name, len) == 0 &&
		    (arg[len] == '\0' || arg[len] == '='))
			break;
	}
	if (k == PGPK_NR_OPTS)
		return 0;
	if (pgpk_policy_opts[k].value) {
		if (arg[len] == '=') {
			val = arg + len + 1;
		} else if (*i + 1 < argc) {
			val = argv[++*i];
		} else {
			fprintf(err, "%s: missing value\n", arg);
			return -1;
		}
	} else if (arg[len] == '=') {
		fprintf(err, "%s takes no value\n", pgpk_policy_opts[k].name);
		return -1;
	}
	if (pgpk_policy_apply(policy, pgpk_policy_opts[k].id,
			      pgpk_policy_opts[k].name, val, err))
		return -1;
	++*i;
	return 1;
}

unsigned int pgpk_be_bits(const struct pgpk_bytes *b)
{
	unsigned int bits;
	u8 top;

	if (!b->len)
		return 0;
	bits = (b->len - 1) * 8;
	for (top = b->data[0]; top; top >>= 1)
		bits++;
	return bits;
}

/* RFC 9580 9.1: 1, 2 and 3 are RSA; the key size is that of n. */
static int pgpk_check_rsa(const struct pgpk_policy *policy,
			  const struct pgpk_key_material *m, const char *what,
			  char *why, size_t why_len)
{
	unsigned int bits = pgpk_be_bits(&m->rsa_n);

	if (bits < policy->min_rsa_bits) {
		snprintf(why, why_len,
			 "policy: %s is %u-bit RSA, below --min-rsa-bits %u",
			 what, bits, policy->min_rsa_bits);
		return -EKEYREJECTED;
	}
	return 0;
}

static int pgpk_check_key(const struct pgpk_policy *policy,
			  const struct pgpk_key *key, char *why, size_t why_len)
{
	int ret;

	ret = pgpk_check_rsa(policy, &key->material,
			     key->subkey ? "subkey" : "key", why, why_len);
	if (ret)
		return ret;
	if (PGPK_HAS(key, PGPK_KEY_PRIMARY)) {
		ret = pgpk_check_rsa(policy, &key->primary, "primary key", why,
				     why_len);
		if (ret)
			return ret;
	}
	/* A key's expiry is the kernel's, read from the self-signatures it
	 * verifies (kernel/pgpk_key.c pgpk_self_sigs()): --allow-expired
	 * cannot lift it there. */
	return 0;
}

bool pgpk_policy_hash_allowed(const struct pgpk_policy *policy, uint32_t hash)
{
	return hash < 32 && (policy->hash_mask & 1U << hash);
}

int pgpk_policy_check_sig(const struct pgpk_policy *policy,
			  const struct pgpk_sig *sig, int64_t now, char *why,
			  size_t why_len)
{
	const char *name = pgpk_hash_name(sig->hash_algorithm);
	char t1[PGPK_TIME_LEN], t2[PGPK_TIME_LEN];
	struct pgpk_hashed h;

	/* RFC 9580 9.5: hash by ID; anything not allowed is refused. */
	if (!pgpk_policy_hash_allowed(policy, sig->hash_algorithm)) {
		snprintf(why, why_len,
			 "policy: signature hash %s (%u) not in --hashes",
			 name ? name : "unknown", sig->hash_algorithm);
		return -EKEYREJECTED;
	}
	/*
	 * A signature made in the future (RFC 9580 5.2.3.11 creation time
	 * later than now plus a clock skew allowance) is not valid yet, as
	 * sqv and OpenPGP.js judge (gpgv accepts it): a clock that is right
	 * later must not make a key's owner able to date a signature ahead.
	 */
	if ((int64_t)sig->created > now + PGPK_POLICY_CLOCK_SKEW) {
		snprintf(why, why_len,
			 "policy: signature created at %s, %" PRId64
			 " s in the future (allowed clock skew %d s)",
			 pgpk_time_str(sig->created, t1),
			 (int64_t)sig->created - now, PGPK_POLICY_CLOCK_SKEW);
		return -EKEYREJECTED;
	}
	/* RFC 9580 5.2.3.18: as the kernel's walk reads the hashed area */
	if (!policy->allow_expired &&
	    pgpk_hashed_walk(sig->hashed_area.data, sig->hashed_area.len, &h) &&
	    h.expires && (int64_t)h.created + h.expires <= now) {
		snprintf(why, why_len,
			 "policy: signature expired at %s (now %s)",
			 pgpk_time_str((int64_t)h.created + h.expires, t1),
			 pgpk_time_str(now, t2));
		return -EKEYEXPIRED;
	}
	return 0;
}

/* Every signature of a signed document: its signature, then the others. */
static int pgpk_check_sigs(const struct pgpk_policy *policy,
			   const struct pgpk_canon *canon, int64_t now,
			   char *why, size_t why_len)
{
	u32 i;
	int ret = 0;

	for (i = 0; !ret && i <= canon->nr_more; i++)
		ret = pgpk_policy_check_sig(policy, &canon->sigs[i], now, why,
					    why_len);
	return ret;
}

int pgpk_policy_check(const struct pgpk_policy *policy,
		      const struct pgpk_canon *canon, enum pgpk_want want,
		      int64_t now, char *why, size_t why_len)
{
	if (want == PGPK_WANT_KEY)
		return pgpk_check_key(policy, &canon->key, why, why_len);
	return pgpk_check_sigs(policy, canon, now, why, why_len);
}
