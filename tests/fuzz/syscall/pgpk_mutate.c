// SPDX-License-Identifier: GPL-2.0
/*
 * Structure-aware and byte-level mutators for pgpk-sysfuzz (see
 * pgpk_mutate.h).  A canonical blob is parsed into a tree of fields
 * following proto/pgpk.proto (a length-delimited field the schema calls a
 * message is parsed as one when it can be), one to four mutations change
 * the tree, and the tree is written back with correct lengths: the
 * kernel's decoder sees well-formed wire format with wrong values, wrong
 * orders, duplicates, unknown fields, foreign signatures and keys.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pgpk_mutate.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };
enum { K_VARINT, K_BYTES, K_MSG };
enum { M_CANON, M_KEY, M_SIG, M_MATERIAL, M_NR, M_NONE = -1 };

#define MAX_DEPTH 4
#define MAX_FIELDS 4096

struct schema_field {
	unsigned char num;
	unsigned char kind;
	signed char msg;
};

/* proto/pgpk.proto, field by field. */
static const struct schema_field s_material[] = {
	{ 1, K_VARINT, M_NONE }, /* version */
	{ 2, K_VARINT, M_NONE }, /* created */
	{ 3, K_VARINT, M_NONE }, /* algorithm */
	{ 4, K_BYTES, M_NONE }, /* rsa_n */
	{ 5, K_BYTES, M_NONE }, /* rsa_e */
};

static const struct schema_field s_sig[] = {
	{ 1, K_VARINT, M_NONE }, /* version */
	{ 2, K_VARINT, M_NONE }, /* type */
	{ 3, K_VARINT, M_NONE }, /* pubkey_algorithm */
	{ 4, K_VARINT, M_NONE }, /* hash_algorithm */
	{ 5, K_VARINT, M_NONE }, /* created */
	{ 6, K_VARINT, M_NONE }, /* expires */
	{ 7, K_BYTES, M_NONE }, /* hashed_area */
	{ 8, K_BYTES, M_NONE }, /* salt */
	{ 9, K_VARINT, M_NONE }, /* quick_check */
	{ 10, K_BYTES, M_NONE }, /* rsa_s */
	{ 11, K_BYTES, M_NONE }, /* issuer_key_id */
	{ 12, K_BYTES, M_NONE }, /* issuer_fingerprint */
	{ 13, K_VARINT, M_NONE }, /* rsa_s_offset */
};

static const struct schema_field s_key[] = {
	{ 1, K_MSG, M_MATERIAL }, /* material */
	{ 2, K_VARINT, M_NONE }, /* packet_offset */
	{ 3, K_VARINT, M_NONE }, /* subkey */
	{ 4, K_BYTES, M_NONE }, /* user_id */
	{ 5, K_VARINT, M_NONE }, /* user_id_offset */
	{ 6, K_VARINT, M_NONE }, /* expires */
	{ 7, K_VARINT, M_NONE }, /* key_flags */
	{ 8, K_MSG, M_MATERIAL }, /* primary */
	/* 9 (primary_offset) and 11 (third_party) are reserved now */
	{ 10, K_MSG, M_SIG }, /* certification */
	{ 12, K_VARINT, M_NONE }, /* bound */
	{ 13, K_VARINT, M_NONE }, /* soft_revoked */
};

static const struct schema_field s_canon[] = {
	{ 1, K_MSG, M_KEY }, /* key */
	{ 2, K_MSG, M_SIG }, /* signature */
	{ 3, K_BYTES, M_NONE }, /* content */
	{ 4, K_MSG, M_SIG }, /* more_signatures */
};

static const struct {
	const struct schema_field *f;
	int n;
} schema[M_NR] = {
	[M_CANON] = { s_canon, sizeof(s_canon) / sizeof(s_canon[0]) },
	[M_KEY] = { s_key, sizeof(s_key) / sizeof(s_key[0]) },
	[M_SIG] = { s_sig, sizeof(s_sig) / sizeof(s_sig[0]) },
	[M_MATERIAL] = { s_material,
			 sizeof(s_material) / sizeof(s_material[0]) },
};

static const struct schema_field *schema_find(int type, uint32_t num)
{
	int i;

	if (type == M_NONE)
		return NULL;
	for (i = 0; i < schema[type].n; i++)
		if (schema[type].f[i].num == num)
			return &schema[type].f[i];
	return NULL;
}

/* --- random numbers --- */

static uint64_t rand_state = 0x9e3779b97f4a7c15ULL;

void pgpk_rand_seed(uint64_t seed)
{
	rand_state = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

uint64_t pgpk_rand(void)
{
	rand_state ^= rand_state >> 12;
	rand_state ^= rand_state << 25;
	rand_state ^= rand_state >> 27;
	return rand_state * 0x2545f4914f6cdd1dULL;
}

uint64_t pgpk_below(uint64_t n)
{
	return pgpk_rand() % n;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

/* --- the tree --- */

struct msg;

struct node {
	uint32_t num;
	uint8_t wt;
	uint8_t long_tag; /* write the tag as a non-minimal varint */
	uint64_t v; /* WT_VARINT, WT_I64, WT_I32 */
	uint8_t *data; /* WT_LEN without sub */
	size_t len;
	struct msg *sub; /* WT_LEN parsed as a message */
};

struct msg {
	int type;
	struct node *f;
	int n;
};

static void msg_free(struct msg *m);

static void node_clear(struct node *nd)
{
	free(nd->data);
	msg_free(nd->sub);
	nd->data = NULL;
	nd->sub = NULL;
}

static void msg_free(struct msg *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		node_clear(&m->f[i]);
	free(m->f);
	free(m);
}

static struct msg *msg_new(int type)
{
	struct msg *m = xmalloc(sizeof(*m));

	m->type = type;
	m->f = NULL;
	m->n = 0;
	return m;
}

static struct msg *msg_copy(const struct msg *m);

static void node_copy(struct node *dst, const struct node *src)
{
	*dst = *src;
	if (src->data) {
		dst->data = xmalloc(src->len);
		memcpy(dst->data, src->data, src->len);
	}
	if (src->sub)
		dst->sub = msg_copy(src->sub);
}

static struct msg *msg_copy(const struct msg *m)
{
	struct msg *c = msg_new(m->type);
	int i;

	c->n = m->n;
	c->f = xmalloc(sizeof(*c->f) * (m->n ? m->n : 1));
	for (i = 0; i < m->n; i++)
		node_copy(&c->f[i], &m->f[i]);
	return c;
}

/* Insert @nd (taken over) at @at. */
static void msg_insert(struct msg *m, int at, const struct node *nd)
{
	m->f = xrealloc(m->f, sizeof(*m->f) * (m->n + 1));
	memmove(&m->f[at + 1], &m->f[at], sizeof(*m->f) * (m->n - at));
	m->f[at] = *nd;
	m->n++;
}

static void msg_remove(struct msg *m, int at)
{
	node_clear(&m->f[at]);
	memmove(&m->f[at], &m->f[at + 1], sizeof(*m->f) * (m->n - at - 1));
	m->n--;
}

/* --- wire format --- */

static int get_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *v,
		      int strict)
{
	uint64_t r = 0;
	int shift = 0;
	uint8_t b;

	do {
		if (*pos >= len || shift > 63)
			return -1;
		b = p[(*pos)++];
		r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	/* A last octet of 0 after the first: not the shortest form. */
	if (strict && shift > 7 && !b)
		return -1;
	*v = r;
	return 0;
}

static struct msg *parse_msg(int type, const uint8_t *p, size_t len, int depth);

static int parse_field(int type, const uint8_t *p, size_t len, size_t *pos,
		       struct node *nd, int depth)
{
	const struct schema_field *sf;
	uint64_t tag, l;

	memset(nd, 0, sizeof(*nd));
	if (get_varint(p, len, pos, &tag, 0) || !(tag >> 3) ||
	    tag >> 3 > 0xffffffffULL)
		return -1;
	nd->num = tag >> 3;
	nd->wt = tag & 7;
	switch (nd->wt) {
	case WT_VARINT:
		return get_varint(p, len, pos, &nd->v, 0);
	case WT_I64:
	case WT_I32: {
		size_t n = nd->wt == WT_I64 ? 8 : 4, i;

		if (len - *pos < n)
			return -1;
		for (i = 0; i < n; i++)
			nd->v |= (uint64_t)p[*pos + i] << (8 * i);
		*pos += n;
		return 0;
	}
	case WT_LEN:
		if (get_varint(p, len, pos, &l, 0) || l > len - *pos)
			return -1;
		sf = schema_find(type, nd->num);
		if (sf && sf->kind == K_MSG && depth < MAX_DEPTH)
			nd->sub = parse_msg(sf->msg, p + *pos, l, depth + 1);
		if (!nd->sub) {
			nd->data = xmalloc(l);
			memcpy(nd->data, p + *pos, l);
			nd->len = l;
		}
		*pos += l;
		return 0;
	}
	return -1;
}

static struct msg *parse_msg(int type, const uint8_t *p, size_t len, int depth)
{
	struct msg *m = msg_new(type);
	size_t pos = 0;
	struct node nd;

	while (pos < len) {
		if (m->n >= MAX_FIELDS ||
		    parse_field(type, p, len, &pos, &nd, depth)) {
			node_clear(&nd);
			msg_free(m);
			return NULL;
		}
		msg_insert(m, m->n, &nd);
	}
	return m;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >>= 7)
		n++;
	return n;
}

static size_t msg_size(const struct msg *m);

static size_t node_payload(const struct node *nd)
{
	switch (nd->wt) {
	case WT_VARINT:
		return varint_len(nd->v);
	case WT_I64:
		return 8;
	case WT_I32:
		return 4;
	}
	return nd->sub ? msg_size(nd->sub) : nd->len;
}

static size_t node_size(const struct node *nd)
{
	size_t n = varint_len((uint64_t)nd->num << 3 | nd->wt) +
		   (nd->long_tag ? 1 : 0) + node_payload(nd);

	if (nd->wt == WT_LEN)
		n += varint_len(node_payload(nd));
	return n;
}

static size_t msg_size(const struct msg *m)
{
	size_t n = 0;
	int i;

	for (i = 0; i < m->n; i++)
		n += node_size(&m->f[i]);
	return n;
}

static uint8_t *put_varint(uint8_t *o, uint64_t v, int long_form)
{
	while (v >= 0x80) {
		*o++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	if (long_form) {
		/* The same value, one octet longer: 0x80|v, 0x00. */
		*o++ = (uint8_t)(v | 0x80);
		*o++ = 0;
		return o;
	}
	*o++ = (uint8_t)v;
	return o;
}

static uint8_t *put_msg(uint8_t *o, const struct msg *m);

static uint8_t *put_node(uint8_t *o, const struct node *nd)
{
	size_t i;

	o = put_varint(o, (uint64_t)nd->num << 3 | nd->wt, nd->long_tag);
	switch (nd->wt) {
	case WT_VARINT:
		return put_varint(o, nd->v, 0);
	case WT_I64:
	case WT_I32:
		for (i = 0; i < (nd->wt == WT_I64 ? 8u : 4u); i++)
			*o++ = (uint8_t)(nd->v >> (8 * i));
		return o;
	}
	o = put_varint(o, node_payload(nd), 0);
	if (nd->sub)
		return put_msg(o, nd->sub);
	if (nd->len)
		memcpy(o, nd->data, nd->len);
	return o + nd->len;
}

static uint8_t *put_msg(uint8_t *o, const struct msg *m)
{
	int i;

	for (i = 0; i < m->n; i++)
		o = put_node(o, &m->f[i]);
	return o;
}

/* --- mutations --- */

/* Every node of the tree, with the message holding it. */
struct ref {
	struct msg *m;
	int i;
};

struct refs {
	struct ref *r;
	int n;
	struct msg **msgs;
	int nmsgs;
};

static void collect(struct msg *m, struct refs *rs)
{
	int i;

	rs->msgs = xrealloc(rs->msgs, sizeof(*rs->msgs) * (rs->nmsgs + 1));
	rs->msgs[rs->nmsgs++] = m;
	for (i = 0; i < m->n; i++) {
		rs->r = xrealloc(rs->r, sizeof(*rs->r) * (rs->n + 1));
		rs->r[rs->n].m = m;
		rs->r[rs->n].i = i;
		rs->n++;
		if (m->f[i].sub)
			collect(m->f[i].sub, rs);
	}
}

static void refs_free(struct refs *rs)
{
	free(rs->r);
	free(rs->msgs);
	memset(rs, 0, sizeof(*rs));
}

/* Values the decoder and the policy have bounds or meanings for. */
static uint64_t interesting_varint(uint64_t cur)
{
	static const uint64_t v[] = { 0,
				      1,
				      2,
				      3,
				      4,
				      5,
				      6,
				      7,
				      8,
				      9,
				      10,
				      11,
				      16,
				      17,
				      18,
				      19,
				      22,
				      24,
				      0x10,
				      0x13,
				      0x18,
				      0x1f,
				      0x20,
				      0x28,
				      0x30,
				      0x40,
				      0x7f,
				      0x80,
				      0xff,
				      0x100,
				      0x3fff,
				      0x4000,
				      0xffff,
				      0x10000,
				      0x7fffffff,
				      0x80000000,
				      0xfffffffe,
				      0xffffffff,
				      0x100000000ULL,
				      0x7fffffffffffffffULL,
				      0x8000000000000000ULL,
				      ~0ULL };
	uint64_t now = (uint64_t)time(NULL);

	switch (pgpk_below(6)) {
	case 0:
		return cur + 1;
	case 1:
		return cur - 1;
	case 2:
		return cur ^ (1ULL << pgpk_below(64));
	case 3:
		/* times: now, a day ahead, ten years ago */
		return pgpk_below(2) ? now + pgpk_below(3) * 86400 :
				       now - 315360000;
	case 4:
		return pgpk_rand() >> pgpk_below(64);
	}
	return v[pgpk_below(sizeof(v) / sizeof(v[0]))];
}

static void random_fill(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)pgpk_rand();
}

/* A new value for a bytes field: lengths at the decoder's bounds. */
static void mutate_bytes_value(struct node *nd)
{
	static const size_t lens[] = { 0,    1,	   2,	 7,    8,   16,
				       19,   20,   21,	 31,   32,  33,
				       63,   64,   127,	 128,  255, 256,
				       257,  383,  384,	 511,  512, 513,
				       1023, 1024, 1025, 4096, 4097 };
	size_t n, i;

	switch (pgpk_below(9)) {
	case 0: /* empty */
		nd->len = 0;
		break;
	case 1: /* truncate */
		nd->len = nd->len ? pgpk_below(nd->len) : 0;
		break;
	case 2: /* extend */
		n = 1 + pgpk_below(64);
		nd->data = xrealloc(nd->data, nd->len + n);
		random_fill(nd->data + nd->len, n);
		nd->len += n;
		break;
	case 3: /* a leading zero octet (a non-minimal integer) */
		nd->data = xrealloc(nd->data, nd->len + 1);
		memmove(nd->data + 1, nd->data, nd->len);
		nd->data[0] = 0;
		nd->len++;
		break;
	case 4: /* a few octets changed */
		for (i = 0; nd->len && i < 1 + pgpk_below(4); i++)
			nd->data[pgpk_below(nd->len)] ^=
				(uint8_t)(1 + pgpk_below(255));
		break;
	case 5: /* all ones or all zeros, same length */
		memset(nd->data, pgpk_below(2) ? 0xff : 0, nd->len);
		break;
	default: /* random, of a length at a bound */
		n = lens[pgpk_below(sizeof(lens) / sizeof(lens[0]))];
		free(nd->data);
		nd->data = xmalloc(n);
		random_fill(nd->data, n);
		if (n && pgpk_below(2))
			nd->data[0] |= 0x80; /* a full-size integer */
		nd->len = n;
		break;
	}
}

/* Turn a parsed message back into plain bytes (to damage inside it). */
static void flatten(struct node *nd)
{
	size_t n;

	if (!nd->sub)
		return;
	n = msg_size(nd->sub);
	nd->data = xmalloc(n);
	put_msg(nd->data, nd->sub);
	nd->len = n;
	msg_free(nd->sub);
	nd->sub = NULL;
}

static void mutate_value(struct node *nd)
{
	if (nd->wt == WT_VARINT || nd->wt == WT_I64 || nd->wt == WT_I32) {
		nd->v = interesting_varint(nd->v);
		if (nd->wt == WT_I32)
			nd->v &= 0xffffffff;
		return;
	}
	flatten(nd);
	mutate_bytes_value(nd);
}

/* A node of @donor of the same message type and field number as @want. */
static const struct node *donor_find(struct refs *drs, const struct msg *m,
				     const struct node *want)
{
	int i, start, k;

	if (!drs->n)
		return NULL;
	start = (int)pgpk_below(drs->n);
	for (k = 0; k < drs->n; k++) {
		i = (start + k) % drs->n;
		if (drs->r[i].m->type == m->type &&
		    drs->r[i].m->f[drs->r[i].i].num == want->num)
			return &drs->r[i].m->f[drs->r[i].i];
	}
	return NULL;
}

/* Returns 1 if the mutation was a deliberate encoding error. */
static int mutate_once(struct msg *root, struct refs *drs)
{
	struct refs rs = { 0 };
	struct node nd, *x;
	const struct node *d;
	struct msg *m;
	int op, i, j, broke = 0;

	collect(root, &rs);
	op = (int)pgpk_below(100);
	if (!rs.n) {
		op = 70; /* nothing to change: add a field */
	}
	if (op < 70 && rs.n) {
		i = (int)pgpk_below(rs.n);
		m = rs.r[i].m;
		j = rs.r[i].i;
		x = &m->f[j];
	} else {
		m = rs.msgs[pgpk_below(rs.nmsgs)];
		j = 0;
		x = NULL;
	}
	if (op < 35) {
		mutate_value(x);
	} else if (op < 44) {
		msg_remove(m, j);
	} else if (op < 51) {
		/* a duplicate, next to it or anywhere in the message */
		node_copy(&nd, x);
		msg_insert(m, pgpk_below(2) ? j + 1 : (int)pgpk_below(m->n + 1),
			   &nd);
	} else if (op < 57) {
		/* two fields out of order */
		i = (int)pgpk_below(m->n);
		nd = m->f[i];
		m->f[i] = m->f[j];
		m->f[j] = nd;
	} else if (op < 62) {
		/* another field number: known, neighbouring or unknown */
		x->num = pgpk_below(4) ? 1 + (uint32_t)pgpk_below(14) :
					 (uint32_t)(1 + pgpk_below(0x1fffffff));
	} else if (op < 66) {
		/* the other wire type */
		if (x->wt == WT_LEN) {
			node_clear(x);
			x->wt = WT_VARINT;
			x->v = interesting_varint(0);
		} else {
			x->wt = WT_LEN;
			x->len = 1 + pgpk_below(16);
			x->data = xmalloc(x->len);
			random_fill(x->data, x->len);
		}
	} else if (op < 68) {
		/* an encoding error: a tag as a non-minimal varint */
		x->long_tag = 1;
		broke = 1;
	} else if (op < 70) {
		/* one bytes field's value copied to another (n as s...) */
		i = (int)pgpk_below(rs.n);
		d = &rs.r[i].m->f[rs.r[i].i];
		if (d != x && d->wt == WT_LEN && !d->sub && x->wt == WT_LEN) {
			node_copy(&nd, d);
			nd.num = x->num;
			node_clear(x);
			*x = nd;
		} else {
			mutate_value(x);
		}
	} else if (op < 76) {
		/* a new field: known or unknown number, either wire type */
		memset(&nd, 0, sizeof(nd));
		nd.num = pgpk_below(4) ? 1 + (uint32_t)pgpk_below(14) :
					 (uint32_t)(1 + pgpk_below(0xffff));
		nd.wt = pgpk_below(2) ? WT_VARINT : WT_LEN;
		if (nd.wt == WT_VARINT) {
			nd.v = interesting_varint(0);
		} else {
			nd.len = pgpk_below(40);
			nd.data = xmalloc(nd.len);
			random_fill(nd.data, nd.len);
		}
		msg_insert(m, (int)pgpk_below(m->n + 1), &nd);
	} else {
		/*
		 * Splice: a field of the donor in place of ours, or added
		 * (another key's certification, material or value: a
		 * genuine signature over the wrong key).
		 */
		x = m->n ? &m->f[pgpk_below(m->n)] : NULL;
		d = x ? donor_find(drs, m, x) : NULL;
		if (!d && drs->n) {
			i = (int)pgpk_below(drs->n);
			if (drs->r[i].m->type == m->type)
				d = &drs->r[i].m->f[drs->r[i].i];
		}
		if (d && x && pgpk_below(3)) {
			node_copy(&nd, d);
			node_clear(x);
			*x = nd;
		} else if (d) {
			node_copy(&nd, d);
			msg_insert(m, (int)pgpk_below(m->n + 1), &nd);
		} else if (x) {
			mutate_value(x);
		}
	}
	refs_free(&rs);
	return broke;
}

int pgpk_mutate_canonical(const struct pgpk_blob *in,
			  const struct pgpk_blob *donor, struct pgpk_blob *out)
{
	struct refs drs = { 0 };
	struct msg *root, *dm = NULL;
	int n, i, broke = 0;

	root = NULL;
	if (in->len >= PGPK_MAGIC_LEN &&
	    !memcmp(in->data, PGPK_MAGIC, PGPK_MAGIC_LEN))
		root = parse_msg(M_CANON, in->data + PGPK_MAGIC_LEN,
				 in->len - PGPK_MAGIC_LEN, 0);
	if (!root) {
		out->data = xmalloc(in->len);
		memcpy(out->data, in->data, in->len);
		out->len = in->len;
		return 0;
	}
	if (donor && donor->len >= PGPK_MAGIC_LEN &&
	    !memcmp(donor->data, PGPK_MAGIC, PGPK_MAGIC_LEN))
		dm = parse_msg(M_CANON, donor->data + PGPK_MAGIC_LEN,
			       donor->len - PGPK_MAGIC_LEN, 0);
	if (dm)
		collect(dm, &drs);
	n = 1 + (int)pgpk_below(pgpk_below(2) ? 2 : 4);
	for (i = 0; i < n; i++)
		broke |= mutate_once(root, &drs);
	out->len = PGPK_MAGIC_LEN + msg_size(root);
	out->data = xmalloc(out->len);
	memcpy(out->data, PGPK_MAGIC, PGPK_MAGIC_LEN);
	put_msg(out->data + PGPK_MAGIC_LEN, root);
	msg_free(root);
	msg_free(dm);
	refs_free(&drs);
	return broke ? -n : n;
}

void pgpk_mutate_bytes(const struct pgpk_blob *in, struct pgpk_blob *out,
		       size_t max)
{
	static const uint8_t octets[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe,
					  0xff, 0x99, 0xb4, 0xc6, 0x0a };
	size_t cap = in->len + 1024, len = in->len, at, n;
	uint8_t *p = xmalloc(cap);
	int k, rounds = 1 + (int)pgpk_below(8);

	memcpy(p, in->data, len);
	for (k = 0; k < rounds; k++) {
		at = len ? pgpk_below(len) : 0;
		switch (pgpk_below(8)) {
		case 0:
		case 1:
			if (len)
				p[at] ^= (uint8_t)(1u << pgpk_below(8));
			break;
		case 2:
			if (len)
				p[at] = octets[pgpk_below(sizeof(octets))];
			break;
		case 3: /* insert random octets */
			n = 1 + pgpk_below(16);
			if (len + n > cap)
				break;
			memmove(p + at + n, p + at, len - at);
			random_fill(p + at, n);
			len += n;
			break;
		case 4: /* delete a run */
			n = len - at ? 1 + pgpk_below(len - at) : 0;
			if (n > 64)
				n = 1 + pgpk_below(64);
			memmove(p + at, p + at + n, len - at - n);
			len -= n;
			break;
		case 5: /* truncate */
			len = at;
			break;
		case 6: /* duplicate a run at the end */
			n = len - at < 256 ? len - at : 256;
			if (len + n > cap)
				break;
			memcpy(p + len, p + at, n);
			len += n;
			break;
		default: /* a length-ish octet pair */
			if (len >= 2 && at + 1 < len) {
				p[at] = (uint8_t)pgpk_rand();
				p[at + 1] = (uint8_t)pgpk_rand() | 0x80;
			}
			break;
		}
	}
	if (len > max)
		len = max;
	out->data = p;
	out->len = len;
}

static int wire_check(const uint8_t *p, size_t len)
{
	size_t pos = 0;
	uint64_t tag, v, l;

	while (pos < len) {
		if (get_varint(p, len, &pos, &tag, 1) || !(tag >> 3))
			return 0;
		switch (tag & 7) {
		case WT_VARINT:
			if (get_varint(p, len, &pos, &v, 1))
				return 0;
			break;
		case WT_I64:
		case WT_I32:
			l = (tag & 7) == WT_I64 ? 8 : 4;
			if (len - pos < l)
				return 0;
			pos += l;
			break;
		case WT_LEN:
			if (get_varint(p, len, &pos, &l, 1) || l > len - pos)
				return 0;
			/*
			 * What a message field holds is its own business:
			 * junk bytes there are well-formed at this level.
			 * Only its length must fit, checked above.
			 */
			pos += l;
			break;
		default:
			return 0;
		}
	}
	return 1;
}

/*
 * Drop, at every level the schema describes, the fields it does not know
 * (the reserved Key.primary_offset and Key.third_party of blobs made for
 * an older contract): returns how many, 0 if none (or not wire format).
 */
static int msg_clean(struct msg *m)
{
	int i, n = 0;

	for (i = 0; i < m->n;) {
		if (!schema_find(m->type, m->f[i].num)) {
			msg_remove(m, i);
			n++;
			continue;
		}
		if (m->f[i].sub)
			n += msg_clean(m->f[i].sub);
		i++;
	}
	return n;
}

int pgpk_canonical_clean(struct pgpk_blob *b)
{
	struct msg *m;
	size_t len;
	int n;

	if (b->len < PGPK_MAGIC_LEN ||
	    memcmp(b->data, PGPK_MAGIC, PGPK_MAGIC_LEN))
		return 0;
	m = parse_msg(M_CANON, b->data + PGPK_MAGIC_LEN,
		      b->len - PGPK_MAGIC_LEN, 0);
	if (!m)
		return 0;
	n = msg_clean(m);
	if (n) {
		len = PGPK_MAGIC_LEN + msg_size(m);
		b->data = xrealloc(b->data, len > b->len ? len : b->len);
		b->len = put_msg(b->data + PGPK_MAGIC_LEN, m) - b->data;
	}
	msg_free(m);
	return n;
}

int pgpk_wire_check(const uint8_t *data, size_t len)
{
	return wire_check(data, len);
}
