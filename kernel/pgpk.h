/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgpk module internals: what its files share.
 *
 * pgpk_armor.c   the only code that reads untrusted OpenPGP bytes: ASCII
 *                armor removal and the binding checks (memcmp, no parse)
 * pgpk_upcall.c  key type "pgpk": request_key() upcall and answer cache
 * pgpk_hash.c    fingerprints and signature digests (RFC 9580 5.2.4, 5.5.4)
 * pgpk_key.c     canonical Key -> asymmetric key payload, kernel policy
 * pgpk_subtype.c what a pgpk key verifies (trust rule 6)
 * pgpk_certify.c asym_auth: the certification that vouches for a key
 * pgpk_parser.c  asymmetric key parser "pgpk"
 * pgpk_verify.c  pgpk_verify_signature(), exported
 * pgpk_test_key.c key type "pgpk_test"
 * pgpk_main.c    trusted keyring, bundle preload, init and exit
 */
#ifndef _PGPK_H
#define _PGPK_H

#include <linux/key-type.h>
#include <linux/verification.h>
#include <crypto/public_key.h>
#include "pgpk_armor.h"
#include "pgpk_compat.h"
#include "pgpk_canon.h"

#define PGPK_KEYID_LEN		8
#define PGPK_FPR_MAX		32	/* v6 fingerprint: SHA-256 */

/* A key's identity, computed in the kernel from its rebuilt packet. */
struct pgpk_key_id {
	u8 fpr[PGPK_FPR_MAX];
	u32 fpr_len;
	u8 keyid[PGPK_KEYID_LEN];
};

/*
 * A pgpk key's payload[asym_crypto]: the public_key, and the times its
 * signatures may have been made in (pgpk_sig_time_check()).  pub comes
 * first, so public_key_free() frees the whole.
 */
struct pgpk_public_key {
	struct public_key pub;
	u32 created;		/* key packet creation time: confirmed */
	u32 bound;		/* max(created, Key.bound): hint */
	u32 soft_revoked;	/* Key.soft_revoked: hint */
	bool has_soft_revoked;
	u32 key_flags;		/* Key.key_flags, or 0xff without: hint */
};

static_assert(offsetof(struct pgpk_public_key, pub) == 0);

/* A decoded upcall answer; canon points into the key's payload. */
struct pgpk_answer {
	struct key *key;
	struct pgpk_canon canon;
};

/* pgpk_upcall.c */
int pgpk_upcall(const char *kind, const struct pgpk_input *in,
		const char *select, struct pgpk_answer *ans);
void pgpk_answer_put(struct pgpk_answer *ans);
int pgpk_upcall_init(void);
void pgpk_upcall_exit(void);

/* pgpk_hash.c */
struct pgpk_digest;
bool pgpk_hash_weak(u32 id);
int pgpk_key_body(const struct pgpk_key_material *m, u8 **body, size_t *len);
int pgpk_key_identify(const struct pgpk_key_material *m,
		      struct pgpk_key_id *id);
struct pgpk_digest *pgpk_digest_begin(const struct pgpk_sig *sig);
int pgpk_digest_key(struct pgpk_digest *d, const struct pgpk_key_material *m);
int pgpk_digest_user_id(struct pgpk_digest *d, const struct pgpk_bytes *uid);
int pgpk_digest_data(struct pgpk_digest *d, const u8 *data, size_t len);
struct public_key_signature *pgpk_digest_end(struct pgpk_digest *d);
void pgpk_digest_abort(struct pgpk_digest *d);
int pgpk_sig_auth_ids(struct public_key_signature *pks,
		      const struct pgpk_sig *sig);

/* pgpk_certify.c */
struct public_key_signature *pgpk_cert_digest(const struct pgpk_key *k,
					      const struct pgpk_sig *sig);
struct public_key_signature *pgpk_certify(const struct pgpk_key *k,
					  const struct pgpk_key_id *id);

/* pgpk_key.c */
int pgpk_key_load(struct key_preparsed_payload *prep, const struct pgpk_key *k,
		  const char *select);
int pgpk_select_parse(const char *desc, char *out, size_t size);

/* pgpk_subtype.c */
void pgpk_sig_mark(struct public_key_signature *pks);
void pgpk_key_mark_ima(struct public_key *pub);
int pgpk_rsa_verify(const struct public_key *pub,
		    const struct public_key_signature *sig, u32 size);
extern struct asymmetric_key_subtype pgpk_key_subtype;
void pgpk_subtype_init(void);

/* pgpk_parser.c */
int pgpk_parser_init(void);
void pgpk_parser_exit(void);

/* pgpk_verify.c */
int pgpk_verify_signature(const void *data, size_t len,
			  const void *raw_sig, size_t sig_len,
			  struct key *trusted_keys,
			  enum key_being_used_for usage,
			  int (*view_content)(void *ctx, const void *data,
					      size_t len, size_t asn1hdrlen),
			  void *ctx);
int pgpk_sig_obtain(const u8 *raw, size_t len, struct pgpk_answer *ans);
int pgpk_sig_check(const struct pgpk_sig *sig, const void *data, size_t len,
		   struct key *keyring);
int pgpk_sig_key_check(const struct key *key, const struct pgpk_sig *sig,
		       bool document);
extern struct key *pgpk_trusted_keys;

/* pgpk_test_key.c */
int pgpk_test_key_init(void);
void pgpk_test_key_exit(void);

#endif /* _PGPK_H */
