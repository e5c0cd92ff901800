// SPDX-License-Identifier: GPL-2.0
/*
 * RSA signatures (RFC 9580 5.2.3.1, RFC 8017 8.2.2 EMSA-PKCS1-v1_5) with
 * OpenSSL's Montgomery arithmetic: the key loaded once per certificate
 * and kept with the keyring, the PKCS#1 v1.5 encoding compared octet for
 * octet, no EVP_PKEY (whose provider machinery costs more than the
 * arithmetic).  Used by the self-signature checks (selfsig.c), by
 * pgpk_verify_digest() for RSA keys (pkalgo.c) and by verify.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include "helper/openpgp/internal.h"

/* Larger public exponents make verification as slow as a private-key
 * operation: refused for self-signature checks (hostile input). */
#define PGPK_MAX_RSA_E_OCTETS 8 /* 64 bits, OpenSSL's limit for big n */
#define PGPK_MAX_RSA_N_OCTETS 2048 /* 16384 bits */

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
int pgpk_rsa_plausible(size_t k, unsigned int hash_algo,
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
int pgpk_rsa_recover(const struct pgpk_rsa *rsa, BN_CTX *bn,
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
int pgpk_rsa_check(const struct pgpk_rsa *rsa, BN_CTX *bn,
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
 * The RSA key of `ckey`, loaded at its first use and kept with the
 * keyring (pgpk_keyring_free()): setting up its Montgomery context costs
 * a third of a verification, and verify checks the document's signature
 * with the same key afterwards (pgpk_key_rsa_verify_digest()).  NULL if
 * the key is unusable (pgpk_rsa_load()) or memory ran out.  A key is
 * only ever checked by the thread validating its certificate.
 */
const struct pgpk_rsa *pgpk_key_rsa(const struct pgpk_pubkey *ckey, BN_CTX *bn)
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

void pgpk_key_rsa_release(struct pgpk_pubkey *key)
{
	if (!key->rsa)
		return;
	pgpk_rsa_release(key->rsa);
	free(key->rsa);
	key->rsa = NULL;
}
