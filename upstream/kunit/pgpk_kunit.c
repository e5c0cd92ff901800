// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the OpenPGP key parser's untrusted-byte code and the
 * octets it rebuilds: the strict canonical decoder (pgpk_canon.c), the
 * framing walks (pgpk_frame.c) and the rebuilt key packets, prefixes and
 * trailers (pgpk_rebuild.c).  Built into the parser
 * (CONFIG_OPENPGP_KEY_PARSER_KUNIT_TEST): the suites run when it loads.
 *
 * pgpk_kunit_corpus.h holds regression inputs of the fuzz corpus with the
 * verdicts of the same decoder built for user space, where it is fuzzed
 * against protobuf-c, and hashed areas with the verdicts of an
 * independent reference walk; and two keys whose key flags the parser
 * must give restrict.c as X.509's usage (pgpk_key suite).
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/key.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/public_key.h>
#include <keys/asymmetric-type.h>
#include "pgpk_canon.h"

/* --- a protobuf writer, for blobs that break one rule each --- */

struct pgpk_pb {
	u8 *buf;
	size_t len;
};

#define PGPK_PB_SIZE	8192

static struct pgpk_pb *pgpk_pb_new(struct kunit *test)
{
	struct pgpk_pb *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->buf = kunit_kzalloc(test, PGPK_PB_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->buf);
	return b;
}

static void pgpk_pb_raw(struct pgpk_pb *b, const void *p, size_t n)
{
	if (WARN_ON(b->len + n > PGPK_PB_SIZE))
		return;
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void pgpk_pb_varint(struct pgpk_pb *b, u64 v)
{
	u8 o;

	do {
		o = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		pgpk_pb_raw(b, &o, 1);
		v >>= 7;
	} while (v);
}

static void pgpk_pb_num(struct pgpk_pb *b, u32 n, u64 v)
{
	pgpk_pb_varint(b, n << 3);
	pgpk_pb_varint(b, v);
}

static void pgpk_pb_bytes(struct pgpk_pb *b, u32 n, const void *p, size_t len)
{
	pgpk_pb_varint(b, n << 3 | 2);
	pgpk_pb_varint(b, len);
	pgpk_pb_raw(b, p, len);
}

static const u8 pgpk_e[] = { 0x01, 0x00, 0x01 };

/* KeyMaterial: v4 RSA, a 2048-bit n of 0xc5 octets. */
static void pgpk_pb_material(struct pgpk_pb *m, u32 version)
{
	u8 n[256];

	memset(n, 0xc5, sizeof(n));
	pgpk_pb_num(m, 1, version);
	pgpk_pb_num(m, 2, 1700000000);
	pgpk_pb_num(m, 3, 1);
	pgpk_pb_bytes(m, 4, n, sizeof(n));
	pgpk_pb_bytes(m, 5, pgpk_e, sizeof(pgpk_e));
}

/* A v4 signature; @salt: a v6 salt (version 6 then). */
static void pgpk_pb_sig(struct pgpk_pb *s, bool v6)
{
	static const u8 area[] = { 5, 2, 0x65, 0x53, 0xf1, 0x00 };
	u8 salt[16] = { 0 }, rsa_s[256];

	memset(rsa_s, 0x5a, sizeof(rsa_s));
	pgpk_pb_num(s, 1, v6 ? 6 : 4);
	pgpk_pb_num(s, 2, 0);
	pgpk_pb_num(s, 3, 1);
	pgpk_pb_num(s, 4, 8);
	pgpk_pb_num(s, 5, 0x6553f100);
	pgpk_pb_bytes(s, 7, area, sizeof(area));
	if (v6)
		pgpk_pb_bytes(s, 8, salt, sizeof(salt));
	pgpk_pb_num(s, 9, 0x1234);
	pgpk_pb_bytes(s, 10, rsa_s, sizeof(rsa_s));
}

static void pgpk_pb_blob(struct pgpk_pb *b, u32 n, const struct pgpk_pb *msg)
{
	pgpk_pb_raw(b, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk_pb_bytes(b, n, msg->buf, msg->len);
}

/* Canonical.key { material } */
static void pgpk_blob_key(struct kunit *test, struct pgpk_pb *b, u32 version)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, version);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_blob(b, 1, k);
}

static int pgpk_decode(struct kunit *test, const struct pgpk_pb *b,
		       struct pgpk_canon_error *err)
{
	struct pgpk_canon *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	return pgpk_canon_decode(b->buf, b->len, out, err);
}

static void pgpk_canon_valid(struct kunit *test)
{
	struct pgpk_canon *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	struct pgpk_pb *b = pgpk_pb_new(test), *s = pgpk_pb_new(test);
	struct pgpk_canon_error err;

	KUNIT_ASSERT_NOT_NULL(test, out);
	pgpk_blob_key(test, b, 4);
	KUNIT_ASSERT_EQ(test, pgpk_canon_decode(b->buf, b->len, out, &err), 0);
	KUNIT_EXPECT_EQ(test, out->present, 1u << PGPK_CANON_KEY);
	KUNIT_EXPECT_EQ(test, out->key.material.version, 4u);
	KUNIT_EXPECT_EQ(test, out->key.material.created, 1700000000u);
	KUNIT_EXPECT_EQ(test, out->key.material.rsa_n.len, 256u);
	KUNIT_EXPECT_EQ(test, out->key.material.rsa_n.bits, 2048u);
	KUNIT_EXPECT_EQ(test, out->key.material.rsa_e.bits, 17u);
	KUNIT_EXPECT_FALSE(test, out->key.subkey);

	pgpk_pb_sig(s, true);
	b->len = 0;
	pgpk_pb_blob(b, 2, s);
	KUNIT_ASSERT_EQ(test, pgpk_canon_decode(b->buf, b->len, out, &err), 0);
	KUNIT_EXPECT_EQ(test, out->sigs[0].version, 6u);
	KUNIT_EXPECT_EQ(test, out->sigs[0].salt.len, 16u);
	KUNIT_EXPECT_EQ(test, out->sigs[0].quick_check, 0x1234u);
	KUNIT_EXPECT_EQ(test, out->nr_more, 0u);
}

/* One rule broken in an otherwise valid blob. */
struct pgpk_bad {
	const char *name;
	void (*make)(struct kunit *test, struct pgpk_pb *b);
};

static void pgpk_bad_magic(struct kunit *test, struct pgpk_pb *b)
{
	pgpk_blob_key(test, b, 4);
	b->buf[4] = 0x02;		/* encoding version 2 */
}

static void pgpk_bad_trailing(struct kunit *test, struct pgpk_pb *b)
{
	pgpk_blob_key(test, b, 4);
	b->buf[b->len++] = 0;
}

static void pgpk_bad_unknown(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_num(k, 9, 0);		/* reserved */
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_order(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_num(k, 3, 0);		/* subkey before material */
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_twice(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_num(k, 2, 7);
	pgpk_pb_num(k, 2, 7);
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_wire_type(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_bytes(k, 2, "\x07", 1);	/* packet_offset as bytes */
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_varint(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_raw(k, "\x10\x87\x00", 3);	/* 7 in two octets */
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_varint_long(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	/* soft_revoked: 2^64 would need an 11th bit in the tenth octet */
	pgpk_pb_raw(k, "\x68\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 11);
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_range(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_num(k, 3, 2);		/* subkey is a bool */
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_past_end(struct kunit *test, struct pgpk_pb *b)
{
	pgpk_blob_key(test, b, 4);
	b->buf[PGPK_MAGIC_LEN + 1]++;	/* key's length: one too many */
}

static void pgpk_bad_leading_zero(struct kunit *test, struct pgpk_pb *b)
{
	pgpk_blob_key(test, b, 4);
	/* rsa_n's first octet: magic, key, material, 3 fields, n's tag */
	b->buf[PGPK_MAGIC_LEN + 3 + 3 + 2 + 6 + 2 + 3] = 0;
}

static void pgpk_bad_exponent(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);
	u8 n[256], e[9] = { 1 };

	memset(n, 0xc5, sizeof(n));
	pgpk_pb_num(m, 1, 4);
	pgpk_pb_num(m, 2, 1700000000);
	pgpk_pb_num(m, 3, 1);
	pgpk_pb_bytes(m, 4, n, sizeof(n));
	pgpk_pb_bytes(m, 5, e, sizeof(e));
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_encrypt_only(struct kunit *test, struct pgpk_pb *b)
{
	pgpk_blob_key(test, b, 4);
	b->buf[PGPK_MAGIC_LEN + 3 + 3 + 2 + 6 + 1] = 2;	/* algorithm 2 */
}

static void pgpk_bad_key_version(struct kunit *test, struct pgpk_pb *b)
{
	pgpk_blob_key(test, b, 5);
}

static void pgpk_bad_missing(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *k = pgpk_pb_new(test);

	pgpk_pb_num(k, 2, 7);		/* no material */
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_subkey_alone(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_num(k, 3, 1);		/* a subkey without its primary */
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_salt_v4(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *s = pgpk_pb_new(test);
	u8 salt[16] = { 0 };

	/* a v4 signature with a salt (8) after its hashed area (7) */
	pgpk_pb_num(s, 1, 4);
	pgpk_pb_num(s, 2, 0);
	pgpk_pb_num(s, 3, 1);
	pgpk_pb_num(s, 4, 8);
	pgpk_pb_num(s, 5, 1);
	pgpk_pb_bytes(s, 7, "", 0);
	pgpk_pb_bytes(s, 8, salt, sizeof(salt));
	pgpk_pb_num(s, 9, 0);
	pgpk_pb_bytes(s, 10, "\x01", 1);
	pgpk_pb_blob(b, 2, s);
}

/* key_flags, a hint once: read from the verified self-signature now */
static void pgpk_bad_retired_hint(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *m = pgpk_pb_new(test), *k = pgpk_pb_new(test);

	pgpk_pb_material(m, 4);
	pgpk_pb_bytes(k, 1, m->buf, m->len);
	pgpk_pb_num(k, 7, 3);
	pgpk_pb_blob(b, 1, k);
}

static void pgpk_bad_key_and_sig(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *s = pgpk_pb_new(test);

	pgpk_blob_key(test, b, 4);
	pgpk_pb_sig(s, false);
	pgpk_pb_bytes(b, 2, s->buf, s->len);
}

static void pgpk_bad_content_with_key(struct kunit *test, struct pgpk_pb *b)
{
	pgpk_blob_key(test, b, 4);
	pgpk_pb_bytes(b, 3, "data", 4);
}

static void pgpk_bad_too_many_sigs(struct kunit *test, struct pgpk_pb *b)
{
	struct pgpk_pb *s = pgpk_pb_new(test);
	int i;

	pgpk_pb_sig(s, false);
	pgpk_pb_blob(b, 2, s);
	for (i = 0; i < PGPK_MAX_SIGNATURES; i++)	/* one more than 15 */
		pgpk_pb_bytes(b, 4, s->buf, s->len);
}

static const struct pgpk_bad pgpk_bad_cases[] = {
	{ "magic of another version", pgpk_bad_magic },
	{ "an octet after the message", pgpk_bad_trailing },
	{ "a reserved field", pgpk_bad_unknown },
	{ "fields out of order", pgpk_bad_order },
	{ "a field twice", pgpk_bad_twice },
	{ "a field of another wire type", pgpk_bad_wire_type },
	{ "a varint not minimal", pgpk_bad_varint },
	{ "a varint over 64 bits", pgpk_bad_varint_long },
	{ "a value out of range", pgpk_bad_range },
	{ "a length past the end", pgpk_bad_past_end },
	{ "an integer with a leading zero", pgpk_bad_leading_zero },
	{ "an exponent of 9 octets", pgpk_bad_exponent },
	{ "RSA Encrypt-Only", pgpk_bad_encrypt_only },
	{ "key version 5", pgpk_bad_key_version },
	{ "a required field missing", pgpk_bad_missing },
	{ "a subkey without its primary", pgpk_bad_subkey_alone },
	{ "a salt on a v4 signature", pgpk_bad_salt_v4 },
	{ "Key.key_flags (7, reserved)", pgpk_bad_retired_hint },
	{ "a key and a signature", pgpk_bad_key_and_sig },
	{ "content with a key", pgpk_bad_content_with_key },
	{ "17 signatures", pgpk_bad_too_many_sigs },
};

KUNIT_ARRAY_PARAM_DESC(pgpk_bad, pgpk_bad_cases, name);

static void pgpk_canon_refused(struct kunit *test)
{
	const struct pgpk_bad *c = test->param_value;
	struct pgpk_pb *b = pgpk_pb_new(test);
	struct pgpk_canon_error err;

	c->make(test, b);
	KUNIT_EXPECT_EQ(test, pgpk_decode(test, b, &err), -EBADMSG);
	KUNIT_EXPECT_NOT_NULL(test, err.why);
	KUNIT_EXPECT_LE(test, err.offset, b->len);
}

static void pgpk_canon_bounds(struct kunit *test)
{
	struct pgpk_canon *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	struct pgpk_pb *b = pgpk_pb_new(test);
	struct pgpk_canon_error err;

	KUNIT_ASSERT_NOT_NULL(test, out);
	pgpk_blob_key(test, b, 6);
	KUNIT_EXPECT_EQ(test, pgpk_canon_decode(b->buf, b->len, out, &err), 0);
	/* the size is checked before any octet is read */
	KUNIT_EXPECT_EQ(test, pgpk_canon_decode(b->buf, PGPK_MAX_BLOB + 1, out,
						&err), -EBADMSG);
	KUNIT_EXPECT_EQ(test, pgpk_canon_decode(b->buf, PGPK_MAGIC_LEN - 1, out,
						&err), -EBADMSG);
	KUNIT_EXPECT_EQ(test, pgpk_canon_decode(b->buf, b->len - 1, out, &err),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, pgpk_canon_form(b->buf, b->len),
			PGPK_FORM_CANONICAL);
	KUNIT_EXPECT_EQ(test, pgpk_canon_form((const u8 *)"\x99\x01", 2),
			PGPK_FORM_OPENPGP);
	KUNIT_EXPECT_EQ(test, pgpk_canon_form((const u8 *)"-----BEGIN PGP ",
					      15), PGPK_FORM_OPENPGP);
	KUNIT_EXPECT_EQ(test, pgpk_canon_form((const u8 *)"\x30\x82", 2), 0);
	KUNIT_EXPECT_EQ(test, pgpk_canon_form(b->buf, 0), 0);
}

#include "pgpk_kunit_corpus.h"

KUNIT_ARRAY_PARAM_DESC(pgpk_corpus, pgpk_corpus_canon, name);

/* The regression inputs: the verdict and where the decoder stopped. */
static void pgpk_canon_corpus(struct kunit *test)
{
	const struct pgpk_corpus_entry *e = test->param_value;
	struct pgpk_canon *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	struct pgpk_canon_error err;
	u8 *copy;

	KUNIT_ASSERT_NOT_NULL(test, out);
	/* a copy of its own size: KASAN sees every read past its end */
	copy = kunit_kmalloc(test, e->len ?: 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, e->data, e->len);
	KUNIT_EXPECT_EQ(test, pgpk_canon_decode(copy, e->len, out, &err),
			e->ret);
	if (e->ret)
		KUNIT_EXPECT_EQ(test, err.offset, e->offset);
}

static struct kunit_case pgpk_canon_cases[] = {
	KUNIT_CASE(pgpk_canon_valid),
	KUNIT_CASE_PARAM(pgpk_canon_refused, pgpk_bad_gen_params),
	KUNIT_CASE(pgpk_canon_bounds),
	KUNIT_CASE_PARAM(pgpk_canon_corpus, pgpk_corpus_gen_params),
	{}
};

static struct kunit_suite pgpk_canon_suite = {
	.name = "pgpk_canon",
	.test_cases = pgpk_canon_cases,
};

/* --- framing walks --- */

static void pgpk_frame_headers(struct kunit *test)
{
	/* new headers: 1-, 2- and 5-octet lengths; legacy: 1, 2, 4 */
	static const u8 buf[] = {
		0xc6, 3, 'a', 'b', 'c',			/* tag 6, body at 2 */
		0xcd, 0xc0, 0x00,			/* tag 13, 192 octets */
	};
	u8 *two = kunit_kzalloc(test, 3 + 192 + 7 + 3, GFP_KERNEL);
	static const u8 legacy[] = {
		0x98, 2, 'x', 'y',			/* tag 6, 1-octet */
		0xb5, 0, 1, 'z',			/* tag 13, 2-octet */
		0xba, 0, 0, 0, 1, 'w',			/* tag 14, 4-octet */
	};
	static const u8 five[] = { 0xc6, 0xff, 0, 0, 0, 2, 'h', 'i' };

	KUNIT_ASSERT_NOT_NULL(test, two);
	KUNIT_EXPECT_TRUE(test, pgpk_packet_at(buf, 5, 2, 6, buf + 2, 3));
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(buf, 5, 2, 14, buf + 2, 3));
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(buf, 5, 2, 6, buf + 2, 2));
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(buf, 5, 2, 6,
						(const u8 *)"abd", 3));
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(buf, 5, 3, 6, buf + 3, 2));
	/* the second packet runs past the end */
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(buf, sizeof(buf), 8, 13,
						buf + 8, 0));
	memcpy(two, buf, 8);
	memset(two + 8, 'u', 192);
	KUNIT_EXPECT_TRUE(test, pgpk_packet_at(two, 200, 8, 13, two + 8, 192));

	KUNIT_EXPECT_TRUE(test, pgpk_packet_at(legacy, sizeof(legacy), 2, 6,
					       legacy + 2, 2));
	KUNIT_EXPECT_TRUE(test, pgpk_packet_at(legacy, sizeof(legacy), 7, 13,
					       legacy + 7, 1));
	KUNIT_EXPECT_TRUE(test, pgpk_packet_at(legacy, sizeof(legacy), 13, 14,
					       legacy + 13, 1));
	KUNIT_EXPECT_TRUE(test, pgpk_packet_at(five, sizeof(five), 6, 6,
					       five + 6, 2));
}

static void pgpk_frame_refused(struct kunit *test)
{
	/* partial (224..254) and indeterminate lengths: data packets only */
	static const u8 partial[] = { 0xcb, 0xe1, 'a', 'b', 0xc6, 1, 'k' };
	static const u8 indeterminate[] = { 0xab, 'a', 0x98, 1, 'k' };
	/* a key packet inside a user ID packet's body is no packet */
	static const u8 nested[] = { 0xcd, 3, 0xc6, 1, 'k' };
	static const u8 no_bit7[] = { 0x46, 1, 'k' };

	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(partial, sizeof(partial), 6, 6,
						partial + 6, 1));
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(indeterminate,
						sizeof(indeterminate), 4, 6,
						indeterminate + 4, 1));
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(nested, sizeof(nested), 4, 6,
						nested + 4, 1));
	KUNIT_EXPECT_TRUE(test, pgpk_packet_at(nested, sizeof(nested), 2, 13,
					       nested + 2, 3));
	KUNIT_EXPECT_FALSE(test, pgpk_packet_at(no_bit7, sizeof(no_bit7), 2, 6,
						no_bit7 + 2, 1));
	KUNIT_EXPECT_TRUE(test, pgpk_bytes_at(nested, 5, 4, nested + 4, 1));
	KUNIT_EXPECT_FALSE(test, pgpk_bytes_at(nested, 5, 4, nested + 4, 2));
	KUNIT_EXPECT_FALSE(test, pgpk_bytes_at(nested, 5, U32_MAX, nested, 1));
}

static void pgpk_frame_hashed(struct kunit *test)
{
	static const u8 mark[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;
	/*
	 * creation, expiration, issuer fingerprint (v4), the mark, key
	 * expiration, key flags (certify and sign)
	 */
	u8 area[6 + 6 + 23 + PGPK_IMA_MARK_LEN + 6 + 3] = {
		5, 2, 0x65, 0x53, 0xf1, 0x00,
		5, 3, 0, 0, 0x0e, 0x10,
		22, 33, 4, [15] = 0xaa,
		[35 + PGPK_IMA_MARK_LEN] = 5, 9, 0, 0, 0x1c, 0x20,
		2, 27, 0x03,
	};
	struct pgpk_hashed h;

	memcpy(area + 35, mark, sizeof(mark));
	KUNIT_ASSERT_TRUE(test, pgpk_hashed_walk(area, sizeof(area), &h));
	KUNIT_EXPECT_EQ(test, h.created, 0x6553f100u);
	KUNIT_EXPECT_EQ(test, h.expires, 3600u);
	KUNIT_EXPECT_EQ(test, h.key_expires, 7200u);
	KUNIT_EXPECT_EQ(test, h.key_flags, 0x03);
	KUNIT_EXPECT_EQ(test, h.fpr_len, 20u);
	KUNIT_EXPECT_PTR_EQ(test, h.fpr, (const u8 *)area + 15);
	KUNIT_EXPECT_TRUE(test, h.marked);
	/* a critical subpacket pgpk does not understand (a notation) */
	area[36] |= 0x80;
	KUNIT_EXPECT_FALSE(test, pgpk_hashed_walk(area, sizeof(area), &h));
	/* two key flags subpackets */
	memcpy(area + 35 + PGPK_IMA_MARK_LEN, "\x02\x1b\x03\x02\x1b\x03", 6);
	area[36] &= ~0x80;
	KUNIT_EXPECT_FALSE(test, pgpk_hashed_walk(area, sizeof(area), &h));
	/* without its creation time */
	KUNIT_EXPECT_FALSE(test, pgpk_hashed_walk(area + 6, sizeof(area) - 6,
						  &h));
	/* two creation times */
	memcpy(area + 6, area, 6);
	KUNIT_EXPECT_FALSE(test, pgpk_hashed_walk(area, sizeof(area), &h));
	/* a creation time of 3 octets */
	area[0] = 4;
	KUNIT_EXPECT_FALSE(test, pgpk_hashed_walk(area, 5, &h));
	/* a zero-length subpacket, or one running past the end */
	KUNIT_EXPECT_FALSE(test, pgpk_hashed_walk((const u8 *)"\0", 1, &h));
	KUNIT_EXPECT_FALSE(test, pgpk_hashed_walk((const u8 *)"\x06\x02\0\0\0\0",
						  6, &h));
}

/* The mark counts only as a whole subpacket, never inside another. */
static void pgpk_frame_mark_inside(struct kunit *test)
{
	static const u8 mark[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;
	u8 area[6 + 2 + 4 + PGPK_IMA_MARK_LEN] = {
		5, 2, 0x65, 0x53, 0xf1, 0x00,
		1 + 4 + PGPK_IMA_MARK_LEN, 20, 0x80, 0, 0, 0,
	};
	struct pgpk_hashed h;

	memcpy(area + 12, mark, sizeof(mark));
	KUNIT_ASSERT_TRUE(test, pgpk_hashed_walk(area, sizeof(area), &h));
	KUNIT_EXPECT_FALSE(test, h.marked);
}

KUNIT_ARRAY_PARAM_DESC(pgpk_hashed_corpus, pgpk_corpus_hashed, name);

/* Hashed areas of the fuzz corpus, against an independent reference. */
static void pgpk_frame_hashed_corpus(struct kunit *test)
{
	const struct pgpk_corpus_hashed *e = test->param_value;
	struct pgpk_hashed h;
	u8 *copy = kunit_kmalloc(test, e->len ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, e->data, e->len);
	KUNIT_EXPECT_EQ(test, pgpk_hashed_walk(copy, e->len, &h), e->ok);
	if (!e->ok)
		return;
	KUNIT_EXPECT_EQ(test, h.created, e->created);
	KUNIT_EXPECT_EQ(test, h.expires, e->expires);
	KUNIT_EXPECT_EQ(test, h.key_expires, e->key_expires);
	KUNIT_EXPECT_EQ(test, h.key_flags, e->key_flags);
	KUNIT_EXPECT_EQ(test, h.fpr_len, e->fpr_len);
	KUNIT_EXPECT_EQ(test, h.marked, e->marked);
}

static struct kunit_case pgpk_frame_cases[] = {
	KUNIT_CASE(pgpk_frame_headers),
	KUNIT_CASE(pgpk_frame_refused),
	KUNIT_CASE(pgpk_frame_hashed),
	KUNIT_CASE(pgpk_frame_mark_inside),
	KUNIT_CASE_PARAM(pgpk_frame_hashed_corpus,
			 pgpk_hashed_corpus_gen_params),
	{}
};

static struct kunit_suite pgpk_frame_suite = {
	.name = "pgpk_frame",
	.test_cases = pgpk_frame_cases,
};

/* --- rebuilt octets, written out from RFC 9580 --- */

static const u8 pgpk_n[] = { 0xc5 };

static void pgpk_material(struct pgpk_key_material *m, u32 version)
{
	*m = (struct pgpk_key_material){
		.version = version, .created = 0x5f000000, .algorithm = 1,
		.rsa_n = { pgpk_n, 1, 8 }, .rsa_e = { pgpk_e, 3, 17 },
	};
}

static void pgpk_rebuild_keys(struct kunit *test)
{
	static const u8 v4[] = { 4, 0x5f, 0, 0, 0, 1, 0, 8, 0xc5,
				 0, 17, 1, 0, 1 };
	static const u8 v6[] = { 6, 0x5f, 0, 0, 0, 1, 0, 0, 0, 8, 0, 8, 0xc5,
				 0, 17, 1, 0, 1 };
	struct pgpk_key_material m;
	u8 out[32];

	pgpk_material(&m, 4);
	KUNIT_ASSERT_EQ(test, pgpk_rebuild_key(&m, NULL), sizeof(v4));
	KUNIT_ASSERT_EQ(test, pgpk_rebuild_key(&m, out), sizeof(v4));
	KUNIT_EXPECT_MEMEQ(test, out, v4, sizeof(v4));
	KUNIT_ASSERT_EQ(test, pgpk_rebuild_key_prefix(&m, out), 3u);
	KUNIT_EXPECT_MEMEQ(test, out, "\x99\x00\x0e", 3);

	pgpk_material(&m, 6);
	KUNIT_ASSERT_EQ(test, pgpk_rebuild_key(&m, out), sizeof(v6));
	KUNIT_EXPECT_MEMEQ(test, out, v6, sizeof(v6));
	KUNIT_ASSERT_EQ(test, pgpk_rebuild_key_prefix(&m, out), 5u);
	KUNIT_EXPECT_MEMEQ(test, out, "\x9b\x00\x00\x00\x12", 5);

	KUNIT_ASSERT_EQ(test, pgpk_rebuild_uid_prefix(300, out), 5u);
	KUNIT_EXPECT_MEMEQ(test, out, "\xb4\x00\x00\x01\x2c", 5);
}

static void pgpk_rebuild_trailers(struct kunit *test)
{
	static const u8 area[] = { 5, 2, 0x65, 0x53, 0xf1, 0x00 };
	static const u8 v4[] = { 4, 0x13, 1, 8, 0, 6, 5, 2, 0x65, 0x53, 0xf1, 0,
				 4, 0xff, 0, 0, 0, 12 };
	static const u8 v6[] = { 6, 0x13, 1, 8, 0, 0, 0, 6, 5, 2, 0x65, 0x53,
				 0xf1, 0, 6, 0xff, 0, 0, 0, 14 };
	struct pgpk_sig s = { .version = 4, .type = 0x13,
			      .pubkey_algorithm = 1, .hash_algorithm = 8,
			      .hashed_area = { area, sizeof(area) } };
	u8 out[32];

	KUNIT_ASSERT_EQ(test, pgpk_rebuild_trailer(&s, NULL), sizeof(v4));
	KUNIT_ASSERT_EQ(test, pgpk_rebuild_trailer(&s, out), sizeof(v4));
	KUNIT_EXPECT_MEMEQ(test, out, v4, sizeof(v4));
	s.version = 6;
	KUNIT_ASSERT_EQ(test, pgpk_rebuild_trailer(&s, out), sizeof(v6));
	KUNIT_EXPECT_MEMEQ(test, out, v6, sizeof(v6));
}

static void pgpk_rebuild_salts(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(8), 16u);	/* SHA2-256 */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(9), 24u);	/* SHA2-384 */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(10), 32u);	/* SHA2-512 */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(11), 16u);	/* SHA2-224 */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(12), 16u);	/* SHA3-256 */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(14), 32u);	/* SHA3-512 */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(2), 0u);	/* SHA-1 */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(13), 0u);	/* reserved */
	KUNIT_EXPECT_EQ(test, pgpk_rebuild_salt_len(U32_MAX), 0u);
}

static struct kunit_case pgpk_rebuild_cases[] = {
	KUNIT_CASE(pgpk_rebuild_keys),
	KUNIT_CASE(pgpk_rebuild_trailers),
	KUNIT_CASE(pgpk_rebuild_salts),
	{}
};

static struct kunit_suite pgpk_rebuild_suite = {
	.name = "pgpk_rebuild",
	.test_cases = pgpk_rebuild_cases,
};

/* --- keys: the usage restrict_link_by_ca() and _by_digsig() read --- */

static void pgpk_key_eflags(struct kunit *test)
{
	static const struct {
		const u8 *blob;
		size_t len;
		unsigned long eflags;
	} keys[] = {
		/* self-certified, key flags certify and sign (0x03) */
		{ pgpk_kunit_ca, sizeof(pgpk_kunit_ca), BIT(KEY_EFLAG_CA) |
		  BIT(KEY_EFLAG_KEYCERTSIGN) | BIT(KEY_EFLAG_DIGITALSIG) },
		/* certified by the CA, its self-signature's flags sign (0x02) */
		{ pgpk_kunit_user, sizeof(pgpk_kunit_user),
		  BIT(KEY_EFLAG_DIGITALSIG) },
	};
	struct key *ring;
	key_ref_t ref;
	int i;

	ring = keyring_alloc("pgpk_kunit", GLOBAL_ROOT_UID, GLOBAL_ROOT_GID,
			     current_cred(), KEY_POS_ALL,
			     KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct public_key *pub;

		ref = key_create_or_update(make_key_ref(ring, true),
					   "asymmetric", NULL, keys[i].blob,
					   keys[i].len, KEY_POS_ALL,
					   KEY_ALLOC_NOT_IN_QUOTA);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(ref), "key %d: %ld", i,
				       PTR_ERR(ref));
		if (IS_ERR(ref))
			continue;
		pub = key_ref_to_ptr(ref)->payload.data[asym_crypto];
		KUNIT_EXPECT_EQ_MSG(test, pub->key_eflags, keys[i].eflags,
				    "key %d", i);
		key_ref_put(ref);
	}
	key_put(ring);
}

static struct kunit_case pgpk_key_cases[] = {
	KUNIT_CASE(pgpk_key_eflags),
	{}
};

static struct kunit_suite pgpk_key_suite = {
	.name = "pgpk_key",
	.test_cases = pgpk_key_cases,
};

kunit_test_suites(&pgpk_canon_suite, &pgpk_frame_suite, &pgpk_rebuild_suite,
		  &pgpk_key_suite);
