// SPDX-License-Identifier: GPL-2.0
/*
 * Digests without OpenSSL 3's fetch machinery (why: helper/pgpk_digest.h).
 */
/* SHA256_Init() and friends are deprecated in OpenSSL 3.0, on purpose
 * used here (pgpk_digest.h): this file only. */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <errno.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/ripemd.h>
#include <openssl/sha.h>

#include "helper/pgpk_digest.h"

_Static_assert(sizeof(SHA512_CTX) <= sizeof(((struct pgpk_digest *)0)->state),
	       "pgpk_digest state too small for SHA512_CTX");
_Static_assert(sizeof(SHA256_CTX) <= sizeof(((struct pgpk_digest *)0)->state),
	       "pgpk_digest state too small for SHA256_CTX");
_Static_assert(sizeof(SHA_CTX) <= sizeof(((struct pgpk_digest *)0)->state),
	       "pgpk_digest state too small for SHA_CTX");
_Static_assert(sizeof(RIPEMD160_CTX) <=
		       sizeof(((struct pgpk_digest *)0)->state),
	       "pgpk_digest state too small for RIPEMD160_CTX");

size_t pgpk_digest_size(unsigned int algo)
{
	switch (algo) {
	case PGPK_HASH_SHA1:
	case PGPK_HASH_RIPEMD160:
		return 20;
	case PGPK_HASH_SHA224:
		return 28;
	case PGPK_HASH_SHA256:
	case PGPK_HASH_SHA3_256:
		return 32;
	case PGPK_HASH_SHA384:
		return 48;
	case PGPK_HASH_SHA512:
	case PGPK_HASH_SHA3_512:
		return 64;
	default:
		return 0;
	}
}

/* SHA-3: no block-function interface, so EVP (implicit fetch). */
static const EVP_MD *pgpk_digest_evp(unsigned int algo)
{
	switch (algo) {
	case PGPK_HASH_SHA3_256:
		return EVP_sha3_256();
	case PGPK_HASH_SHA3_512:
		return EVP_sha3_512();
	default:
		return NULL;
	}
}

int pgpk_digest_init(struct pgpk_digest *d, unsigned int algo)
{
	void *s = &d->state;
	const EVP_MD *md;

	d->algo = 0;
	d->evp = NULL;
	switch (algo) {
	case PGPK_HASH_SHA1:
		SHA1_Init(s);
		break;
	case PGPK_HASH_RIPEMD160:
		RIPEMD160_Init(s);
		break;
	case PGPK_HASH_SHA224:
		SHA224_Init(s);
		break;
	case PGPK_HASH_SHA256:
		SHA256_Init(s);
		break;
	case PGPK_HASH_SHA384:
		SHA384_Init(s);
		break;
	case PGPK_HASH_SHA512:
		SHA512_Init(s);
		break;
	case PGPK_HASH_SHA3_256:
	case PGPK_HASH_SHA3_512:
		md = pgpk_digest_evp(algo);
		d->evp = EVP_MD_CTX_new();
		if (!d->evp)
			return -ENOMEM;
		if (!md || !EVP_DigestInit_ex(d->evp, md, NULL)) {
			EVP_MD_CTX_free(d->evp);
			d->evp = NULL;
			return -ENOPKG;
		}
		break;
	default:
		return -ENOPKG;
	}
	d->algo = algo;
	return 0;
}

int pgpk_digest_update(struct pgpk_digest *d, const void *data, size_t len)
{
	void *s = &d->state;

	switch (d->algo) {
	case PGPK_HASH_SHA1:
		SHA1_Update(s, data, len);
		return 0;
	case PGPK_HASH_RIPEMD160:
		RIPEMD160_Update(s, data, len);
		return 0;
	case PGPK_HASH_SHA224:
		SHA224_Update(s, data, len);
		return 0;
	case PGPK_HASH_SHA256:
		SHA256_Update(s, data, len);
		return 0;
	case PGPK_HASH_SHA384:
		SHA384_Update(s, data, len);
		return 0;
	case PGPK_HASH_SHA512:
		SHA512_Update(s, data, len);
		return 0;
	case PGPK_HASH_SHA3_256:
	case PGPK_HASH_SHA3_512:
		return EVP_DigestUpdate(d->evp, data, len) ? 0 : -ENOMEM;
	default:
		return -EINVAL;
	}
}

void pgpk_digest_release(struct pgpk_digest *d)
{
	EVP_MD_CTX_free(d->evp);
	d->evp = NULL;
	d->algo = 0;
}

int pgpk_digest_final(struct pgpk_digest *d, uint8_t *out, size_t *out_len)
{
	void *s = &d->state;
	unsigned int n = 0;
	int ret = 0;

	switch (d->algo) {
	case PGPK_HASH_SHA1:
		SHA1_Final(out, s);
		break;
	case PGPK_HASH_RIPEMD160:
		RIPEMD160_Final(out, s);
		break;
	case PGPK_HASH_SHA224:
		SHA224_Final(out, s);
		break;
	case PGPK_HASH_SHA256:
		SHA256_Final(out, s);
		break;
	case PGPK_HASH_SHA384:
		SHA384_Final(out, s);
		break;
	case PGPK_HASH_SHA512:
		SHA512_Final(out, s);
		break;
	case PGPK_HASH_SHA3_256:
	case PGPK_HASH_SHA3_512:
		if (!EVP_DigestFinal_ex(d->evp, out, &n))
			ret = -ENOMEM;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (out_len)
		*out_len = ret ? 0 : pgpk_digest_size(d->algo);
	pgpk_digest_release(d);
	return ret;
}

int pgpk_digest_copy(struct pgpk_digest *dst, const struct pgpk_digest *src)
{
	*dst = *src;
	if (!src->evp)
		return 0;
	dst->evp = EVP_MD_CTX_new();
	if (!dst->evp || !EVP_MD_CTX_copy_ex(dst->evp, src->evp)) {
		EVP_MD_CTX_free(dst->evp);
		dst->evp = NULL;
		dst->algo = 0;
		return -ENOMEM;
	}
	return 0;
}

int pgpk_digest(unsigned int algo, const void *data, size_t len, uint8_t *out,
		size_t *out_len)
{
	struct pgpk_digest d;
	int ret;

	ret = pgpk_digest_init(&d, algo);
	if (ret)
		return ret;
	ret = pgpk_digest_update(&d, data, len);
	if (ret) {
		pgpk_digest_release(&d);
		return ret;
	}
	return pgpk_digest_final(&d, out, out_len);
}
