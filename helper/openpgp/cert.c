// SPDX-License-Identifier: GPL-2.0
/*
 * Certificates (RFC 9580 10.1.1): key, user IDs, subkeys and their
 * signatures; validity of self-signatures checked with OpenSSL, and from
 * that which keys are valid, revoked, expired and usable for signing,
 * following GnuPG's merge_selfsigs() so that listings agree with
 * `gpg --show-keys`.
 *
 * Only what decides the answer is verified: per user ID and subkey the
 * newest self-signature first (older ones only if it fails), every self-
 * revocation, and the back-signature of signing subkeys.  Certificates are
 * independent, so they are validated on several threads when asked.
 *
 * RSA signatures are checked here with OpenSSL's Montgomery arithmetic
 * (the key loaded once, PKCS#1 v1.5 encoding compared octet for octet);
 * DSA, ECDSA and EdDSA ones through OpenSSL's EVP interface (pkalgo.c).
 * Algorithms OpenSSL lacks (ElGamal signatures, unknown ones) never
 * verify, as in GnuPG.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"

/* Larger public exponents make verification as slow as a private-key
 * operation: refused for self-signature checks (hostile input). */
#define PGPK_MAX_RSA_E_OCTETS 8 /* 64 bits, OpenSSL's limit for big n */
#define PGPK_MAX_RSA_N_OCTETS 2048 /* 16384 bits */

struct pgpk_ring_priv {
	struct pgpk_userid *uids;
	struct pgpk_pubkey *subkeys;
	struct pgpk_signature *sigs;
};

const char *pgpk_md_name(unsigned int hash_algo)
{
	switch (hash_algo) {
	case PGPK_HASH_MD5:
		return "MD5";
	case PGPK_HASH_SHA1:
		return "SHA1";
	case PGPK_HASH_RIPEMD160:
		return "RIPEMD160";
	case PGPK_HASH_SHA256:
		return "SHA256";
	case PGPK_HASH_SHA384:
		return "SHA384";
	case PGPK_HASH_SHA512:
		return "SHA512";
	case PGPK_HASH_SHA224:
		return "SHA224";
	case PGPK_HASH_SHA3_256:
		return "SHA3-256";
	case PGPK_HASH_SHA3_512:
		return "SHA3-512";
	default:
		return NULL;
	}
}

/* RFC 8017 9.2 note 1: DER DigestInfo prefixes (EMSA-PKCS1-v1_5); SHA-3
 * OIDs from NIST CSOR (2.16.840.1.101.3.4.2.8 / .10). */
static const struct pgpk_digest_info {
	uint8_t hash_algo;
	uint8_t len;
	uint8_t prefix[19];
	uint8_t digest_len;
} pgpk_digest_infos[] = {
	{ PGPK_HASH_MD5,
	  18,
	  { 0x30, 0x20, 0x30, 0x0c, 0x06, 0x08, 0x2a, 0x86, 0x48, 0x86, 0xf7,
	    0x0d, 0x02, 0x05, 0x05, 0x00, 0x04, 0x10 },
	  16 },
	{ PGPK_HASH_SHA1,
	  15,
	  { 0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a,
	    0x05, 0x00, 0x04, 0x14 },
	  20 },
	{ PGPK_HASH_RIPEMD160,
	  15,
	  { 0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x24, 0x03, 0x02, 0x01,
	    0x05, 0x00, 0x04, 0x14 },
	  20 },
	{ PGPK_HASH_SHA256,
	  19,
	  { 0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	    0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20 },
	  32 },
	{ PGPK_HASH_SHA384,
	  19,
	  { 0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	    0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30 },
	  48 },
	{ PGPK_HASH_SHA512,
	  19,
	  { 0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	    0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40 },
	  64 },
	{ PGPK_HASH_SHA224,
	  19,
	  { 0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	    0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1c },
	  28 },
	{ PGPK_HASH_SHA3_256,
	  19,
	  { 0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	    0x03, 0x04, 0x02, 0x08, 0x05, 0x00, 0x04, 0x20 },
	  32 },
	{ PGPK_HASH_SHA3_512,
	  19,
	  { 0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	    0x03, 0x04, 0x02, 0x0a, 0x05, 0x00, 0x04, 0x40 },
	  64 },
};

static const struct pgpk_digest_info *pgpk_digest_info(unsigned int algo)
{
	size_t i;

	for (i = 0;
	     i < sizeof(pgpk_digest_infos) / sizeof(pgpk_digest_infos[0]); i++)
		if (pgpk_digest_infos[i].hash_algo == algo)
			return &pgpk_digest_infos[i];
	return NULL;
}

/* An RSA public key ready for repeated verification. */
struct pgpk_rsa {
	BIGNUM *n;
	BIGNUM *e;
	BN_MONT_CTX *mont;
	size_t n_len; /* k, octets of the modulus */
};

static void pgpk_rsa_release(struct pgpk_rsa *rsa)
{
	BN_MONT_CTX_free(rsa->mont);
	BN_free(rsa->n);
	BN_free(rsa->e);
	memset(rsa, 0, sizeof(*rsa));
}

static int pgpk_rsa_load(struct pgpk_rsa *rsa, const struct pgpk_mpi *n,
			 const struct pgpk_mpi *e, BN_CTX *bn)
{
	memset(rsa, 0, sizeof(*rsa));
	/* An even or tiny modulus is not RSA; a huge exponent would make a
	 * "public" operation as slow as a private one. */
	if (n->len < 64 || n->len > PGPK_MAX_RSA_N_OCTETS || !e->len ||
	    e->len > PGPK_MAX_RSA_E_OCTETS || !(n->data[n->len - 1] & 1))
		return -EBADMSG;
	rsa->n = BN_bin2bn(n->data, (int)n->len, NULL);
	rsa->e = BN_bin2bn(e->data, (int)e->len, NULL);
	rsa->mont = BN_MONT_CTX_new();
	rsa->n_len = n->len;
	if (!rsa->n || !rsa->e || !rsa->mont ||
	    !BN_MONT_CTX_set(rsa->mont, rsa->n, bn)) {
		pgpk_rsa_release(rsa);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Can `s` be a PKCS#1 v1.5 signature value with `hash_algo` under a
 * modulus of k octets?  Length checks only, no arithmetic.  A genuine
 * value is 8 octets shorter than the modulus with probability 2^-64; junk
 * that short would cost one RSA operation per few octets of input
 * (flooding): refused before any arithmetic or hashing.
 */
static int pgpk_rsa_plausible(size_t k, unsigned int hash_algo,
			      const struct pgpk_mpi *s)
{
	const struct pgpk_digest_info *di = pgpk_digest_info(hash_algo);

	if (!di)
		return -ENOPKG;
	if (k < (size_t)di->len + di->digest_len + 11 || !s->len ||
	    s->len > k || s->len + 8 < k)
		return -EKEYREJECTED;
	return 0;
}

/*
 * RFC 8017 8.2.2 without the digest: s^e mod n must be EMSA-PKCS1-v1_5 of
 * some `hash_algo` digest, i.e. 0x00 0x01 0xFF... 0x00 DigestInfo digest,
 * with at least 8 0xFF octets; that digest is copied to `digest`
 * (EVP_MAX_MD_SIZE octets at most) and its length to `digest_len`.  One
 * public-key operation and no hashing of the signed data: junk fails
 * here, since only the private key makes all but the digest's octets come
 * out right (a random value: probability 256^-(k - digest length)).
 */
static int pgpk_rsa_recover(const struct pgpk_rsa *rsa, BN_CTX *bn,
			    unsigned int hash_algo, const struct pgpk_mpi *s,
			    uint8_t *digest, size_t *digest_len)
{
	const struct pgpk_digest_info *di = pgpk_digest_info(hash_algo);
	uint8_t em[PGPK_MAX_RSA_N_OCTETS];
	size_t k = rsa->n_len, tlen, ps;
	BIGNUM *bs, *m;
	int ret;

	ret = pgpk_rsa_plausible(k, hash_algo, s);
	if (ret)
		return ret;
	ret = -EKEYREJECTED;
	tlen = di->len + di->digest_len;
	BN_CTX_start(bn);
	bs = BN_CTX_get(bn);
	m = BN_CTX_get(bn);
	if (!m || !BN_bin2bn(s->data, (int)s->len, bs)) {
		ret = -ENOMEM;
		goto out_end;
	}
	if (BN_cmp(bs, rsa->n) >= 0)
		goto out_end;
	if (!BN_mod_exp_mont(m, bs, rsa->e, rsa->n, bn, rsa->mont) ||
	    BN_bn2binpad(m, em, (int)k) != (int)k) {
		ret = -ENOMEM;
		goto out_end;
	}
	ps = k - tlen - 3;
	if (em[0] != 0x00 || em[1] != 0x01 || em[2 + ps] != 0x00)
		goto out_end;
	for (size_t i = 0; i < ps; i++)
		if (em[2 + i] != 0xFF)
			goto out_end;
	if (memcmp(em + 3 + ps, di->prefix, di->len))
		goto out_end;
	memcpy(digest, em + 3 + ps + di->len, di->digest_len);
	*digest_len = di->digest_len;
	ret = 0;
out_end:
	BN_CTX_end(bn);
	return ret;
}

/* RFC 8017 8.2.2: s^e mod n must equal EMSA-PKCS1-v1_5(digest). */
static int pgpk_rsa_check(const struct pgpk_rsa *rsa, BN_CTX *bn,
			  unsigned int hash_algo, const uint8_t *digest,
			  size_t digest_len, const struct pgpk_mpi *s)
{
	const struct pgpk_digest_info *di = pgpk_digest_info(hash_algo);
	uint8_t rec[EVP_MAX_MD_SIZE];
	size_t rec_len;
	int ret;

	if (!di)
		return -ENOPKG;
	if (digest_len != di->digest_len)
		return -EKEYREJECTED;
	ret = pgpk_rsa_recover(rsa, bn, hash_algo, s, rec, &rec_len);
	if (ret)
		return ret;
	return rec_len != digest_len || memcmp(rec, digest, digest_len) ?
		       -EKEYREJECTED :
		       0;
}

int pgpk_rsa_verify_digest(const struct pgpk_mpi *n, const struct pgpk_mpi *e,
			   unsigned int hash_algo, const uint8_t *digest,
			   size_t digest_len, const struct pgpk_mpi *s)
{
	BN_CTX *bn = BN_CTX_new();
	struct pgpk_rsa rsa;
	int ret;

	if (!bn)
		return -ENOMEM;
	ret = pgpk_rsa_load(&rsa, n, e, bn);
	if (!ret) {
		ret = pgpk_rsa_check(&rsa, bn, hash_algo, digest, digest_len,
				     s);
		pgpk_rsa_release(&rsa);
	}
	BN_CTX_free(bn);
	return ret;
}

static bool pgpk_mpi_eq(const struct pgpk_mpi *a, const struct pgpk_mpi *b)
{
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

int pgpk_key_rsa_verify_digest(const struct pgpk_pubkey *key,
			       const struct pgpk_mpi *n,
			       const struct pgpk_mpi *e, unsigned int hash_algo,
			       const uint8_t *digest, size_t digest_len,
			       const struct pgpk_mpi *s)
{
	BN_CTX *bn;
	int ret;

	if (!key->rsa || !pgpk_mpi_eq(n, &key->rsa_n) ||
	    !pgpk_mpi_eq(e, &key->rsa_e))
		return pgpk_rsa_verify_digest(n, e, hash_algo, digest,
					      digest_len, s);
	bn = BN_CTX_new();
	if (!bn)
		return -ENOMEM;
	ret = pgpk_rsa_check(key->rsa, bn, hash_algo, digest, digest_len, s);
	BN_CTX_free(bn);
	return ret;
}

/*
 * Work bounds against certificate flooding (anyone can append signatures
 * to a published key; none verifies, each costs a digest and maybe an RSA
 * operation).  The newest valid self-signature must still be found, so
 * every candidate is checked, newest first, and the cost of each is kept
 * proportional to its own size:
 *  - the digest of key [+ subkey] [+ user ID], the same for every unsalted
 *    (v3, v4) signature of a component, is computed once per hash and
 *    copied (struct pgpk_md_prefix), so a huge user ID with thousands of
 *    signatures is not hashed thousands of times;
 *  - a v6 signature hashes its own salt first (RFC 9580 5.2.4), so that
 *    prefix cannot be shared.  By an RSA key, its value is checked first
 *    with one public-key operation and no hashing (pgpk_rsa_recover():
 *    junk cannot get the PKCS#1 padding right), then the recovered
 *    digest's first two octets against the quick check; only what passes
 *    is hashed.  What is hashed before a v6 signature's own packet is
 *    charged to a budget linear in the input (PGPK_SALTED_BUDGET): junk
 *    by an RSA key never reaches it, junk by other keys (EdDSA, ECDSA,
 *    DSA: nothing to recover) does, and a validation that runs out of it
 *    fails closed (-E2BIG, then EBADMSG);
 *  - an RSA signature value far shorter than the modulus is refused
 *    before any hashing or arithmetic (pgpk_rsa_plausible()).
 */
#define PGPK_SALTED_BUDGET(input_len) ((size_t)(64u << 20) + 16 * (input_len))

/* State of a digest after key [+ subkey] [+ user ID], by hash and by
 * user ID encoding (v3 hashes it bare, v4 with a header). */
struct pgpk_md_prefix {
	const struct pgpk_pubkey *k1;
	const struct pgpk_pubkey *k2;
	const struct pgpk_userid *uid;
	struct pgpk_digest d; /* held while ready */
	bool ready;
};

/* Per-thread verification state. */
struct pgpk_vctx {
	int64_t now;
	bool no_verify;
	BN_CTX *bn;
	struct pgpk_md_prefix prefixes[16][2]; /* [hash][v3] */
	size_t salted_left; /* octets v6 prefixes may still hash */
	bool exhausted; /* a check was refused for want of budget */
	size_t verified;
};

static bool pgpk_sig_by(const struct pgpk_signature *sig,
			const struct pgpk_pubkey *key)
{
	if (sig->issuer_fpr_len)
		return sig->issuer_fpr_len == key->fpr_len &&
		       !memcmp(sig->issuer_fpr, key->fpr, key->fpr_len);
	return sig->has_issuer_keyid &&
	       !memcmp(sig->issuer_keyid, key->keyid, PGPK_KEYID_LEN);
}

static bool pgpk_sig_expired(const struct pgpk_signature *sig, int64_t now)
{
	return sig->sig_expires &&
	       (int64_t)sig->created + sig->sig_expires <= now;
}

/* RFC 9580 5.2.4: a user ID is hashed as 0xB4 (attribute 0xD1) and a
 * four-octet length; a v3 signature hashes it without header. */
static int pgpk_hash_uid(struct pgpk_digest *md,
			 const struct pgpk_signature *sig,
			 const struct pgpk_userid *uid)
{
	uint8_t hdr[5];

	if (sig->version != 3) {
		hdr[0] = uid->attribute ? 0xD1 : 0xB4;
		hdr[1] = (uint8_t)(uid->len >> 24);
		hdr[2] = (uint8_t)(uid->len >> 16);
		hdr[3] = (uint8_t)(uid->len >> 8);
		hdr[4] = (uint8_t)uid->len;
		if (pgpk_digest_update(md, hdr, 5))
			return -ENOMEM;
	}
	return pgpk_digest_update(md, uid->data, uid->len);
}

/*
 * The RSA key of `ckey`, loaded at its first use and kept with the
 * keyring (pgpk_keyring_free()): setting up its Montgomery context costs
 * a third of a verification, and verify checks the document's signature
 * with the same key afterwards (pgpk_key_rsa_verify_digest()).  NULL if
 * the key is unusable (pgpk_rsa_load()) or memory ran out.  A key is
 * only ever checked by the thread validating its certificate.
 */
static const struct pgpk_rsa *pgpk_key_rsa(const struct pgpk_pubkey *ckey,
					   BN_CTX *bn)
{
	/* A cache: the keyring under validation owns its keys. */
	struct pgpk_pubkey *key = (struct pgpk_pubkey *)(uintptr_t)ckey;

	if (key->rsa || key->rsa_err)
		return key->rsa;
	key->rsa = malloc(sizeof(*key->rsa));
	key->rsa_err = key->rsa ? pgpk_rsa_load(key->rsa, &key->rsa_n,
						&key->rsa_e, bn) :
				  -ENOMEM;
	if (key->rsa_err) {
		free(key->rsa);
		key->rsa = NULL;
	}
	return key->rsa;
}

static void pgpk_key_rsa_release(struct pgpk_pubkey *key)
{
	if (!key->rsa)
		return;
	pgpk_rsa_release(key->rsa);
	free(key->rsa);
	key->rsa = NULL;
}

static int pgpk_hash_covered(struct pgpk_digest *md,
			     const struct pgpk_signature *sig,
			     const struct pgpk_pubkey *k1,
			     const struct pgpk_pubkey *k2,
			     const struct pgpk_userid *uid)
{
	if (pgpk_hash_key_packet(md, k1) ||
	    (k2 && pgpk_hash_key_packet(md, k2)) ||
	    (uid && pgpk_hash_uid(md, sig, uid)))
		return -ENOMEM;
	return 0;
}

/*
 * Start *md for `sig`: salt (v6), key k1 [, key k2] [, uid].  0, or
 * -ENOPKG (hash), -ENOMEM, or -E2BIG when the budget of salted prefixes
 * is spent; on failure *md holds nothing.
 */
static int pgpk_digest_start(struct pgpk_vctx *v, struct pgpk_digest *md,
			     const struct pgpk_signature *sig,
			     const struct pgpk_pubkey *k1,
			     const struct pgpk_pubkey *k2,
			     const struct pgpk_userid *uid)
{
	struct pgpk_md_prefix *p;
	size_t cost;
	int ret;

	if (sig->version == 6) {
		cost = sig->salt_len + k1->body_len + (k2 ? k2->body_len : 0) +
		       (uid ? uid->len : 0);
		if (cost > v->salted_left) {
			v->exhausted = true;
			return -E2BIG;
		}
		v->salted_left -= cost;
		ret = pgpk_digest_init(md, sig->hash_algo);
		if (ret)
			return ret;
		if (pgpk_hash_sig_prefix(md, sig) ||
		    pgpk_hash_covered(md, sig, k1, k2, uid)) {
			pgpk_digest_release(md);
			return -ENOMEM;
		}
		return 0;
	}
	p = &v->prefixes[sig->hash_algo][sig->version == 3];
	if (!p->ready || p->k1 != k1 || p->k2 != k2 || p->uid != uid) {
		if (p->ready)
			pgpk_digest_release(&p->d);
		p->ready = false;
		ret = pgpk_digest_init(&p->d, sig->hash_algo);
		if (ret)
			return ret;
		if (pgpk_hash_covered(&p->d, sig, k1, k2, uid)) {
			pgpk_digest_release(&p->d);
			return -ENOMEM;
		}
		p->k1 = k1;
		p->k2 = k2;
		p->uid = uid;
		p->ready = true;
	}
	return pgpk_digest_copy(md, &p->d);
}

/*
 * Does `sig`, made by `signer`, cover key k1 [, key k2] [, uid]?  The
 * result is cached in sig->verified.
 */
static bool pgpk_check(struct pgpk_vctx *v, const struct pgpk_pubkey *signer,
		       struct pgpk_signature *sig, const struct pgpk_pubkey *k1,
		       const struct pgpk_pubkey *k2,
		       const struct pgpk_userid *uid)
{
	uint8_t digest[EVP_MAX_MD_SIZE], recovered[EVP_MAX_MD_SIZE];
	struct pgpk_digest md;
	size_t rec_len = 0, dlen = 0;
	const struct pgpk_rsa *key;
	bool good = false, rsa;

	if (sig->verified)
		return sig->verified > 0;
	if (sig->malformed || sig->unknown_critical || !sig->has_created)
		goto done;
	/* GnuPG: a signature older than its key is a time conflict.  (GnuPG
	 * also refuses keys created in the future; not done here, so that a
	 * clock behind the key generator's never invalidates fresh keys.) */
	if (sig->created < signer->created)
		goto done;
	if (v->no_verify) {
		good = true;
		goto done;
	}
	if (pgpk_pk_algo_is_rsa(signer->algo) &&
	    (!pgpk_pk_algo_is_rsa(sig->pk_algo) || signer->mpi_noncanonical))
		goto done;
	if (!pgpk_pk_algo_is_rsa(signer->algo) && sig->pk_algo != signer->algo)
		goto done;
	/* GnuPG refuses MD5 signatures by default. */
	if (!pgpk_md_name(sig->hash_algo) || sig->hash_algo == PGPK_HASH_MD5)
		goto done;
	if (sig->hash_algo >= sizeof(v->prefixes) / sizeof(v->prefixes[0]))
		goto done;
	rsa = pgpk_pk_algo_is_rsa(signer->algo);
	/* Flooding: cheap refusals before any hashing. */
	if (rsa &&
	    pgpk_rsa_plausible(signer->rsa_n.len, sig->hash_algo, &sig->rsa_s))
		goto done;
	if (rsa && sig->version == 6) {
		/* Salted: its digest is not shared with the others, so the
		 * value is checked first (the quick check too). */
		key = pgpk_key_rsa(signer, v->bn);
		if (!key)
			goto done;
		v->verified++;
		if (pgpk_rsa_recover(key, v->bn, sig->hash_algo, &sig->rsa_s,
				     recovered, &rec_len) ||
		    ((unsigned int)recovered[0] << 8 | recovered[1]) !=
			    sig->quick_check)
			goto done;
	}
	if (pgpk_digest_start(v, &md, sig, k1, k2, uid))
		goto done;
	if (pgpk_hash_sig_trailer(&md, sig)) {
		pgpk_digest_release(&md);
		goto done;
	}
	if (pgpk_digest_final(&md, digest, &dlen))
		goto done;
	/* RFC 9580 5.2.3: the left 16 bits must match before any RSA (v3,
	 * v4: their digest is cheap, the prefix shared). */
	if (((unsigned int)digest[0] << 8 | digest[1]) != sig->quick_check)
		goto done;
	if (!rsa) {
		/* DSA, ECDSA, EdDSA (pkalgo.c); unsupported ones fail, as
		 * they do in GnuPG. */
		v->verified++;
		good = !pgpk_verify_digest(signer, sig, digest, dlen);
		goto done;
	}
	if (sig->version == 6) {
		good = dlen == rec_len && !memcmp(recovered, digest, dlen);
		goto done;
	}
	key = pgpk_key_rsa(signer, v->bn);
	if (!key)
		goto done;
	v->verified++;
	good = !pgpk_rsa_check(key, v->bn, sig->hash_algo, digest, dlen,
			       &sig->rsa_s);
done:
	sig->verified = good ? 1 : -1;
	return good;
}

/*
 * Candidate ordering, for pgpk_sort_ptrs(): newest first; on equal times
 * the later packet wins (GnuPG keeps the last signature with timestamp >=
 * the best so far).
 */
int pgpk_sig_newest_cmp(const void *a, const void *b)
{
	const struct pgpk_signature *x = a, *y = b;

	if (x->created != y->created)
		return x->created > y->created ? -1 : 1;
	return x > y ? -1 : (x < y ? 1 : 0);
}

typedef bool (*pgpk_sig_filter)(const struct pgpk_signature *sig,
				const struct pgpk_pubkey *primary, int64_t now);

static bool pgpk_is_uid_selfsig(const struct pgpk_signature *sig,
				const struct pgpk_pubkey *primary, int64_t now)
{
	return ((sig->type >= PGPK_SIG_CERT_GENERIC &&
		 sig->type <= PGPK_SIG_CERT_POSITIVE) ||
		sig->type == PGPK_SIG_CERT_REVOCATION) &&
	       pgpk_sig_by(sig, primary);
}

static bool pgpk_is_direct(const struct pgpk_signature *sig,
			   const struct pgpk_pubkey *primary, int64_t now)
{
	return sig->type == PGPK_SIG_DIRECT_KEY && pgpk_sig_by(sig, primary) &&
	       !pgpk_sig_expired(sig, now);
}

static bool pgpk_is_binding(const struct pgpk_signature *sig,
			    const struct pgpk_pubkey *primary, int64_t now)
{
	return sig->type == PGPK_SIG_SUBKEY_BINDING &&
	       pgpk_sig_by(sig, primary) && !pgpk_sig_expired(sig, now);
}

/*
 * The newest signature among sigs[] passing `filter` that verifies, or
 * NULL.  Older candidates are only verified if newer ones fail.
 */
static struct pgpk_signature *
pgpk_newest_good(struct pgpk_vctx *v, struct pgpk_signature *sigs, size_t nsigs,
		 pgpk_sig_filter filter, const struct pgpk_pubkey *primary,
		 const struct pgpk_pubkey *subkey,
		 const struct pgpk_userid *uid)
{
	struct pgpk_signature *stack_cands[16], **cands = stack_cands, *best;
	size_t i, n = 0;

	for (i = 0; i < nsigs; i++)
		if (filter(&sigs[i], primary, v->now))
			n++;
	if (!n)
		return NULL;
	if (n > sizeof(stack_cands) / sizeof(stack_cands[0])) {
		cands = pgpk_calloc_array(n, sizeof(*cands));
		if (!cands)
			return NULL;
	}
	n = 0;
	for (i = 0; i < nsigs; i++)
		if (filter(&sigs[i], primary, v->now))
			cands[n++] = &sigs[i];
	best = NULL;
	if (pgpk_sort_ptrs((const void **)cands, n, pgpk_sig_newest_cmp))
		goto out_free;
	for (i = 0; i < n && !best; i++)
		if (pgpk_check(v, primary, cands[i], primary, subkey, uid))
			best = cands[i];
out_free:
	if (cands != stack_cands)
		free(cands);
	return best;
}

/* GnuPG's openpgp_pk_algo_usage() as key flags. */
static uint8_t pgpk_algo_usage(unsigned int algo)
{
	switch (algo) {
	case PGPK_PK_RSA:
		return PGPK_KF_CERTIFY | PGPK_KF_SIGN | PGPK_KF_ENCRYPT_COMMS |
		       PGPK_KF_ENCRYPT_STORAGE | PGPK_KF_AUTH;
	case PGPK_PK_RSA_S:
		return PGPK_KF_CERTIFY | PGPK_KF_SIGN;
	case PGPK_PK_RSA_E:
	case PGPK_PK_ELGAMAL_E:
	case PGPK_PK_ECDH:
	case PGPK_PK_X25519:
	case PGPK_PK_X448:
		return PGPK_KF_ENCRYPT_COMMS | PGPK_KF_ENCRYPT_STORAGE;
	case PGPK_PK_DSA:
	case PGPK_PK_ECDSA:
	case PGPK_PK_EDDSA_LEGACY:
	case PGPK_PK_ED25519:
	case PGPK_PK_ED448:
		return PGPK_KF_CERTIFY | PGPK_KF_SIGN | PGPK_KF_AUTH;
	default:
		return 0; /* ElGamal sign+encrypt (20): unusable */
	}
}

/* Without Key Flags, all the algorithm can do; but a subkey certifies
 * nothing (RFC 9580 5.2.3.29; the kernel's rule). */
static uint8_t pgpk_usage_from(const struct pgpk_pubkey *key,
			       const struct pgpk_signature *sig)
{
	uint8_t mask = pgpk_algo_usage(key->algo);

	if (key->subkey)
		mask &= (uint8_t)~PGPK_KF_CERTIFY;
	return sig && sig->has_key_flags ? sig->key_flags & mask : mask;
}

/*
 * RFC 9580 5.2.3.13, 5.2.3.18: the end of a key whose deciding
 * self-signature is `sig`: its Key Expiration Time after the key's
 * creation, or its own expiry, the earlier; 0: never.  The kernel reads
 * the same (kernel/pgpk_key.c pgpk_self_sigs()).
 */
static int64_t pgpk_self_sig_end(const struct pgpk_pubkey *key,
				 const struct pgpk_signature *sig)
{
	int64_t end = 0, own;

	if (sig && sig->has_key_expires && sig->key_expires)
		end = (int64_t)key->created + sig->key_expires;
	own = sig && sig->sig_expires ?
		      (int64_t)sig->created + sig->sig_expires :
		      0;
	return own && (!end || own < end) ? own : end;
}

/* RFC 9580 5.2.3.34: the 0x19 back-signature embedded in a binding. */
static bool pgpk_check_backsig(struct pgpk_vctx *v, struct pgpk_cert *cert,
			       struct pgpk_pubkey *sub,
			       const struct pgpk_signature *binding)
{
	struct pgpk_signature back;

	if (!binding->embedded ||
	    pgpk_signature_parse(binding->embedded, binding->embedded_len,
				 binding->embedded_offset, &back, NULL))
		return false;
	if (back.type != PGPK_SIG_PRIMARY_BINDING)
		return false;
	return pgpk_check(v, sub, &back, &cert->primary, sub, NULL);
}

/*
 * RFC 9580 5.2.3.31: a revocation without a reason, with "no reason
 * specified" (0), "key material compromised" (2), or any other code than
 * "superseded" (1) and "retired" (3), is hard: every signature of the key
 * is invalid, whenever made.
 */
static bool pgpk_revocation_hard(const struct pgpk_signature *s)
{
	return !s->has_revocation_reason ||
	       (s->revocation_reason != 1 && s->revocation_reason != 3);
}

/* Record the verified revocation @s of @key. */
static void pgpk_revoke(struct pgpk_pubkey *key, const struct pgpk_signature *s)
{
	int reason = s->has_revocation_reason ? s->revocation_reason : -1;

	if (key->revoked_hard)
		return;
	if (pgpk_revocation_hard(s)) {
		key->revoked_hard = true;
		key->revoked_reason = reason;
	} else {
		if (!key->revoked || s->created < key->revoked_at) {
			key->revoked_at = s->created;
			key->revoked_reason = reason;
		}
	}
	key->revoked = true;
}

/*
 * Every revocation of type @type by the primary key over @k1 [, @k2]:
 * one hard revocation decides; soft ones date the key's end.  A newer
 * self-signature does not undo a revocation (GnuPG; Sequoia lets one undo
 * a soft revocation): what was revoked stays revoked.
 */
static void pgpk_revocations(struct pgpk_vctx *v, struct pgpk_pubkey *key,
			     uint8_t type, const struct pgpk_pubkey *pri,
			     const struct pgpk_pubkey *k2)
{
	size_t i;

	for (i = 0; i < key->nsigs && !key->revoked_hard; i++) {
		struct pgpk_signature *s = &key->sigs[i];

		if (s->type == type && pgpk_sig_by(s, pri) &&
		    pgpk_check(v, pri, s, pri, k2, NULL))
			pgpk_revoke(key, s);
	}
}

/* Oldest first; on equal times the earlier packet. */
static int pgpk_sig_oldest_cmp(const void *a, const void *b)
{
	return -pgpk_sig_newest_cmp(a, b);
}

/*
 * RFC 9580 5.2.1.8: a subkey belongs to its certificate from its oldest
 * binding signature that verifies (later ones only update it) and that
 * the kernel can check too (Key.first_binding: else the kernel would
 * count the subkey from a later binding than this): try the bindings
 * older than the deciding one @b, oldest first, each once.
 */
static const struct pgpk_signature *
pgpk_first_binding(struct pgpk_vctx *v, struct pgpk_cert *cert,
		   struct pgpk_pubkey *sub, const struct pgpk_signature *b)
{
	const struct pgpk_signature *first = b;
	struct pgpk_pubkey *pri = &cert->primary;
	struct pgpk_signature **cands;
	size_t i, n = 0;

	for (i = 0; i < sub->nsigs; i++)
		if (sub->sigs[i].type == PGPK_SIG_SUBKEY_BINDING &&
		    sub->sigs[i].created < b->created)
			n++;
	if (!n)
		return first;
	cands = pgpk_calloc_array(n, sizeof(*cands));
	if (!cands)
		return first; /* the later time: refuses more, never less */
	n = 0;
	for (i = 0; i < sub->nsigs; i++)
		if (sub->sigs[i].type == PGPK_SIG_SUBKEY_BINDING &&
		    sub->sigs[i].created < b->created)
			cands[n++] = &sub->sigs[i];
	if (!pgpk_sort_ptrs((const void **)cands, n, pgpk_sig_oldest_cmp))
		for (i = 0; i < n; i++)
			if (pgpk_sig_by(cands[i], pri) &&
			    pgpk_sig_kernel_checkable(cands[i], NULL) &&
			    pgpk_check(v, pri, cands[i], pri, sub, NULL)) {
				first = cands[i];
				break;
			}
	free(cands);
	return first;
}

static void pgpk_validate_subkey(struct pgpk_vctx *v, struct pgpk_cert *cert,
				 struct pgpk_pubkey *sub,
				 const struct pgpk_parse_opts *opts)
{
	struct pgpk_pubkey *pri = &cert->primary;
	struct pgpk_signature *b;

	b = pgpk_newest_good(v, sub->sigs, sub->nsigs, pgpk_is_binding, pri,
			     sub, NULL);
	pgpk_revocations(v, sub, PGPK_SIG_SUBKEY_REVOCATION, pri, sub);
	if (!b)
		return;
	sub->binding = b;
	sub->valid = true;
	/* Without the older bindings' checks: the deciding one's time, the
	 * later (refuses more, never less). */
	sub->first_binding =
		opts->no_bound_at ? b : pgpk_first_binding(v, cert, sub, b);
	sub->bound_at = sub->first_binding->created;
	sub->has_key_flags = b->has_key_flags;
	sub->key_flags = b->key_flags;
	sub->usage = pgpk_usage_from(sub, b);
	sub->expires = pgpk_self_sig_end(sub, b);
	if ((sub->usage & PGPK_KF_SIGN) && !opts->backsig_if_decisive)
		sub->backsig = pgpk_check_backsig(v, cert, sub, b);
}

static void pgpk_validate_cert(struct pgpk_vctx *v, struct pgpk_cert *cert,
			       const struct pgpk_parse_opts *opts)
{
	struct pgpk_pubkey *pri = &cert->primary;
	struct pgpk_signature *dk;
	const struct pgpk_signature *b;
	long best_primary = -1, best_other = -1, first_good = -1;
	uint32_t best_primary_t = 0, best_other_t = 0;
	size_t i;

	/* Direct-key self-signature (0x1F): the newest one counts. */
	dk = pgpk_newest_good(v, pri->sigs, pri->nsigs, pgpk_is_direct, pri,
			      NULL, NULL);
	if (dk)
		pri->valid = true;
	/* User IDs: the newest good self-signature, certification or
	 * revocation, decides (GnuPG allows re-certifying after a 0x30). */
	for (i = 0; i < cert->nuids; i++) {
		struct pgpk_userid *uid = &cert->uids[i];
		struct pgpk_signature *s;

		if (uid->attribute)
			continue;
		s = pgpk_newest_good(v, uid->sigs, uid->nsigs,
				     pgpk_is_uid_selfsig, pri, NULL, uid);
		if (!s)
			continue;
		pri->valid = true;
		if (first_good < 0)
			first_good = (long)i;
		if (s->type == PGPK_SIG_CERT_REVOCATION) {
			uid->revoked = true;
			continue;
		}
		uid->selfsig = s;
		if (pgpk_sig_expired(s, v->now))
			continue;
		uid->valid = true;
		if (s->primary_uid) {
			if (best_primary < 0 || s->created >= best_primary_t) {
				best_primary = (long)i;
				best_primary_t = s->created;
			}
		} else if (best_other < 0 || s->created >= best_other_t) {
			best_other = (long)i;
			best_other_t = s->created;
		}
	}
	cert->primary_uid = best_primary >= 0 ? best_primary :
			    best_other >= 0   ? best_other :
						first_good;
	if (cert->primary_uid < 0)
		for (i = 0; i < cert->nuids; i++)
			if (!cert->uids[i].attribute) {
				cert->primary_uid = (long)i;
				break;
			}
	/* Key revocations (0x20) by the key itself.  Designated revokers
	 * (RFC 9580 5.2.3.23) are not followed. */
	pgpk_revocations(v, pri, PGPK_SIG_KEY_REVOCATION, pri, NULL);
	/*
	 * The self-signature the kernel is given (Key.self_signature) and
	 * reads the key's flags and expiry from, the one its version reads
	 * (RFC 9580 10.1.1, 10.1.3): a v4 key's primary user ID's newest
	 * self-signature, a v6 key's direct-key signature; the submitter
	 * does not choose.  A v4 key's direct-key signature says its part
	 * too (GnuPG, sq): where it says less, the key is narrower than the
	 * kernel would read it, and does not convert (self_narrowed).
	 */
	b = cert->primary_uid >= 0 ? cert->uids[cert->primary_uid].selfsig :
				     NULL;
	if (pri->version == 6)
		b = dk;
	pri->binding = b;
	pri->has_key_flags = b && b->has_key_flags;
	pri->key_flags = b ? b->key_flags : 0;
	pri->usage = pgpk_usage_from(pri, b);
	pri->expires = pgpk_self_sig_end(pri, b);
	if (dk && dk != b) {
		uint8_t usage = pri->usage & pgpk_usage_from(pri, dk);
		int64_t end = pgpk_self_sig_end(pri, dk);

		pri->self_narrowed =
			usage != pri->usage ||
			(end && (!pri->expires || end < pri->expires));
		pri->usage = usage;
		if (end && (!pri->expires || end < pri->expires))
			pri->expires = end;
	}
	pri->expired = pri->expires && pri->expires <= v->now;
	pri->can_sign = !pgpk_key_usable(
		cert, pri, PGPK_USE_SIGN | PGPK_USE_OPENPGP, NULL);

	for (i = 0; i < cert->nsubkeys; i++) {
		struct pgpk_pubkey *sub = &cert->subkeys[i];

		if (opts->want_subkey &&
		    !opts->want_subkey(sub, opts->want_arg))
			continue; /* left invalid, its signatures unchecked */
		pgpk_validate_subkey(v, cert, sub, opts);
		/* GnuPG: the primary's state carries over to subkeys. */
		if (!pri->valid)
			sub->valid = false;
		if (pri->revoked && !sub->revoked_hard &&
		    (pri->revoked_hard || !sub->revoked ||
		     pri->revoked_at < sub->revoked_at)) {
			sub->revoked_hard = pri->revoked_hard;
			sub->revoked_at = pri->revoked_at;
			sub->revoked_reason = pri->revoked_reason;
			sub->revoked_primary = true;
		}
		sub->revoked = sub->revoked || pri->revoked;
		sub->expired = (sub->expires && sub->expires <= v->now) ||
			       pri->expired;
		/* pgpk_key_usable()'s order: the back-signature decides
		 * only after validity, revocation and expiry. */
		if (opts->backsig_if_decisive && (sub->usage & PGPK_KF_SIGN) &&
		    pri->valid && sub->valid && !sub->revoked && !sub->expired)
			sub->backsig =
				pgpk_check_backsig(v, cert, sub, sub->binding);
		sub->can_sign = !pgpk_key_usable(
			cert, sub, PGPK_USE_SIGN | PGPK_USE_OPENPGP, NULL);
	}
}

/* Validating threads at most (pgpk_parse_opts.threads is clamped). */
#define PGPK_MAX_WORKERS 8

struct pgpk_worker {
	pthread_t thread;
	struct pgpk_keyring *ring;
	const struct pgpk_parse_opts *opts;
	size_t first;
	size_t stride;
	/* If set, the certificates i with owner[i] == first; else every
	 * stride-th from first. */
	const uint8_t *owner;
	size_t verified;
	bool exhausted;
	int ret;
};

static int pgpk_vctx_init(struct pgpk_vctx *v, const struct pgpk_keyring *ring,
			  int64_t now, bool no_verify)
{
	size_t i, j;

	/* Field by field: zeroing the 32 prefix digests' state (9 KB) cost
	 * a tenth of what a small verify runs outside its RSA arithmetic. */
	v->now = now;
	v->no_verify = no_verify;
	v->salted_left = PGPK_SALTED_BUDGET(ring->input.packets_len);
	v->exhausted = false;
	v->verified = 0;
	for (i = 0; i < sizeof(v->prefixes) / sizeof(v->prefixes[0]); i++)
		for (j = 0; j < 2; j++)
			v->prefixes[i][j].ready = false;
	v->bn = BN_CTX_new();
	return v->bn ? 0 : -ENOMEM;
}

static void pgpk_vctx_release(struct pgpk_vctx *v)
{
	size_t i, j;

	for (i = 0; i < sizeof(v->prefixes) / sizeof(v->prefixes[0]); i++)
		for (j = 0; j < 2; j++)
			if (v->prefixes[i][j].ready)
				pgpk_digest_release(&v->prefixes[i][j].d);
	BN_CTX_free(v->bn);
}

static void pgpk_parse_sigs(struct pgpk_signature *sigs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		/* Kept but ignored if it does not parse (see openpgp.h). */
		if (pgpk_signature_parse(sigs[i].body, sigs[i].body_len,
					 sigs[i].offset, &sigs[i], NULL))
			sigs[i].malformed = true;
}

/* Every signature of a certificate (pgpk_build() only framed them). */
static void pgpk_parse_cert_sigs(struct pgpk_cert *cert)
{
	size_t i;

	pgpk_parse_sigs(cert->primary.sigs, cert->primary.nsigs);
	for (i = 0; i < cert->nuids; i++)
		pgpk_parse_sigs(cert->uids[i].sigs, cert->uids[i].nsigs);
	for (i = 0; i < cert->nsubkeys; i++)
		pgpk_parse_sigs(cert->subkeys[i].sigs, cert->subkeys[i].nsigs);
}

static void *pgpk_worker_run(void *arg)
{
	struct pgpk_worker *w = arg;
	struct pgpk_vctx v;
	size_t i;

	if (pgpk_vctx_init(&v, w->ring, w->opts->now, w->opts->no_verify))
		w->ret = -ENOMEM;
	for (i = w->owner ? 0 : w->first; !w->ret && i < w->ring->ncerts;
	     i += w->owner ? 1 : w->stride) {
		struct pgpk_cert *cert = &w->ring->certs[i];

		if (w->owner && w->owner[i] != w->first)
			continue;

		/* Signatures are parsed here, on the validating threads: a
		 * keyring's 50,000 (third-party certifications mostly) were
		 * a sequential tenth of `list`. */
		pgpk_parse_cert_sigs(cert);
		if (!w->opts->want || w->opts->want(cert, w->opts->want_arg))
			pgpk_validate_cert(&v, cert, w->opts);
	}
	pgpk_vctx_release(&v);
	w->verified = v.verified;
	w->exhausted = v.exhausted;
	return NULL;
}

/*
 * What validating a certificate is expected to cost, in units of about
 * 1/256 of an RSA-4096 verification: one verification by the primary
 * key per user ID and per subkey, a back-signature by a quarter of the
 * subkeys, the parsing of every signature (a tenth of a unit).  RSA's
 * cost grows with the square of the modulus (an RSA-8192 key's costs
 * four times an RSA-4096 key's); other algorithms count as RSA-2048.
 */
static uint64_t pgpk_verify_cost(const struct pgpk_pubkey *key)
{
	uint64_t b = key->bits / 256;

	if (!pgpk_pk_algo_is_rsa(key->algo) || b < 8)
		b = 8;
	return b * b;
}

static uint64_t pgpk_cert_cost(const struct pgpk_cert *cert)
{
	uint64_t unit = pgpk_verify_cost(&cert->primary);
	uint64_t cost = unit * (1 + cert->nuids + cert->nsubkeys);
	size_t i, nsigs = cert->primary.nsigs;

	for (i = 0; i < cert->nuids; i++)
		nsigs += cert->uids[i].nsigs;
	for (i = 0; i < cert->nsubkeys; i++) {
		cost += pgpk_verify_cost(&cert->subkeys[i]) / 4;
		nsigs += cert->subkeys[i].nsigs;
	}
	return cost + nsigs / 10;
}

struct pgpk_cert_load {
	uint64_t cost;
	size_t index;
};

/* Costliest first; on equal costs, the earlier certificate. */
static int pgpk_cert_load_cmp(const void *a, const void *b)
{
	const struct pgpk_cert_load *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

/*
 * Which worker validates each certificate: the costliest first, each to
 * the worker with the least expected work so far (a keyring's few huge
 * certificates, RSA-8192 keys with dozens of user IDs, made the workers
 * of a fixed interleaving finish far apart).  A function of the input
 * alone, so every run splits it alike, and each worker's budget of
 * salted digests is spent on the same certificates.  NULL if memory ran
 * out: the caller interleaves instead.
 */
static uint8_t *pgpk_split_by_cost(const struct pgpk_keyring *ring,
				   size_t nthreads)
{
	struct pgpk_cert_load *loads;
	const void **order;
	uint64_t sum[PGPK_MAX_WORKERS] = { 0 };
	uint8_t *owner;
	size_t i, t, best;

	loads = pgpk_calloc_array(ring->ncerts, sizeof(*loads));
	order = pgpk_calloc_array(ring->ncerts, sizeof(*order));
	owner = calloc(ring->ncerts, 1);
	if (!loads || !order || !owner)
		goto error;
	for (i = 0; i < ring->ncerts; i++) {
		loads[i].cost = pgpk_cert_cost(&ring->certs[i]);
		loads[i].index = i;
		order[i] = &loads[i];
	}
	if (pgpk_sort_ptrs(order, ring->ncerts, pgpk_cert_load_cmp))
		goto error;
	for (i = 0; i < ring->ncerts; i++) {
		const struct pgpk_cert_load *l = order[i];

		for (best = 0, t = 1; t < nthreads; t++)
			if (sum[t] < sum[best])
				best = t;
		sum[best] += l->cost;
		owner[l->index] = (uint8_t)best;
	}
	free(order);
	free(loads);
	return owner;

error:
	free(owner);
	free(order);
	free(loads);
	return NULL;
}

static int pgpk_validate_all(struct pgpk_keyring *ring,
			     const struct pgpk_parse_opts *opts)
{
	struct pgpk_worker workers[PGPK_MAX_WORKERS];
	size_t nthreads = opts->threads, i, started;
	uint8_t *owner = NULL;
	int ret = 0;

	if (nthreads < 1)
		nthreads = 1;
	if (nthreads > PGPK_MAX_WORKERS)
		nthreads = PGPK_MAX_WORKERS;
	if (nthreads > ring->ncerts)
		nthreads = ring->ncerts ? ring->ncerts : 1;
	for (i = 0; i < nthreads; i++)
		workers[i] = (struct pgpk_worker){ .ring = ring,
						   .opts = opts,
						   .first = i,
						   .stride = nthreads };
	if (nthreads == 1) {
		pgpk_worker_run(&workers[0]);
		ring->nsigs_verified = workers[0].verified;
		if (!workers[0].ret && workers[0].exhausted)
			return -E2BIG;
		return workers[0].ret;
	}
	owner = pgpk_split_by_cost(ring, nthreads);
	for (i = 0; i < nthreads; i++)
		workers[i].owner = owner;
	/* Worker 0 runs here; the others on their own threads.  If a
	 * thread cannot be created, its share runs here too. */
	for (started = 1; started < nthreads; started++)
		if (pthread_create(&workers[started].thread, NULL,
				   pgpk_worker_run, &workers[started]))
			break;
	for (i = started; i < nthreads; i++)
		pgpk_worker_run(&workers[i]);
	pgpk_worker_run(&workers[0]);
	for (i = 1; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	for (i = 0; i < nthreads; i++) {
		ring->nsigs_verified += workers[i].verified;
		if (workers[i].exhausted && !ret)
			ret = -E2BIG;
		if (workers[i].ret)
			ret = workers[i].ret;
	}
	free(owner);
	return ret;
}

int pgpk_certifier(const struct pgpk_keyring *ring,
		   const struct pgpk_cert *cert, const struct pgpk_userid *uid,
		   struct pgpk_signature *const *cands,
		   const struct pgpk_pubkey *const *signers, size_t n,
		   int64_t now, const struct pgpk_signature **out)
{
	const struct pgpk_pubkey **revoked;
	size_t i, j, k, nrevoked = 0;
	struct pgpk_signature *r;
	struct pgpk_vctx v;
	int ret;

	*out = NULL;
	if (!n)
		return 0;
	revoked = pgpk_calloc_array(n, sizeof(*revoked));
	ret = pgpk_vctx_init(&v, ring, now, false);
	for (i = 0; !ret && revoked && i < n && !*out; i++) {
		for (k = 0; k < nrevoked && revoked[k] != signers[i]; k++)
			;
		if (k < nrevoked || !pgpk_check(&v, signers[i], cands[i],
						&cert->primary, NULL, uid))
			continue;
		*out = cands[i];
		for (j = 0; j < uid->nsigs && *out; j++) {
			r = &uid->sigs[j];
			if (r->type == PGPK_SIG_CERT_REVOCATION &&
			    r->created >= cands[i]->created &&
			    pgpk_sig_by(r, signers[i]) &&
			    pgpk_check(&v, signers[i], r, &cert->primary, NULL,
				       uid)) {
				revoked[nrevoked++] = signers[i];
				*out = NULL;
			}
		}
	}
	pgpk_vctx_release(&v);
	if (!revoked)
		ret = -ENOMEM;
	free(revoked);
	return ret;
}

/* Which packets may appear in a transferable public key (RFC 9580
 * 10.1.1); trust, marker and padding packets are skipped. */
static bool pgpk_tag_ignored(unsigned int tag)
{
	return tag == PGPK_TAG_TRUST || tag == PGPK_TAG_MARKER ||
	       tag == PGPK_TAG_PADDING;
}

static int pgpk_frame_all(const struct pgpk_input *input,
			  struct pgpk_packet **out, size_t *count,
			  struct pgpk_error *err)
{
	struct pgpk_cursor c;
	struct pgpk_packet *pkts = NULL, *np, pkt;
	size_t n = 0, cap = 0;
	int ret;

	pgpk_cursor_init(&c, input->packets, input->packets_len, 0);
	while (pgpk_cursor_left(&c)) {
		ret = pgpk_packet_next(&c, &pkt, err);
		if (ret)
			goto error_free_pkts;
		if (pgpk_tag_ignored(pkt.tag))
			continue;
		/* RFC 9580 5.2.3: no signature packet is shorter than 12
		 * octets (v4 without subpackets, 1-bit MPI).  Such a packet
		 * could only be ignored later; not storing it bounds the
		 * memory a hostile input of tiny packets can claim. */
		if (pkt.tag == PGPK_TAG_SIGNATURE && pkt.len < 12 && n)
			continue;
		switch (pkt.tag) {
		case PGPK_TAG_PUBLIC_KEY:
		case PGPK_TAG_PUBLIC_SUBKEY:
		case PGPK_TAG_USER_ID:
		case PGPK_TAG_USER_ATTRIBUTE:
		case PGPK_TAG_SIGNATURE:
			break;
		case PGPK_TAG_SECRET_KEY:
		case PGPK_TAG_SECRET_SUBKEY:
			ret = pgpk_fail(
				err, -EBADMSG, pkt.hdr_offset,
				"%s packet at offset %zu: only public keys are accepted",
				pgpk_tag_name(pkt.tag), pkt.hdr_offset);
			pgpk_packet_release(&pkt);
			goto error_free_pkts;
		default:
			ret = pgpk_fail(
				err, -EBADMSG, pkt.hdr_offset,
				"unexpected %s packet (tag %u) in a key at offset %zu",
				pgpk_tag_name(pkt.tag), pkt.tag,
				pkt.hdr_offset);
			pgpk_packet_release(&pkt);
			goto error_free_pkts;
		}
		if (n == 0 && pkt.tag != PGPK_TAG_PUBLIC_KEY) {
			ret = pgpk_fail(
				err, -EBADMSG, pkt.hdr_offset,
				"a key must start with a public key packet, found %s at offset %zu",
				pgpk_tag_name(pkt.tag), pkt.hdr_offset);
			goto error_free_pkts;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 256;

			if (ncap > PGPK_MAX_PACKETS) {
				ret = pgpk_fail(err, -ENOMEM, pkt.hdr_offset,
						"too many packets");
				goto error_free_pkts;
			}
			np = realloc(pkts, ncap * sizeof(*pkts));
			if (!np) {
				ret = pgpk_fail(err, -ENOMEM, pkt.hdr_offset,
						"out of memory");
				goto error_free_pkts;
			}
			pkts = np;
			cap = ncap;
		}
		pkts[n++] = pkt;
	}
	if (!n) {
		ret = pgpk_fail(err, -ENOKEY, 0, "no key in the input");
		goto error_free_pkts;
	}
	*out = pkts;
	*count = n;
	return 0;

error_free_pkts:
	free(pkts);
	return ret;
}

void pgpk_keyring_free(struct pgpk_keyring *ring)
{
	struct pgpk_ring_priv *priv;
	size_t i, j;

	if (!ring)
		return;
	for (i = 0; i < ring->ncerts; i++) {
		pgpk_key_rsa_release(&ring->certs[i].primary);
		for (j = 0; j < ring->certs[i].nsubkeys; j++)
			pgpk_key_rsa_release(&ring->certs[i].subkeys[j]);
	}
	priv = ring->arena;
	if (priv) {
		free(priv->uids);
		free(priv->subkeys);
		free(priv->sigs);
		free(priv);
	}
	free(ring->certs);
	pgpk_input_release(&ring->input);
	free(ring);
}

/* Build the certificates from the framed packets. */
static int pgpk_build(struct pgpk_keyring *ring, const struct pgpk_packet *pkts,
		      size_t n, struct pgpk_error *err)
{
	struct pgpk_ring_priv *priv = ring->arena;
	size_t ncert = 0, nuid = 0, nsub = 0, nsig = 0, i;
	struct pgpk_cert *cert = NULL;
	struct pgpk_signature **comp_sigs = NULL;
	size_t *comp_nsigs = NULL;
	struct pgpk_error first_skip = { 0 };
	bool skipping = false;
	int ret;

	for (i = 0; i < n; i++) {
		switch (pkts[i].tag) {
		case PGPK_TAG_PUBLIC_KEY:
			ncert++;
			break;
		case PGPK_TAG_PUBLIC_SUBKEY:
			nsub++;
			break;
		case PGPK_TAG_SIGNATURE:
			nsig++;
			break;
		default:
			nuid++;
			break;
		}
	}
	ring->certs = pgpk_calloc_array(ncert, sizeof(*ring->certs));
	priv->uids = pgpk_calloc_array(nuid, sizeof(*priv->uids));
	priv->subkeys = pgpk_calloc_array(nsub, sizeof(*priv->subkeys));
	priv->sigs = pgpk_calloc_array(nsig, sizeof(*priv->sigs));
	if (!ring->certs || !priv->uids || !priv->subkeys || !priv->sigs)
		return pgpk_fail(err, -ENOMEM, 0,
				 "out of memory for %zu packets", n);
	nuid = nsub = nsig = 0;
	for (i = 0; i < n; i++) {
		const struct pgpk_packet *p = &pkts[i];
		struct pgpk_signature *sig;

		if (p->tag == PGPK_TAG_PUBLIC_KEY) {
			struct pgpk_error kerr;

			cert = &ring->certs[ring->ncerts];
			memset(cert, 0, sizeof(*cert));
			cert->primary_uid = -1;
			ret = pgpk_pubkey_parse(p->body, p->len, p->offset,
						false, &cert->primary, &kerr);
			if (ret == -ENOPKG) {
				/* Unsupported key version (v3, v5): the
				 * whole certificate is skipped, as GnuPG
				 * does; an error only if nothing else. */
				if (!first_skip.code)
					first_skip = kerr;
				skipping = true;
				continue;
			}
			if (ret) {
				if (err)
					*err = kerr;
				return ret;
			}
			skipping = false;
			ring->ncerts++;
			cert->uids = &priv->uids[nuid];
			cert->subkeys = &priv->subkeys[nsub];
			comp_sigs = &cert->primary.sigs;
			comp_nsigs = &cert->primary.nsigs;
			continue;
		}
		if (skipping)
			continue;
		switch (p->tag) {
		case PGPK_TAG_USER_ID:
		case PGPK_TAG_USER_ATTRIBUTE: {
			struct pgpk_userid *uid = &priv->uids[nuid++];

			uid->offset = p->offset;
			uid->data = p->body;
			uid->len = p->len;
			uid->attribute = p->tag == PGPK_TAG_USER_ATTRIBUTE;
			cert->nuids++;
			comp_sigs = &uid->sigs;
			comp_nsigs = &uid->nsigs;
			break;
		}
		case PGPK_TAG_PUBLIC_SUBKEY: {
			struct pgpk_pubkey *sub = &priv->subkeys[nsub];

			ret = pgpk_pubkey_parse(p->body, p->len, p->offset,
						true, sub, err);
			if (ret == -ENOPKG) {
				/* Unknown subkey version: ignored with its
				 * signatures. */
				comp_sigs = NULL;
				comp_nsigs = NULL;
				break;
			}
			if (ret)
				return ret;
			nsub++;
			cert->nsubkeys++;
			comp_sigs = &sub->sigs;
			comp_nsigs = &sub->nsigs;
			break;
		}
		case PGPK_TAG_SIGNATURE:
			if (!comp_sigs)
				break;
			/* Parsed where its certificate is validated
			 * (pgpk_parse_cert_sigs()), on several threads. */
			sig = &priv->sigs[nsig++];
			sig->body = p->body;
			sig->body_len = p->len;
			sig->offset = p->offset;
			if (!*comp_nsigs)
				*comp_sigs = sig;
			(*comp_nsigs)++;
			break;
		default:
			break;
		}
	}
	if (!ring->ncerts) {
		if (first_skip.code) {
			if (err)
				*err = first_skip;
			return first_skip.code;
		}
		return pgpk_fail(err, -ENOKEY, 0, "no key in the input");
	}
	return 0;
}

int pgpk_keyring_parse(const uint8_t *in, size_t len,
		       const struct pgpk_parse_opts *opts,
		       struct pgpk_keyring **out, struct pgpk_error *err)
{
	struct pgpk_keyring *ring;
	struct pgpk_packet *pkts = NULL;
	size_t n = 0;
	int ret;

	*out = NULL;
	ring = calloc(1, sizeof(*ring));
	if (!ring)
		return pgpk_fail(err, -ENOMEM, 0, "out of memory");
	ring->arena = calloc(1, sizeof(struct pgpk_ring_priv));
	if (!ring->arena) {
		ret = pgpk_fail(err, -ENOMEM, 0, "out of memory");
		goto error_free_ring;
	}
	ret = pgpk_input_decode_borrow(in, len, &ring->input,
				       opts->borrow_input, err);
	if (ret)
		goto error_free_ring;
	if (ring->input.kind == PGPK_INPUT_CLEARTEXT) {
		ret = pgpk_fail(err, -EBADMSG, 0,
				"a cleartext-signed message is not a key");
		goto error_free_ring;
	}
	ret = pgpk_frame_all(&ring->input, &pkts, &n, err);
	if (ret)
		goto error_free_ring;
	ret = pgpk_build(ring, pkts, n, err);
	free(pkts);
	if (ret)
		goto error_free_ring;
	ret = pgpk_validate_all(ring, opts);
	if (ret == -E2BIG) {
		/* Some signature went unchecked: validity could be wrong
		 * either way (a revocation unseen), so nothing is answered. */
		ret = pgpk_fail(
			err, -EBADMSG, 0,
			"too many salted (v6) signatures to check within %zu octets of digests: certificate flooding?",
			PGPK_SALTED_BUDGET(ring->input.packets_len));
		goto error_free_ring;
	}
	if (ret) {
		pgpk_fail(err, ret, 0, "validation failed: out of memory");
		goto error_free_ring;
	}
	*out = ring;
	return 0;

error_free_ring:
	pgpk_keyring_free(ring);
	return ret;
}

static int pgpk_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool pgpk_key_matches(const struct pgpk_pubkey *key, const uint8_t *want,
			     size_t n)
{
	if (n == key->fpr_len)
		return !memcmp(key->fpr, want, n);
	if (n == PGPK_KEYID_LEN)
		return !memcmp(key->keyid, want, n);
	if (n == 4)
		return !memcmp(key->keyid + 4, want, n);
	return false;
}

const struct pgpk_pubkey *pgpk_keyring_find(const struct pgpk_keyring *ring,
					    const char *select,
					    const struct pgpk_cert **cert)
{
	uint8_t want[PGPK_FPR_MAX];
	size_t len, n, i, j;

	if (!strncmp(select, "0x", 2) || !strncmp(select, "0X", 2))
		select += 2;
	len = strlen(select);
	if (len % 2 || len / 2 > sizeof(want) ||
	    (len != 8 && len != 16 && len != 40 && len != 64))
		return NULL;
	n = len / 2;
	for (i = 0; i < n; i++) {
		int hi = pgpk_hex_value(select[2 * i]);
		int lo = pgpk_hex_value(select[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return NULL;
		want[i] = (uint8_t)(hi << 4 | lo);
	}
	for (i = 0; i < ring->ncerts; i++) {
		const struct pgpk_cert *c = &ring->certs[i];

		if (pgpk_key_matches(&c->primary, want, n)) {
			*cert = c;
			return &c->primary;
		}
		for (j = 0; j < c->nsubkeys; j++)
			if (pgpk_key_matches(&c->subkeys[j], want, n)) {
				*cert = c;
				return &c->subkeys[j];
			}
	}
	return NULL;
}

const struct pgpk_userid *pgpk_cert_primary_uid(const struct pgpk_cert *cert)
{
	if (cert->primary_uid < 0 || (size_t)cert->primary_uid >= cert->nuids)
		return NULL;
	return &cert->uids[cert->primary_uid];
}

size_t pgpk_key_description(const struct pgpk_cert *cert,
			    const struct pgpk_pubkey *key, char *buf,
			    size_t size)
{
	const struct pgpk_userid *uid = pgpk_cert_primary_uid(cert);
	const struct pgpk_signature *self = cert->primary.binding;
	struct pgpk_bytes u = { 0 };
	char name[PGPK_NAME_SIZE];

	/* Named by the user ID only if the self-signature the kernel is
	 * given certifies it (pgpk_key_canonical(), pgpk_self_sigs()). */
	if (uid && !uid->attribute && uid->len >= 1 &&
	    uid->len <= PGPK_MAX_USER_ID && self &&
	    self->type >= PGPK_SIG_CERT_GENERIC &&
	    self->type <= PGPK_SIG_CERT_POSITIVE) {
		u.data = uid->data;
		u.len = (u32)uid->len;
	}
	pgpk_name(u.data ? &u : NULL, key->subkey, key->keyid, name);
	return (size_t)snprintf(buf, size, "%s", name);
}
