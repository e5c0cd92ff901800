// SPDX-License-Identifier: GPL-2.0
/*
 * Strict decoder for the pgpk canonical encoding (proto/pgpk.proto).
 *
 * Everything the helper tells the kernel passes through here first, so this
 * file is written to be read in one sitting: a table per message, one loop
 * that walks fields, and no allocation.  A blob is accepted only in the one
 * encoding protobuf-c produces for it; any other spelling of the same
 * message is refused, so that equal keys have equal bytes.
 *
 * The file compiles unchanged in user space for the broker, the unit tests
 * and the fuzzer.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int:(-!!(e)); })))
#endif

#include "pgpk_canon.h"

enum pgpk_kind {
	PGPK_K_U32,		/* varint, min <= value <= max */
	PGPK_K_U64,		/* varint, any 64-bit value */
	PGPK_K_BOOL,		/* varint, 0 or 1 */
	PGPK_K_BYTES,		/* length-delimited, min <= length <= max */
	PGPK_K_UINT_BE,		/* as bytes, and no leading zero octet */
	PGPK_K_MSG,		/* length-delimited nested message */
};

struct pgpk_msg_desc;

struct pgpk_field_desc {
	u8 kind;
	bool required;
	u16 max_count;		/* repeated message field: at most; else 0 */
	u16 elem_size;		/* repeated: sizeof of the decoded element */
	u32 min;
	u32 max;
	u16 offset;		/* of the member in the decoded struct */
	const struct pgpk_msg_desc *msg;
};

/*
 * Fields of every message are numbered 1..nr_fields without gaps, so
 * field n is fields[n - 1].  Every decoded struct starts with its
 * u32 present bitmap.
 */
struct pgpk_msg_desc {
	const struct pgpk_field_desc *fields;
	u32 nr_fields;
	enum pgpk_canon_reason (*check)(const void *msg, u32 *field);
};

/* Where an element of a repeated field is validated during decoding. */
union pgpk_element {
	struct pgpk_sig sig;
	struct pgpk_key_material material;
};

struct pgpk_cursor {
	const u8 *base;
	const u8 *p;
	struct pgpk_canon_error *err;
};

#define FIELD(type, member, k, req, lo, hi) {				\
	.kind = (k), .required = (req), .min = (lo), .max = (hi),	\
	.offset = offsetof(type, member) }
#define SUBMSG(type, member, req, desc) {				\
	.kind = PGPK_K_MSG, .required = (req),				\
	.offset = offsetof(type, member), .msg = (desc) }
/* A repeated message field: a struct pgpk_repeated of elem_type. */
#define REPEATED(type, member, elem_type, desc, n) {			\
	.kind = PGPK_K_MSG, .offset = offsetof(type, member),		\
	.msg = (desc), .max_count = (n), .elem_size = sizeof(elem_type) +	\
	BUILD_BUG_ON_ZERO(sizeof(elem_type) > sizeof(union pgpk_element)) }

/* RFC 9580 5.5.2: only v4 and v6 keys have a canonical form. */
static enum pgpk_canon_reason pgpk_check_material(const void *msg, u32 *field)
{
	const struct pgpk_key_material *m = msg;

	*field = PGPK_MAT_VERSION;
	return m->version == 4 || m->version == 6 ? PGPK_OK : PGPK_E_RANGE;
}

/*
 * RFC 9580 9.5: a v6 signature's salt is as long as its hash says (16 for
 * SHA2-224/256 and SHA3-256, 24 for SHA2-384, 32 for SHA2-512 and
 * SHA3-512).  Any other length would let a salt absorb the first octets
 * of the signed data; 0: a hash without a salt size, left to the reader.
 */
u32 pgpk_canon_salt_len(u32 hash)
{
	switch (hash) {
	case 8:
	case 11:
	case 12:
		return 16;
	case 9:
		return 24;
	case 10:
	case 14:
		return 32;
	}
	return 0;
}

/* RFC 9580 5.2.3: the parts a signature version may and must have. */
static enum pgpk_canon_reason pgpk_check_sig(const void *msg, u32 *field)
{
	const struct pgpk_sig *s = msg;
	bool v6 = s->version == 6;
	bool v3 = s->version == 3;

	*field = PGPK_SIG_VERSION;
	if (!v3 && s->version != 4 && !v6)
		return PGPK_E_RANGE;
	*field = PGPK_SIG_HASHED_AREA;
	if (PGPK_HAS(s, PGPK_SIG_HASHED_AREA) == v3)
		return PGPK_E_MISSING;
	*field = PGPK_SIG_SALT;
	if (PGPK_HAS(s, PGPK_SIG_SALT) != v6)
		return PGPK_E_MISSING;
	if (v6 && pgpk_canon_salt_len(s->hash_algorithm) &&
	    s->salt.len != pgpk_canon_salt_len(s->hash_algorithm))
		return PGPK_E_LENGTH;
	*field = PGPK_SIG_ISSUER_FINGERPRINT;
	if (PGPK_HAS(s, PGPK_SIG_ISSUER_FINGERPRINT) &&
	    s->issuer_fingerprint.len != 20 && s->issuer_fingerprint.len != 32)
		return PGPK_E_LENGTH;
	return PGPK_OK;
}

/* A subkey comes with its primary key (to hash its binding), only it. */
static enum pgpk_canon_reason pgpk_check_key(const void *msg, u32 *field)
{
	const struct pgpk_key *k = msg;

	*field = PGPK_KEY_PRIMARY;
	return k->subkey == PGPK_HAS(k, PGPK_KEY_PRIMARY) ? PGPK_OK :
							   PGPK_E_MISSING;
}

/* Exactly one of key and signature; content, more only with a signature. */
static enum pgpk_canon_reason pgpk_check_canon(const void *msg, u32 *field)
{
	const struct pgpk_canon *c = msg;
	bool key = PGPK_HAS(c, PGPK_CANON_KEY);
	bool sig = PGPK_HAS(c, PGPK_CANON_SIGNATURE);

	*field = PGPK_CANON_KEY;
	if (key == sig)
		return PGPK_E_ENVELOPE;
	*field = PGPK_CANON_CONTENT;
	if (PGPK_HAS(c, PGPK_CANON_CONTENT) && !sig)
		return PGPK_E_ENVELOPE;
	*field = PGPK_CANON_MORE_SIGNATURES;
	if (PGPK_HAS(c, PGPK_CANON_MORE_SIGNATURES) && !sig)
		return PGPK_E_ENVELOPE;
	return PGPK_OK;
}

#define MAT(member, k, req, lo, hi) \
	FIELD(struct pgpk_key_material, member, k, req, lo, hi)
static const struct pgpk_field_desc pgpk_material_fields[] = {
	MAT(version,	PGPK_K_U32,	true, 0, 255),
	MAT(created,	PGPK_K_U32,	true, 0, 0xffffffff),
	MAT(algorithm,	PGPK_K_U32,	true, 1, 3),
	MAT(rsa_n,	PGPK_K_UINT_BE,	true, 1, PGPK_MAX_MPI),
	MAT(rsa_e,	PGPK_K_UINT_BE,	true, 1, PGPK_MAX_MPI),
};

static const struct pgpk_msg_desc pgpk_material_desc = {
	.fields = pgpk_material_fields,
	.nr_fields = ARRAY_SIZE(pgpk_material_fields),
	.check = pgpk_check_material,
};

#define SIG(member, k, req, lo, hi) \
	FIELD(struct pgpk_sig, member, k, req, lo, hi)
static const struct pgpk_field_desc pgpk_sig_fields[] = {
	SIG(version,		PGPK_K_U32,	true,  0, 255),
	SIG(type,		PGPK_K_U32,	true,  0, 255),
	SIG(pubkey_algorithm,	PGPK_K_U32,	true,  0, 255),
	SIG(hash_algorithm,	PGPK_K_U32,	true,  0, 255),
	SIG(created,		PGPK_K_U32,	true,  0, 0xffffffff),
	SIG(expires,		PGPK_K_U64,	false, 0, 0),
	SIG(hashed_area,	PGPK_K_BYTES,	false, 0, PGPK_MAX_HASHED_AREA),
	SIG(salt,		PGPK_K_BYTES,	false, 16, 32),
	SIG(quick_check,	PGPK_K_U32,	true,  0, 0xffff),
	SIG(rsa_s,		PGPK_K_UINT_BE,	true,  1, PGPK_MAX_MPI),
	SIG(issuer_key_id,	PGPK_K_BYTES,	false, 8, 8),
	SIG(issuer_fingerprint,	PGPK_K_BYTES,	false, 20, 32),
};

static const struct pgpk_msg_desc pgpk_sig_desc = {
	.fields = pgpk_sig_fields,
	.nr_fields = ARRAY_SIZE(pgpk_sig_fields),
	.check = pgpk_check_sig,
};

#define KEY(member, k, req, lo, hi) \
	FIELD(struct pgpk_key, member, k, req, lo, hi)
static const struct pgpk_field_desc pgpk_key_fields[] = {
	SUBMSG(struct pgpk_key, material, true, &pgpk_material_desc),
	KEY(packet_offset,	PGPK_K_U32,	false, 0, 0xffffffff),
	KEY(subkey,		PGPK_K_BOOL,	false, 0, 1),
	KEY(user_id,		PGPK_K_BYTES,	false, 1, PGPK_MAX_USER_ID),
	KEY(user_id_offset,	PGPK_K_U32,	false, 0, 0xffffffff),
	KEY(expires,		PGPK_K_U64,	false, 0, 0),
	KEY(key_flags,		PGPK_K_U32,	false, 0, 255),
	SUBMSG(struct pgpk_key, primary, false, &pgpk_material_desc),
	KEY(primary_offset,	PGPK_K_U32,	false, 0, 0xffffffff),
	SUBMSG(struct pgpk_key, certification, false, &pgpk_sig_desc),
	REPEATED(struct pgpk_key, third_party, struct pgpk_sig,
		 &pgpk_sig_desc, PGPK_MAX_THIRD_PARTY),
	KEY(bound,		PGPK_K_U32,	false, 0, 0xffffffff),
	KEY(soft_revoked,	PGPK_K_U32,	false, 0, 0xffffffff),
};

static const struct pgpk_msg_desc pgpk_key_desc = {
	.fields = pgpk_key_fields,
	.nr_fields = ARRAY_SIZE(pgpk_key_fields),
	.check = pgpk_check_key,
};

static const struct pgpk_field_desc pgpk_canon_fields[] = {
	SUBMSG(struct pgpk_canon, key, false, &pgpk_key_desc),
	SUBMSG(struct pgpk_canon, sig, false, &pgpk_sig_desc),
	FIELD(struct pgpk_canon, content, PGPK_K_BYTES, false, 0,
	      PGPK_MAX_CONTENT),
	REPEATED(struct pgpk_canon, more_signatures, struct pgpk_sig,
		 &pgpk_sig_desc, PGPK_MAX_SIGNATURES - 1),
};

static const struct pgpk_msg_desc pgpk_canon_desc = {
	.fields = pgpk_canon_fields,
	.nr_fields = ARRAY_SIZE(pgpk_canon_fields),
	.check = pgpk_check_canon,
};

static int pgpk_fail(struct pgpk_cursor *c, const u8 *at,
		     enum pgpk_canon_reason reason, u32 field)
{
	if (c->err) {
		c->err->reason = reason;
		c->err->offset = at - c->base;
		c->err->field = field;
	}
	return -EBADMSG;
}

/* A base-128 varint of at most 64 bits, in its shortest encoding. */
static int pgpk_read_varint(struct pgpk_cursor *c, const u8 *end, u32 field,
			    u64 *value)
{
	const u8 *p = c->p;
	unsigned int shift = 0;
	u64 v = 0;
	u8 b;

	do {
		if (p == end)
			return pgpk_fail(c, c->p, PGPK_E_TRUNCATED, field);
		b = *p++;
		if (shift == 63 && b > 1)
			return pgpk_fail(c, c->p, PGPK_E_VARINT, field);
		v |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);

	if (b == 0 && p - c->p > 1)
		return pgpk_fail(c, c->p, PGPK_E_VARINT, field);
	c->p = p;
	*value = v;
	return 0;
}

static int pgpk_decode_msg(struct pgpk_cursor *c, const u8 *end,
			   const struct pgpk_msg_desc *desc, void *out);

static int pgpk_decode_field(struct pgpk_cursor *c, const u8 *end, u32 number,
			     const struct pgpk_field_desc *f, void *member)
{
	struct pgpk_bytes *bytes = member;
	const u8 *at = c->p;
	u64 v;
	int ret;

	ret = pgpk_read_varint(c, end, number, &v);
	if (ret)
		return ret;

	switch (f->kind) {
	case PGPK_K_U32:
		if (v < f->min || v > f->max)
			return pgpk_fail(c, at, PGPK_E_RANGE, number);
		*(u32 *)member = v;
		return 0;
	case PGPK_K_U64:
		*(u64 *)member = v;
		return 0;
	case PGPK_K_BOOL:
		if (v > 1)
			return pgpk_fail(c, at, PGPK_E_RANGE, number);
		*(bool *)member = v;
		return 0;
	}

	/* Length-delimited: v is the length. */
	if (v > (u64)(end - c->p))
		return pgpk_fail(c, at, PGPK_E_TRUNCATED, number);
	if (f->kind == PGPK_K_MSG)
		return pgpk_decode_msg(c, c->p + v, f->msg, member);
	if (v < f->min || v > f->max)
		return pgpk_fail(c, at, PGPK_E_LENGTH, number);
	if (f->kind == PGPK_K_UINT_BE && c->p[0] == 0)
		return pgpk_fail(c, c->p, PGPK_E_LEADING_ZERO, number);
	bytes->data = c->p;
	bytes->len = v;
	c->p += v;
	return 0;
}

/*
 * One more occurrence of a repeated field, at @start: validated in a
 * scratch element, recorded as part of the span.  Occurrences are
 * consecutive, as field numbers ascend.
 */
static int pgpk_decode_repeated(struct pgpk_cursor *c, const u8 *start,
				const u8 *end, u32 number,
				const struct pgpk_field_desc *f,
				struct pgpk_repeated *r)
{
	union pgpk_element scratch;
	int ret;

	if (r->count == f->max_count)
		return pgpk_fail(c, start, PGPK_E_COUNT, number);
	memset(&scratch, 0, f->elem_size);
	ret = pgpk_decode_field(c, end, number, f, &scratch);
	if (ret)
		return ret;
	if (!r->count++) {
		r->data = start;
		r->field = f;
	}
	r->len = c->p - r->data;
	return 0;
}

static int pgpk_decode_msg(struct pgpk_cursor *c, const u8 *end,
			   const struct pgpk_msg_desc *desc, void *out)
{
	enum pgpk_canon_reason reason;
	const struct pgpk_field_desc *f;
	u32 *present = out;
	u32 last = 0, number, i;
	const u8 *start;
	u64 tag;
	int ret;

	while (c->p < end) {
		start = c->p;
		ret = pgpk_read_varint(c, end, 0, &tag);
		if (ret)
			return ret;
		if (tag >> 3 == 0 || tag >> 3 > desc->nr_fields)
			return pgpk_fail(c, start, PGPK_E_UNKNOWN_FIELD, 0);
		number = tag >> 3;
		f = &desc->fields[number - 1];
		if (number == last && !f->max_count)
			return pgpk_fail(c, start, PGPK_E_DUPLICATE, number);
		if (number < last)
			return pgpk_fail(c, start, PGPK_E_ORDER, number);
		if ((tag & 7) != (f->kind >= PGPK_K_BYTES ? 2 : 0))
			return pgpk_fail(c, start, PGPK_E_WIRE_TYPE, number);
		if (f->max_count)
			ret = pgpk_decode_repeated(c, start, end, number, f,
						   (void *)((u8 *)out + f->offset));
		else
			ret = pgpk_decode_field(c, end, number, f,
						(u8 *)out + f->offset);
		if (ret)
			return ret;
		*present |= 1u << number;
		last = number;
	}

	for (i = 0; i < desc->nr_fields; i++)
		if (desc->fields[i].required && !((*present >> (i + 1)) & 1))
			return pgpk_fail(c, end, PGPK_E_MISSING, i + 1);
	if (desc->check) {
		reason = desc->check(out, &number);
		if (reason != PGPK_OK)
			return pgpk_fail(c, end, reason, number);
	}
	return 0;
}

bool pgpk_canon_is_canonical(const u8 *blob, size_t len)
{
	return len >= PGPK_MAGIC_LEN && !memcmp(blob, PGPK_MAGIC, PGPK_MAGIC_LEN);
}

/**
 * pgpk_canon_next - decode the next element of a repeated field
 * @r: the repeated field, from a decoded message
 * @pos: where the element starts in @r's span; 0 for the first, advanced
 * @out: the element (e.g. a struct pgpk_sig), zeroed and decoded
 *
 * The element is decoded again by the code that validated it.
 *
 * Return: 0, -ENOENT after the last element, -EBADMSG if the span is not
 * what the decoder accepted.
 */
int pgpk_canon_next(const struct pgpk_repeated *r, u32 *pos, void *out)
{
	const struct pgpk_field_desc *f = r->field;
	struct pgpk_cursor c = { .base = r->data };
	u64 tag;
	int ret;

	if (*pos >= r->len)
		return -ENOENT;	/* r->data may be NULL: no arithmetic */
	c.p = r->data + *pos;
	ret = pgpk_read_varint(&c, r->data + r->len, 0, &tag);
	if (ret)
		return ret;
	memset(out, 0, f->elem_size);
	ret = pgpk_decode_field(&c, r->data + r->len, tag >> 3, f, out);
	*pos = c.p - r->data;
	return ret;
}

/**
 * pgpk_canon_decode - strictly decode a canonical blob
 * @blob: the blob, magic included
 * @len: its length
 * @out: the decoded message; its pgpk_bytes point into @blob
 * @err: if not NULL, why and where the blob was refused
 *
 * Return: 0, or -EBADMSG if @blob is not a canonical encoding.
 */
int pgpk_canon_decode(const u8 *blob, size_t len, struct pgpk_canon *out,
		      struct pgpk_canon_error *err)
{
	struct pgpk_cursor c = { .base = blob, .p = blob, .err = err };

	memset(out, 0, sizeof(*out));
	if (err)
		memset(err, 0, sizeof(*err));
	if (len == 0 || len > PGPK_MAX_BLOB)
		return pgpk_fail(&c, blob, PGPK_E_SIZE, 0);
	if (!pgpk_canon_is_canonical(blob, len))
		return pgpk_fail(&c, blob, PGPK_E_MAGIC, 0);
	c.p += PGPK_MAGIC_LEN;
	return pgpk_decode_msg(&c, blob + len, &pgpk_canon_desc, out);
}

const char *pgpk_canon_reason_str(enum pgpk_canon_reason reason)
{
	static const char *const names[PGPK_E_NR_REASONS] = {
		[PGPK_OK]		= "ok",
		[PGPK_E_SIZE]		= "blob empty or too large",
		[PGPK_E_MAGIC]		= "bad magic",
		[PGPK_E_TRUNCATED]	= "truncated",
		[PGPK_E_VARINT]		= "non-minimal varint",
		[PGPK_E_WIRE_TYPE]	= "wrong wire type",
		[PGPK_E_UNKNOWN_FIELD]	= "unknown field",
		[PGPK_E_ORDER]		= "fields out of order",
		[PGPK_E_DUPLICATE]	= "duplicate field",
		[PGPK_E_RANGE]		= "value out of range",
		[PGPK_E_LENGTH]		= "length out of bounds",
		[PGPK_E_LEADING_ZERO]	= "integer with leading zero",
		[PGPK_E_MISSING]	= "required field missing",
		[PGPK_E_ENVELOPE]	= "not exactly one key or signature",
		[PGPK_E_COUNT]		= "repeated field occurs too often",
	};

	if ((unsigned int)reason >= PGPK_E_NR_REASONS)
		return "unknown reason";
	return names[reason];
}
