/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Canonical blobs for broker tests, encoded with protobuf-c (the encoder
 * side of the contract), independent of the OpenPGP parser.
 */
#ifndef PGPK_TEST_BLOBS_H
#define PGPK_TEST_BLOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fill n with a deterministic RSA-modulus-like value of exactly bits. */
void pgpk_test_modulus(uint8_t *n, unsigned int bits, uint8_t seed);

/*
 * A canonical Key: v4 RSA (created 1700000000, e = 65537) with modulus n,
 * its packet body at `offset`.
 */
uint8_t *pgpk_test_key_blob(const uint8_t *n, size_t n_len, uint32_t offset,
			    size_t *len);

/* What a key blob holds beyond pgpk_test_key_blob()'s. */
struct pgpk_test_key_opts {
	bool subkey; /* a subkey, its primary the same material at 3 */
	const char *user_id; /* Key.user_id, at user_id_offset */
	uint32_t user_id_offset;
	const uint8_t *cert_s; /* Key.certification (v4, 0x13, SHA-256) */
	size_t cert_s_len;
	bool cert_s_at; /* with rsa_s_offset cert_s_offset */
	uint32_t cert_s_offset;
	size_t cert_area_len; /* its hashed area: a creation time, filler */
};

uint8_t *pgpk_test_key_blob_opts(const uint8_t *n, size_t n_len,
				 uint32_t offset,
				 const struct pgpk_test_key_opts *o,
				 size_t *len);

/*
 * Bytes that look like binary OpenPGP: an old-format public key packet
 * (RFC 9580 4.2.2) whose body, at offset 3, is the v4 key of
 * pgpk_test_key_blob() with modulus n (RFC 9580 5.5.2.2), then filler up
 * to `total` octets.  Written out here independently of pgpk_rebuild.
 */
uint8_t *pgpk_test_key_input(const uint8_t *n, size_t n_len, size_t total);

/*
 * The same with a user ID packet (old format, tag 13) after the key
 * packet: its body at pgpk_test_uid_offset(n_len), then filler.
 */
uint8_t *pgpk_test_key_uid_input(const uint8_t *n, size_t n_len,
				 const char *uid, size_t total);
uint32_t pgpk_test_uid_offset(size_t n_len);

/*
 * A canonical Signature with RSA value s and the given hash algorithm,
 * created 1700000000, expiring at `expires` (0: never) as its hashed area
 * says.
 */
uint8_t *pgpk_test_sig_blob(const uint8_t *s, size_t s_len, unsigned int hash,
			    uint64_t expires, size_t *len);

/* The same with the signed content (an inline or cleartext message). */
uint8_t *pgpk_test_msg_blob(const uint8_t *s, size_t s_len, unsigned int hash,
			    const uint8_t *content, size_t content_len,
			    size_t *len);

#endif /* PGPK_TEST_BLOBS_H */
