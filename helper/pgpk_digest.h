/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Digests by their RFC 9580 9.5 id, without OpenSSL 3's fetch machinery.
 *
 * The first EVP_MD_fetch() of a process (EVP_DigestInit_ex() with
 * EVP_sha256() fetches too) registers every legacy cipher and digest
 * name, copies them into the library's name map and builds a method for
 * every digest of the default provider: 3.6 M instructions, a third of a
 * whole `pgpk verify`, paid again by every upcall.  The SHA-1,
 * SHA-2 and RIPEMD-160 functions libcrypto exports (SHA256_Init()
 * and the like: deprecated in OpenSSL 3.0, not removed; the very code
 * the default provider runs, with the same assembly) need none of it:
 * no initialisation, nothing to warm up before the seccomp filter.
 * SHA-3 has no such interface: it goes through EVP, fetched once (the
 * sandbox warms it up, sandbox/pgpk_preload.c).
 *
 * Used by the broker (fingerprints of canonical keys, canon_key.c), by
 * the OpenPGP library (fingerprints, signature digests) and by verify:
 * this library depends on libcrypto only.
 */
#ifndef PGPK_DIGEST_H
#define PGPK_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* RFC 9580 9.5: hash algorithms. */
enum pgpk_hash_algo {
	PGPK_HASH_MD5 = 1,
	PGPK_HASH_SHA1 = 2,
	PGPK_HASH_RIPEMD160 = 3,
	PGPK_HASH_SHA256 = 8,
	PGPK_HASH_SHA384 = 9,
	PGPK_HASH_SHA512 = 10,
	PGPK_HASH_SHA224 = 11,
	PGPK_HASH_SHA3_256 = 12,
	PGPK_HASH_SHA3_512 = 14,
};

#define PGPK_DIGEST_MAX 64 /* SHA-512, SHA3-512 */

struct evp_md_ctx_st;

/*
 * A running digest.  Copy it with pgpk_digest_copy(), never by
 * assignment (SHA-3 owns an OpenSSL context).
 */
struct pgpk_digest {
	unsigned int algo; /* enum pgpk_hash_algo, 0 when released */
	struct evp_md_ctx_st *evp; /* SHA-3 only */
	/* The OpenSSL state (SHA512_CTX is the largest: 216 octets). */
	union {
		uint64_t u64[28];
		void *align;
	} state;
};

/*
 * MD5 is never computed: RFC 9580 9.5 forbids it for signatures, and
 * every caller refuses it before hashing (pgpk_digest_init(): -ENOPKG).
 */

/* Octets of an algorithm's digest, 0 for MD5 and unknown ones. */
size_t pgpk_digest_size(unsigned int algo);

/*
 * Start a digest.  0, -ENOPKG for an unknown algorithm (or SHA-3 missing
 * from libcrypto), -ENOMEM.  On failure *d needs no release.
 */
int pgpk_digest_init(struct pgpk_digest *d, unsigned int algo);
/* 0 or -ENOMEM (SHA-3 only; the others cannot fail). */
int pgpk_digest_update(struct pgpk_digest *d, const void *data, size_t len);
/*
 * Finish into out (PGPK_DIGEST_MAX octets), its size in *out_len (may be
 * NULL); *d is released either way.  0 or -ENOMEM.
 */
int pgpk_digest_final(struct pgpk_digest *d, uint8_t *out, size_t *out_len);
/* dst becomes a copy of src (dst must not hold a digest).  0 or -ENOMEM. */
int pgpk_digest_copy(struct pgpk_digest *dst, const struct pgpk_digest *src);
/* Drop a digest that will not be finished (safe on a released one). */
void pgpk_digest_release(struct pgpk_digest *d);

/* One-shot: 0, -ENOPKG or -ENOMEM. */
int pgpk_digest(unsigned int algo, const void *data, size_t len, uint8_t *out,
		size_t *out_len);

#endif /* PGPK_DIGEST_H */
