// SPDX-License-Identifier: GPL-2.0
/*
 * asym_auth: the one certification restrict.c checks when a keyring
 * restricted with "key_or_keyring:<trusted>" is offered this key.
 *
 * The helper offers every third-party certification of the user ID it
 * cannot rule out (Key.third_party, newest first), junk included: anyone
 * may append forged certifications to a key (the flooding that broke the
 * SKS keyservers), and only the issuer's key tells them apart.  Here, per
 * add_key, each candidate's issuer is looked up among the OpenPGP keys
 * the caller can reach (the module's ".pgpk" keyring, then the caller's
 * own keyrings); the first candidate that verifies with its issuer
 * becomes asym_auth, root's keys first.  If none does, the key's own
 * certification (Key.certification) is used, as before.  A candidate that
 * fails for any reason is skipped, never fatal: appended junk cannot make
 * a key unloadable.
 *
 * Work per key: at most PGPK_MAX_THIRD_PARTY candidates (the decoder's
 * bound), each costing two keyring searches, and only when its issuer is
 * found, one digest and one RSA verification (a candidate judged in the
 * ".pgpk" pass is not tried again).  kernel/README.md ("asym_auth") has
 * the worst case and the abuse analysis.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/bitmap.h>
#include <linux/key.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <keys/asymmetric-subtype.h>
#include <keys/asymmetric-type.h>
#include "pgpk.h"

/* RFC 9580 5.2.1: the certification types the kernel knows to hash. */
#define PGPK_SIG_CERT_FIRST	0x10
#define PGPK_SIG_CERT_LAST	0x13
#define PGPK_SIG_SUBKEY_BINDING	0x18
#define PGPK_SIG_DIRECT_KEY	0x1f

/*
 * RFC 8017 8.2.2: a genuine RSA value is uniform below the modulus, so it
 * is 8 or more octets shorter than the modulus with probability 2^-64.
 */
#define PGPK_SIG_SLACK		8

static const char pgpk_no_issuer[] = "issuer not reachable";

/*
 * RFC 9580 5.2.4: what a certification hashes: a user ID certification
 * (0x10..0x13) the key and the user ID, a subkey binding (0x18) the
 * primary key and the subkey, a direct key signature (0x1f) the key
 * alone.  Any other type (a revocation, say) vouches for nothing.
 */
static int pgpk_cert_hash(struct pgpk_digest *d, const struct pgpk_key *k,
			  u32 type)
{
	int ret;

	if (k->subkey) {
		if (type != PGPK_SIG_SUBKEY_BINDING ||
		    !PGPK_HAS(k, PGPK_KEY_PRIMARY))
			goto error_type;
		return pgpk_digest_key(d, &k->primary) ?:
		       pgpk_digest_key(d, &k->material);
	}
	ret = pgpk_digest_key(d, &k->material);
	if (ret || type == PGPK_SIG_DIRECT_KEY)
		return ret;
	if (type >= PGPK_SIG_CERT_FIRST && type <= PGPK_SIG_CERT_LAST &&
	    PGPK_HAS(k, PGPK_KEY_USER_ID))
		return pgpk_digest_user_id(d, &k->user_id);
error_type:
	pr_warn_ratelimited("certification type 0x%02x does not fit this %s\n", type,
			    k->subkey ? "subkey" : "key");
	return -EBADMSG;
}

/* The digest of certification @sig of @k, quick check verified. */
struct public_key_signature *
pgpk_cert_digest(const struct pgpk_key *k, const struct pgpk_sig *sig)
{
	struct pgpk_digest *d;
	int ret;

	d = pgpk_digest_begin(sig);
	if (IS_ERR(d))
		return ERR_CAST(d);
	ret = pgpk_cert_hash(d, k, sig->type);
	if (ret) {
		pgpk_digest_abort(d);
		return ERR_PTR(ret);
	}
	return pgpk_digest_end(d);
}

/*
 * Only an OpenPGP key issues OpenPGP certifications: an X.509 key found
 * by a colliding subject key ID must not vouch (it would refuse pgpk's
 * signature encoding anyway, see pgpk_subtype.c).
 */
static bool pgpk_is_pgp_key(const struct key *key)
{
	return asymmetric_key_subtype(key) == &pgpk_key_subtype;
}

static bool pgpk_id_is(const struct asymmetric_key_id *kid,
		       const struct pgpk_bytes *want)
{
	return kid && kid->len == want->len &&
	       !memcmp(kid->data, want->data, want->len);
}

/*
 * The issuer of @sig in ".pgpk" (root's trusted keys), or with @caller in
 * the caller's process keyrings, searched by request_key_tag() without a
 * callout (nothing is constructed, no upcall).  It must be an OpenPGP key
 * with @sig's fingerprint and key ID.
 */
static struct key *pgpk_find_certifier(const struct pgpk_sig *sig,
				       bool caller)
{
	const struct pgpk_bytes *fpr = &sig->issuer_fingerprint;
	const struct pgpk_bytes *keyid = &sig->issuer_key_id;
	const struct asymmetric_key_ids *kids;
	char desc[sizeof("ex:") + 2 * PGPK_FPR_MAX];
	key_ref_t ref;
	struct key *key;

	if (PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT))
		snprintf(desc, sizeof(desc), "ex:%*phN", fpr->len, fpr->data);
	else if (PGPK_HAS(sig, PGPK_SIG_ISSUER_KEY_ID))
		snprintf(desc, sizeof(desc), "ex:%*phN", keyid->len,
			 keyid->data);
	else
		return ERR_PTR(-ENOKEY);

	if (caller) {
		key = request_key_tag(&key_type_asymmetric, desc, NULL, NULL);
	} else {
		ref = keyring_search(make_key_ref(pgpk_trusted_keys, true),
				     &key_type_asymmetric, desc, true);
		key = IS_ERR(ref) ? ERR_CAST(ref) : key_ref_to_ptr(ref);
	}
	if (IS_ERR(key))
		return key;
	kids = asymmetric_key_ids(key);
	if (!pgpk_is_pgp_key(key) || !kids ||
	    (PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT) &&
	     !pgpk_id_is(kids->id[0], fpr)) ||
	    (PGPK_HAS(sig, PGPK_SIG_ISSUER_KEY_ID) &&
	     !pgpk_id_is(kids->id[1], keyid))) {
		key_put(key);
		return ERR_PTR(-ENOKEY);
	}
	return key;
}

/* The issuer's modulus size in octets: RSA values are fitted to it. */
static int pgpk_modulus_size(struct key *key)
{
	struct kernel_pkey_params params = {
		.key		= key,
		.encoding	= "pkcs1",
	};
	struct kernel_pkey_query info;
	int ret;

	ret = query_asymmetric_key(&params, &info);
	return ret ?: info.max_sig_size;
}

/* Cheap refusals first: nothing here costs more than a comparison. */
static const char *pgpk_candidate_unfit(const struct pgpk_key *k,
					const struct pgpk_sig *sig)
{
	if (sig->version != 4 && sig->version != 6)
		return "not v4 or v6";
	if (sig->type < PGPK_SIG_CERT_FIRST || sig->type > PGPK_SIG_CERT_LAST ||
	    k->subkey || !PGPK_HAS(k, PGPK_KEY_USER_ID))
		return "not a user ID certification";
	if (sig->pubkey_algorithm != 1 && sig->pubkey_algorithm != 3)
		return "not RSA";
	if (sig->hash_algorithm < 8 || sig->hash_algorithm > 11)
		return "not SHA-224/256/384/512";
	if (sig->expires && sig->expires <= ktime_get_real_seconds())
		return "expired";
	if (sig->rsa_s.len + PGPK_SIG_SLACK < PGPK_MIN_ISSUER_BITS / 8)
		return "RSA value too short";
	return NULL;
}

/* Candidate @sig verified with its issuer, or why not (ERR_PTR). */
static struct public_key_signature *
pgpk_candidate(const struct pgpk_key *k, const struct pgpk_sig *sig,
	       bool caller, const char **why)
{
	struct public_key_signature *pks;
	struct key *issuer;
	int size, ret;

	*why = pgpk_candidate_unfit(k, sig);
	if (*why)
		return ERR_PTR(-EKEYREJECTED);
	*why = pgpk_no_issuer;
	issuer = pgpk_find_certifier(sig, caller);
	if (IS_ERR(issuer))
		return ERR_CAST(issuer);
	*why = "not made by its issuer at that time";
	ret = pgpk_sig_key_check(issuer, sig, false);
	if (ret)
		goto error_put_issuer;
	*why = "RSA value does not fit the issuer's modulus";
	size = pgpk_modulus_size(issuer);
	ret = size < 0 ? size : -EKEYREJECTED;
	if (size < 0 || sig->rsa_s.len > size ||
	    sig->rsa_s.len + PGPK_SIG_SLACK < size)
		goto error_put_issuer;
	*why = "digest or quick check";
	pks = pgpk_cert_digest(k, sig);
	if (IS_ERR(pks)) {
		ret = PTR_ERR(pks);
		goto error_put_issuer;
	}
	*why = "bad signature";
	ret = pgpk_sig_auth_ids(pks, sig) ?: verify_signature(issuer, pks);
	key_put(issuer);
	if (ret) {
		public_key_signature_free(pks);
		return ERR_PTR(ret);
	}
	return pks;

error_put_issuer:
	key_put(issuer);
	return ERR_PTR(ret);
}

/*
 * The key's own certification (Key.certification): the self-certification,
 * or a subkey's binding signature.  pgpk_subtype.c fits its RSA value to
 * the certifier's modulus when restrict.c checks it.
 */
static struct public_key_signature *
pgpk_certification(const struct pgpk_key *k, const struct pgpk_key_id *id)
{
	const struct pgpk_sig *sig = &k->certification;
	struct public_key_signature *pks;
	int ret;

	/* An expired certification vouches for nothing any more. */
	if (sig->expires && sig->expires <= ktime_get_real_seconds()) {
		pr_warn_ratelimited("certification of key %*phN expired\n",
				    PGPK_KEYID_LEN, id->keyid);
		return NULL;
	}
	/* Policy floor: a v3 signature hashes no subpackets, no authority. */
	if (sig->version == 3 || pgpk_hash_weak(sig->hash_algorithm)) {
		pr_warn_ratelimited("policy: %s certification of key %*phN vouches for nothing\n",
				    sig->version == 3 ? "v3" : "weak-hash",
				    PGPK_KEYID_LEN, id->keyid);
		return NULL;
	}
	pks = pgpk_cert_digest(k, sig);
	if (pks == ERR_PTR(-ENOPKG))
		return NULL;	/* say, by an EdDSA key: not checkable here */
	if (IS_ERR(pks)) {
		if (pks == ERR_PTR(-EKEYREJECTED))
			pr_warn_ratelimited("certification of key %*phN: bad digest\n",
					    PGPK_KEYID_LEN, id->keyid);
		return pks;
	}
	ret = pgpk_sig_auth_ids(pks, sig);
	if (ret) {
		public_key_signature_free(pks);
		return ERR_PTR(ret);
	}
	return pks;
}

/*
 * The first candidate whose issuer, in ".pgpk" or (@caller) in the
 * caller's keyrings, verifies it.  The first pass marks in @judged every
 * candidate it did more than look up, so that none costs a second digest
 * or RSA operation.
 */
static struct public_key_signature *
pgpk_certify_pass(const struct pgpk_key *k, const struct pgpk_key_id *id,
		  bool caller, unsigned long *judged)
{
	struct public_key_signature *pks;
	struct pgpk_sig sig;
	const char *why;
	u32 pos = 0, i;

	for (i = 1; !pgpk_canon_next(&k->third_party, &pos, &sig); i++) {
		if (test_bit(i - 1, judged))
			continue;
		pks = pgpk_candidate(k, &sig, caller, &why);
		if (!IS_ERR(pks)) {
			pr_debug("key %*phN: third-party certification %u of %u verified\n",
				 PGPK_KEYID_LEN, id->keyid, i,
				 k->third_party.count);
			return pks;
		}
		if (why != pgpk_no_issuer)
			__set_bit(i - 1, judged);
		if (caller || why != pgpk_no_issuer)
			pr_info_ratelimited("key %*phN: third-party certification %u of %u skipped: %s (%ld)\n",
					    PGPK_KEYID_LEN, id->keyid, i,
					    k->third_party.count, why,
					    PTR_ERR(pks));
		cond_resched();
	}
	return NULL;
}

/**
 * pgpk_certify - choose asym_auth for a key being loaded
 * @k: the decoded Key
 * @id: its identity, computed here
 *
 * The first Key.third_party candidate that verifies with an OpenPGP key
 * of ".pgpk", else the first that verifies with one the caller can
 * reach, else Key.certification, else none.
 *
 * Return: the signature, NULL for none, or an error from
 * Key.certification (-EBADMSG for a type that vouches for nothing,
 * -EKEYREJECTED for a bad digest); candidates never fail the key.
 */
struct public_key_signature *pgpk_certify(const struct pgpk_key *k,
					  const struct pgpk_key_id *id)
{
	DECLARE_BITMAP(judged, PGPK_MAX_THIRD_PARTY) = { 0 };
	struct public_key_signature *pks;

	pks = pgpk_certify_pass(k, id, false, judged) ?:
	      pgpk_certify_pass(k, id, true, judged);
	if (pks || !PGPK_HAS(k, PGPK_KEY_CERTIFICATION))
		return pks;
	return pgpk_certification(k, id);
}
