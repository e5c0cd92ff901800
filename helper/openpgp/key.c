// SPDX-License-Identifier: GPL-2.0
/*
 * Key packets (RFC 9580 5.5.2): v4 and v6 public keys and subkeys, every
 * algorithm recognised with its name and size, RSA fields kept for
 * conversion; fingerprints and key IDs (RFC 9580 5.5.4) with OpenSSL.
 */
#include <string.h>

#include "helper/openpgp/internal.h"

const char *pgpk_pk_algo_name(unsigned int algo)
{
	switch (algo) {
	case PGPK_PK_RSA:
		return "RSA";
	case PGPK_PK_RSA_E:
		return "RSA-E";
	case PGPK_PK_RSA_S:
		return "RSA-S";
	case PGPK_PK_ELGAMAL_E:
		return "ElGamal";
	case PGPK_PK_DSA:
		return "DSA";
	case PGPK_PK_ECDH:
		return "ECDH";
	case PGPK_PK_ECDSA:
		return "ECDSA";
	case PGPK_PK_ELGAMAL:
		return "ElGamal-SE";
	case PGPK_PK_EDDSA_LEGACY:
		return "EdDSA";
	case PGPK_PK_X25519:
		return "X25519";
	case PGPK_PK_X448:
		return "X448";
	case PGPK_PK_ED25519:
		return "Ed25519";
	case PGPK_PK_ED448:
		return "Ed448";
	default:
		return "unknown";
	}
}

bool pgpk_pk_algo_is_rsa(unsigned int algo)
{
	return algo == PGPK_PK_RSA || algo == PGPK_PK_RSA_E ||
	       algo == PGPK_PK_RSA_S;
}

/* GnuPG's openpgp_pk_algo_usage(): algorithms that can make signatures. */
bool pgpk_pk_algo_can_sign(unsigned int algo)
{
	switch (algo) {
	case PGPK_PK_RSA:
	case PGPK_PK_RSA_S:
	case PGPK_PK_DSA:
	case PGPK_PK_ECDSA:
	case PGPK_PK_EDDSA_LEGACY:
	case PGPK_PK_ED25519:
	case PGPK_PK_ED448:
		return true;
	default:
		return false;
	}
}

bool pgpk_mpi_get(struct pgpk_cursor *c, struct pgpk_mpi *m, bool *noncanonical)
{
	uint16_t bits;
	const uint8_t *p;
	size_t n, skip = 0, actual = 0;

	if (!pgpk_get_be16(c, &bits))
		return false;
	n = ((size_t)bits + 7) / 8;
	if (!pgpk_get_bytes(c, n, &p))
		return false;
	while (skip < n && p[skip] == 0)
		skip++;
	m->data = p + skip;
	m->len = n - skip;
	if (m->len) {
		uint8_t top = m->data[0];

		actual = (m->len - 1) * 8;
		while (top) {
			actual++;
			top >>= 1;
		}
	}
	if (actual != bits && noncanonical)
		*noncanonical = true;
	return true;
}

/* RFC 9580 9.2: ECC curve OIDs, with the size GnuPG shows. */
static const struct pgpk_curve {
	const char *name;
	unsigned int bits;
	uint8_t len;
	uint8_t oid[10];
} pgpk_curves[] = {
	{ "nistp256",
	  256,
	  8,
	  { 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07 } },
	{ "nistp384", 384, 5, { 0x2B, 0x81, 0x04, 0x00, 0x22 } },
	{ "nistp521", 521, 5, { 0x2B, 0x81, 0x04, 0x00, 0x23 } },
	{ "brainpoolP256r1",
	  256,
	  9,
	  { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07 } },
	{ "brainpoolP384r1",
	  384,
	  9,
	  { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0B } },
	{ "brainpoolP512r1",
	  512,
	  9,
	  { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0D } },
	{ "ed25519",
	  255,
	  9,
	  { 0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01 } },
	{ "cv25519",
	  255,
	  10,
	  { 0x2B, 0x06, 0x01, 0x04, 0x01, 0x97, 0x55, 0x01, 0x05, 0x01 } },
	{ "ed448", 448, 3, { 0x2B, 0x65, 0x71 } },
	{ "cv448", 448, 3, { 0x2B, 0x65, 0x6F } },
	{ "secp256k1", 256, 5, { 0x2B, 0x81, 0x04, 0x00, 0x0A } },
};

static const struct pgpk_curve *pgpk_curve_lookup(const uint8_t *oid,
						  size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(pgpk_curves) / sizeof(pgpk_curves[0]); i++)
		if (pgpk_curves[i].len == len &&
		    !memcmp(pgpk_curves[i].oid, oid, len))
			return &pgpk_curves[i];
	return NULL;
}

static unsigned int pgpk_mpi_bits(const struct pgpk_mpi *m)
{
	unsigned int bits;
	uint8_t top;

	if (!m->len)
		return 0;
	bits = (unsigned int)(m->len - 1) * 8;
	for (top = m->data[0]; top; top >>= 1)
		bits++;
	return bits;
}

/*
 * The algorithm-specific public fields (RFC 9580 5.6).  They must fill
 * the cursor exactly; an unknown algorithm's fields are opaque.
 */
static int pgpk_key_fields(struct pgpk_cursor *c, struct pgpk_pubkey *key,
			   struct pgpk_error *err)
{
	struct pgpk_mpi m;
	const uint8_t *oid;
	const struct pgpk_curve *curve;
	uint8_t oid_len, kdf_len;
	size_t at = pgpk_cursor_offset(c);
	int nmpi = 0, i;

	switch (key->algo) {
	case PGPK_PK_RSA:
	case PGPK_PK_RSA_E:
	case PGPK_PK_RSA_S:
		/* 5.6.1: MPI n, MPI e. */
		if (!pgpk_mpi_get(c, &key->rsa_n, &key->mpi_noncanonical) ||
		    !pgpk_mpi_get(c, &key->rsa_e, &key->mpi_noncanonical))
			goto truncated;
		key->bits = pgpk_mpi_bits(&key->rsa_n);
		break;
	case PGPK_PK_DSA:
		nmpi = 4; /* 5.6.2: p, q, g, y */
		/* fall through */
	case PGPK_PK_ELGAMAL_E:
	case PGPK_PK_ELGAMAL:
		if (!nmpi)
			nmpi = 3; /* 5.6.3: p, g, y */
		for (i = 0; i < nmpi; i++) {
			if (!pgpk_mpi_get(c, &m, NULL))
				goto truncated;
			if (i == 0)
				key->bits = pgpk_mpi_bits(&m);
		}
		break;
	case PGPK_PK_ECDSA:
	case PGPK_PK_EDDSA_LEGACY:
	case PGPK_PK_ECDH:
		/* 5.6.4-5.6.6: curve OID (length octet, 0 and 0xFF
		 * reserved), MPI point, ECDH: KDF parameters. */
		if (!pgpk_get_u8(c, &oid_len))
			goto truncated;
		if (oid_len == 0 || oid_len == 0xFF)
			return pgpk_fail(
				err, -EBADMSG, at,
				"reserved curve OID length %u in key at offset %zu",
				oid_len, key->offset);
		if (!pgpk_get_bytes(c, oid_len, &oid))
			goto truncated;
		curve = pgpk_curve_lookup(oid, oid_len);
		if (curve) {
			key->curve = curve->name;
			key->bits = curve->bits;
		}
		if (!pgpk_mpi_get(c, &m, NULL))
			goto truncated;
		if (key->algo == PGPK_PK_ECDH) {
			const uint8_t *kdf;

			if (!pgpk_get_u8(c, &kdf_len) ||
			    !pgpk_get_bytes(c, kdf_len, &kdf))
				goto truncated;
		}
		break;
	case PGPK_PK_X25519:
	case PGPK_PK_ED25519:
	case PGPK_PK_X448:
	case PGPK_PK_ED448: {
		/* 5.6.7-5.6.10: native fixed-size public keys. */
		static const size_t sizes[] = { 32, 56, 32, 57 };
		static const unsigned int bits[] = { 255, 448, 255, 448 };
		const uint8_t *p;
		unsigned int idx = key->algo - PGPK_PK_X25519;

		if (!pgpk_get_bytes(c, sizes[idx], &p))
			goto truncated;
		key->bits = bits[idx];
		key->curve = key->algo == PGPK_PK_X25519  ? "cv25519" :
			     key->algo == PGPK_PK_X448	  ? "cv448" :
			     key->algo == PGPK_PK_ED25519 ? "ed25519" :
							    "ed448";
		break;
	}
	default:
		/* Unknown algorithm: opaque fields, nothing to check. */
		c->pos = c->len;
		return 0;
	}
	if (pgpk_cursor_left(c))
		return pgpk_fail(
			err, -EBADMSG, pgpk_cursor_offset(c),
			"%zu trailing octets in %s key packet at offset %zu",
			pgpk_cursor_left(c), key->algo_name, key->offset);
	return 0;

truncated:
	return pgpk_fail(
		err, -EBADMSG, pgpk_cursor_offset(c),
		"truncated %s key material in key packet at offset %zu",
		key->algo_name, key->offset);
}

int pgpk_hash_key_packet(struct pgpk_digest *d, const struct pgpk_pubkey *key)
{
	uint8_t hdr[5];
	size_t n;

	if (key->version == 6) {
		/* RFC 9580 5.2.4: 0x9B, four-octet length. */
		hdr[0] = 0x9B;
		hdr[1] = (uint8_t)(key->body_len >> 24);
		hdr[2] = (uint8_t)(key->body_len >> 16);
		hdr[3] = (uint8_t)(key->body_len >> 8);
		hdr[4] = (uint8_t)key->body_len;
		n = 5;
	} else {
		/* RFC 9580 5.2.4: 0x99, two-octet length. */
		hdr[0] = 0x99;
		hdr[1] = (uint8_t)(key->body_len >> 8);
		hdr[2] = (uint8_t)key->body_len;
		n = 3;
	}
	if (pgpk_digest_update(d, hdr, n) ||
	    pgpk_digest_update(d, key->body, key->body_len))
		return -ENOMEM;
	return 0;
}

/* RFC 9580 5.5.4: v4 SHA-1, v6 SHA-256 over the hashed key packet. */
static int pgpk_fingerprint(struct pgpk_pubkey *key, struct pgpk_error *err)
{
	struct pgpk_digest d;
	size_t n = 0;

	if (pgpk_digest_init(&d, key->version == 6 ? PGPK_HASH_SHA256 :
						     PGPK_HASH_SHA1) ||
	    pgpk_hash_key_packet(&d, key) ||
	    pgpk_digest_final(&d, key->fpr, &n))
		return pgpk_fail(
			err, -ENOMEM, key->offset,
			"fingerprint hash failed for key at offset %zu",
			key->offset);
	key->fpr_len = n;
	/* 5.5.4.2: v4 key ID = low 64 bits; 5.5.4.3: v6 = high 64 bits. */
	if (key->version == 6)
		memcpy(key->keyid, key->fpr, PGPK_KEYID_LEN);
	else
		memcpy(key->keyid, key->fpr + n - PGPK_KEYID_LEN,
		       PGPK_KEYID_LEN);
	return 0;
}

int pgpk_pubkey_parse(const uint8_t *body, size_t len, size_t offset,
		      bool subkey, struct pgpk_pubkey *key,
		      struct pgpk_error *err)
{
	struct pgpk_cursor c;
	uint32_t created, mat_len;
	uint8_t version, algo;
	const char *what = subkey ? "subkey" : "key";
	int ret;

	memset(key, 0, sizeof(*key));
	key->offset = offset;
	key->body = body;
	key->body_len = len;
	key->subkey = subkey;
	pgpk_cursor_init(&c, body, len, offset);
	if (!pgpk_get_u8(&c, &version))
		return pgpk_fail(err, -EBADMSG, offset,
				 "empty %s packet at offset %zu", what, offset);
	key->version = version;
	if (version == 2 || version == 3)
		/* RFC 9580 5.5.2.1: v3 keys are deprecated (MD5 fingerprints,
		 * no self-signature binding): refused. */
		return pgpk_fail(
			err, -ENOPKG, offset,
			"v%u %s at offset %zu is not supported (v3 keys are obsolete, RFC 9580 5.5.2.1)",
			version, what, offset);
	if (version != 4 && version != 6)
		return pgpk_fail(
			err, -ENOPKG, offset,
			"unsupported %s packet version %u at offset %zu", what,
			version, offset);
	if (!pgpk_get_be32(&c, &created) || !pgpk_get_u8(&c, &algo))
		return pgpk_fail(err, -EBADMSG, offset,
				 "truncated %s packet at offset %zu", what,
				 offset);
	key->created = created;
	key->algo = algo;
	key->algo_name = pgpk_pk_algo_name(algo);
	if (version == 6) {
		/* RFC 9580 5.5.2.3: four-octet length of the key material,
		 * which must be the rest of the packet. */
		if (!pgpk_get_be32(&c, &mat_len))
			return pgpk_fail(err, -EBADMSG, offset,
					 "truncated v6 %s packet at offset %zu",
					 what, offset);
		if (mat_len != pgpk_cursor_left(&c))
			return pgpk_fail(
				err, -EBADMSG, offset,
				"v6 %s at offset %zu: key material length %u but %zu octets left",
				what, offset, mat_len, pgpk_cursor_left(&c));
	}
	ret = pgpk_key_fields(&c, key, err);
	if (ret)
		return ret;
	return pgpk_fingerprint(key, err);
}
