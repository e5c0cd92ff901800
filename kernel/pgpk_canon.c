// SPDX-License-Identifier: GPL-2.0
/*
 * Strict decoder for the pgpk canonical encoding (proto/pgpk.proto).
 *
 * Everything the helper, or any user, tells the kernel in canonical form
 * passes through here first.  The decoder reads each message's fields in
 * the schema's order, asking for one field number at a time: a field
 * comes at most once (a repeated one in a single run), in ascending order,
 * with the one wire type the schema gives it.  Whatever it never asks for
 * (an unknown, repeated, misplaced or mistyped field) is left over and
 * refused, so a blob is accepted only in the one encoding protobuf-c
 * produces for it, and equal keys have equal bytes.  No allocation.
 *
 * The file compiles unchanged in user space (bazel/kernel_user.h) for the
 * broker, the unit tests and the fuzzer (tests/fuzz/canon_fuzz.c).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "pgpk_canon.h"

struct pgpk_cursor {
	const u8 *base;
	const u8 *p;
	const u8 *end;		/* of the message being read */
	struct pgpk_canon_error *err;
};

static int pgpk_fail(struct pgpk_cursor *c, const char *why)
{
	if (!c->err->why) {
		c->err->why = why;
		c->err->offset = c->p - c->base;
	}
	return -EBADMSG;
}

/*
 * A base-128 varint of at most 32 bits (every number of the schema, every
 * length), in its shortest encoding.
 */
static bool pgpk_varint(struct pgpk_cursor *c, u32 *v)
{
	unsigned int i;

	*v = 0;
	for (i = 0; i < 5 && c->p + i < c->end; i++) {
		*v |= (u32)(c->p[i] & 0x7f) << (7 * i);
		if (c->p[i] & 0x80)
			continue;
		if ((i && !c->p[i]) || (i == 4 && c->p[i] > 15))
			return false;
		c->p += i + 1;
		return true;
	}
	return false;
}

/* Is field @n, of wire type @wt, next?  Then its tag is read. */
static bool pgpk_next(struct pgpk_cursor *c, u32 n, u32 wt)
{
	const u8 *start = c->p;
	u32 tag;

	if (c->p < c->end && pgpk_varint(c, &tag) && tag == (n << 3 | wt))
		return true;
	c->p = start;
	return false;
}

/* Varint field @n, if next: at most @max. */
static int pgpk_num(struct pgpk_cursor *c, u32 *present, u32 n, u32 max,
		    u32 *out)
{
	if (!pgpk_next(c, n, 0))
		return 0;
	if (!pgpk_varint(c, out) || *out > max)
		return pgpk_fail(c, "varint not minimal or out of range");
	*present |= 1u << n;
	return 0;
}

/* Length-delimited field @n, if next: *@len, else U32_MAX. */
static int pgpk_delimited(struct pgpk_cursor *c, u32 *present, u32 n, u32 *len)
{
	*len = U32_MAX;
	if (!pgpk_next(c, n, 2))
		return 0;
	if (!pgpk_varint(c, len) || *len > (size_t)(c->end - c->p))
		return pgpk_fail(c, "field runs past the end of its message");
	*present |= 1u << n;
	return 0;
}

/*
 * Octets field @n, if next: @min..@max of them; @be: a big-endian
 * integer, without a leading zero octet, whose length in bits is noted.
 */
static int pgpk_bytes(struct pgpk_cursor *c, u32 *present, u32 n, u32 min,
		      u32 max, bool be, struct pgpk_bytes *b)
{
	u32 len;
	int ret = pgpk_delimited(c, present, n, &len);

	if (ret || len == U32_MAX)
		return ret;
	if (len < min || len > max || (be && !c->p[0]))
		return pgpk_fail(c, "length out of bounds, or a leading zero");
	b->data = c->p;
	b->len = len;
	b->bits = be ? 8 * len - 8 + fls(c->p[0]) : 0;
	c->p += len;
	return 0;
}

/* Message field @n, if next, read by @read within its length. */
static int pgpk_msg(struct pgpk_cursor *c, u32 *present, u32 n,
		    int (*read)(struct pgpk_cursor *c, void *out), void *out)
{
	const u8 *end = c->end;
	u32 len;
	int ret = pgpk_delimited(c, present, n, &len);

	if (ret || len == U32_MAX)
		return ret;
	c->end = c->p + len;
	ret = read(c, out);
	c->end = end;
	return ret;
}

/* The end of a message: nothing left over, no @why, @required there. */
static int pgpk_end(struct pgpk_cursor *c, u32 present, u32 required,
		    const char *why)
{
	if (c->p != c->end)
		return pgpk_fail(c, "unknown, repeated or misplaced field");
	if (why)
		return pgpk_fail(c, why);
	return (present & required) == required ? 0 :
	       pgpk_fail(c, "required field missing");
}

/*
 * RFC 9580 5.5.2, 9.1: only v4 and v6 RSA keys have a canonical form; RSA
 * Encrypt-Only (2) signs nothing.
 */
static int pgpk_read_material(struct pgpk_cursor *c, void *out)
{
	struct pgpk_key_material *m = out;
	u32 *has = &m->present;

	return pgpk_num(c, has, 1, 255, &m->version) ?:
	       pgpk_num(c, has, 2, U32_MAX, &m->created) ?:
	       pgpk_num(c, has, 3, 3, &m->algorithm) ?:
	       pgpk_bytes(c, has, 4, 1, PGPK_MAX_MPI, true, &m->rsa_n) ?:
	       pgpk_bytes(c, has, 5, 1, PGPK_MAX_EXPONENT, true, &m->rsa_e) ?:
	       pgpk_end(c, *has, 0x3e, m->algorithm != 1 && m->algorithm != 3 ?
			"not an RSA key that signs (RFC 9580 9.1)" :
			m->version != 4 && m->version != 6 ?
			"key version not 4 or 6" : NULL);
}

/*
 * RFC 9580 5.2.3: v4 and v6 signatures (v3 is for no new signature, and
 * its hashed octets name no issuer: the policy floor) and their parts.
 */
static int pgpk_read_sig(struct pgpk_cursor *c, void *out)
{
	struct pgpk_sig *s = out;
	u32 *has = &s->present;
	int ret;

	ret = pgpk_num(c, has, 1, 255, &s->version) ?:
	      pgpk_num(c, has, 2, 255, &s->type) ?:
	      pgpk_num(c, has, 3, 255, &s->pubkey_algorithm) ?:
	      pgpk_num(c, has, 4, 255, &s->hash_algorithm) ?:
	      pgpk_num(c, has, 5, U32_MAX, &s->created) ?:
	      pgpk_bytes(c, has, 7, 0, PGPK_MAX_HASHED_AREA, false,
			 &s->hashed_area) ?:
	      pgpk_bytes(c, has, 8, 16, 32, false, &s->salt) ?:
	      pgpk_num(c, has, 9, 0xffff, &s->quick_check) ?:
	      pgpk_bytes(c, has, 10, 1, PGPK_MAX_MPI, true, &s->rsa_s) ?:
	      pgpk_bytes(c, has, 11, 8, 8, false, &s->issuer_key_id) ?:
	      pgpk_bytes(c, has, 12, 20, 32, false, &s->issuer_fingerprint) ?:
	      pgpk_num(c, has, 13, U32_MAX, &s->rsa_s_offset);
	return ret ?: pgpk_end(c, *has, 0x6be, s->version != 4 &&
			       s->version != 6 ? "signature version not 4 or 6" :
			       PGPK_HAS(s, PGPK_SIG_SALT) != (s->version == 6) ?
			       "a salt is for v6, and only" : NULL);
}

static int pgpk_read_key(struct pgpk_cursor *c, void *out)
{
	struct pgpk_key *k = out;
	u32 *has = &k->present;

	/* A subkey comes with its primary key (to hash its binding). */
	return pgpk_msg(c, has, 1, pgpk_read_material, &k->material) ?:
	       pgpk_num(c, has, 2, U32_MAX, &k->packet_offset) ?:
	       pgpk_num(c, has, 3, 1, &k->subkey) ?:
	       pgpk_bytes(c, has, 4, 1, PGPK_MAX_USER_ID, false, &k->user_id) ?:
	       pgpk_num(c, has, 5, U32_MAX, &k->user_id_offset) ?:
	       pgpk_msg(c, has, 8, pgpk_read_material, &k->primary) ?:
	       pgpk_msg(c, has, 10, pgpk_read_sig, &k->certification) ?:
	       pgpk_num(c, has, 13, U32_MAX, &k->soft_revoked) ?:
	       pgpk_msg(c, has, 14, pgpk_read_sig, &k->self_signature) ?:
	       pgpk_msg(c, has, 15, pgpk_read_sig, &k->first_binding) ?:
	       pgpk_end(c, *has, 1u << 1, k->subkey !=
			PGPK_HAS(k, PGPK_KEY_PRIMARY) ?
			"a primary key is for a subkey, and only" : NULL);
}

/* Exactly one of key and signature; content, more only with a signature. */
static int pgpk_read_canon(struct pgpk_cursor *c, void *out)
{
	struct pgpk_canon *k = out;
	u32 *has = &k->present;
	const u8 *p;
	int ret;

	ret = pgpk_msg(c, has, 1, pgpk_read_key, &k->key) ?:
	      pgpk_msg(c, has, 2, pgpk_read_sig, &k->sigs[0]) ?:
	      pgpk_bytes(c, has, 3, 0, PGPK_MAX_CONTENT, false, &k->content);
	/* more_signatures: a run of at most PGPK_MAX_SIGNATURES - 1 */
	do {
		p = c->p;
		ret = ret ?: pgpk_msg(c, has, 4, pgpk_read_sig,
				      &k->sigs[k->nr_more + 1]);
	} while (!ret && c->p != p && ++k->nr_more < PGPK_MAX_SIGNATURES - 1);
	if (ret)
		return ret;
	return pgpk_end(c, *has, 0, PGPK_HAS(k, PGPK_CANON_KEY) ==
			PGPK_HAS(k, PGPK_CANON_SIGNATURE) ||
			(PGPK_HAS(k, PGPK_CANON_KEY) && *has != 1u << 1) ?
			"not exactly one key or signature" : NULL);
}

/*
 * What @blob is: canonical (the magic), OpenPGP (RFC 9580 4.2: a packet
 * header's first octet has bit 7 set; 6.2: ASCII armor, which the helper
 * refuses, naming the remedy), or something else (0).
 */
int pgpk_canon_form(const u8 *blob, size_t len)
{
	if (len >= PGPK_MAGIC_LEN && !memcmp(blob, PGPK_MAGIC, PGPK_MAGIC_LEN))
		return PGPK_FORM_CANONICAL;
	if (len >= 15 && !memcmp(blob, "-----BEGIN PGP ", 15))
		return PGPK_FORM_OPENPGP;
	return len && blob[0] & 0x80 ? PGPK_FORM_OPENPGP : 0;
}

/**
 * pgpk_canon_decode - strictly decode a canonical blob
 * @blob: the blob, magic included
 * @len: its length
 * @out: the decoded message; its pgpk_bytes point into @blob
 * @err: why and where the blob was refused
 *
 * Return: 0, or -EBADMSG if @blob is not a canonical encoding.
 */
int pgpk_canon_decode(const u8 *blob, size_t len, struct pgpk_canon *out,
		      struct pgpk_canon_error *err)
{
	struct pgpk_cursor c = { blob, blob, blob + len, err };

	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (len > PGPK_MAX_BLOB || pgpk_canon_form(blob, len) != PGPK_FORM_CANONICAL)
		return pgpk_fail(&c, "no magic, or larger than 1 MiB - 1");
	c.p += PGPK_MAGIC_LEN;
	return pgpk_read_canon(&c, out) < 0 ? -EBADMSG : 0;
}
