// SPDX-License-Identifier: GPL-2.0
/*
 * Signature packets (RFC 9580 5.2): v3, v4 and v6, hashed and unhashed
 * subpackets (5.2.3.7), and the hashed trailer (5.2.4).
 */
#include <string.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"

/* RFC 9580 5.2.3.7: subpacket types this library understands. */
enum pgpk_subpacket {
	PGPK_SP_CREATED = 2,
	PGPK_SP_SIG_EXPIRES = 3,
	PGPK_SP_EXPORTABLE = 4,
	PGPK_SP_TRUST = 5,
	PGPK_SP_REGEX = 6,
	PGPK_SP_REVOCABLE = 7,
	PGPK_SP_KEY_EXPIRES = 9,
	PGPK_SP_PLACEHOLDER = 10,
	PGPK_SP_PREF_SYM = 11,
	PGPK_SP_REVOCATION_KEY = 12,
	PGPK_SP_ISSUER = 16,
	PGPK_SP_NOTATION = 20,
	PGPK_SP_PREF_HASH = 21,
	PGPK_SP_PREF_COMPR = 22,
	PGPK_SP_KS_PREFS = 23,
	PGPK_SP_PREF_KS = 24,
	PGPK_SP_PRIMARY_UID = 25,
	PGPK_SP_POLICY = 26,
	PGPK_SP_KEY_FLAGS = 27,
	PGPK_SP_SIGNER_UID = 28,
	PGPK_SP_REVOCATION_REASON = 29,
	PGPK_SP_FEATURES = 30,
	PGPK_SP_TARGET = 31,
	PGPK_SP_EMBEDDED = 32,
	PGPK_SP_ISSUER_FPR = 33,
	PGPK_SP_PREF_AEAD = 34,
	PGPK_SP_RECIPIENT_FPR = 35,
	PGPK_SP_ATTESTED = 37,
	PGPK_SP_KEY_BLOCK = 38,
	PGPK_SP_PREF_AEAD_SUITES = 39,
};

/* The kernel's PGPK_CRITICAL_OK is this list, but for notations and
 * trust signatures (a critical trust level or regular expression limits
 * a certification: nothing here enforces them). */
#define PGPK_BIT(t) (1ULL << PGPK_SP_##t)
_Static_assert(
	PGPK_CRITICAL_OK ==
		(PGPK_BIT(CREATED) | PGPK_BIT(SIG_EXPIRES) |
		 PGPK_BIT(EXPORTABLE) | PGPK_BIT(REVOCABLE) |
		 PGPK_BIT(KEY_EXPIRES) | PGPK_BIT(PLACEHOLDER) |
		 PGPK_BIT(PREF_SYM) | PGPK_BIT(REVOCATION_KEY) |
		 PGPK_BIT(ISSUER) | PGPK_BIT(PREF_HASH) | PGPK_BIT(PREF_COMPR) |
		 PGPK_BIT(KS_PREFS) | PGPK_BIT(PREF_KS) |
		 PGPK_BIT(PRIMARY_UID) | PGPK_BIT(POLICY) |
		 PGPK_BIT(KEY_FLAGS) | PGPK_BIT(SIGNER_UID) |
		 PGPK_BIT(REVOCATION_REASON) | PGPK_BIT(FEATURES) |
		 PGPK_BIT(TARGET) | PGPK_BIT(EMBEDDED) | PGPK_BIT(ISSUER_FPR) |
		 PGPK_BIT(PREF_AEAD) | PGPK_BIT(RECIPIENT_FPR) |
		 PGPK_BIT(ATTESTED) | PGPK_BIT(KEY_BLOCK) |
		 PGPK_BIT(PREF_AEAD_SUITES)),
	"PGPK_CRITICAL_OK names every subpacket type but notations and trust");
#undef PGPK_BIT

bool pgpk_sig_kernel_checkable(const struct pgpk_signature *s,
			       struct pgpk_hashed *h)
{
	struct pgpk_hashed own;

	if (!h)
		h = &own;
	return (s->version == 4 || s->version == 6) &&
	       pgpk_pk_algo_is_rsa(s->pk_algo) && s->pk_algo != PGPK_PK_RSA_E &&
	       !s->malformed && !s->unknown_critical && s->has_created &&
	       (s->hash_algo == PGPK_HASH_SHA224 ||
		s->hash_algo == PGPK_HASH_SHA256 ||
		s->hash_algo == PGPK_HASH_SHA384 ||
		s->hash_algo == PGPK_HASH_SHA512) &&
	       s->rsa_s.len && s->rsa_s.len <= PGPK_MAX_MPI &&
	       s->hashed_len <= PGPK_MAX_HASHED_AREA &&
	       (s->version != 6 ||
		s->salt_len == pgpk_rebuild_salt_len(s->hash_algo)) &&
	       pgpk_hashed_walk(s->hashed, (u32)s->hashed_len, h) &&
	       h->created == s->created;
}

size_t pgpk_hash_salt_len(unsigned int hash_algo)
{
	/* RFC 9580 9.5, table 23: v6 signature salt sizes. */
	switch (hash_algo) {
	case PGPK_HASH_SHA256:
	case PGPK_HASH_SHA224:
	case PGPK_HASH_SHA3_256:
		return 16;
	case PGPK_HASH_SHA384:
		return 24;
	case PGPK_HASH_SHA512:
	case PGPK_HASH_SHA3_512:
		return 32;
	default:
		return 0;
	}
}

/*
 * Walk one subpacket area (RFC 9580 5.2.3.7).  Values that decide
 * anything are only taken from the hashed area, except the issuer,
 * issuer fingerprint and embedded signature (self-authenticating).
 * Returns -EBADMSG on framing errors; a bad value sets sig->malformed.
 */
static int pgpk_subpackets(const uint8_t *area, size_t len, size_t base,
			   bool hashed, struct pgpk_signature *sig,
			   struct pgpk_error *err)
{
	struct pgpk_cursor c;

	pgpk_cursor_init(&c, area, len, base);
	while (pgpk_cursor_left(&c)) {
		size_t at = pgpk_cursor_offset(&c), n;
		uint8_t o1, o2, type;
		uint32_t l32;
		const uint8_t *p;
		bool critical;

		/* 5.2.3.7: one-, two- or five-octet length. */
		if (!pgpk_get_u8(&c, &o1))
			goto truncated;
		if (o1 < 192) {
			n = o1;
		} else if (o1 < 255) {
			if (!pgpk_get_u8(&c, &o2))
				goto truncated;
			n = ((size_t)(o1 - 192) << 8) + o2 + 192;
		} else {
			if (!pgpk_get_be32(&c, &l32))
				goto truncated;
			n = l32;
		}
		/* The length covers the type octet. */
		if (n == 0)
			return pgpk_fail(err, -EBADMSG, at,
					 "zero-length subpacket at offset %zu",
					 at);
		if (!pgpk_get_bytes(&c, n, &p))
			goto truncated;
		type = p[0] & 0x7f;
		critical = p[0] & 0x80;
		p++;
		n--;
		switch (type) {
		case PGPK_SP_CREATED:
			if (n != 4)
				goto bad_value;
			/* The kernel confirms the time by finding these
			 * octets in the hashed area: one time, no choice. */
			if (hashed && sig->has_created)
				return pgpk_fail(
					err, -EBADMSG, at,
					"second creation time subpacket at offset %zu",
					at);
			if (hashed) {
				sig->created = pgpk_be32(p);
				sig->has_created = true;
			}
			break;
		case PGPK_SP_SIG_EXPIRES:
			if (n != 4)
				goto bad_value;
			if (hashed)
				sig->sig_expires = pgpk_be32(p);
			break;
		case PGPK_SP_KEY_EXPIRES:
			if (n != 4)
				goto bad_value;
			if (hashed) {
				sig->key_expires = pgpk_be32(p);
				sig->has_key_expires = true;
			}
			break;
		case PGPK_SP_ISSUER:
			if (n != 8)
				goto bad_value;
			if (!sig->has_issuer_keyid || hashed) {
				memcpy(sig->issuer_keyid, p, PGPK_KEYID_LEN);
				sig->has_issuer_keyid = true;
			}
			break;
		case PGPK_SP_ISSUER_FPR:
			/* 5.2.3.35: version octet, then 20 (v4) or 32 (v6). */
			if (n < 1 ||
			    !((p[0] == 4 && n == 21) || (p[0] == 6 && n == 33)))
				goto bad_value;
			if (!sig->issuer_fpr_len || hashed) {
				memcpy(sig->issuer_fpr, p + 1, n - 1);
				sig->issuer_fpr_len = n - 1;
			}
			break;
		case PGPK_SP_KEY_FLAGS:
			if (hashed) {
				sig->has_key_flags = true;
				sig->key_flags = n ? p[0] : 0;
			}
			break;
		case PGPK_SP_PRIMARY_UID:
			if (n != 1)
				goto bad_value;
			if (hashed)
				sig->primary_uid = p[0] != 0;
			break;
		case PGPK_SP_REVOCABLE:
			if (n != 1)
				goto bad_value;
			if (hashed)
				sig->revocable = p[0] != 0;
			break;
		case PGPK_SP_REVOCATION_REASON:
			if (n < 1)
				goto bad_value;
			if (hashed) {
				sig->has_revocation_reason = true;
				sig->revocation_reason = p[0];
			}
			break;
		case PGPK_SP_EMBEDDED:
			/* 5.2.3.34: a whole signature packet body; the newest
			 * hashed one wins over unhashed ones. */
			if (!sig->embedded || hashed) {
				sig->embedded = p;
				sig->embedded_len = n;
				sig->embedded_offset =
					c.base + (size_t)(p - c.data);
			}
			break;
		default:
			/* Understood (PGPK_CRITICAL_OK), ignored, or unknown. */
			break;
		}
		/* 5.2.3.7, 5.2.3.24: a critical subpacket pgpk does not
		 * understand, or a critical notation, makes the signature
		 * invalid: the kernel's rule (pgpk_hashed_walk()). */
		if (critical && !(type < 64 && (PGPK_CRITICAL_OK >> type & 1)))
			sig->unknown_critical = true;
		continue;
bad_value:
		/* A known subpacket with an impossible value: the signature
		 * cannot be trusted, but the packet framing is intact. */
		sig->malformed = true;
	}
	return 0;

truncated:
	return pgpk_fail(
		err, -EBADMSG, pgpk_cursor_offset(&c),
		"truncated subpacket at offset %zu in signature at offset %zu",
		pgpk_cursor_offset(&c), sig->offset);
}

/* RFC 9580 5.2.3.1 ff.: the algorithm-specific signature fields. */
static int pgpk_sig_fields(struct pgpk_cursor *c, struct pgpk_signature *sig,
			   struct pgpk_error *err)
{
	struct pgpk_mpi m;
	const uint8_t *p;
	bool noncanon = false;

	sig->sig_fields = c->data + c->pos;
	sig->sig_fields_len = pgpk_cursor_left(c);
	switch (sig->pk_algo) {
	case PGPK_PK_RSA:
	case PGPK_PK_RSA_E:
	case PGPK_PK_RSA_S:
		/* 5.2.3.1: MPI m^d mod n. */
		if (!pgpk_mpi_get(c, &sig->rsa_s, &noncanon))
			goto truncated;
		break;
	case PGPK_PK_DSA:
	case PGPK_PK_ECDSA:
	case PGPK_PK_EDDSA_LEGACY:
	case PGPK_PK_ELGAMAL:
		/* 5.2.3.2, 5.2.3.3: MPI r, MPI s. */
		if (!pgpk_mpi_get(c, &m, NULL) || !pgpk_mpi_get(c, &m, NULL))
			goto truncated;
		break;
	case PGPK_PK_ED25519:
		/* 5.2.3.4: 64 octets. */
		if (!pgpk_get_bytes(c, 64, &p))
			goto truncated;
		break;
	case PGPK_PK_ED448:
		/* 5.2.3.5: 114 octets. */
		if (!pgpk_get_bytes(c, 114, &p))
			goto truncated;
		break;
	default:
		/* Unknown algorithm: opaque. */
		c->pos = c->len;
		return 0;
	}
	if (pgpk_cursor_left(c))
		return pgpk_fail(
			err, -EBADMSG, pgpk_cursor_offset(c),
			"%zu trailing octets in signature at offset %zu",
			pgpk_cursor_left(c), sig->offset);
	return 0;

truncated:
	return pgpk_fail(err, -EBADMSG, pgpk_cursor_offset(c),
			 "truncated signature value in signature at offset %zu",
			 sig->offset);
}

static int pgpk_sig_v3(struct pgpk_cursor *c, struct pgpk_signature *sig,
		       struct pgpk_error *err)
{
	uint8_t hlen, type, pk, hash;
	uint32_t created;
	const uint8_t *issuer;
	uint16_t left16;

	/* RFC 9580 5.2.2: length 5 of the hashed material, type, time,
	 * issuer key ID, algorithms, left 16 bits, MPIs. */
	if (!pgpk_get_u8(c, &hlen))
		goto truncated;
	if (hlen != 5)
		return pgpk_fail(
			err, -EBADMSG, sig->offset,
			"v3 signature at offset %zu: hashed length %u, must be 5",
			sig->offset, hlen);
	sig->hashed = c->data + c->pos;
	sig->hashed_len = 5;
	if (!pgpk_get_u8(c, &type) || !pgpk_get_be32(c, &created) ||
	    !pgpk_get_bytes(c, 8, &issuer) || !pgpk_get_u8(c, &pk) ||
	    !pgpk_get_u8(c, &hash) || !pgpk_get_be16(c, &left16))
		goto truncated;
	sig->type = type;
	sig->created = created;
	sig->has_created = true;
	memcpy(sig->issuer_keyid, issuer, PGPK_KEYID_LEN);
	sig->has_issuer_keyid = true;
	sig->pk_algo = pk;
	sig->hash_algo = hash;
	sig->quick_check = left16;
	return pgpk_sig_fields(c, sig, err);

truncated:
	return pgpk_fail(err, -EBADMSG, sig->offset,
			 "truncated v3 signature at offset %zu", sig->offset);
}

static int pgpk_sig_v4v6(struct pgpk_cursor *c, struct pgpk_signature *sig,
			 struct pgpk_error *err)
{
	uint8_t type, pk, hash, salt_len;
	uint16_t l16, left16;
	uint32_t hlen, ulen;
	const uint8_t *unhashed, *salt;
	size_t hashed_base, unhashed_base;
	int ret;

	/* RFC 9580 5.2.3: type, algorithms, hashed area (two-octet length
	 * in v4, four-octet in v6), unhashed area, left 16 bits, v6 salt,
	 * algorithm-specific fields. */
	if (!pgpk_get_u8(c, &type) || !pgpk_get_u8(c, &pk) ||
	    !pgpk_get_u8(c, &hash))
		goto truncated;
	sig->type = type;
	sig->pk_algo = pk;
	sig->hash_algo = hash;
	if (sig->version == 4) {
		if (!pgpk_get_be16(c, &l16))
			goto truncated;
		hlen = l16;
	} else if (!pgpk_get_be32(c, &hlen)) {
		goto truncated;
	}
	hashed_base = pgpk_cursor_offset(c);
	if (!pgpk_get_bytes(c, hlen, &sig->hashed))
		goto truncated;
	sig->hashed_len = hlen;
	if (sig->version == 4) {
		if (!pgpk_get_be16(c, &l16))
			goto truncated;
		ulen = l16;
	} else if (!pgpk_get_be32(c, &ulen)) {
		goto truncated;
	}
	unhashed_base = pgpk_cursor_offset(c);
	if (!pgpk_get_bytes(c, ulen, &unhashed))
		goto truncated;
	if (!pgpk_get_be16(c, &left16))
		goto truncated;
	sig->quick_check = left16;
	if (sig->version == 6) {
		/* 5.2.3: salt size is fixed by the hash (9.5). */
		if (!pgpk_get_u8(c, &salt_len) ||
		    !pgpk_get_bytes(c, salt_len, &salt))
			goto truncated;
		if (salt_len != pgpk_hash_salt_len(hash))
			return pgpk_fail(
				err, -EBADMSG, sig->offset,
				"v6 signature at offset %zu: salt of %u octets for hash %u",
				sig->offset, salt_len, hash);
		sig->salt = salt;
		sig->salt_len = salt_len;
	}
	ret = pgpk_subpackets(sig->hashed, hlen, hashed_base, true, sig, err);
	if (ret)
		return ret;
	ret = pgpk_subpackets(unhashed, ulen, unhashed_base, false, sig, err);
	if (ret)
		return ret;
	/* 5.2.3.11: the creation time MUST be in the hashed area. */
	if (!sig->has_created)
		sig->malformed = true;
	return pgpk_sig_fields(c, sig, err);

truncated:
	return pgpk_fail(err, -EBADMSG, pgpk_cursor_offset(c),
			 "truncated v%u signature at offset %zu", sig->version,
			 sig->offset);
}

int pgpk_signature_parse(const uint8_t *body, size_t len, size_t offset,
			 struct pgpk_signature *sig, struct pgpk_error *err)
{
	struct pgpk_cursor c;
	uint8_t version;

	memset(sig, 0, sizeof(*sig));
	sig->offset = offset;
	sig->body = body;
	sig->body_len = len;
	sig->revocable = true;
	pgpk_cursor_init(&c, body, len, offset);
	if (!pgpk_get_u8(&c, &version))
		return pgpk_fail(err, -EBADMSG, offset,
				 "empty signature packet at offset %zu",
				 offset);
	sig->version = version;
	switch (version) {
	case 3:
		return pgpk_sig_v3(&c, sig, err);
	case 4:
	case 6:
		return pgpk_sig_v4v6(&c, sig, err);
	default:
		return pgpk_fail(
			err, -ENOPKG, offset,
			"unsupported signature version %u at offset %zu",
			version, offset);
	}
}

int pgpk_hash_sig_prefix(struct pgpk_digest *d,
			 const struct pgpk_signature *sig)
{
	/* RFC 9580 5.2.4: a v6 signature hashes its salt first. */
	if (sig->version == 6 &&
	    pgpk_digest_update(d, sig->salt, sig->salt_len))
		return -ENOMEM;
	return 0;
}

int pgpk_hash_sig_trailer(struct pgpk_digest *d,
			  const struct pgpk_signature *sig)
{
	size_t n;
	uint8_t t[6];

	if (sig->version == 3)
		/* RFC 4880 5.2.2: the five hashed octets (type, time). */
		return pgpk_digest_update(d, sig->hashed, 5);
	/* RFC 9580 5.2.4: the packet from its version octet to the end of
	 * the hashed area, then version, 0xFF, four-octet length of it. */
	n = (size_t)(sig->hashed - sig->body) + sig->hashed_len;
	t[0] = sig->version;
	t[1] = 0xFF;
	t[2] = (uint8_t)(n >> 24);
	t[3] = (uint8_t)(n >> 16);
	t[4] = (uint8_t)(n >> 8);
	t[5] = (uint8_t)n;
	if (pgpk_digest_update(d, sig->body, n) ||
	    pgpk_digest_update(d, t, sizeof(t)))
		return -ENOMEM;
	return 0;
}
