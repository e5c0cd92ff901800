/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgpk module internals.  Each file uses only those listed before it:
 *
 * pgpk_canon.c    strict canonical decoder       } untrusted-byte code,
 * pgpk_frame.c    framing walks, comparisons     } also built for user space
 * pgpk_rebuild.c  key packet and trailer octets (shared with user space)
 * pgpk_sig.c      digests; the subtype: what a pgpk key verifies;
 *                 key type "pgpk_test"
 * pgpk_key.c      asymmetric key parser "pgpk" and its upcall (key type
 *                 "pgpk"); keyring ".pgpk"; init and exit
 */
#ifndef _PGPK_H
#define _PGPK_H

#include <crypto/hash_info.h>
#include <crypto/public_key.h>
#include "pgpk_canon.h"

#define PGPK_KEYID_LEN		8
#define PGPK_FPR_MAX		32	/* v6 fingerprint: SHA-256 */

/* RFC 9580 5.2.1: signature types. */
#define PGPK_SIG_TEXT		0x01
#define PGPK_SIG_CERT_FIRST	0x10
#define PGPK_SIG_CERT_LAST	0x13
#define PGPK_SIG_SUBKEY_BINDING	0x18
#define PGPK_SIG_DIRECT_KEY	0x1f

/* A refusal: one ratelimited log line saying why, and @err. */
#define pgpk_refuse(err, fmt, ...) \
	({ pr_warn_ratelimited(fmt "\n", ##__VA_ARGS__); err; })

/*
 * A pgpk key's payload[asym_crypto]: its public_key first, so that
 * public_key_free() frees the whole, and what the subtype checks a
 * signature's time and use against, read from the self-signatures the
 * kernel verified (pgpk_key.c), but for the one hint (../SECURITY.md).
 */
struct pgpk_public_key {
	struct public_key pub;
	u32 size;		/* modulus, octets */
	u32 bound;		/* a subkey's first binding, or the key's creation */
	u32 soft_revoked;	/* Key.soft_revoked, or U32_MAX: hint */
	bool ima;		/* dedicated to IMA */
	u8 key_flags;		/* as its self-signature says; never certify: subkeys */
};

/*
 * A signature whose hashed octets pgpk framed (pgpk_sig_digest()): its
 * public_key_signature first, so that public_key_signature_free() frees
 * the whole; its encoding points at pgpk_sig_encoding.
 */
struct pgpk_sig_info {
	struct public_key_signature pks;
	struct pgpk_hashed h;	/* what its hashed area says; no fpr */
	u64 expires;		/* 0, or its creation + h.expires */
	u8 type;
};

/* A decoded canonical blob; @key, if any, holds the octets decoded. */
struct pgpk_answer {
	struct key *key;
	struct pgpk_canon canon;
};

/* What a signature hashes before its trailer (RFC 9580 5.2.4). */
struct pgpk_signed {
	const struct pgpk_key_material *key[2];	/* primary, subkey */
	const struct pgpk_bytes *user_id;
	const u8 *data;				/* a document */
	size_t len;
};

/* pgpk_sig.c */
extern struct asymmetric_key_subtype pgpk_key_subtype;
extern struct crypto_shash *pgpk_tfm[HASH_ALGO__LAST];
struct pgpk_answer *pgpk_decode(const u8 *blob, size_t len, const char *what);
u8 *pgpk_key_packet(const struct pgpk_key_material *m, size_t *len,
		    size_t *body);
int pgpk_ids(struct asymmetric_key_id **ids, const u8 *fpr, u32 fpr_len,
	     const u8 *keyid);
struct pgpk_sig_info *pgpk_sig_digest(const struct pgpk_sig *sig,
				      const struct pgpk_signed *what);
int pgpk_rsa_verify(const struct public_key *pub, u32 size,
		    const struct public_key_signature *sig);
int pgpk_sig_init(void);
void pgpk_sig_exit(void);

/* pgpk_key.c */
extern struct key *pgpk_trusted_keys;

#endif /* _PGPK_H */
