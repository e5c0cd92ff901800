// SPDX-License-Identifier: GPL-2.0
/*
 * Verification of non-RSA signatures with OpenSSL, so that validity of
 * certificates with DSA, ECDSA or EdDSA primary keys (which may carry RSA
 * signing subkeys) is checked, not assumed.  Only user space uses this:
 * the kernel only ever sees RSA.
 *
 * RFC 9580 5.2.3.2-5.2.3.5 (signature fields), 5.6.2-5.6.10 (key fields).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "helper/openpgp/internal.h"

#define PGPK_MAX_DER_SIG 160 /* two INTEGERs of up to 66 octets */

/* Left-pad an MPI value to exactly n octets. */
static bool pgpk_pad(const struct pgpk_mpi *m, uint8_t *out, size_t n)
{
	if (m->len > n)
		return false;
	memset(out, 0, n - m->len);
	memcpy(out + n - m->len, m->data, m->len);
	return true;
}

/* DER INTEGER (unsigned value, 0x00 prepended when the top bit is set). */
static size_t pgpk_der_int(uint8_t *out, const struct pgpk_mpi *m)
{
	bool pad = !m->len || (m->data[0] & 0x80);
	size_t len = m->len + pad, n = 0;

	out[n++] = 0x02;
	out[n++] = (uint8_t)len;
	if (pad)
		out[n++] = 0x00;
	memcpy(out + n, m->data, m->len);
	return n + m->len;
}

/* DSA/ECDSA signature value: SEQUENCE { INTEGER r, INTEGER s }. */
static bool pgpk_der_sig(const struct pgpk_mpi *r, const struct pgpk_mpi *s,
			 uint8_t *out, size_t *len)
{
	uint8_t body[PGPK_MAX_DER_SIG];
	size_t n, hdr = 0;

	if (r->len > 66 || s->len > 66)
		return false;
	n = pgpk_der_int(body, r);
	n += pgpk_der_int(body + n, s);
	out[hdr++] = 0x30;
	if (n >= 128)
		out[hdr++] = 0x81;
	out[hdr++] = (uint8_t)n;
	memcpy(out + hdr, body, n);
	*len = hdr + n;
	return true;
}

/* OpenSSL group names of the RFC 9580 9.2 curves GnuPG names. */
static const char *pgpk_ossl_group(const char *curve)
{
	static const char *const map[][2] = {
		{ "nistp256", "P-256" },
		{ "nistp384", "P-384" },
		{ "nistp521", "P-521" },
		{ "brainpoolP256r1", "brainpoolP256r1" },
		{ "brainpoolP384r1", "brainpoolP384r1" },
		{ "brainpoolP512r1", "brainpoolP512r1" },
		{ "secp256k1", "secp256k1" },
	};
	size_t i;

	for (i = 0; curve && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], curve))
			return map[i][1];
	return NULL;
}

static EVP_PKEY *pgpk_pkey_fromdata(const char *type, OSSL_PARAM_BLD *bld)
{
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
	EVP_PKEY *pkey = NULL;

	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	return pkey;
}

/* Verify a raw digest with a DSA or ECDSA key (DER signature). */
static int pgpk_verify_der(EVP_PKEY *pkey, const uint8_t *der, size_t der_len,
			   const uint8_t *digest, size_t digest_len)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
	int ret = -EKEYREJECTED;

	if (ctx && EVP_PKEY_verify_init(ctx) > 0 &&
	    EVP_PKEY_verify(ctx, der, der_len, digest, digest_len) == 1)
		ret = 0;
	EVP_PKEY_CTX_free(ctx);
	return ret;
}

/* EdDSA over the digest as the message (RFC 9580 5.2.3.3-5.2.3.5). */
static int pgpk_verify_eddsa(int type, const uint8_t *pub, size_t pub_len,
			     const uint8_t *sig, size_t sig_len,
			     const uint8_t *digest, size_t digest_len)
{
	EVP_PKEY *pkey = EVP_PKEY_new_raw_public_key(type, NULL, pub, pub_len);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ret = -EKEYREJECTED;

	if (pkey && md &&
	    EVP_DigestVerifyInit(md, NULL, NULL, NULL, pkey) > 0 &&
	    EVP_DigestVerify(md, sig, sig_len, digest, digest_len) == 1)
		ret = 0;
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(pkey);
	return ret;
}

/* The key's algorithm-specific fields (after the v4/v6 header). */
static void pgpk_key_fields_cursor(const struct pgpk_pubkey *key,
				   struct pgpk_cursor *c)
{
	size_t hdr = key->version == 6 ? 10 : 6;

	pgpk_cursor_init(c, key->body + hdr, key->body_len - hdr,
			 key->offset + hdr);
}

static int pgpk_verify_dsa(const struct pgpk_pubkey *key,
			   struct pgpk_cursor *kc, const struct pgpk_mpi *r,
			   const struct pgpk_mpi *s, const uint8_t *digest,
			   size_t digest_len)
{
	struct pgpk_mpi f[4];
	BIGNUM *bn[4] = { NULL };
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY *pkey = NULL;
	uint8_t der[PGPK_MAX_DER_SIG + 4];
	size_t der_len, i;
	int ret = -EKEYREJECTED;

	/* RFC 9580 5.6.2: p, q, g, y. */
	for (i = 0; i < 4; i++)
		if (!pgpk_mpi_get(kc, &f[i], NULL) || f[i].len > 1024)
			goto out_free;
	for (i = 0; i < 4; i++)
		if (!(bn[i] = BN_bin2bn(f[i].data, (int)f[i].len, NULL)))
			goto out_free;
	if (!bld ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_P, bn[0]) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_Q, bn[1]) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_FFC_G, bn[2]) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, bn[3]))
		goto out_free;
	pkey = pgpk_pkey_fromdata("DSA", bld);
	if (pkey && pgpk_der_sig(r, s, der, &der_len))
		ret = pgpk_verify_der(pkey, der, der_len, digest, digest_len);
out_free:
	EVP_PKEY_free(pkey);
	OSSL_PARAM_BLD_free(bld);
	for (i = 0; i < 4; i++)
		BN_free(bn[i]);
	(void)key;
	return ret;
}

static int pgpk_verify_ecdsa(const struct pgpk_pubkey *key,
			     struct pgpk_cursor *kc, const struct pgpk_mpi *r,
			     const struct pgpk_mpi *s, const uint8_t *digest,
			     size_t digest_len)
{
	const char *group = pgpk_ossl_group(key->curve);
	OSSL_PARAM_BLD *bld;
	EVP_PKEY *pkey = NULL;
	struct pgpk_mpi q;
	const uint8_t *oid;
	uint8_t oid_len, der[PGPK_MAX_DER_SIG + 4];
	size_t der_len;
	int ret = -EKEYREJECTED;

	if (!group)
		return -ENOPKG;
	/* RFC 9580 5.6.4: curve OID, MPI point (0x04 || x || y). */
	if (!pgpk_get_u8(kc, &oid_len) || !pgpk_get_bytes(kc, oid_len, &oid) ||
	    !pgpk_mpi_get(kc, &q, NULL))
		return -EKEYREJECTED;
	bld = OSSL_PARAM_BLD_new();
	if (bld &&
	    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
					    group, 0) &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY,
					     q.data, q.len))
		pkey = pgpk_pkey_fromdata("EC", bld);
	if (pkey && pgpk_der_sig(r, s, der, &der_len))
		ret = pgpk_verify_der(pkey, der, der_len, digest, digest_len);
	EVP_PKEY_free(pkey);
	OSSL_PARAM_BLD_free(bld);
	return ret;
}

int pgpk_verify_digest(const struct pgpk_pubkey *key,
		       const struct pgpk_signature *sig, const uint8_t *digest,
		       size_t digest_len)
{
	struct pgpk_cursor kc, sc;
	struct pgpk_mpi r, s, q;
	const uint8_t *p, *oid;
	uint8_t raw[114], oid_len;

	if (pgpk_pk_algo_is_rsa(key->algo)) {
		if (!pgpk_pk_algo_is_rsa(sig->pk_algo) || key->mpi_noncanonical)
			return -EKEYREJECTED;
		return pgpk_rsa_verify_digest(&key->rsa_n, &key->rsa_e,
					      sig->hash_algo, digest,
					      digest_len, &sig->rsa_s);
	}
	if (sig->pk_algo != key->algo || !sig->sig_fields)
		return -EKEYREJECTED;
	pgpk_key_fields_cursor(key, &kc);
	pgpk_cursor_init(&sc, sig->sig_fields, sig->sig_fields_len, 0);
	switch (key->algo) {
	case PGPK_PK_DSA:
		if (!pgpk_mpi_get(&sc, &r, NULL) ||
		    !pgpk_mpi_get(&sc, &s, NULL))
			return -EKEYREJECTED;
		return pgpk_verify_dsa(key, &kc, &r, &s, digest, digest_len);
	case PGPK_PK_ECDSA:
		if (!pgpk_mpi_get(&sc, &r, NULL) ||
		    !pgpk_mpi_get(&sc, &s, NULL))
			return -EKEYREJECTED;
		return pgpk_verify_ecdsa(key, &kc, &r, &s, digest, digest_len);
	case PGPK_PK_EDDSA_LEGACY:
		/* 5.6.5: curve OID, MPI 0x40 || native point; 5.2.3.3:
		 * MPI r, MPI s of 32 octets each (Ed25519 only here). */
		if (!key->curve || strcmp(key->curve, "ed25519"))
			return -ENOPKG;
		if (!pgpk_get_u8(&kc, &oid_len) ||
		    !pgpk_get_bytes(&kc, oid_len, &oid) ||
		    !pgpk_mpi_get(&kc, &q, NULL) || q.len != 33 ||
		    q.data[0] != 0x40)
			return -EKEYREJECTED;
		if (!pgpk_mpi_get(&sc, &r, NULL) ||
		    !pgpk_mpi_get(&sc, &s, NULL) || !pgpk_pad(&r, raw, 32) ||
		    !pgpk_pad(&s, raw + 32, 32))
			return -EKEYREJECTED;
		return pgpk_verify_eddsa(EVP_PKEY_ED25519, q.data + 1, 32, raw,
					 64, digest, digest_len);
	case PGPK_PK_ED25519:
		/* 5.6.7 / 5.2.3.4: 32-octet key, 64-octet signature. */
		if (!pgpk_get_bytes(&kc, 32, &p) || sig->sig_fields_len != 64)
			return -EKEYREJECTED;
		return pgpk_verify_eddsa(EVP_PKEY_ED25519, p, 32,
					 sig->sig_fields, 64, digest,
					 digest_len);
	case PGPK_PK_ED448:
		/* 5.6.8 / 5.2.3.5: 57-octet key, 114-octet signature. */
		if (!pgpk_get_bytes(&kc, 57, &p) || sig->sig_fields_len != 114)
			return -EKEYREJECTED;
		return pgpk_verify_eddsa(EVP_PKEY_ED448, p, 57, sig->sig_fields,
					 114, digest, digest_len);
	default:
		/* ElGamal signatures and unknown algorithms: GnuPG does
		 * not accept them either. */
		return -ENOPKG;
	}
}
