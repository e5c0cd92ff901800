/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Canonical blobs for broker tests, encoded with protobuf-c (the encoder
 * side of the contract), independent of the OpenPGP parser.
 */
#ifndef PGPK_TEST_BLOBS_H
#define PGPK_TEST_BLOBS_H

#include <stddef.h>
#include <stdint.h>

/* Fill n with a deterministic RSA-modulus-like value of exactly bits. */
void pgpk_test_modulus(uint8_t *n, unsigned int bits, uint8_t seed);

/* A canonical Key: v4 RSA with modulus n, optional expiry (0 = never). */
uint8_t *pgpk_test_key_blob(const uint8_t *n, size_t n_len, uint64_t expires,
			    size_t *len);

/* A canonical Signature with RSA value s and the given hash algorithm. */
uint8_t *pgpk_test_sig_blob(const uint8_t *s, size_t s_len, unsigned int hash,
			    uint64_t expires, size_t *len);

#endif /* PGPK_TEST_BLOBS_H */
