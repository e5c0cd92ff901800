/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgpk OpenPGP library: the only OpenPGP parser of the project.
 *
 * Pure: bytes in, structures / canonical blobs / errors out.  No I/O, no
 * global mutable state, no randomness; safe inside the seccomp sandbox once
 * OpenSSL is initialised.  Depends on OpenSSL libcrypto (hashes, RSA
 * verification) and protobuf-c (canonical encoding) only.
 *
 * Every parsed structure points into one buffer owned by its container
 * (the dearmored input), so a container must be freed as a whole with its
 * _free() function and its pointers do not outlive it.
 *
 * Errors: negative errnos with the project's fixed meanings, and a
 * struct pgpk_error (helper/pgpk_convert.h) naming the problem and the byte
 * offset in the DEARMORED input (for an armor error: in the raw input).
 *   -EBADMSG malformed, -ENOPKG unsupported (algorithm, version),
 *   -ENOKEY no (matching) key, -EKEYREJECTED bad signature / refused,
 *   -ENOMEM out of memory or over the allocation cap.
 */
#ifndef PGPK_OPENPGP_H
#define PGPK_OPENPGP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "helper/pgpk_convert.h"
#include "helper/pgpk_digest.h" /* enum pgpk_hash_algo, digests */

/* RFC 9580 9.1: public-key algorithms. */
enum pgpk_pk_algo {
	PGPK_PK_RSA = 1,
	PGPK_PK_RSA_E = 2, /* encrypt-only, deprecated */
	PGPK_PK_RSA_S = 3, /* sign-only, deprecated */
	PGPK_PK_ELGAMAL_E = 16,
	PGPK_PK_DSA = 17,
	PGPK_PK_ECDH = 18,
	PGPK_PK_ECDSA = 19,
	PGPK_PK_ELGAMAL = 20, /* sign+encrypt, deprecated */
	PGPK_PK_EDDSA_LEGACY = 22,
	PGPK_PK_X25519 = 25,
	PGPK_PK_X448 = 26,
	PGPK_PK_ED25519 = 27,
	PGPK_PK_ED448 = 28,
};

/* RFC 9580 5.2.1: signature types used here. */
enum pgpk_sig_type {
	PGPK_SIG_BINARY = 0x00,
	PGPK_SIG_TEXT = 0x01,
	PGPK_SIG_STANDALONE = 0x02,
	PGPK_SIG_CERT_GENERIC = 0x10,
	PGPK_SIG_CERT_PERSONA = 0x11,
	PGPK_SIG_CERT_CASUAL = 0x12,
	PGPK_SIG_CERT_POSITIVE = 0x13,
	PGPK_SIG_SUBKEY_BINDING = 0x18,
	PGPK_SIG_PRIMARY_BINDING = 0x19,
	PGPK_SIG_DIRECT_KEY = 0x1f,
	PGPK_SIG_KEY_REVOCATION = 0x20,
	PGPK_SIG_SUBKEY_REVOCATION = 0x28,
	PGPK_SIG_CERT_REVOCATION = 0x30,
};

/* RFC 9580 5.2.3.29: key flags (first octet). */
#define PGPK_KF_CERTIFY 0x01
#define PGPK_KF_SIGN 0x02
#define PGPK_KF_ENCRYPT_COMMS 0x04
#define PGPK_KF_ENCRYPT_STORAGE 0x08
#define PGPK_KF_AUTH 0x20

#define PGPK_FPR_MAX 32 /* v6: SHA-256 */
#define PGPK_KEYID_LEN 8

/* A big-endian unsigned integer inside the input, leading zeros removed. */
struct pgpk_mpi {
	const uint8_t *data;
	size_t len; /* octets, 0 for the value zero */
};

/*
 * One signature packet (RFC 9580 5.2), parsed.  Subpacket values are taken
 * from the HASHED area, except issuer key ID / issuer fingerprint /
 * embedded signature which may also come from the unhashed area
 * (RFC 9580 5.2.3.7: they are self-authenticating).
 */
struct pgpk_signature {
	size_t offset; /* offset of the packet body */
	const uint8_t *body; /* the whole packet body */
	size_t body_len;
	uint8_t version; /* 3, 4 or 6 */
	uint8_t type; /* enum pgpk_sig_type */
	uint8_t pk_algo; /* enum pgpk_pk_algo */
	uint8_t hash_algo; /* enum pgpk_hash_algo */
	uint32_t created; /* v3 field / creation time subpacket */
	uint32_t sig_expires; /* relative seconds, 0 = never (5.2.3.18) */
	bool has_key_expires;
	uint32_t key_expires; /* relative to key creation (5.2.3.13) */
	bool has_key_flags;
	uint8_t key_flags; /* first octet (5.2.3.29) */
	bool primary_uid; /* Primary User ID subpacket set (5.2.3.27) */
	bool revocable; /* Revocable subpacket, default true */
	bool has_revocation_reason;
	uint8_t revocation_reason; /* 5.2.3.31 code */
	bool has_issuer_keyid;
	uint8_t issuer_keyid[PGPK_KEYID_LEN]; /* 5.2.3.12 or v3 field */
	size_t issuer_fpr_len; /* 0, 20 or 32 */
	uint8_t issuer_fpr[PGPK_FPR_MAX]; /* 5.2.3.35 without version */
	/*
	 * An unknown subpacket flagged critical, or a known one with a
	 * malformed value: RFC 9580 5.2.3.7 says the signature is then
	 * invalid.  Parsing still succeeds; validity checks refuse it.
	 */
	bool unknown_critical;
	/* v3: the 5 hashed octets (type, time); v4/v6: the hashed area. */
	const uint8_t *hashed;
	size_t hashed_len;
	const uint8_t *salt; /* v6 only, 16..32 octets */
	size_t salt_len;
	uint16_t quick_check; /* left 16 bits of the signed hash */
	struct pgpk_mpi rsa_s; /* RSA algorithms only */
	/* Embedded Signature subpacket body (5.2.3.34), e.g. a 0x19 back-
	 * signature; parse it with pgpk_signature_parse(). */
	const uint8_t *embedded;
	size_t embedded_len;
	size_t embedded_offset; /* its offset in the input */
	/* Inside a keyring, a signature that cannot be parsed (unknown
	 * version, bad subpacket, truncated) is kept with malformed set and
	 * ignored; stand-alone signature parsing fails instead. */
	bool malformed;
	bool has_created; /* a creation time was present */
	/* Verification result inside a keyring: 0 not checked, 1 good,
	 * -1 bad.  RSA, DSA, ECDSA and EdDSA are verified with OpenSSL;
	 * other algorithms never verify (as in GnuPG). */
	int8_t verified;
	/* The algorithm-specific signature fields (RFC 9580 5.2.3.1 ff.),
	 * as in the packet: MPIs or native octets. */
	const uint8_t *sig_fields;
	size_t sig_fields_len;
};

struct pgpk_rsa; /* internal (cert.c): a loaded RSA public key */

/* One key packet, primary (tag 6) or subkey (tag 14), RFC 9580 5.5.2. */
struct pgpk_pubkey {
	size_t offset; /* offset of the packet body */
	const uint8_t *body;
	size_t body_len;
	uint8_t version; /* 4 or 6 */
	uint8_t algo; /* enum pgpk_pk_algo */
	bool subkey;
	uint32_t created;
	unsigned int bits; /* modulus / p / curve size, as GnuPG shows */
	const char *algo_name; /* "RSA", "DSA", "EdDSA", "ed25519", ... */
	const char *curve; /* curve name for ECC, else NULL */
	uint8_t fpr[PGPK_FPR_MAX];
	size_t fpr_len; /* 20 (v4, SHA-1) or 32 (v6, SHA-256) */
	uint8_t keyid[PGPK_KEYID_LEN]; /* v4: last 8, v6: first 8 octets */
	struct pgpk_mpi rsa_n; /* RSA algorithms only */
	struct pgpk_mpi rsa_e;

	/* Signatures following this key packet (and before the next user
	 * ID / subkey): direct-key and revocations for a primary key,
	 * bindings and revocations for a subkey. */
	struct pgpk_signature *sigs;
	size_t nsigs;

	/* Validity, computed by pgpk_keyring_parse() at opts->now. */
	/* Primary: has a valid self-signature.  Subkey: has a valid
	 * binding signature and its primary is valid (the back-signature
	 * is in `backsig`, required by `can_sign`). */
	bool valid;
	bool revoked; /* valid revocation (0x20 / 0x28), or its primary's */
	/* RFC 9580 5.2.3.31: a revocation is hard unless its reason is
	 * "superseded" (1) or "retired" (3); a hard one is forever, soft
	 * ones are void once a newer self-signature re-legitimizes the key,
	 * and signatures made before the earliest (revoked_at) stay valid.
	 * revoked_reason: the deciding revocation's code, -1 for none.
	 * A subkey carries its primary's revocation too. */
	bool revoked_hard;
	uint32_t revoked_at;
	int revoked_reason;
	bool revoked_primary; /* the revocation is the primary key's */
	bool expired; /* expires != 0 && expires <= now */
	/* Absolute Unix seconds, 0 = never: the deciding self-signature's
	 * (binding's) Key Expiration Time after the key's creation, or its
	 * own Signature Expiration Time, the earlier. */
	int64_t expires;
	bool has_key_flags;
	uint8_t key_flags; /* from the deciding self-sig / binding */
	/* Key flags (or, without the subpacket, the algorithm) allow
	 * signing AND valid AND not revoked AND not expired. */
	bool can_sign;
	/* Subkey: its deciding binding signature (0x18); primary: the
	 * self-signature the kernel reads its expiry and flags from
	 * (Key.self_signature), the one its version reads: a v4 key's
	 * primary user ID's newest self-signature, a v6 key's direct-key
	 * signature (RFC 9580 10.1.1, 10.1.3).  NULL if none. */
	const struct pgpk_signature *binding;
	/* Primary v4: a direct-key signature says less (flags or expiry)
	 * than `binding`; usage and expires are the narrower (GnuPG's
	 * reading), and the key does not convert (the kernel reads one
	 * signature). */
	bool self_narrowed;
	/* An MPI of the key whose bit count does not match its value
	 * (RFC 9580 3.2): listed, but never converted (the kernel's
	 * rebuilt packet would differ). */
	bool mpi_noncanonical;
	/* PGPK_KF_* bits from the deciding signature masked by what the
	 * algorithm can do, or the algorithm's capabilities when no Key
	 * Flags subpacket is present (but certifying, for a subkey): a
	 * primary key certifies only so (the kernel's rule). */
	uint8_t usage;
	/* Subkey: a valid primary-key binding (0x19 back-signature) was
	 * found (RFC 9580 5.2.3.34 requires one for signing subkeys). */
	bool backsig;
	/* Subkey: creation time of its oldest verifying binding that the
	 * kernel can check too, first_binding (RFC 9580 5.2.1.8: later
	 * bindings only update its properties); else binding's. */
	uint32_t bound_at;
	const struct pgpk_signature *first_binding;
	/* Internal (cert.c): an RSA key as loaded by the first check of a
	 * signature it made, kept with its keyring; rsa_err once loading
	 * failed. */
	struct pgpk_rsa *rsa;
	int rsa_err;
};

/* A user ID (tag 13) or user attribute (tag 17) with its signatures. */
struct pgpk_userid {
	size_t offset; /* offset of the packet body */
	const uint8_t *data;
	size_t len;
	bool attribute; /* user attribute: listed nowhere, skipped */
	struct pgpk_signature *sigs;
	size_t nsigs;
	/* Validity at opts->now. */
	/* The newest verifying self-signature (0x10-0x13 or 0x30) decides:
	 * valid = it is a certification and has not expired; revoked = it
	 * is a revocation; selfsig = that certification (even expired). */
	bool valid;
	bool revoked;
	const struct pgpk_signature *selfsig;
};

/* A transferable public key (RFC 9580 10.1.1). */
struct pgpk_cert {
	struct pgpk_pubkey primary;
	struct pgpk_userid *uids; /* user IDs and attributes, in order */
	size_t nuids;
	struct pgpk_pubkey *subkeys;
	size_t nsubkeys;
	/* The primary user ID (index into uids) or -1: a valid, unrevoked
	 * user ID whose self-cert has the primary flag (newest wins), else
	 * the one with the newest self-cert, else the first with a
	 * verifying self-signature, else the first user ID. */
	long primary_uid;
};

/* Input forms recognised by pgpk_input_decode(). */
enum pgpk_input_kind {
	PGPK_INPUT_BINARY, /* raw packets */
	PGPK_INPUT_ARMOR, /* -----BEGIN PGP ...----- (RFC 9580 6) */
	PGPK_INPUT_CLEARTEXT, /* -----BEGIN PGP SIGNED MESSAGE----- (7) */
};

/* Decoded input: packets (dearmored) and, for cleartext, the text. */
struct pgpk_input {
	enum pgpk_input_kind kind;
	uint8_t *packets; /* binary packets; all offsets refer here */
	size_t packets_len;
	/* Cleartext-signed: the signed text after dash-unescaping and with
	 * the final line ending removed (RFC 9580 7.1), not canonicalised
	 * (pgpk_text_canonicalize() does that). NULL otherwise. */
	uint8_t *cleartext;
	size_t cleartext_len;
	char armor_label[32]; /* "PUBLIC KEY BLOCK", "SIGNATURE", ... */
	/* Binary input used in place (pgpk_parse_opts.borrow_input): the
	 * caller's buffer, not freed by pgpk_input_release(). */
	bool borrowed;
};

/* Options of pgpk_keyring_parse(). */
struct pgpk_parse_opts {
	int64_t now; /* "now" for expiry, Unix seconds */
	/* Skip the cryptography: every well-formed self-signature counts as
	 * verified (the other rules still apply).  For fuzzing/dumping. */
	bool no_verify;
	/* Worker threads for verification; 0 or 1 = none (sandbox). */
	unsigned int threads;
	/* Binary input is not copied: `in` must then outlive the keyring
	 * (saves a copy of a 28 MB keyring). */
	bool borrow_input;
	/* If set, only the certificates for which it returns true are
	 * validated (their signatures verified); the keys of the others
	 * stay invalid.  verify needs only its signatures' issuers. */
	bool (*want)(const struct pgpk_cert *cert, void *arg);
	/* If set, of a validated certificate only the subkeys for which it
	 * returns true are (the primary key always is); the others stay
	 * invalid.  A signature by the primary key needs none of them. */
	bool (*want_subkey)(const struct pgpk_pubkey *sub, void *arg);
	void *want_arg; /* for both */
	/* A subkey's bound_at is its deciding binding's time, its older
	 * bindings left unchecked (list shows no bound time). */
	bool no_bound_at;
	/* A signing subkey's back-signature is checked only where
	 * pgpk_key_usable() without PGPK_USE_ALLOW_* would read it: not for
	 * a subkey already refused as revoked or expired, or whose primary
	 * or binding is invalid (backsig stays false there; list's verdicts
	 * are the same). */
	bool backsig_if_decisive;
};

/* A parsed keyring: one or more certificates. */
struct pgpk_keyring {
	struct pgpk_input input; /* owns every byte pointed to */
	struct pgpk_cert *certs;
	size_t ncerts;
	size_t nsigs_verified; /* signatures verified (statistics) */
	void *arena; /* internal: allocations */
};

/* A set of signatures and, for signed messages, the signed content. */
struct pgpk_sigset {
	struct pgpk_input input; /* owns every byte pointed to */
	struct pgpk_signature *sigs;
	size_t nsigs;
	/* Inline signed message (one-pass + literal) or cleartext: exactly
	 * the octets hashed (literal body; canonicalised text for text-mode
	 * or cleartext).  NULL for a detached signature. */
	uint8_t *content;
	size_t content_len;
	bool has_content;
	void *arena; /* internal */
};

/* ---- input: armor, cleartext (armor.c) ---- */

/*
 * Recognise binary / armored / cleartext-signed input and decode it.
 * Armor: CRC24 checked when present (RFC 4880 6.1); the armor checksum
 * line is optional (RFC 9580 6.1).  Several blocks with the same label
 * are concatenated; text is ignored before the first BEGIN line, only
 * whitespace is allowed after the last END line.
 */
int pgpk_input_decode(const uint8_t *in, size_t len, struct pgpk_input *out,
		      struct pgpk_error *err);
void pgpk_input_release(struct pgpk_input *input);

/* RFC 4880 6.1: CRC-24 of an octet string. */
uint32_t pgpk_crc24(const uint8_t *data, size_t len);

/*
 * RFC 9580 5.2.1.2 / 7.2: canonical text: every LF line ending (with or
 * without a CR before it) becomes CRLF, as GnuPG hashes text; a lone CR is
 * kept.  For cleartext signatures (strip_trailing) trailing spaces, tabs
 * and CRs of each line are removed too.  malloc()ed output.
 */
int pgpk_text_canonicalize(const uint8_t *in, size_t len, bool strip_trailing,
			   uint8_t **out, size_t *out_len);

/*
 * The data of a detached text signature (RFC 9580 5.2.1.2) as GnuPG
 * hashes it (textfilter.c): every CR at the end of a line, and at the
 * end of the data, dropped, then every LF made CRLF.  malloc()ed output.
 */
int pgpk_text_canonicalize_detached(const uint8_t *in, size_t len,
				    uint8_t **out, size_t *out_len);

/* ---- keys (key.c, cert.c) ---- */

/*
 * Where each certificate of binary packets starts: the header offsets of
 * the public key packets (tag 6) among the top-level packets (RFC 9580
 * 4.2 framing only, nothing parsed), in order; *starts malloc()ed.  A
 * certificate runs to the next one, or to the end.  0, or -EBADMSG
 * (framing), -ENOMEM.
 */
int pgpk_cert_starts(const uint8_t *packets, size_t len, size_t **starts,
		     size_t *n, struct pgpk_error *err);

/* Parse every certificate of the input (binary, armored). */
int pgpk_keyring_parse(const uint8_t *in, size_t len,
		       const struct pgpk_parse_opts *opts,
		       struct pgpk_keyring **out, struct pgpk_error *err);
void pgpk_keyring_free(struct pgpk_keyring *ring);

/*
 * Find a key by hex fingerprint (40/64 digits) or key ID (16 digits, or
 * the last 8 digits), case-insensitive, optional "0x" prefix.  Returns
 * the key and sets *cert, or NULL.
 */
const struct pgpk_pubkey *pgpk_keyring_find(const struct pgpk_keyring *ring,
					    const char *select,
					    const struct pgpk_cert **cert);

/* The primary user ID of a certificate, or NULL if it has none. */
const struct pgpk_userid *pgpk_cert_primary_uid(const struct pgpk_cert *cert);

/*
 * The description the kernel gives the key when add_key gives none
 * (kernel/pgpk_frame.c pgpk_name(), seed 007's): the primary user ID, if
 * the primary key's self-signature certifies it, cut at its first '('
 * with the spaces before it removed, at most 246 octets of it, each
 * outside printable ASCII (and a backslash) as "\xNN", a space, the last 8 hex
 * digits of the key ID; else "PGP key <key ID>" ("PGP subkey").  Writes
 * at most size octets, NUL-terminated; returns the length it wanted
 * (like snprintf).
 */
size_t pgpk_key_description(const struct pgpk_cert *cert,
			    const struct pgpk_pubkey *key, char *buf,
			    size_t size);

/* Name of an algorithm number (never NULL). */
const char *pgpk_pk_algo_name(unsigned int algo);

/* ---- validity: the one rule (valid.c) ---- */

/* Uses of pgpk_key_usable(). */
#define PGPK_USE_SIGN 0x01 /* sign documents: key flags must allow it */
#define PGPK_USE_ALLOW_EXPIRED 0x02 /* --allow-expired */
#define PGPK_USE_ALLOW_REVOKED 0x04 /* --allow-revoked: soft ones only */
/* OpenPGP's judgement alone, without the kernel's floor on the
 * self-signature (list's can_sign, GnuPG's meaning): nothing converts
 * with it. */
#define PGPK_USE_OPENPGP 0x08

/*
 * Whether `key` of `cert` may be used (RFC 9580 5.2.3.13, 5.2.3.29,
 * 5.2.3.31, 5.2.3.34, 10.1.1), at the `now` the keyring was parsed at:
 * valid self-signature and binding, back-signature for a signing subkey,
 * not revoked (hard: whatever `use` says), not expired (the primary's
 * expiry included), a self-signature (and a subkey's binding) the kernel
 * checks, which it reads the key's use and life from (the policy floor:
 * no SHA-1; but with PGPK_USE_OPENPGP), may sign (PGPK_USE_SIGN).  Every
 * command decides with this function.  0, or -EKEYREJECTED /
 * -EKEYEXPIRED and `err` naming the rule.
 */
int pgpk_key_usable(const struct pgpk_cert *cert, const struct pgpk_pubkey *key,
		    unsigned int use, struct pgpk_error *err);

/* When `key` expires, its primary's expiry included; 0 = never. */
int64_t pgpk_key_expires(const struct pgpk_cert *cert,
			 const struct pgpk_pubkey *key);

/*
 * Whether `key` (usable by pgpk_key_usable()) can have made a signature
 * at time `t`: not before the key's creation, not before a subkey's
 * binding (bound_at), not at or after a soft revocation.
 * 0 or -EKEYREJECTED naming the rule.
 */
int pgpk_key_signed_at(const struct pgpk_pubkey *key, uint32_t t,
		       struct pgpk_error *err);

/* ---- canonical encoding (convert.c) ---- */

/*
 * Flags of pgpk_key_canonical(): omit the offsets of the key, primary
 * key, user ID packets and of the certification's RSA value (the blob is
 * used without the OpenPGP bytes).
 */
#define PGPK_CANON_STANDALONE 0x01

/*
 * The trust anchors a primary key's certification may come from
 * (pgpk_convert_opts.anchors): their files, and how their keys are
 * judged (pgpk_key_usable()'s PGPK_USE_ALLOW_* flags, at `now`).
 */
struct pgpk_anchors {
	const struct pgpk_blob *files;
	size_t nfiles;
	int64_t now;
	unsigned int use;
};

/*
 * Canonical Key blob (magic included) for one RSA key of the keyring:
 * material, offsets, subkey flag, primary user ID, expiry, flags, the
 * primary (for a subkey) and the certification (Key.certification in
 * proto/pgpk.proto; for a primary key, an anchor's certification when
 * `anchors` gives one that verifies, else its own; a v3 one is left out:
 * the kernel takes v4 and v6 only).  -ENOPKG for non-RSA keys and RSA
 * Encrypt-Only ones.  malloc()ed *blob.
 */
int pgpk_key_canonical(const struct pgpk_keyring *ring,
		       const struct pgpk_cert *cert,
		       const struct pgpk_pubkey *key,
		       const struct pgpk_anchors *anchors, unsigned int flags,
		       uint8_t **blob, size_t *blob_len,
		       struct pgpk_error *err);

/* ---- signatures (sig.c) ---- */

/*
 * Parse one signature packet body (RFC 9580 5.2) at `offset` of the input
 * (for error messages).  Pointers in *sig point into body.
 */
int pgpk_signature_parse(const uint8_t *body, size_t len, size_t offset,
			 struct pgpk_signature *sig, struct pgpk_error *err);

/*
 * Parse a detached signature (binary or armored, one or more signature
 * packets), an inline signed message (one-pass signature + literal data
 * [+ signature], possibly compressed) or a cleartext-signed message.
 */
int pgpk_sigset_parse(const uint8_t *in, size_t len, struct pgpk_sigset **out,
		      struct pgpk_error *err);
void pgpk_sigset_free(struct pgpk_sigset *set);

/*
 * Canonical Signature blob (magic included) of set->sigs[idx], with
 * set->content when the set has content.  -ENOPKG for non-RSA.
 */
int pgpk_sig_canonical(const struct pgpk_sigset *set, size_t idx,
		       uint8_t **blob, size_t *blob_len,
		       struct pgpk_error *err);

/*
 * The same for several signatures of the set, set->sigs[idx[0..n)], n at
 * most PGPK_MAX_SIGNATURES: the first as Canonical.signature, the others
 * as Canonical.more_signatures (proto/pgpk.proto); with `content` (a
 * detached signature's data, as hashed), or NULL for the set's own.
 */
int pgpk_sigs_canonical(const struct pgpk_sigset *set, const size_t *idx,
			size_t n, const struct pgpk_blob *content,
			uint8_t **blob, size_t *blob_len,
			struct pgpk_error *err);

/* ---- hashing and verification helpers (cert.c), used by verify ---- */

/* OpenSSL digest name for an RFC 9580 9.5 hash id, or NULL. */
const char *pgpk_md_name(unsigned int hash_algo);

/*
 * Verify a signature made by `key` over an already computed digest, any
 * algorithm OpenSSL implements: RSA (PKCS#1 v1.5), DSA, ECDSA (NIST,
 * brainpool, secp256k1), EdDSA (legacy 22 and Ed25519/Ed448).  0 good,
 * -EKEYREJECTED bad, -ENOPKG algorithm or curve not supported.
 */
int pgpk_verify_digest(const struct pgpk_pubkey *key,
		       const struct pgpk_signature *sig, const uint8_t *digest,
		       size_t digest_len);

/*
 * Verify an RSA PKCS#1 v1.5 signature over an already computed digest
 * with key (n, e) (RFC 8017 8.2.2, one public-key operation with
 * OpenSSL's Montgomery arithmetic).  0 good, -EKEYREJECTED bad (a value
 * longer than the modulus, or 8 or more octets shorter, included),
 * -ENOPKG unknown hash, -EBADMSG a key no signature is checked with
 * (modulus even or outside 64..2048 octets, exponent over 64 bits).
 */
int pgpk_rsa_verify_digest(const struct pgpk_mpi *n, const struct pgpk_mpi *e,
			   unsigned int hash_algo, const uint8_t *digest,
			   size_t digest_len, const struct pgpk_mpi *s);

/*
 * The same with (n, e), where `key` is the keyring's key the caller took
 * them from: when it holds exactly that modulus and exponent (compared)
 * and its keyring loaded it to check a self-signature, that loaded key is
 * used (no second Montgomery setup: a third of a verification).  Not
 * thread-safe against a validation of the same keyring.
 */
int pgpk_key_rsa_verify_digest(const struct pgpk_pubkey *key,
			       const struct pgpk_mpi *n,
			       const struct pgpk_mpi *e, unsigned int hash_algo,
			       const uint8_t *digest, size_t digest_len,
			       const struct pgpk_mpi *s);

#endif /* PGPK_OPENPGP_H */
