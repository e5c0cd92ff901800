/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgpk module internals.  Each file uses only those listed before it:
 *
 * pgpk_canon.c    strict canonical decoder       } untrusted-byte code,
 * pgpk_frame.c    framing walks, comparisons     } also built for user space
 * pgpk_rebuild.c  key packet and trailer octets (shared with user space)
 * pgpk_sig.c      digests; the subtype: what a pgpk key verifies;
 *                 key type "pgpk_test"
 * pgpk_upcall.c   the upcall (key type "pgpk"): OpenPGP octets converted
 *                 by the helper, and bound to them (CONFIG_OPENPGP_KEY_UPCALL)
 * pgpk_key.c      asymmetric key parser "pgpk"; keyring ".pgpk"; init
 *                 and exit
 *
 * What they take from the asymmetric key core and from Kconfig is named
 * in pgpk_core.h (out of tree: pgpk_compat.h, which Kbuild force-includes).
 */
#ifndef _PGPK_H
#define _PGPK_H

#include <linux/cred.h>
#include <linux/key-type.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <crypto/hash.h>
#include <crypto/hash_info.h>
#include <crypto/public_key.h>
#include <keys/asymmetric-parser.h>
#include <keys/asymmetric-subtype.h>
#include <keys/user-type.h>
#include "pgpk_canon.h"
#include "pgpk_core.h"

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
 * A pgpk key's payload[asym_crypto]: its public_key first (public_key's
 * describe, query and eds_op, and restrict.c, read payload[asym_crypto]
 * as one), and what the subtype checks a signature's time and use
 * against, read from the self-signatures the kernel verified
 * (pgpk_key.c), but for the one hint (../SECURITY.md).  Freed by the
 * subtype's destroy, pgpk_subtype_destroy().
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
 * A signature whose hashed octets pgpk framed (pgpk_sig_digest(), its
 * protocol OpenPGP: pgpk_sig_is_openpgp()), with its digest and its RSA
 * value; freed by pgpk_subtype_destroy(NULL, &info->pks).
 */
struct pgpk_sig_info {
	struct public_key_signature pks;
	struct pgpk_hashed h;	/* what its hashed area says; no fpr */
	u64 expires;		/* 0, or its creation + h.expires */
	u8 type;
	u8 digest[HASH_MAX_DIGESTSIZE];
	u8 s[];			/* the RSA value, pks.s */
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
void pgpk_subtype_destroy(void *crypto, void *auth);
int pgpk_rsa_verify(const struct public_key *pub, u32 size,
		    const struct public_key_signature *sig);
int pgpk_sigs_check(const struct pgpk_canon *c, const u8 *data, size_t len,
		    struct key *keyring);
int pgpk_sig_init(void);
void pgpk_sig_exit(void);

/* pgpk_upcall.c */
extern struct key_type pgpk_key_type_upcall;
struct pgpk_answer *pgpk_upcall(const u8 *data, size_t len);
int pgpk_bind(const u8 *data, size_t len, const struct pgpk_key *k);

/* pgpk_key.c */
extern struct key *pgpk_trusted_keys;

#endif /* _PGPK_H */
