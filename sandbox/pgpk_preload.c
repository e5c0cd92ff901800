// SPDX-License-Identifier: GPL-2.0
/*
 * OpenSSL warm-up before the seccomp filter.
 *
 * OpenSSL 3 reads its configuration file and loads providers on first use,
 * and fetches algorithm implementations lazily.  Inside the sandbox any of
 * that would be an open() and kill the parser, so the broker does it all
 * once, before fork(): the children inherit an OpenSSL whose method store
 * already holds every digest, the RSA and ECDSA verifiers and the DRBGs
 * the parser uses.  The warm-up is a real computation (each digest of a
 * short string, an RSA PKCS#1 v1.5 and an ECDSA P-256 verification, good
 * and bad), which the sandbox tests repeat inside the filter to prove
 * nothing else is needed.  Randomness is the one thing a child cannot
 * inherit: OpenSSL reseeds its DRBGs after fork() (getpid() notices the
 * fork, getrandom() reseeds), and its EC code blinds with random numbers
 * even to verify, so the allowlist has both.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include "sandbox/pgpk_sandbox.h"

/* RFC 9580 9.5: the hashes OpenPGP signatures and fingerprints use. */
static const char *const pgpk_required_digests[] = {
	"SHA1", "SHA224", "SHA256", "SHA384", "SHA512",
};

/* Nice to have (legacy signatures, v6 extras); absent ones are fine. */
static const char *const pgpk_optional_digests[] = {
	"MD5",
	"RIPEMD160",
	"SHA3-256",
	"SHA3-512",
};

/* A 1024-bit RSA key and its SHA-256 PKCS#1 v1.5 signature of the message
 * below, made once with `openssl dgst -sha256 -sign`. */
static const char pgpk_warm_msg[] = "pgpk sandbox warm-up";
static const unsigned char pgpk_warm_n[] = {
	0xdd, 0xff, 0x2d, 0x93, 0xe8, 0x78, 0x12, 0xac, 0x0f, 0xf5, 0x8d, 0xea,
	0x0f, 0x58, 0x62, 0xe8, 0x41, 0xf7, 0x3c, 0xd2, 0x07, 0xbe, 0x55, 0xac,
	0xdb, 0x48, 0xaa, 0x41, 0x3b, 0x1f, 0x2a, 0x20, 0x25, 0x02, 0x0e, 0x94,
	0x72, 0xd8, 0xc3, 0xd6, 0xff, 0xa1, 0x98, 0x52, 0x18, 0x29, 0x3b, 0x41,
	0x72, 0x51, 0x4e, 0x09, 0x64, 0x2d, 0xd5, 0xe2, 0xe3, 0xcd, 0x3e, 0x30,
	0x04, 0x37, 0x36, 0xa5, 0x54, 0x13, 0x07, 0xfb, 0xa1, 0x97, 0x30, 0xfd,
	0x37, 0xdc, 0x77, 0x0f, 0x4f, 0x19, 0x16, 0x6a, 0xd3, 0x6a, 0xce, 0x49,
	0x7a, 0xaa, 0xb4, 0x47, 0x8f, 0xa4, 0x73, 0x91, 0x78, 0xdd, 0x9d, 0x82,
	0x4e, 0x10, 0x3b, 0x0d, 0xa3, 0x58, 0x6f, 0x33, 0x11, 0xcd, 0xca, 0xcf,
	0x56, 0x67, 0x19, 0x84, 0xb6, 0xdd, 0x52, 0x9c, 0xff, 0xaf, 0xf6, 0xd0,
	0x47, 0x09, 0x5f, 0x14, 0x48, 0x33, 0x3a, 0xfd,
};
static const unsigned char pgpk_warm_s[] = {
	0xb6, 0x34, 0xa8, 0x1f, 0x97, 0xd6, 0x61, 0xd4, 0x0a, 0xca, 0x2c, 0xc1,
	0x7e, 0x94, 0x20, 0xfc, 0xaf, 0x80, 0x2b, 0xba, 0x4e, 0x36, 0xa3, 0x35,
	0x27, 0x46, 0x4c, 0x96, 0xbc, 0xb8, 0xee, 0x21, 0x96, 0x08, 0x66, 0xb4,
	0xbc, 0x74, 0x9d, 0x36, 0x8f, 0x85, 0x41, 0xe5, 0x05, 0xfb, 0x0b, 0x7d,
	0x5f, 0x30, 0x14, 0x8a, 0xe7, 0x91, 0x3f, 0xf7, 0x5d, 0x29, 0x01, 0xdb,
	0xc7, 0x95, 0xf8, 0xe4, 0xb8, 0x6c, 0xed, 0x8a, 0x78, 0x79, 0xc0, 0x3a,
	0x28, 0x3f, 0xca, 0xd0, 0x6e, 0x6f, 0x8e, 0x45, 0xc6, 0x74, 0x88, 0x02,
	0xa9, 0xaf, 0x22, 0x3f, 0xd5, 0x2e, 0x1e, 0x24, 0x17, 0x94, 0xd2, 0xd7,
	0xd1, 0xbd, 0x46, 0x64, 0xf9, 0xcd, 0x2c, 0x08, 0xec, 0x17, 0xb9, 0x57,
	0x76, 0x9a, 0x71, 0x0e, 0x63, 0xa9, 0xbe, 0x70, 0x5a, 0x20, 0xa2, 0xb5,
	0x3d, 0x22, 0xfe, 0x55, 0x39, 0x0f, 0xd0, 0x09,
};

/* A P-256 key and its SHA-256 ECDSA signature of the same message, made
 * with `openssl dgst -sha256 -sign`: OpenSSL's EC code draws random
 * numbers for blinding even when it only verifies. */
static const unsigned char pgpk_warm_ec_pub[] = {
	0x04, 0xb5, 0x6e, 0x0e, 0x95, 0x55, 0xe7, 0x1a, 0x57, 0xb3, 0x44,
	0x18, 0x4a, 0x44, 0x1d, 0xed, 0x13, 0xbe, 0xf9, 0x1d, 0x93, 0x7a,
	0x3f, 0xa1, 0x94, 0x41, 0x11, 0xe3, 0xda, 0x09, 0xfe, 0x30, 0xcd,
	0x03, 0x91, 0xda, 0x0a, 0xd0, 0x8f, 0x82, 0x6e, 0x1f, 0x8d, 0xcb,
	0x92, 0xfe, 0xa0, 0x5b, 0xd8, 0x43, 0xf1, 0xff, 0xab, 0x50, 0xd4,
	0xd6, 0xdd, 0x60, 0xdf, 0x59, 0x96, 0x3d, 0x7b, 0x41, 0x00,
};
static const unsigned char pgpk_warm_ec_sig[] = {
	0x30, 0x44, 0x02, 0x20, 0x1e, 0xa9, 0x3e, 0xca, 0x22, 0x25, 0x26, 0x4d,
	0x8f, 0x16, 0x7d, 0xb1, 0x2b, 0x95, 0xdf, 0xcc, 0xd5, 0x52, 0x98, 0xf0,
	0x62, 0x1c, 0xb3, 0xfb, 0x73, 0xfa, 0x05, 0x13, 0xb7, 0xd2, 0x01, 0x91,
	0x02, 0x20, 0x2f, 0x36, 0xd7, 0xb3, 0xea, 0xb6, 0xd2, 0xd5, 0x61, 0xb5,
	0x4f, 0x23, 0xcf, 0xd9, 0x99, 0xe8, 0x13, 0xed, 0x5d, 0x67, 0xda, 0x3b,
	0x54, 0x9d, 0x76, 0x13, 0x7b, 0xb2, 0x53, 0x5f, 0xac, 0x4b,
};

static int pgpk_digest_once(const char *name)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len;
	EVP_MD *alg;
	int ok;

	alg = EVP_MD_fetch(NULL, name, NULL);
	if (!alg)
		return -ENOPKG;
	ok = EVP_Digest(pgpk_warm_msg, sizeof(pgpk_warm_msg) - 1, md, &md_len,
			alg, NULL);
	EVP_MD_free(alg);
	return ok ? 0 : -ENOPKG;
}

/* Returns 1 verified, 0 refused, negative errno if the machinery failed. */
static int pgpk_rsa_verify_once(const unsigned char *sig, size_t sig_len)
{
	static const unsigned char e[] = { 0x01, 0x00, 0x01 };
	unsigned char md[32];
	unsigned int md_len;
	OSSL_PARAM_BLD *bld;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	BIGNUM *n = NULL, *bn_e = NULL;
	int ret = -ENOPKG;

	if (!EVP_Digest(pgpk_warm_msg, sizeof(pgpk_warm_msg) - 1, md, &md_len,
			EVP_sha256(), NULL))
		return -ENOPKG;
	bld = OSSL_PARAM_BLD_new();
	if (!bld)
		return -ENOMEM;
	n = BN_bin2bn(pgpk_warm_n, sizeof(pgpk_warm_n), NULL);
	bn_e = BN_bin2bn(e, sizeof(e), NULL);
	if (!n || !bn_e ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e))
		goto error_free_bn;
	params = OSSL_PARAM_BLD_to_param(bld);
	if (!params)
		goto error_free_bn;
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (!ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto error_free_ctx;
	EVP_PKEY_CTX_free(ctx);
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	if (!ctx || EVP_PKEY_verify_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) <= 0)
		goto error_free_ctx;
	ret = EVP_PKEY_verify(ctx, sig, sig_len, md, md_len) == 1 ? 1 : 0;

error_free_ctx:
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	OSSL_PARAM_free(params);
error_free_bn:
	BN_free(n);
	BN_free(bn_e);
	OSSL_PARAM_BLD_free(bld);
	return ret;
}

/* Returns 1 verified, 0 refused, negative errno if the machinery failed. */
static int pgpk_ecdsa_verify_once(const unsigned char *sig, size_t sig_len)
{
	unsigned char md[32];
	unsigned int md_len;
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *ctx;
	EVP_PKEY *pkey = NULL;
	int ret = -ENOPKG;

	if (!EVP_Digest(pgpk_warm_msg, sizeof(pgpk_warm_msg) - 1, md, &md_len,
			EVP_sha256(), NULL))
		return -ENOPKG;
	params[0] = OSSL_PARAM_construct_utf8_string(
		OSSL_PKEY_PARAM_GROUP_NAME, (char *)(uintptr_t) "prime256v1",
		0);
	params[1] = OSSL_PARAM_construct_octet_string(
		OSSL_PKEY_PARAM_PUB_KEY, (void *)(uintptr_t)pgpk_warm_ec_pub,
		sizeof(pgpk_warm_ec_pub));
	params[2] = OSSL_PARAM_construct_end();
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto error_free_ctx;
	EVP_PKEY_CTX_free(ctx);
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	if (!ctx || EVP_PKEY_verify_init(ctx) <= 0)
		goto error_free_ctx;
	ret = EVP_PKEY_verify(ctx, sig, sig_len, md, md_len) == 1 ? 1 : 0;

error_free_ctx:
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return ret;
}

/*
 * Compute every digest and verify a good and a bad RSA and ECDSA
 * signature.  Returns 0 when all behave, -ENOPKG otherwise.  Safe inside
 * the sandbox once pgpk_sandbox_preload_crypto() has run in an ancestor.
 */
static int pgpk_crypto_exercise(bool refusals)
{
	unsigned char bad[sizeof(pgpk_warm_s)]; /* the larger signature */
	size_t i;

	for (i = 0; i < sizeof(pgpk_required_digests) /
				sizeof(pgpk_required_digests[0]);
	     i++)
		if (pgpk_digest_once(pgpk_required_digests[i]))
			return -ENOPKG;
	for (i = 0; i < sizeof(pgpk_optional_digests) /
				sizeof(pgpk_optional_digests[0]);
	     i++)
		pgpk_digest_once(pgpk_optional_digests[i]);
	if (pgpk_rsa_verify_once(pgpk_warm_s, sizeof(pgpk_warm_s)) != 1 ||
	    pgpk_ecdsa_verify_once(pgpk_warm_ec_sig,
				   sizeof(pgpk_warm_ec_sig)) != 1)
		return -ENOPKG;
	if (!refusals)
		return 0;
	memcpy(bad, pgpk_warm_s, sizeof(bad));
	bad[sizeof(bad) / 2] ^= 0x01;
	if (pgpk_rsa_verify_once(bad, sizeof(bad)) != 0)
		return -ENOPKG;
	memcpy(bad, pgpk_warm_ec_sig, sizeof(pgpk_warm_ec_sig));
	bad[sizeof(pgpk_warm_ec_sig) - 2] ^= 0x01;
	if (pgpk_ecdsa_verify_once(bad, sizeof(pgpk_warm_ec_sig)) != 0)
		return -ENOPKG;
	return 0;
}

int pgpk_sandbox_crypto_check(void)
{
	return pgpk_crypto_exercise(true);
}

int pgpk_sandbox_preload_crypto(void)
{
	unsigned char byte;

	/* Providers and error strings now, not inside the filter; no
	 * openssl.cnf (helper/main.c). */
	if (!OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG |
					 OPENSSL_INIT_ADD_ALL_DIGESTS |
					 OPENSSL_INIT_ADD_ALL_CIPHERS |
					 OPENSSL_INIT_LOAD_CRYPTO_STRINGS,
				 NULL))
		return -ENOPKG;
	/* Instantiate the DRBGs (fetches, no files); each child reseeds its
	 * own after fork() with one getrandom() (see pgpk_seccomp.c). */
	if (RAND_bytes(&byte, 1) != 1 || RAND_priv_bytes(&byte, 1) != 1)
		return -ENOPKG;
	/* Good signatures suffice to fetch everything; the tests also run
	 * the refusals (pgpk_sandbox_crypto_check()), inside the filter. */
	return pgpk_crypto_exercise(false);
}
