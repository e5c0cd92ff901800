/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface of the module's untrusted-byte code: the strict canonical
 * decoder (pgpk_canon.c) and the framing walks and comparisons over
 * OpenPGP octets (pgpk_frame.c).  Both compile unchanged in user space
 * (bazel/shim/linux/types.h), where the broker, the tests and the fuzzers
 * (tests/fuzz/) use the very same code.
 *
 * With them, what both sides compute from decoded fields: the octets a
 * key packet, a user ID and a signature trailer are hashed as
 * (pgpk_rebuild.c), and the mark of a key dedicated to IMA.
 *
 * The decoder's schema is proto/pgpk.proto; its rules are listed at the
 * top of that file.  The decoder copies nothing: every pgpk_bytes points
 * into the buffer decoded, which must outlive the result.  Bit n of a
 * decoded message's .present is its field n, as the UAPI header
 * <linux/pgpk.h> (uapi/linux/pgpk.h here) numbers them.
 */
#ifndef _PGPK_CANON_H
#define _PGPK_CANON_H

#include <linux/types.h>
#include <linux/pgpk.h>	/* the format: magic, bounds, field numbers */

/*
 * Seconds a signature's creation time may lie ahead of the clock before
 * it is refused as made in the future: the kernel and the helper's policy
 * (PGPK_POLICY_CLOCK_SKEW) apply the same rule.
 */
#define PGPK_CLOCK_SKEW		300

#define PGPK_HAS(msg, field)	(!!((msg)->present & (1u << (field))))

struct pgpk_bytes {
	const u8 *data;
	u32 len;
	u32 bits;		/* of a big-endian integer; else 0 */
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
	struct pgpk_bytes hashed_area;
	struct pgpk_bytes salt;
	u32 quick_check;
	struct pgpk_bytes rsa_s;
	struct pgpk_bytes issuer_key_id;
	struct pgpk_bytes issuer_fingerprint;
	u32 rsa_s_offset;
};

struct pgpk_key {
	u32 present;
	struct pgpk_key_material material;
	u32 packet_offset;
	u32 subkey;		/* 0 or 1 */
	struct pgpk_bytes user_id;
	u32 user_id_offset;
	struct pgpk_key_material primary;
	struct pgpk_sig certification;
	u32 soft_revoked;
	struct pgpk_sig self_signature;
	struct pgpk_sig first_binding;
};

/*
 * sigs[0] is Canonical.signature, sigs[1..nr_more] its more_signatures,
 * in order.  About 3 KiB: the kernel allocates it.
 */
struct pgpk_canon {
	u32 present;
	struct pgpk_key key;
	struct pgpk_sig sigs[PGPK_MAX_SIGNATURES];
	struct pgpk_bytes content;
	u32 nr_more;
};

/* Why and where a blob was refused; the decoder returns -EBADMSG. */
struct pgpk_canon_error {
	const char *why;
	u32 offset;		/* octet offset in the blob, magic included */
};

int pgpk_canon_decode(const u8 *blob, size_t len, struct pgpk_canon *out,
		      struct pgpk_canon_error *err);

/* What an add_key() payload is (pgpk_canon_form()). */
#define PGPK_FORM_CANONICAL	1
#define PGPK_FORM_OPENPGP	2	/* packets, or ASCII armor */
int pgpk_canon_form(const u8 *blob, size_t len);

/* RFC 9580 5: the packet tags the binding checks look for. */
#define PGPK_TAG_PUBLIC_KEY	6
#define PGPK_TAG_USER_ID	13
#define PGPK_TAG_PUBLIC_SUBKEY	14

/*
 * RFC 9580 5.2.3.7: a critical subpacket whose type an implementation
 * does not understand makes the signature invalid.  The types pgpk (the
 * kernel's walk and the helper's parser alike) takes as critical: 2-4,
 * 7, 9-12, 16, 21-35 but 20 (a critical notation, 5.2.3.24, is never
 * understood), 37-39.  Not a trust signature (5) nor its regular
 * expression (6), which limit what a certification says and which pgpk
 * does not enforce; nor reserved, private and unknown types.
 */
#define PGPK_CRITICAL_OK	0xefffe11e9cULL

/* RFC 9580 5.2.3.29: key flags octet 1. */
#define PGPK_KEY_FLAG_CERTIFY	0x01
#define PGPK_KEY_FLAG_SIGN	0x02

/* What a v4/v6 signature's hashed area says, as its framing shows. */
struct pgpk_hashed {
	u32 created;		/* the one Signature Creation Time */
	u32 expires;		/* Signature Expiration Time (after it), or 0 */
	u32 key_expires;	/* Key Expiration Time (after the key), or 0 */
	u8 key_flags;		/* Key Flags' first octet; 0xff: no Key Flags */
	const u8 *fpr;		/* Issuer Fingerprint, without version */
	u32 fpr_len;		/* 20 or 32; 0: none (or neither) */
	bool marked;		/* the IMA mark (below) is one of its subpackets */
};

bool pgpk_packet_at(const u8 *buf, size_t len, u32 offset, u8 tag,
		    const u8 *body, size_t body_len);
bool pgpk_bytes_at(const u8 *buf, size_t len, u32 offset, const u8 *bytes,
		   size_t n);
bool pgpk_hashed_walk(const u8 *area, u32 len, struct pgpk_hashed *h);

/*
 * Seed 007's description of a key (pgpk_name()): at most PGPK_NAME_UID
 * octets of a user ID, each written in at most 4 characters, a space and
 * 8 hex digits: PGPK_NAME_SIZE octets with the NUL.
 */
#define PGPK_NAME_UID		246
#define PGPK_NAME_SIZE		(4 * PGPK_NAME_UID + 10)
void pgpk_name(const struct pgpk_bytes *uid, bool subkey, const u8 *keyid,
	       char *out);

/*
 * Rebuilding OpenPGP octets from canonical fields (pgpk_rebuild.c): the
 * kernel hashes these itself instead of believing digests or packets from
 * the helper; user space (pgpk-helper verify, tests) uses the same file.
 * Nothing allocates or fails: with a NULL @out each function returns the
 * length it would write.  The decoder's bounds keep every length in range.
 */
#define PGPK_PREFIX_MAX 5	/* longest prefix before a key or user ID */

size_t pgpk_rebuild_key(const struct pgpk_key_material *m, u8 *out);
size_t pgpk_rebuild_key_prefix(const struct pgpk_key_material *m, u8 *out);
size_t pgpk_rebuild_uid_prefix(u32 len, u8 *out);
size_t pgpk_rebuild_trailer(const struct pgpk_sig *s, u8 *out);
u32 pgpk_rebuild_salt_len(u32 hash);

/*
 * The mark of a key dedicated to IMA, which the module looks for in the
 * binding signature it verifies itself, and pgpk-helper ima-sign makes
 * and requires.  A subkey is dedicated to IMA when its binding signature
 * (0x18) carries, in its hashed area, exactly this Notation Data subpacket
 * (RFC 9580 5.2.3.24): not critical, human-readable (flags 0x80 0 0 0),
 * name "ima@pgpk", value "file-signatures", as `gpg --cert-notation
 * ima@pgpk=file-signatures --quick-add-key FPR rsa3072 auth` writes it.
 * RFC 9580 5.2.3.7: subpacket length (type + data = 32), type 20; then
 * flags, name length, value length, name, value.  The module walks the
 * hashed area's framing (pgpk_hashed_walk()) and compares whole
 * subpackets of this length with it.  proto/pgpk_fields.h names its
 * notation for user space.  A critical notation is never understood
 * (PGPK_CRITICAL_OK): the mark is not critical.
 */
#define PGPK_IMA_MARK_LEN	33
#define PGPK_IMA_MARK_INIT {						\
	32, 20, 0x80, 0, 0, 0, 0, 8, 0, 15,				\
	'i', 'm', 'a', '@', 'p', 'g', 'p', 'k',				\
	'f', 'i', 'l', 'e', '-', 's', 'i', 'g', 'n', 'a', 't', 'u',	\
	'r', 'e', 's' }

#endif /* _PGPK_CANON_H */
