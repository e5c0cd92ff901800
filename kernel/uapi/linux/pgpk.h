/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The canonical form of OpenPGP keys and signatures: the payload of
 * add_key("asymmetric", ...) for an OpenPGP key, and of the "pgpk_test"
 * key type for a signature (Documentation/crypto/pgpk.rst).
 *
 * A canonical blob is PGPK_MAGIC followed by one Canonical message in the
 * protobuf wire format (proto2), with these rules, which the kernel
 * enforces and which leave exactly one encoding for every message:
 *
 *  - only the field numbers below, in ascending order, each at most once,
 *    except a repeated field, whose entries are consecutive;
 *  - only wire types PGPK_WIRE_VARINT and PGPK_WIRE_LEN, each field with
 *    the one given below;
 *  - varints of at most 64 bits in their shortest form;
 *  - every value and length within the bound given below, and every length
 *    within the enclosing message;
 *  - big-endian integers (RSA n, e, s) without a leading zero octet;
 *  - every required field present; no octet after the message;
 *  - at most PGPK_MAX_BLOB octets, magic included.
 *
 * Field numbers are given as PGPK_<MESSAGE>_<FIELD>; a tag is
 * (number << 3 | wire type).  Numbers that are no longer used are listed
 * as reserved: the kernel refuses them.
 */
#ifndef _UAPI_LINUX_PGPK_H
#define _UAPI_LINUX_PGPK_H

/*
 * 0x7f can start neither an OpenPGP packet (RFC 9580 4.2: bit 7 set) nor
 * DER (0x30) nor ASCII armor ('-').  The last octet is the version of this
 * encoding.
 */
#define PGPK_MAGIC		"\x7fPGK\x01"
#define PGPK_MAGIC_LEN		5
#define PGPK_MAX_BLOB		(1024 * 1024 - 1)

#define PGPK_WIRE_VARINT	0
#define PGPK_WIRE_LEN		2

/* Bounds, in octets. */
#define PGPK_MAX_MPI		1024	/* RSA n and s: 8192 bits */
#define PGPK_MAX_EXPONENT	8	/* RSA e < 2^64 */
#define PGPK_MAX_USER_ID	4096
#define PGPK_MAX_HASHED_AREA	65535
#define PGPK_MAX_CONTENT	(1024 * 1024 - 65536)
#define PGPK_MAX_SIGNATURES	16	/* signature + more_signatures */

/*
 * KeyMaterial: the public fields of a key packet (RFC 9580 5.5.2), from
 * which the kernel rebuilds its body octet for octet.  All required.
 */
#define PGPK_MATERIAL_VERSION		1	/* varint: 4 or 6 */
#define PGPK_MATERIAL_CREATED		2	/* varint: Unix seconds, 32 bits */
#define PGPK_MATERIAL_ALGORITHM		3	/* varint: 1 or 3 (RFC 9580 9.1) */
#define PGPK_MATERIAL_RSA_N		4	/* len: 1..PGPK_MAX_MPI */
#define PGPK_MATERIAL_RSA_E		5	/* len: 1..PGPK_MAX_EXPONENT */

/*
 * Signature: a v4 or v6 signature packet (RFC 9580 5.2.3), reduced to what
 * the kernel needs to rebuild the hashed trailer and verify the value.
 */
#define PGPK_SIG_VERSION		1	/* varint, required: 4 or 6 */
#define PGPK_SIG_TYPE			2	/* varint, required: 0..255 */
#define PGPK_SIG_PUBKEY_ALGORITHM	3	/* varint, required: 0..255 */
#define PGPK_SIG_HASH_ALGORITHM		4	/* varint, required: 0..255 */
#define PGPK_SIG_CREATED		5	/* varint, required: 32 bits */
/* 6 is reserved (was expires: the hashed area says) */
#define PGPK_SIG_HASHED_AREA		7	/* len, required: 0..65535 */
#define PGPK_SIG_SALT			8	/* len: 16..32, v6 only */
#define PGPK_SIG_QUICK_CHECK		9	/* varint, required: 0..65535 */
#define PGPK_SIG_RSA_S			10	/* len, required: 1..PGPK_MAX_MPI */
#define PGPK_SIG_ISSUER_KEY_ID		11	/* len: 8 */
#define PGPK_SIG_ISSUER_FINGERPRINT	12	/* len: 20..32 */
#define PGPK_SIG_RSA_S_OFFSET		13	/* varint: upcall answers only */

/*
 * Key: a primary key or subkey, with its certification and the
 * self-signatures the kernel reads its use and life from (RFC 9580
 * 5.2.3.10: key flags, key expiry; a subkey signs from its first
 * binding), each verified with the primary key.
 */
#define PGPK_KEY_MATERIAL		1	/* KeyMaterial, required */
#define PGPK_KEY_PACKET_OFFSET		2	/* varint: upcall answers only */
#define PGPK_KEY_SUBKEY			3	/* varint: 0 or 1 */
#define PGPK_KEY_USER_ID		4	/* len: 1..PGPK_MAX_USER_ID */
#define PGPK_KEY_USER_ID_OFFSET		5	/* varint: upcall answers only */
/* 6 and 7 are reserved (were expires and key_flags: self-signatures) */
#define PGPK_KEY_PRIMARY		8	/* KeyMaterial: subkeys only */
/* 9 is reserved (was primary_offset) */
#define PGPK_KEY_CERTIFICATION		10	/* Signature */
/* 11 is reserved (was third-party certifications) */
/* 12 is reserved (was bound: first_binding) */
#define PGPK_KEY_SOFT_REVOKED		13	/* varint: Unix seconds; hint */
#define PGPK_KEY_SELF_SIGNATURE		14	/* Signature: the primary's */
#define PGPK_KEY_FIRST_BINDING		15	/* Signature: a subkey's first */

/*
 * Canonical: exactly one of key and signature; content and
 * more_signatures only with a signature.
 */
#define PGPK_CANON_KEY			1	/* Key */
#define PGPK_CANON_SIGNATURE		2	/* Signature */
#define PGPK_CANON_CONTENT		3	/* len: 0..PGPK_MAX_CONTENT */
#define PGPK_CANON_MORE_SIGNATURES	4	/* Signature, repeated: 0..15 */

#endif /* _UAPI_LINUX_PGPK_H */
