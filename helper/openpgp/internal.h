/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the pgpk OpenPGP library: the bounds-checked cursor every
 * read goes through, packet framing, error reporting.
 */
#ifndef PGPK_OPENPGP_INTERNAL_H
#define PGPK_OPENPGP_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "helper/openpgp/openpgp.h"

/* Hard caps against hostile input (allocation and work bounds). */
#define PGPK_MAX_INPUT (256u * 1024 * 1024) /* whole input */
#define PGPK_MAX_PACKETS (4u * 1024 * 1024) /* packets per input */
#define PGPK_MAX_NESTING 4 /* compressed-in-compressed, embedded */
#define PGPK_MAX_MPI_BITS 16384 /* larger integers are refused */

/*
 * A read-only window on a buffer.  Every read checks the remaining length;
 * `base` is the offset of data[0] in the input, for error messages.
 */
struct pgpk_cursor {
	const uint8_t *data;
	size_t len;
	size_t pos;
	size_t base;
};

static inline void pgpk_cursor_init(struct pgpk_cursor *c, const uint8_t *data,
				    size_t len, size_t base)
{
	c->data = data;
	c->len = len;
	c->pos = 0;
	c->base = base;
}

static inline size_t pgpk_cursor_left(const struct pgpk_cursor *c)
{
	return c->len - c->pos;
}

/* Offset of the next octet in the whole input. */
static inline size_t pgpk_cursor_offset(const struct pgpk_cursor *c)
{
	return c->base + c->pos;
}

static inline bool pgpk_get_u8(struct pgpk_cursor *c, uint8_t *v)
{
	if (c->len - c->pos < 1)
		return false;
	*v = c->data[c->pos++];
	return true;
}

static inline bool pgpk_get_be16(struct pgpk_cursor *c, uint16_t *v)
{
	if (c->len - c->pos < 2)
		return false;
	*v = (uint16_t)(c->data[c->pos] << 8 | c->data[c->pos + 1]);
	c->pos += 2;
	return true;
}

static inline bool pgpk_get_be32(struct pgpk_cursor *c, uint32_t *v)
{
	if (c->len - c->pos < 4)
		return false;
	*v = (uint32_t)c->data[c->pos] << 24 |
	     (uint32_t)c->data[c->pos + 1] << 16 |
	     (uint32_t)c->data[c->pos + 2] << 8 | c->data[c->pos + 3];
	c->pos += 4;
	return true;
}

/* Take n octets: *p points at them. */
static inline bool pgpk_get_bytes(struct pgpk_cursor *c, size_t n,
				  const uint8_t **p)
{
	if (c->len - c->pos < n)
		return false;
	*p = c->data + c->pos;
	c->pos += n;
	return true;
}

static inline uint32_t pgpk_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Fill *err (if not NULL) and return code. */
int pgpk_fail(struct pgpk_error *err, int code, size_t offset, const char *fmt,
	      ...) __attribute__((format(printf, 4, 5)));

/* RFC 9580 4.3: packet tags used here. */
enum pgpk_tag {
	PGPK_TAG_PKESK = 1,
	PGPK_TAG_SIGNATURE = 2,
	PGPK_TAG_SKESK = 3,
	PGPK_TAG_ONE_PASS = 4,
	PGPK_TAG_SECRET_KEY = 5,
	PGPK_TAG_PUBLIC_KEY = 6,
	PGPK_TAG_SECRET_SUBKEY = 7,
	PGPK_TAG_COMPRESSED = 8,
	PGPK_TAG_SED = 9,
	PGPK_TAG_MARKER = 10,
	PGPK_TAG_LITERAL = 11,
	PGPK_TAG_TRUST = 12,
	PGPK_TAG_USER_ID = 13,
	PGPK_TAG_PUBLIC_SUBKEY = 14,
	PGPK_TAG_USER_ATTRIBUTE = 17,
	PGPK_TAG_SEIPD = 18,
	PGPK_TAG_MDC = 19,
	PGPK_TAG_AEAD = 20,
	PGPK_TAG_PADDING = 21,
};

/* One framed packet. */
struct pgpk_packet {
	uint8_t tag;
	bool new_format;
	bool partial; /* body assembled from partial lengths */
	size_t hdr_offset; /* offset of the packet header */
	size_t offset; /* offset of the (first chunk of the) body */
	const uint8_t *body;
	size_t len;
	uint8_t *owned; /* partial bodies: malloc()ed copy */
};

/*
 * Frame the next packet at the cursor (RFC 9580 4.2).  Partial body
 * lengths (4.2.1.4 / RFC 4880 4.2.2.4) and the old format's indeterminate
 * length are accepted only for data packets; a partial body is copied into
 * pkt->owned (free it with pgpk_packet_release()).
 */
int pgpk_packet_next(struct pgpk_cursor *c, struct pgpk_packet *pkt,
		     struct pgpk_error *err);
void pgpk_packet_release(struct pgpk_packet *pkt);
const char *pgpk_tag_name(unsigned int tag);

/*
 * RFC 9580 3.2: an MPI, two-octet bit count then the octets.  *m points at
 * the value without leading zero octets; *noncanonical is set when the bit
 * count is not exactly the value's bit length.
 */
bool pgpk_mpi_get(struct pgpk_cursor *c, struct pgpk_mpi *m,
		  bool *noncanonical);

/* key.c: parse a key packet body into *key (fingerprint included). */
int pgpk_pubkey_parse(const uint8_t *body, size_t len, size_t offset,
		      bool subkey, struct pgpk_pubkey *key,
		      struct pgpk_error *err);
/* May this algorithm sign at all (GnuPG's openpgp_pk_algo_usage)? */
bool pgpk_pk_algo_can_sign(unsigned int algo);
bool pgpk_pk_algo_is_rsa(unsigned int algo);
/* Hash the key packet as signatures and fingerprints do (RFC 9580 5.2.4):
 * v4 0x99 + 2-octet length, v6 0x9B + 4-octet length, then the body. */
int pgpk_hash_key_packet(struct pgpk_digest *d, const struct pgpk_pubkey *key);

/* sig.c: hash the signature's trailer (RFC 9580 5.2.4) after the data. */
int pgpk_hash_sig_trailer(struct pgpk_digest *d,
			  const struct pgpk_signature *sig);
/* v6: salt first (RFC 9580 5.2.4). */
int pgpk_hash_sig_prefix(struct pgpk_digest *d,
			 const struct pgpk_signature *sig);
/* Expected v6 salt size for a hash algorithm, 0 if unknown. */
size_t pgpk_hash_salt_len(unsigned int hash_algo);
/*
 * sig.c: can the kernel check `s` at all, as far as the signature alone
 * tells: v4 or v6, RSA, SHA-224/256/384/512 (the policy floor), an RSA
 * value it takes, a v6 salt as long as its hash says, and a hashed area
 * the kernel's own walk takes (pgpk_hashed_walk(): framing, one creation
 * time, this one, no critical subpacket pgpk does not understand).
 * Otherwise the kernel refuses it, EBADMSG or EKEYREJECTED.  *h, if not
 * NULL: what the area says.
 */
struct pgpk_hashed;
bool pgpk_sig_kernel_checkable(const struct pgpk_signature *s,
			       struct pgpk_hashed *h);

/* cert.c: verification of one signature made by `signer` over a prepared
 * digest context. */
int pgpk_sig_verify_rsa(const struct pgpk_pubkey *signer,
			const struct pgpk_signature *sig, const uint8_t *digest,
			size_t digest_len);

/*
 * cert.c: which third-party certification vouches for cert's primary key
 * (pgpk_key_canonical()).  cands[0..n), newest first, each claiming to be
 * made by signers[i] over the primary key and `uid`: the first that
 * verifies (one RSA operation each) and that no certification revocation
 * (0x30) over the user ID, made by the same signer at or after it and
 * verifying with it, withdrew (RFC 9580 5.2.1.15; a signer so revoked
 * vouches no more).  *out: it, or NULL.  0 or -ENOMEM.
 */
int pgpk_certifier(const struct pgpk_keyring *ring,
		   const struct pgpk_cert *cert, const struct pgpk_userid *uid,
		   struct pgpk_signature *const *cands,
		   const struct pgpk_pubkey *const *signers, size_t n,
		   int64_t now, const struct pgpk_signature **out);

/* pgpk_input_decode(), optionally using binary input in place. */
int pgpk_input_decode_borrow(const uint8_t *in, size_t len,
			     struct pgpk_input *out, bool borrow,
			     struct pgpk_error *err);

/* pgpk_sort_ptrs() order of signatures: newest first; on equal times the
 * later packet first. */
int pgpk_sig_newest_cmp(const void *a, const void *b);

/* Free-standing allocation cap helper: n * size with overflow check. */
void *pgpk_calloc_array(size_t n, size_t size);

/*
 * Sort v[0..n) so that cmp(v[i], v[i + 1]) <= 0; stable, O(n log n), no
 * system call but malloc() (sort.c says why not qsort()).  0 or -ENOMEM
 * (v unchanged).
 */
typedef int (*pgpk_cmp_fn)(const void *a, const void *b);
int pgpk_sort_ptrs(const void **v, size_t n, pgpk_cmp_fn cmp);

#endif /* PGPK_OPENPGP_INTERNAL_H */
