// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuild key packets, hash prefixes and signature trailers from canonical
 * fields (see pgpk_canon.h).  Compiles in the kernel and in user space.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "pgpk_canon.h"

/* @n octets of @src at @out, if writing; the length written. */
static size_t pgpk_put(u8 *out, size_t at, const void *src, size_t n)
{
	if (out)
		memcpy(out + at, src, n);
	return n;
}

/* The low @n octets of @v, big-endian, if writing. */
static size_t pgpk_put_be(u8 *out, size_t at, u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; out && i < n; i++)
		out[at + i] = v >> (8 * (n - 1 - i));
	return n;
}

/* RFC 9580 3.2: an MPI is its length in bits (2 octets), then octets. */
static size_t pgpk_put_mpi(u8 *out, size_t at, const struct pgpk_bytes *b)
{
	at += pgpk_put_be(out, at, b->bits, 2);	/* the decoder's count */
	return 2 + pgpk_put(out, at, b->data, b->len);
}

/**
 * pgpk_rebuild_key - a key packet body (RFC 9580 5.5.2.2 v4: version,
 * creation time, algorithm, MPIs; 5.5.2.3 v6: the same with the MPIs'
 * 4-octet length before them)
 * @m: decoded key material
 * @out: where to write it, or NULL
 *
 * Return: its length.
 */
size_t pgpk_rebuild_key(const struct pgpk_key_material *m, u8 *out)
{
	size_t mpis = 4 + m->rsa_n.len + m->rsa_e.len, n = 0;

	n += pgpk_put_be(out, n, m->version, 1);
	n += pgpk_put_be(out, n, m->created, 4);
	n += pgpk_put_be(out, n, m->algorithm, 1);
	if (m->version == 6)
		n += pgpk_put_be(out, n, mpis, 4);
	n += pgpk_put_mpi(out, n, &m->rsa_n);
	return n + pgpk_put_mpi(out, n, &m->rsa_e);
}

/*
 * RFC 9580 5.5.4, 5.2.4: v4 hashes 0x99 and a 2-octet body length before
 * a key, v6 0x9B and a 4-octet one.
 */
size_t pgpk_rebuild_key_prefix(const struct pgpk_key_material *m, u8 *out)
{
	bool v6 = m->version == 6;

	pgpk_put_be(out, 0, v6 ? 0x9b : 0x99, 1);
	return 1 + pgpk_put_be(out, 1, pgpk_rebuild_key(m, NULL), v6 ? 4 : 2);
}

/* RFC 9580 5.2.4: v4 and v6 certifications hash 0xB4, 4-octet length. */
size_t pgpk_rebuild_uid_prefix(u32 len, u8 *out)
{
	pgpk_put_be(out, 0, 0xb4, 1);
	return 1 + pgpk_put_be(out, 1, len, 4);
}

/**
 * pgpk_rebuild_trailer - the octets hashed after the signed data
 * @s: decoded signature
 * @out: where to write them, or NULL
 *
 * RFC 9580 5.2.4 (v4, v6): version, type, algorithms, the hashed area's
 * length (2 octets in v4, 4 in v6) and the area, then version, 0xFF and
 * the 4-octet length of what came before.  A v6 salt is hashed before the
 * data, not here.
 *
 * Return: the length.
 */
size_t pgpk_rebuild_trailer(const struct pgpk_sig *s, u8 *out)
{
	size_t n = 0, hashed;

	n += pgpk_put_be(out, n, s->version, 1);
	n += pgpk_put_be(out, n, s->type, 1);
	n += pgpk_put_be(out, n, s->pubkey_algorithm, 1);
	n += pgpk_put_be(out, n, s->hash_algorithm, 1);
	n += pgpk_put_be(out, n, s->hashed_area.len, s->version == 6 ? 4 : 2);
	n += pgpk_put(out, n, s->hashed_area.data, s->hashed_area.len);
	hashed = n;
	n += pgpk_put_be(out, n, s->version, 1);
	n += pgpk_put_be(out, n, 0xff, 1);
	return n + pgpk_put_be(out, n, hashed, 4);
}

/*
 * RFC 9580 9.5: a v6 signature's salt is as long as its hash says (16 for
 * SHA2-224/256 and SHA3-256, 24 for SHA2-384, 32 for SHA2-512 and
 * SHA3-512); any other length would let the salt absorb the first octets
 * of the data.  0: a hash without a salt size.
 */
u32 pgpk_rebuild_salt_len(u32 hash)
{
	static const u8 len[15] = { [8] = 16, [9] = 24, [10] = 32, [11] = 16,
				    [12] = 16, [14] = 32 };

	return hash < sizeof(len) ? len[hash] : 0;
}
