/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgpk canonical encoding: the strict decoder's interface.
 *
 * The schema is proto/pgpk.proto; the rules are listed at its top.  This
 * header and pgpk_canon.c compile unchanged in the kernel and in user space
 * (the broker, the tests and the fuzzer use the very same decoder).
 *
 * The decoder copies nothing: every pgpk_bytes points into the buffer that
 * was decoded, which must outlive the result.
 */
#ifndef _PGPK_CANON_H
#define _PGPK_CANON_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
/* User space: the kernel's short type names, from the uapi types. */
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
#endif

#define PGPK_MAGIC		"\x7fPGK\x01"
#define PGPK_MAGIC_LEN		5
#define PGPK_MAX_BLOB		(1024 * 1024 - 1)
#define PGPK_MAX_MPI		1024	/* octets: 8192-bit RSA */
#define PGPK_MAX_USER_ID	4096
#define PGPK_MAX_HASHED_AREA	65535
#define PGPK_MAX_CONTENT	(1024 * 1024 - 65536)
/*
 * Candidate third-party certifications of a key (Key.third_party): more
 * than the 234 a 64 KiB add_key payload can hold, so that no flood of
 * forgeries can push a genuine one out of the helper's answer.
 */
#define PGPK_MAX_THIRD_PARTY	256
/*
 * Signatures of one document in an answer: Canonical.signature and at
 * most PGPK_MAX_SIGNATURES - 1 more_signatures.
 */
#define PGPK_MAX_SIGNATURES	16
/*
 * Seconds a signature's creation time may lie ahead of the clock before
 * it is refused as made in the future: the kernel (pgpk_sig_key_check())
 * and the helper's policy (PGPK_POLICY_CLOCK_SKEW) apply the same rule.
 */
#define PGPK_CLOCK_SKEW		300
/* Issuers smaller than this are refused; their values are >= 248 octets. */
#define PGPK_MIN_ISSUER_BITS	2048

/* Field numbers, as in proto/pgpk.proto.  Bit n of .present is field n. */
enum pgpk_material_field {
	PGPK_MAT_VERSION = 1,
	PGPK_MAT_CREATED,
	PGPK_MAT_ALGORITHM,
	PGPK_MAT_RSA_N,
	PGPK_MAT_RSA_E,
};

enum pgpk_sig_field {
	PGPK_SIG_VERSION = 1,
	PGPK_SIG_TYPE,
	PGPK_SIG_PUBKEY_ALGORITHM,
	PGPK_SIG_HASH_ALGORITHM,
	PGPK_SIG_CREATED,
	PGPK_SIG_EXPIRES,
	PGPK_SIG_HASHED_AREA,
	PGPK_SIG_SALT,
	PGPK_SIG_QUICK_CHECK,
	PGPK_SIG_RSA_S,
	PGPK_SIG_ISSUER_KEY_ID,
	PGPK_SIG_ISSUER_FINGERPRINT,
};

enum pgpk_key_field {
	PGPK_KEY_MATERIAL = 1,
	PGPK_KEY_PACKET_OFFSET,
	PGPK_KEY_SUBKEY,
	PGPK_KEY_USER_ID,
	PGPK_KEY_USER_ID_OFFSET,
	PGPK_KEY_EXPIRES,
	PGPK_KEY_KEY_FLAGS,
	PGPK_KEY_PRIMARY,
	PGPK_KEY_PRIMARY_OFFSET,
	PGPK_KEY_CERTIFICATION,
	PGPK_KEY_THIRD_PARTY,
	PGPK_KEY_BOUND,
	PGPK_KEY_SOFT_REVOKED,
};

enum pgpk_canon_field {
	PGPK_CANON_KEY = 1,
	PGPK_CANON_SIGNATURE,
	PGPK_CANON_CONTENT,
	PGPK_CANON_MORE_SIGNATURES,
};

#define PGPK_HAS(msg, field)	(!!((msg)->present & (1u << (field))))

struct pgpk_bytes {
	const u8 *data;
	u32 len;
};

/*
 * A repeated field: its consecutive occurrences, each validated like a
 * single one, kept as the raw span (first tag to end of the last element)
 * and re-decoded one by one with pgpk_canon_next().
 */
struct pgpk_repeated {
	const u8 *data;
	u32 len;
	u32 count;
	const void *field;	/* the element's schema (pgpk_canon.c) */
};

struct pgpk_key_material {
	u32 present;
	u32 version;
	u32 created;
	u32 algorithm;
	struct pgpk_bytes rsa_n;
	struct pgpk_bytes rsa_e;
};

struct pgpk_sig {
	u32 present;
	u32 version;
	u32 type;
	u32 pubkey_algorithm;
	u32 hash_algorithm;
	u32 created;
	u64 expires;
	struct pgpk_bytes hashed_area;
	struct pgpk_bytes salt;
	u32 quick_check;
	struct pgpk_bytes rsa_s;
	struct pgpk_bytes issuer_key_id;
	struct pgpk_bytes issuer_fingerprint;
};

struct pgpk_key {
	u32 present;
	struct pgpk_key_material material;
	u32 packet_offset;
	bool subkey;
	struct pgpk_bytes user_id;
	u32 user_id_offset;
	u64 expires;
	u32 key_flags;
	struct pgpk_key_material primary;
	u32 primary_offset;
	struct pgpk_sig certification;
	struct pgpk_repeated third_party;	/* of struct pgpk_sig */
	u32 bound;
	u32 soft_revoked;
};

struct pgpk_canon {
	u32 present;
	struct pgpk_key key;
	struct pgpk_sig sig;
	struct pgpk_bytes content;
	struct pgpk_repeated more_signatures;	/* of struct pgpk_sig */
};

/* Why a blob was refused; the decoder itself always returns -EBADMSG. */
enum pgpk_canon_reason {
	PGPK_OK = 0,
	PGPK_E_SIZE,		/* blob empty or larger than PGPK_MAX_BLOB */
	PGPK_E_MAGIC,		/* does not start with PGPK_MAGIC */
	PGPK_E_TRUNCATED,	/* a tag, varint or length runs past the end */
	PGPK_E_VARINT,		/* non-minimal or over-long varint */
	PGPK_E_WIRE_TYPE,	/* wire type not the one the schema uses */
	PGPK_E_UNKNOWN_FIELD,	/* field number not in the schema */
	PGPK_E_ORDER,		/* field numbers not ascending */
	PGPK_E_DUPLICATE,	/* field appears twice */
	PGPK_E_RANGE,		/* value outside its bound */
	PGPK_E_LENGTH,		/* length outside its bound */
	PGPK_E_LEADING_ZERO,	/* big-endian integer with a leading zero */
	PGPK_E_MISSING,		/* required field absent */
	PGPK_E_ENVELOPE,	/* not exactly one of key and signature */
	PGPK_E_COUNT,		/* repeated field occurs too often */
	PGPK_E_NR_REASONS
};

struct pgpk_canon_error {
	enum pgpk_canon_reason reason;
	u32 offset;		/* octet offset in the blob, magic included */
	u32 field;		/* field number concerned, 0 if none */
};

int pgpk_canon_decode(const u8 *blob, size_t len, struct pgpk_canon *out,
		      struct pgpk_canon_error *err);
bool pgpk_canon_is_canonical(const u8 *blob, size_t len);
int pgpk_canon_next(const struct pgpk_repeated *r, u32 *pos, void *out);
const char *pgpk_canon_reason_str(enum pgpk_canon_reason reason);
u32 pgpk_canon_salt_len(u32 hash);

#endif /* _PGPK_CANON_H */
