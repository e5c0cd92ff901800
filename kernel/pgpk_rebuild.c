// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuild key packets, hash prefixes and signature trailers from canonical
 * fields (see pgpk_rebuild.h).  Compiles in the kernel and in user space.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "pgpk_rebuild.h"

/* Store the low @n octets of @v big-endian at @p; return the next octet. */
static u8 *pgpk_put_be(u8 *p, u64 v, unsigned int n)
{
	while (n--)
		*p++ = v >> (8 * n);
	return p;
}

/* RFC 9580 3.2: an MPI is a 2-octet bit count, then the octets. */
static size_t pgpk_mpi_len(const struct pgpk_bytes *b)
{
	return 2 + b->len;
}

static u8 *pgpk_put_mpi(u8 *p, const struct pgpk_bytes *b)
{
	unsigned int bits = b->len * 8;
	u8 top = b->data[0];	/* non-zero: the decoder refuses leading zeros */

	while (!(top & 0x80)) {
		top <<= 1;
		bits--;
	}
	p = pgpk_put_be(p, bits, 2);
	memcpy(p, b->data, b->len);
	return p + b->len;
}

static size_t pgpk_rsa_material_len(const struct pgpk_key_material *m)
{
	return pgpk_mpi_len(&m->rsa_n) + pgpk_mpi_len(&m->rsa_e);
}

/**
 * pgpk_rebuild_key_len - length of the key packet body for @m
 * @m: decoded key material
 *
 * RFC 9580 5.5.2.2 (v4): version, 4-octet creation time, algorithm, MPIs.
 * RFC 9580 5.5.2.3 (v6): the same with a 4-octet key material length
 * before the MPIs.
 */
size_t pgpk_rebuild_key_len(const struct pgpk_key_material *m)
{
	return 1 + 4 + 1 + (m->version == 6 ? 4 : 0) + pgpk_rsa_material_len(m);
}

/**
 * pgpk_rebuild_key - write the key packet body for @m
 * @m: decoded key material
 * @out: at least pgpk_rebuild_key_len(@m) octets
 *
 * Return: the number of octets written.
 */
size_t pgpk_rebuild_key(const struct pgpk_key_material *m, u8 *out)
{
	u8 *p = out;

	*p++ = m->version;
	p = pgpk_put_be(p, m->created, 4);
	*p++ = m->algorithm;
	if (m->version == 6)
		p = pgpk_put_be(p, pgpk_rsa_material_len(m), 4);
	p = pgpk_put_mpi(p, &m->rsa_n);
	p = pgpk_put_mpi(p, &m->rsa_e);
	return p - out;
}

/**
 * pgpk_rebuild_key_prefix - the octets hashed before a key packet body
 * @m: decoded key material (for its version)
 * @len: the body length
 * @out: at least PGPK_PREFIX_MAX octets
 *
 * RFC 9580 5.5.4 (fingerprints) and 5.2.4 (key signatures): v4 hashes
 * 0x99 and a 2-octet length, v6 hashes 0x9B and a 4-octet length.
 *
 * Return: the number of octets written.
 */
size_t pgpk_rebuild_key_prefix(const struct pgpk_key_material *m, size_t len,
			       u8 *out)
{
	if (m->version == 6) {
		out[0] = 0x9b;
		pgpk_put_be(out + 1, len, 4);
		return 5;
	}
	out[0] = 0x99;
	pgpk_put_be(out + 1, len, 2);
	return 3;
}

/**
 * pgpk_rebuild_uid_prefix - the octets hashed before a user ID
 * @len: the user ID length
 * @out: at least PGPK_PREFIX_MAX octets
 *
 * RFC 9580 5.2.4: v4 and v6 certifications hash 0xB4 and a 4-octet length
 * before the user ID.  (v3 certifications hash the bare user ID; pgpk does
 * not use them as authority.)
 *
 * Return: the number of octets written.
 */
size_t pgpk_rebuild_uid_prefix(u32 len, u8 *out)
{
	out[0] = 0xb4;
	pgpk_put_be(out + 1, len, 4);
	return 5;
}

/**
 * pgpk_rebuild_trailer_len - length of the octets hashed after the data
 * @s: decoded signature
 */
size_t pgpk_rebuild_trailer_len(const struct pgpk_sig *s)
{
	if (s->version == 3)
		return 5;
	/* header + hashed area + final 6-octet trailer */
	return (s->version == 6 ? 8 : 6) + s->hashed_area.len + 6;
}

/**
 * pgpk_rebuild_trailer - write the octets hashed after the signed data
 * @s: decoded signature
 * @out: at least pgpk_rebuild_trailer_len(@s) octets
 *
 * RFC 4880 5.2.2 (v3): signature type and 4-octet creation time.
 * RFC 9580 5.2.4 (v4, v6): version, type, public-key and hash algorithm,
 * hashed area length (2 octets in v4, 4 in v6) and area, then version,
 * 0xFF and the 4-octet length of everything hashed from the packet.  The
 * v6 salt is hashed *before* the data and is not part of the trailer.
 *
 * Return: the number of octets written.
 */
size_t pgpk_rebuild_trailer(const struct pgpk_sig *s, u8 *out)
{
	u8 *p = out;
	size_t hashed;

	if (s->version == 3) {
		*p++ = s->type;
		p = pgpk_put_be(p, s->created, 4);
		return p - out;
	}
	*p++ = s->version;
	*p++ = s->type;
	*p++ = s->pubkey_algorithm;
	*p++ = s->hash_algorithm;
	p = pgpk_put_be(p, s->hashed_area.len, s->version == 6 ? 4 : 2);
	if (s->hashed_area.len)
		memcpy(p, s->hashed_area.data, s->hashed_area.len);
	p += s->hashed_area.len;
	hashed = p - out;
	*p++ = s->version;
	*p++ = 0xff;
	p = pgpk_put_be(p, hashed, 4);
	return p - out;
}

/*
 * RFC 9580 5.2.3.7, 5.2.3.11, 5.2.3.35: what a v4/v6 signature's hashed
 * area says about its time and issuer, as the digest covers it.  Only the
 * framing is read (one-, two- or five-octet lengths, then the type octet):
 * a comparison of octets anywhere in the area would also match inside
 * another subpacket's data (a notation, an intended recipient's
 * fingerprint), which the signer chose and a canonical blob could name.
 * The area must be framed exactly, hold exactly one creation time (the
 * helper refuses two as well) and it must equal `created`.  *fpr is set
 * to the hashed issuer fingerprint (without its version octet), if any.
 * v3 hashes its time field itself (pgpk_rebuild_trailer()).
 */
/*
 * RFC 9580 5.2.3.7: the subpacket at *@p (before @end): *@p is moved past
 * its length octets to its type octet, *@n is its length (type + data).
 * False if the framing does not fit the area.
 */
bool pgpk_rebuild_subpacket(const u8 **p, const u8 *end, u32 *n)
{
	const u8 *q = *p;

	if (*q < 192) {
		*n = *q++;
	} else if (*q < 255) {
		if (end - q < 2)
			return false;
		*n = ((q[0] - 192) << 8) + q[1] + 192;
		q += 2;
	} else {
		if (end - q < 5)
			return false;
		*n = (u32)q[1] << 24 | (u32)q[2] << 16 | q[3] << 8 | q[4];
		q += 5;
	}
	*p = q;
	return *n && *n <= end - q;
}

bool pgpk_rebuild_hashed_ok(const struct pgpk_sig *s, struct pgpk_bytes *fpr)
{
	const u8 *p = s->hashed_area.data, *end = p + s->hashed_area.len;
	unsigned int ncreated = 0;
	u32 n;

	fpr->data = NULL;
	fpr->len = 0;
	if (s->version == 3)
		return true;
	while (p < end) {
		if (!pgpk_rebuild_subpacket(&p, end, &n))
			return false;
		switch (p[0] & 0x7f) {
		case 2:
			if (n != 5 || ncreated++ ||
			    ((u32)p[1] << 24 | (u32)p[2] << 16 | p[3] << 8 |
			     p[4]) != s->created)
				return false;
			break;
		case 33:
			if (n > 2) {
				fpr->data = p + 2;
				fpr->len = n - 2;
			}
			break;
		}
		p += n;
	}
	return ncreated == 1;
}
