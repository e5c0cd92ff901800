// SPDX-License-Identifier: GPL-2.0
/*
 * The strict canonical decoder (kernel/pgpk_canon.c) against protobuf-c.
 *
 * 1. Round trip: messages with random values, packed by protobuf-c, are
 *    accepted and decode to the very values that were packed.
 * 2. Every non-canonical spelling is refused, with its specific reason
 *    (struct pgpk_canon_error.why) at an offset inside the blob: the
 *    blobs are written field by field by a tiny independent encoder
 *    (checked first to produce protobuf-c's exact bytes for a valid one).
 * 3. The decoder's stricter subset of the schema: v4 and v6 signatures
 *    only, a hashed area always, RSA e of at most 8 octets, no RSA
 *    Encrypt-Only key, no field 9 or 11 (Key.primary_offset and
 *    third_party, gone), a subkey with
 *    its primary key and only then, fields in ascending order; a semantic
 *    error named before a missing field.
 * 4. Canonical.more_signatures decodes to the very elements protobuf-c
 *    packed, in sigs[1..nr_more].
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "proto/pgpk.pb-c.h"
#include "proto/pgpk_fields.h"

/* The decoder's reasons (kernel/pgpk_canon.c), by what they mean. */
#define W_RANGE "varint not minimal or out of range"
#define W_TRUNC "field runs past the end of its message"
#define W_LEN "length out of bounds, or a leading zero"
#define W_LEFT "unknown, repeated or misplaced field"
#define W_MISSING "required field missing"
#define W_KEYVER "key version not 4 or 6"
#define W_RSA "not an RSA key that signs (RFC 9580 9.1)"
#define W_SIGVER "signature version not 4 or 6"
#define W_SALT "a salt is for v6, and only"
#define W_PRIMARY "a primary key is for a subkey, and only"
#define W_ENVELOPE "not exactly one key or signature"
#define W_MAGIC "no magic, or larger than 1 MiB - 1"
#define W_OK NULL

static unsigned int pgpk_failures;
static unsigned int pgpk_checks;

static void pgpk_check(int ok, const char *fmt, ...)
{
	va_list ap;

	pgpk_checks++;
	if (ok)
		return;
	pgpk_failures++;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* xorshift64*: deterministic, so a failure is reproducible from the seed. */
static uint64_t pgpk_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

static uint32_t pgpk_rand_range(uint64_t *s, uint32_t lo, uint32_t hi)
{
	return lo + pgpk_rand(s) % ((uint64_t)hi - lo + 1);
}

/* Random values of the kinds the schema uses, biased toward the edges. */
static uint64_t pgpk_rand_u64(uint64_t *s)
{
	static const uint64_t edges[] = {
		0,	   1,	  127,		 128,
		16383,	   16384, 0xffffffffULL, 0x100000000ULL,
		UINT64_MAX
	};

	if (pgpk_rand(s) % 3 == 0)
		return edges[pgpk_rand(s) % (sizeof(edges) / sizeof(edges[0]))];
	return pgpk_rand(s) >> pgpk_rand_range(s, 0, 63);
}

static uint32_t pgpk_rand_u32(uint64_t *s)
{
	return (uint32_t)pgpk_rand_u64(s);
}

static ProtobufCBinaryData pgpk_rand_bytes(uint64_t *s, uint8_t *pool,
					   uint32_t min, uint32_t max,
					   int no_leading_zero)
{
	ProtobufCBinaryData b;
	uint32_t i;

	b.len = pgpk_rand_range(s, min, max);
	b.data = pool;
	for (i = 0; i < b.len; i++)
		pool[i] = (uint8_t)pgpk_rand(s);
	if (no_leading_zero && b.len)
		pool[0] |= 1;
	return b;
}

/* Buffers that random messages point into (freed with the test). */
struct pgpk_pools {
	uint8_t n[3][PGPK_MAX_MPI], e[3][PGPK_MAX_MPI], s[2][PGPK_MAX_MPI];
	uint8_t hashed[2][PGPK_MAX_HASHED_AREA], salt[2][32];
	uint8_t keyid[2][8], fpr[2][32], uid[PGPK_MAX_USER_ID];
	uint8_t content[70000];
};

static void pgpk_rand_material(uint64_t *s, Pgpk__KeyMaterial *m,
			       struct pgpk_pools *p, int i)
{
	pgpk__key_material__init(m);
	m->version = pgpk_rand(s) & 1 ? 4 : 6;
	m->created = pgpk_rand_u32(s);
	m->algorithm = pgpk_rand(s) & 1 ? 1 : 3; /* 2 signs nothing */
	m->rsa_n = pgpk_rand_bytes(s, p->n[i], 1, PGPK_MAX_MPI, 1);
	m->rsa_e = pgpk_rand_bytes(s, p->e[i], 1,
				   pgpk_rand(s) & 1 ? 4 : PGPK_MAX_EXPONENT, 1);
}

static void pgpk_rand_sig(uint64_t *s, Pgpk__Signature *g, struct pgpk_pools *p,
			  int i)
{
	pgpk__signature__init(g);
	g->version = pgpk_rand(s) & 1 ? 4 : 6;
	g->type = pgpk_rand_range(s, 0, 255);
	g->pubkey_algorithm = pgpk_rand_range(s, 0, 255);
	g->hash_algorithm = pgpk_rand_range(s, 0, 255);
	g->created = pgpk_rand_u32(s);
	g->has_hashed_area = 1;
	g->hashed_area = pgpk_rand_bytes(
		s, p->hashed[i], 0,
		pgpk_rand(s) & 1 ? 64 : PGPK_MAX_HASHED_AREA, 0);
	/* Any 16..32 octets: the kernel checks the length against the hash
	 * where it hashes (pgpk_rebuild_salt_len()), not here. */
	g->has_salt = g->version == 6;
	if (g->has_salt)
		g->salt = pgpk_rand_bytes(s, p->salt[i], 16, 32, 0);
	g->quick_check = pgpk_rand_range(s, 0, 0xffff);
	g->rsa_s = pgpk_rand_bytes(s, p->s[i], 1, PGPK_MAX_MPI, 1);
	g->has_issuer_key_id = pgpk_rand(s) & 1;
	if (g->has_issuer_key_id)
		g->issuer_key_id = pgpk_rand_bytes(s, p->keyid[i], 8, 8, 0);
	g->has_issuer_fingerprint = pgpk_rand(s) & 1;
	if (g->has_issuer_fingerprint) {
		uint32_t len = pgpk_rand(s) & 1 ? 20 : 32;

		g->issuer_fingerprint =
			pgpk_rand_bytes(s, p->fpr[i], len, len, 0);
	}
	g->has_rsa_s_offset = pgpk_rand(s) & 1;
	g->rsa_s_offset = pgpk_rand_u32(s);
}

static int pgpk_same_bytes(const struct pgpk_bytes *a,
			   const ProtobufCBinaryData *b)
{
	return a->len == b->len &&
	       (!a->len || !memcmp(a->data, b->data, a->len));
}

static int pgpk_same_material(const struct pgpk_key_material *d,
			      const Pgpk__KeyMaterial *m)
{
	return d->version == m->version && d->created == m->created &&
	       d->algorithm == m->algorithm &&
	       pgpk_same_bytes(&d->rsa_n, &m->rsa_n) &&
	       pgpk_same_bytes(&d->rsa_e, &m->rsa_e);
}

static int pgpk_same_sig(const struct pgpk_sig *d, const Pgpk__Signature *g)
{
	return d->version == g->version && d->type == g->type &&
	       d->pubkey_algorithm == g->pubkey_algorithm &&
	       d->hash_algorithm == g->hash_algorithm &&
	       d->created == g->created &&
	       PGPK_HAS(d, PGPK_SIG_HASHED_AREA) == g->has_hashed_area &&
	       pgpk_same_bytes(&d->hashed_area, &g->hashed_area) &&
	       PGPK_HAS(d, PGPK_SIG_SALT) == g->has_salt &&
	       pgpk_same_bytes(&d->salt, &g->salt) &&
	       d->quick_check == g->quick_check &&
	       pgpk_same_bytes(&d->rsa_s, &g->rsa_s) &&
	       PGPK_HAS(d, PGPK_SIG_ISSUER_KEY_ID) == g->has_issuer_key_id &&
	       pgpk_same_bytes(&d->issuer_key_id, &g->issuer_key_id) &&
	       PGPK_HAS(d, PGPK_SIG_ISSUER_FINGERPRINT) ==
		       g->has_issuer_fingerprint &&
	       pgpk_same_bytes(&d->issuer_fingerprint,
			       &g->issuer_fingerprint) &&
	       PGPK_HAS(d, PGPK_SIG_RSA_S_OFFSET) == g->has_rsa_s_offset &&
	       d->rsa_s_offset == (g->has_rsa_s_offset ? g->rsa_s_offset : 0);
}

/* sigs[1..nr_more] are the more_signatures packed, in order. */
static int pgpk_same_sigs(const struct pgpk_canon *d,
			  Pgpk__Signature *const *want, size_t n)
{
	size_t i;

	if (d->nr_more != n)
		return 0;
	for (i = 0; i < n; i++)
		if (!pgpk_same_sig(&d->sigs[i + 1], want[i]))
			return 0;
	return 1;
}

static int pgpk_same_key(const struct pgpk_key *d, const Pgpk__Key *k)
{
	return pgpk_same_material(&d->material, k->material) &&
	       PGPK_HAS(d, PGPK_KEY_PACKET_OFFSET) == k->has_packet_offset &&
	       d->packet_offset ==
		       (k->has_packet_offset ? k->packet_offset : 0) &&
	       PGPK_HAS(d, PGPK_KEY_SUBKEY) == k->has_subkey &&
	       d->subkey == (k->has_subkey && k->subkey) &&
	       PGPK_HAS(d, PGPK_KEY_SOFT_REVOKED) == k->has_soft_revoked &&
	       d->soft_revoked == (k->has_soft_revoked ? k->soft_revoked : 0) &&
	       PGPK_HAS(d, PGPK_KEY_USER_ID) == k->has_user_id &&
	       pgpk_same_bytes(&d->user_id, &k->user_id) &&
	       d->user_id_offset ==
		       (k->has_user_id_offset ? k->user_id_offset : 0) &&
	       PGPK_HAS(d, PGPK_KEY_PRIMARY) == !!k->primary &&
	       (!k->primary || pgpk_same_material(&d->primary, k->primary)) &&
	       PGPK_HAS(d, PGPK_KEY_CERTIFICATION) == !!k->certification &&
	       (!k->certification ||
		pgpk_same_sig(&d->certification, k->certification)) &&
	       PGPK_HAS(d, PGPK_KEY_SELF_SIGNATURE) == !!k->self_signature &&
	       (!k->self_signature ||
		pgpk_same_sig(&d->self_signature, k->self_signature)) &&
	       PGPK_HAS(d, PGPK_KEY_FIRST_BINDING) == !!k->first_binding &&
	       (!k->first_binding ||
		pgpk_same_sig(&d->first_binding, k->first_binding));
}

/* Pack @c behind the magic into a malloc()ed blob. */
static uint8_t *pgpk_pack(const Pgpk__Canonical *c, size_t *len)
{
	size_t body = pgpk__canonical__get_packed_size(c);
	uint8_t *blob = malloc(PGPK_MAGIC_LEN + body);

	if (!blob)
		abort();
	memcpy(blob, PGPK_MAGIC, PGPK_MAGIC_LEN);
	*len = PGPK_MAGIC_LEN + pgpk__canonical__pack(c, blob + PGPK_MAGIC_LEN);
	return blob;
}

static void pgpk_test_round_trip(unsigned int iterations)
{
	struct pgpk_pools *p = calloc(1, sizeof(*p));
	Pgpk__KeyMaterial mat, prim;
	Pgpk__Signature sig, cert, self, first, more[4], *mores[4];
	struct pgpk_canon_error err;
	struct pgpk_canon *d = malloc(sizeof(*d));
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	Pgpk__Canonical c;
	unsigned int i, j, ok = 0;
	Pgpk__Key key;
	uint8_t *blob;
	size_t len;
	int ret;

	if (!p || !d)
		abort();
	for (i = 0; i < iterations; i++) {
		pgpk__canonical__init(&c);
		if (pgpk_rand(&seed) & 1) {
			pgpk__key__init(&key);
			pgpk_rand_material(&seed, &mat, p, 0);
			key.material = &mat;
			key.has_packet_offset = pgpk_rand(&seed) & 1;
			key.packet_offset = pgpk_rand_u32(&seed);
			key.has_subkey = pgpk_rand(&seed) & 1;
			key.subkey = pgpk_rand(&seed) & 1;
			key.has_user_id = pgpk_rand(&seed) & 1;
			if (key.has_user_id)
				key.user_id = pgpk_rand_bytes(
					&seed, p->uid, 1, PGPK_MAX_USER_ID, 0);
			key.has_user_id_offset = pgpk_rand(&seed) & 1;
			key.user_id_offset = pgpk_rand_u32(&seed);
			/* A subkey has its primary key, nothing else does. */
			if (key.has_subkey && key.subkey) {
				pgpk_rand_material(&seed, &prim, p, 1);
				key.primary = &prim;
			}
			if (pgpk_rand(&seed) & 1) {
				pgpk_rand_sig(&seed, &cert, p, 1);
				key.certification = &cert;
			}
			key.has_soft_revoked = pgpk_rand(&seed) & 1;
			key.soft_revoked = pgpk_rand_u32(&seed);
			/* Pools 0 and 1 again: their octets may agree. */
			if (pgpk_rand(&seed) & 1) {
				pgpk_rand_sig(&seed, &self, p, 0);
				key.self_signature = &self;
			}
			if (pgpk_rand(&seed) & 1) {
				pgpk_rand_sig(&seed, &first, p, 1);
				key.first_binding = &first;
			}
			c.key = &key;
		} else {
			pgpk_rand_sig(&seed, &sig, p, 0);
			c.signature = &sig;
			c.has_content = pgpk_rand(&seed) & 1;
			if (c.has_content)
				c.content =
					pgpk_rand_bytes(&seed, p->content, 0,
							sizeof(p->content), 0);
			c.n_more_signatures = pgpk_rand(&seed) % 5;
			/* Elements share pool 1: their octets may agree. */
			for (j = 0; j < c.n_more_signatures; j++) {
				pgpk_rand_sig(&seed, &more[j], p, 1);
				mores[j] = &more[j];
			}
			c.more_signatures = mores;
		}
		blob = pgpk_pack(&c, &len);
		ret = pgpk_canon_decode(blob, len, d, &err);
		if (ret) {
			pgpk_check(0, "round trip %u: refused (%s at %u)", i,
				   err.why, err.offset);
		} else if (c.key) {
			pgpk_check(pgpk_same_key(&d->key, c.key) &&
					   !PGPK_HAS(d, PGPK_CANON_SIGNATURE),
				   "round trip %u: key values differ", i);
			ok++;
		} else {
			pgpk_check(
				pgpk_same_sig(&d->sigs[0], c.signature) &&
					!PGPK_HAS(d, PGPK_CANON_KEY) &&
					PGPK_HAS(d, PGPK_CANON_CONTENT) ==
						c.has_content &&
					pgpk_same_bytes(&d->content,
							&c.content) &&
					PGPK_HAS(d,
						 PGPK_CANON_MORE_SIGNATURES) ==
						!!c.n_more_signatures &&
					pgpk_same_sigs(d, c.more_signatures,
						       c.n_more_signatures),
				"round trip %u: signature values differ", i);
			ok++;
		}
		free(blob);
	}
	printf("round trip: %u of %u random messages decoded identically\n", ok,
	       iterations);
	free(d);
	free(p);
}

/* ---- an independent writer for hand-made (non-)canonical blobs ---- */

struct pgpk_w {
	uint8_t buf[16384];
	size_t len;
};

static void pgpk_w_raw(struct pgpk_w *w, const void *data, size_t len)
{
	if (w->len + len > sizeof(w->buf))
		abort();
	memcpy(w->buf + w->len, data, len);
	w->len += len;
}

static void pgpk_w_varint(struct pgpk_w *w, uint64_t v)
{
	uint8_t b;

	do {
		b = v & 0x7f;
		v >>= 7;
		if (v)
			b |= 0x80;
		pgpk_w_raw(w, &b, 1);
	} while (v);
}

static void pgpk_w_uint(struct pgpk_w *w, unsigned int field, uint64_t v)
{
	pgpk_w_varint(w, field << 3);
	pgpk_w_varint(w, v);
}

static void pgpk_w_bytes(struct pgpk_w *w, unsigned int field, const void *data,
			 size_t len)
{
	pgpk_w_varint(w, field << 3 | 2);
	pgpk_w_varint(w, len);
	pgpk_w_raw(w, data, len);
}

static const uint8_t pgpk_n[] = { 0xc5, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t pgpk_e[] = { 0x01, 0x00, 0x01 };

/* KeyMaterial v4 RSA, as protobuf-c writes it. */
static void pgpk_w_material(struct pgpk_w *w)
{
	pgpk_w_uint(w, 1, 4);
	pgpk_w_uint(w, 2, 1700000000);
	pgpk_w_uint(w, 3, 1);
	pgpk_w_bytes(w, 4, pgpk_n, sizeof(pgpk_n));
	pgpk_w_bytes(w, 5, pgpk_e, sizeof(pgpk_e));
}

/* magic + Canonical { key = Key { material = @mat, rest } } */
static void pgpk_w_key_blob(struct pgpk_w *out, const struct pgpk_w *mat,
			    const struct pgpk_w *rest)
{
	struct pgpk_w key = { .len = 0 };

	pgpk_w_bytes(&key, 1, mat->buf, mat->len);
	if (rest)
		pgpk_w_raw(&key, rest->buf, rest->len);
	out->len = 0;
	pgpk_w_raw(out, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk_w_bytes(out, 1, key.buf, key.len);
}

static void pgpk_w_sig(struct pgpk_w *w, unsigned int version)
{
	static const uint8_t hashed[] = { 5, 2, 0x65, 0x4a, 0x4b, 0x4c };
	static const uint8_t salt[16] = { 1 };
	static const uint8_t s[] = { 0x7f, 0x01 };
	static const uint8_t keyid[8] = { 0xaa };

	pgpk_w_uint(w, 1, version);
	pgpk_w_uint(w, 2, 0);
	pgpk_w_uint(w, 3, 1);
	pgpk_w_uint(w, 4, 8);
	pgpk_w_uint(w, 5, 1700000000);
	pgpk_w_bytes(w, 7, hashed, sizeof(hashed));
	if (version == 6)
		pgpk_w_bytes(w, 8, salt, sizeof(salt));
	pgpk_w_uint(w, 9, 0xbeef);
	pgpk_w_bytes(w, 10, s, sizeof(s));
	pgpk_w_bytes(w, 11, keyid, sizeof(keyid));
}

/*
 * The fields every signature case starts with: version, type 0, RSA,
 * SHA-256, created 1 and an empty hashed area (fields 1-5 and 7).
 */
static void pgpk_w_sig_head(struct pgpk_w *w, unsigned int version)
{
	w->len = 0;
	pgpk_w_uint(w, 1, version);
	pgpk_w_uint(w, 2, 0);
	pgpk_w_uint(w, 3, 1);
	pgpk_w_uint(w, 4, 8);
	pgpk_w_uint(w, 5, 1);
	pgpk_w_bytes(w, 7, "", 0);
}

static void pgpk_w_sig_blob(struct pgpk_w *out, const struct pgpk_w *sig,
			    const struct pgpk_w *rest)
{
	out->len = 0;
	pgpk_w_raw(out, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk_w_bytes(out, 2, sig->buf, sig->len);
	if (rest)
		pgpk_w_raw(out, rest->buf, rest->len);
}

/*
 * Decode @blob: accepted (want NULL), or refused with the reason @want at
 * an offset inside the blob.
 */
static void pgpk_expect(const char *name, const uint8_t *blob, size_t len,
			const char *want)
{
	static struct pgpk_canon d;
	struct pgpk_canon_error err;
	int ret = pgpk_canon_decode(blob, len, &d, &err);

	if (!want)
		pgpk_check(ret == 0, "%s: refused: %s at offset %u", name,
			   err.why, err.offset);
	else
		pgpk_check(ret == -EBADMSG && err.why &&
				   !strcmp(err.why, want) && err.offset <= len,
			   "%s: want '%s', got %d '%s' at %u", name, want, ret,
			   ret ? err.why : "accepted", err.offset);
}

#define EXPECT(name, w, want) pgpk_expect(name, (w)->buf, (w)->len, want)

/* The hand writer agrees with protobuf-c on a valid key. */
static void pgpk_test_writer_matches_protobuf_c(void)
{
	struct pgpk_w mat = { .len = 0 }, blob;
	Pgpk__KeyMaterial m;
	Pgpk__Canonical c;
	Pgpk__Key k;
	uint8_t *packed;
	size_t len;

	pgpk__key_material__init(&m);
	m.version = 4;
	m.created = 1700000000;
	m.algorithm = 1;
	m.rsa_n.data = (uint8_t *)pgpk_n;
	m.rsa_n.len = sizeof(pgpk_n);
	m.rsa_e.data = (uint8_t *)pgpk_e;
	m.rsa_e.len = sizeof(pgpk_e);
	pgpk__key__init(&k);
	k.material = &m;
	pgpk__canonical__init(&c);
	c.key = &k;
	packed = pgpk_pack(&c, &len);

	pgpk_w_material(&mat);
	pgpk_w_key_blob(&blob, &mat, NULL);
	pgpk_check(len == blob.len && !memcmp(packed, blob.buf, len),
		   "hand writer differs from protobuf-c");
	EXPECT("valid key", &blob, W_OK);
	free(packed);
}

/* KeyMaterial fields 1..3 of a v4 key of @algorithm, then n. */
static void pgpk_w_material_head(struct pgpk_w *w, uint64_t algorithm)
{
	pgpk_w_uint(w, 1, 4);
	pgpk_w_uint(w, 2, 1);
	pgpk_w_uint(w, 3, algorithm);
	pgpk_w_bytes(w, 4, pgpk_n, sizeof(pgpk_n));
}

static void pgpk_test_key_variants(void)
{
	struct pgpk_w mat, rest, blob, sig = { .len = 0 };
	uint8_t big[PGPK_MAX_MPI + 1];

	memset(big, 0x80, sizeof(big));
	pgpk_w_sig(&sig, 4);

#define MAT_CASE(name, want, body)                  \
	do {                                        \
		mat.len = 0;                        \
		body;                               \
		pgpk_w_key_blob(&blob, &mat, NULL); \
		EXPECT(name, &blob, want);          \
	} while (0)

	MAT_CASE("reordered fields", W_LEFT, {
		pgpk_w_uint(&mat, 2, 1700000000);
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, pgpk_n, sizeof(pgpk_n));
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("exponent before modulus", W_LEFT, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1700000000);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
		pgpk_w_bytes(&mat, 4, pgpk_n, sizeof(pgpk_n));
	});
	MAT_CASE("duplicated field", W_LEFT, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 1, 4);
	});
	MAT_CASE("duplicated exponent", W_LEFT, {
		pgpk_w_material(&mat);
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("unknown field 6", W_LEFT, {
		pgpk_w_material(&mat);
		pgpk_w_uint(&mat, 6, 0);
	});
	MAT_CASE("field number 0", W_LEFT, { pgpk_w_uint(&mat, 0, 0); });
	MAT_CASE("huge field number", W_LEFT, {
		pgpk_w_varint(&mat, (uint64_t)1 << 40);
		pgpk_w_varint(&mat, 0);
	});
	MAT_CASE("non-minimal varint value", W_RANGE, {
		pgpk_w_varint(&mat, 1 << 3);
		pgpk_w_raw(&mat, "\x84\x00", 2);
	});
	MAT_CASE("non-minimal varint tag", W_LEFT,
		 { pgpk_w_raw(&mat, "\x88\x00\x04", 3); });
	MAT_CASE("non-minimal zero", W_RANGE, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_varint(&mat, 2 << 3);
		pgpk_w_raw(&mat, "\x80\x00", 2);
	});
	MAT_CASE("11-octet varint", W_RANGE, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_varint(&mat, 2 << 3);
		pgpk_w_raw(&mat, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x01",
			   11);
	});
	MAT_CASE("varint over 64 bits", W_RANGE, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_varint(&mat, 2 << 3);
		pgpk_w_raw(&mat, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02",
			   10);
	});
	MAT_CASE("uint32 over 32 bits", W_RANGE, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 0x100000000ULL);
	});
	MAT_CASE("wire type 2 for a varint", W_LEFT,
		 { pgpk_w_bytes(&mat, 1, "\x04", 1); });
	MAT_CASE("wire type 0 for bytes", W_LEFT, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_uint(&mat, 4, 5);
	});
	MAT_CASE("wire type 1 (fixed64)", W_LEFT, {
		pgpk_w_varint(&mat, 1 << 3 | 1);
		pgpk_w_raw(&mat, "\x04\0\0\0\0\0\0\0", 8);
	});
	MAT_CASE("wire type 5 (fixed32)", W_LEFT, {
		pgpk_w_varint(&mat, 1 << 3 | 5);
		pgpk_w_raw(&mat, "\x04\0\0\0", 4);
	});
	MAT_CASE("length past the end", W_TRUNC, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_varint(&mat, 4 << 3 | 2);
		pgpk_w_varint(&mat, 300);
		pgpk_w_raw(&mat, pgpk_n, sizeof(pgpk_n));
	});
	MAT_CASE("oversize modulus", W_LEN, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, big, sizeof(big));
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("empty modulus", W_LEN, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, "", 0);
	});
	MAT_CASE("modulus with leading zero", W_LEN, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, "\x00\xc5", 2);
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("missing exponent", W_MISSING, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, pgpk_n, sizeof(pgpk_n));
	});
	/* RSA e: at most 8 octets (e < 2^64), no leading zero. */
	MAT_CASE("exponent of 8 octets", W_OK, {
		pgpk_w_material_head(&mat, 1);
		pgpk_w_bytes(&mat, 5, "\x80\0\0\0\0\0\0\x01", 8);
	});
	MAT_CASE("exponent of 9 octets", W_LEN, {
		pgpk_w_material_head(&mat, 1);
		pgpk_w_bytes(&mat, 5, "\x01\0\0\0\0\0\0\0\x01", 9);
	});
	MAT_CASE("exponent of 1024 octets", W_LEN, {
		pgpk_w_material_head(&mat, 1);
		pgpk_w_bytes(&mat, 5, big, PGPK_MAX_MPI);
	});
	MAT_CASE("exponent with leading zero", W_LEN, {
		pgpk_w_material_head(&mat, 1);
		pgpk_w_bytes(&mat, 5, "\x00\x01\x00\x01", 4);
	});
	MAT_CASE("key version 5", W_KEYVER, {
		pgpk_w_uint(&mat, 1, 5);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, pgpk_n, sizeof(pgpk_n));
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("key version 3", W_KEYVER, {
		pgpk_w_uint(&mat, 1, 3);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, pgpk_n, sizeof(pgpk_n));
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("key version 6", W_OK, {
		pgpk_w_uint(&mat, 1, 6);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 1);
		pgpk_w_bytes(&mat, 4, pgpk_n, sizeof(pgpk_n));
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	/* RFC 9580 9.1: 1 RSA, 3 RSA Sign-Only; 2 Encrypt-Only signs nothing. */
	MAT_CASE("algorithm 3 (RSA Sign-Only)", W_OK, {
		pgpk_w_material_head(&mat, 3);
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("algorithm 0", W_RSA, {
		pgpk_w_material_head(&mat, 0);
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("algorithm 2 (RSA Encrypt-Only)", W_RSA, {
		pgpk_w_material_head(&mat, 2);
		pgpk_w_bytes(&mat, 5, pgpk_e, sizeof(pgpk_e));
	});
	MAT_CASE("algorithm 22 (EdDSA)", W_RANGE, {
		pgpk_w_uint(&mat, 1, 4);
		pgpk_w_uint(&mat, 2, 1);
		pgpk_w_uint(&mat, 3, 22);
	});
	/* A semantic error is named before a missing field. */
	MAT_CASE("empty material: algorithm 0", W_RSA, {});

	/* Key-level fields after a valid material. */
#define KEY_CASE(name, want, body)                   \
	do {                                         \
		mat.len = 0;                         \
		rest.len = 0;                        \
		pgpk_w_material(&mat);               \
		body;                                \
		pgpk_w_key_blob(&blob, &mat, &rest); \
		EXPECT(name, &blob, want);           \
	} while (0)

	KEY_CASE("subkey flag 2", W_RANGE, pgpk_w_uint(&rest, 3, 2));
	KEY_CASE("empty user ID", W_LEN, pgpk_w_bytes(&rest, 4, "", 0));
	/* 6, 7 and 12 were hints (expires, key_flags, bound): reserved,
	 * refused however spelled; the kernel reads them from the
	 * self-signatures it verifies. */
	KEY_CASE("field 6 (expires)", W_LEFT, pgpk_w_uint(&rest, 6, 1));
	KEY_CASE("field 7 (key_flags)", W_LEFT, pgpk_w_uint(&rest, 7, 3));
	KEY_CASE("field 12 (bound)", W_LEFT, pgpk_w_uint(&rest, 12, 1));
	KEY_CASE("field 7 after a certification", W_LEFT, {
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
		pgpk_w_uint(&rest, 7, 3);
	});
	KEY_CASE("unknown key field 16", W_LEFT, pgpk_w_uint(&rest, 16, 1));
	KEY_CASE("self-signature as a varint", W_LEFT,
		 pgpk_w_uint(&rest, 14, 1));
	KEY_CASE("material twice", W_LEFT,
		 pgpk_w_bytes(&rest, 1, mat.buf, mat.len));
	KEY_CASE("subkey without its primary", W_PRIMARY,
		 pgpk_w_uint(&rest, 3, 1));
	KEY_CASE("primary key of no subkey", W_PRIMARY,
		 pgpk_w_bytes(&rest, 8, mat.buf, mat.len));
	KEY_CASE("primary key of a subkey flag 0", W_PRIMARY, {
		pgpk_w_uint(&rest, 3, 0);
		pgpk_w_bytes(&rest, 8, mat.buf, mat.len);
	});
	KEY_CASE("subkey with its primary", W_OK, {
		pgpk_w_uint(&rest, 2, 3);
		pgpk_w_uint(&rest, 3, 1);
		pgpk_w_bytes(&rest, 8, mat.buf, mat.len);
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 14, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 15, sig.buf, sig.len);
	});
	KEY_CASE("first binding before the self-signature", W_LEFT, {
		pgpk_w_bytes(&rest, 15, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 14, sig.buf, sig.len);
	});
	KEY_CASE("self-signature twice", W_LEFT, {
		pgpk_w_bytes(&rest, 14, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 14, sig.buf, sig.len);
	});
	KEY_CASE("self-signature v3", W_SIGVER, {
		struct pgpk_w v3 = { .len = 0 };

		pgpk_w_sig(&v3, 3);
		pgpk_w_bytes(&rest, 14, v3.buf, v3.len);
	});
	/* 9 was Key.primary_offset: reserved, refused. */
	KEY_CASE("field 9 (primary_offset) of a subkey", W_LEFT, {
		pgpk_w_uint(&rest, 3, 1);
		pgpk_w_bytes(&rest, 8, mat.buf, mat.len);
		pgpk_w_uint(&rest, 9, 400);
	});
	KEY_CASE("field 9 alone", W_LEFT, pgpk_w_uint(&rest, 9, 0));
	/* Every number is 32 bits: a 10-octet varint, 2^32, refused. */
	KEY_CASE("soft revocation over 64 bits", W_RANGE, {
		pgpk_w_varint(&rest, 13 << 3);
		pgpk_w_raw(&rest, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02",
			   10);
	});
	KEY_CASE("soft revocation of 2^32", W_RANGE, {
		pgpk_w_varint(&rest, 13 << 3);
		pgpk_w_raw(&rest, "\x80\x80\x80\x80\x10", 5);
	});
	KEY_CASE("soft revocation of 2^32 - 1", W_OK,
		 pgpk_w_uint(&rest, 13, UINT32_MAX));
	KEY_CASE("valid optional fields", W_OK, {
		pgpk_w_uint(&rest, 2, 0);
		pgpk_w_uint(&rest, 3, 0);
		pgpk_w_bytes(&rest, 4, "Alice <a@example.org>", 21);
	});
	KEY_CASE("every field of a primary key", W_OK, {
		pgpk_w_uint(&rest, 2, 3);
		pgpk_w_bytes(&rest, 4, "Alice <a@example.org>", 21);
		pgpk_w_uint(&rest, 5, 300);
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
		pgpk_w_uint(&rest, 13, 1750000000);
		pgpk_w_bytes(&rest, 14, sig.buf, sig.len);
	});
	KEY_CASE("self-signature before soft revocation", W_LEFT, {
		pgpk_w_bytes(&rest, 14, sig.buf, sig.len);
		pgpk_w_uint(&rest, 13, 1750000000);
	});
	KEY_CASE("user ID before packet offset", W_LEFT, {
		pgpk_w_bytes(&rest, 4, "Alice <a@example.org>", 21);
		pgpk_w_uint(&rest, 2, 3);
	});
	KEY_CASE("soft revocation before certification", W_LEFT, {
		pgpk_w_uint(&rest, 13, 1750000000);
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
	});
	/* 11 was Key.third_party: reserved, refused however spelled. */
	KEY_CASE("field 11 (third_party) alone", W_LEFT,
		 pgpk_w_bytes(&rest, 11, sig.buf, sig.len));
	KEY_CASE("certification, then field 11", W_LEFT, {
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 11, sig.buf, sig.len);
	});
	KEY_CASE("field 11 between certification and soft revocation", W_LEFT, {
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 11, sig.buf, sig.len);
		pgpk_w_uint(&rest, 13, 1);
	});
	KEY_CASE("field 11 as a varint", W_LEFT, pgpk_w_uint(&rest, 11, 1));
	KEY_CASE("field 11 empty", W_LEFT, pgpk_w_bytes(&rest, 11, "", 0));
	KEY_CASE("certification twice", W_LEFT, {
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
	});
	KEY_CASE("certification v3", W_SIGVER, {
		struct pgpk_w v3 = { .len = 0 };

		pgpk_w_sig(&v3, 3);
		pgpk_w_bytes(&rest, 10, v3.buf, v3.len);
	});
	{
		uint8_t uid[PGPK_MAX_USER_ID + 1];

		memset(uid, 'u', sizeof(uid));
		KEY_CASE("user ID of 4096 octets", W_OK,
			 pgpk_w_bytes(&rest, 4, uid, PGPK_MAX_USER_ID));
		KEY_CASE("oversize user ID", W_LEN,
			 pgpk_w_bytes(&rest, 4, uid, sizeof(uid)));
	}
}

static void pgpk_test_sig_variants(void)
{
	struct pgpk_w sig, rest, blob;
	struct pgpk_canon_error err;
	struct pgpk_canon *d = malloc(sizeof(*d));

#define SIG_CASE(name, want, version, body)          \
	do {                                         \
		sig.len = 0;                         \
		rest.len = 0;                        \
		pgpk_w_sig(&sig, version);           \
		body;                                \
		pgpk_w_sig_blob(&blob, &sig, &rest); \
		EXPECT(name, &blob, want);           \
	} while (0)

	if (!d)
		abort();
	SIG_CASE("valid v4 signature", W_OK, 4, {});
	SIG_CASE("valid v6 signature", W_OK, 6, {});
	/* RFC 9580 5.2.2: v3 is for no new signature (the policy floor). */
	SIG_CASE("v3 signature", W_SIGVER, 3, {});
	SIG_CASE("v3 without hashed area", W_SIGVER, 3, {
		sig.len = 0;
		pgpk_w_uint(&sig, 1, 3);
		pgpk_w_uint(&sig, 2, 0);
		pgpk_w_uint(&sig, 3, 1);
		pgpk_w_uint(&sig, 4, 8);
		pgpk_w_uint(&sig, 5, 1);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
	});
	SIG_CASE("signature with content", W_OK, 4,
		 pgpk_w_bytes(&rest, 3, "hello\r\n", 7));
	SIG_CASE("signature with empty content", W_OK, 4,
		 pgpk_w_bytes(&rest, 3, "", 0));
	/* 6 was Signature.expires: reserved (the hashed area says). */
	SIG_CASE("field 6 (expires) in its place", W_LEFT, 4, {
		sig.len = 0;
		pgpk_w_uint(&sig, 1, 4);
		pgpk_w_uint(&sig, 2, 0);
		pgpk_w_uint(&sig, 3, 1);
		pgpk_w_uint(&sig, 4, 8);
		pgpk_w_uint(&sig, 5, 1);
		pgpk_w_uint(&sig, 6, 1800000000);
		pgpk_w_bytes(&sig, 7, "", 0);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
	});
	SIG_CASE("quick check over 16 bits", W_RANGE, 4, {
		pgpk_w_sig_head(&sig, 4);
		pgpk_w_uint(&sig, 9, 0x10000);
	});
	SIG_CASE("v4 without hashed area", W_MISSING, 4, {
		sig.len = 0;
		pgpk_w_uint(&sig, 1, 4);
		pgpk_w_uint(&sig, 2, 0);
		pgpk_w_uint(&sig, 3, 1);
		pgpk_w_uint(&sig, 4, 8);
		pgpk_w_uint(&sig, 5, 1);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
	});
	SIG_CASE("v6 without salt", W_SALT, 6, {
		pgpk_w_sig_head(&sig, 6);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
	});
	SIG_CASE("v4 with a salt", W_SALT, 4, {
		pgpk_w_sig_head(&sig, 4);
		pgpk_w_bytes(&sig, 8, "1234567890123456", 16);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
	});
	SIG_CASE("signature version 5", W_SIGVER, 4, sig.buf[1] = 5);
	SIG_CASE("signature version 256", W_RANGE, 4, {
		sig.len = 0;
		pgpk_w_uint(&sig, 1, 256);
	});
	SIG_CASE("issuer fingerprint of 19 octets", W_LEN, 4, {
		uint8_t fpr[19] = { 0 };

		pgpk_w_bytes(&sig, 12, fpr, sizeof(fpr));
	});
	SIG_CASE("issuer fingerprint of 33 octets", W_LEN, 4, {
		uint8_t fpr[33] = { 0 };

		pgpk_w_bytes(&sig, 12, fpr, sizeof(fpr));
	});
	sig.len = 0;
	pgpk_w_sig(&sig, 4);
	{
		uint8_t fpr[25] = { 0 };

		pgpk_w_bytes(&sig, 12, fpr, sizeof(fpr));
	}
	pgpk_w_sig_blob(&blob, &sig, NULL);
	/* 20..32 (proto/pgpk.proto): a length no key has names no key */
	EXPECT("issuer fingerprint of 25 octets", &blob, W_OK);
	SIG_CASE("issuer key ID of 7 octets", W_LEN, 4, {
		pgpk_w_sig_head(&sig, 4);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
		pgpk_w_bytes(&sig, 11, "1234567", 7);
	});
	SIG_CASE("salt of 15 octets", W_LEN, 6, {
		pgpk_w_sig_head(&sig, 6);
		pgpk_w_bytes(&sig, 8, "123456789012345", 15);
	});
	SIG_CASE("salt of 33 octets", W_LEN, 6, {
		pgpk_w_sig_head(&sig, 6);
		pgpk_w_bytes(&sig, 8, "123456789012345678901234567890123", 33);
	});
	/*
	 * The salt's agreement with the hash moved out of the decoder: the
	 * kernel checks it where it hashes (pgpk_rebuild_salt_len()), as
	 * user space that hashes must.
	 */
	SIG_CASE("SHA-256 salt of 17 octets decodes", W_OK, 6, {
		pgpk_w_sig_head(&sig, 6);
		pgpk_w_bytes(&sig, 8, "12345678901234567", 17);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
	});
	pgpk_check(
		!pgpk_canon_decode(blob.buf, blob.len, d, &err) &&
			d->sigs[0].salt.len == 17 &&
			pgpk_rebuild_salt_len(d->sigs[0].hash_algorithm) == 16,
		"SHA-256 salt of 17 octets: pgpk_rebuild_salt_len() says 16");
	pgpk_check(pgpk_rebuild_salt_len(9) == 24 &&
			   pgpk_rebuild_salt_len(10) == 32 &&
			   pgpk_rebuild_salt_len(11) == 16 &&
			   pgpk_rebuild_salt_len(12) == 16 &&
			   pgpk_rebuild_salt_len(14) == 32 &&
			   pgpk_rebuild_salt_len(2) == 0 &&
			   pgpk_rebuild_salt_len(13) == 0 &&
			   pgpk_rebuild_salt_len(255) == 0,
		   "RFC 9580 9.5 salt sizes");
	SIG_CASE("value offset", W_OK, 4, pgpk_w_uint(&sig, 13, 0xffffffffULL));
	SIG_CASE("value offset over 32 bits", W_RANGE, 4,
		 pgpk_w_uint(&sig, 13, 0x100000000ULL));
	SIG_CASE("issuer key ID after fingerprint", W_LEFT, 4, {
		uint8_t fpr[20] = { 0 };

		sig.len = 0;
		pgpk_w_sig_head(&sig, 4);
		pgpk_w_uint(&sig, 9, 1);
		pgpk_w_bytes(&sig, 10, "\x01", 1);
		pgpk_w_bytes(&sig, 12, fpr, sizeof(fpr));
		pgpk_w_bytes(&sig, 11, "12345678", 8);
	});
	sig.len = 0;
	pgpk_w_sig(&sig, 4);
	blob.len = 0;
	pgpk_w_raw(&blob, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk_w_bytes(&blob, 3, "x", 1);
	pgpk_w_bytes(&blob, 2, sig.buf, sig.len);
	EXPECT("content before signature", &blob, W_LEFT);
	/* trailing bytes after a complete message */
	SIG_CASE("trailing zero octet", W_LEFT, 4,
		 pgpk_w_raw(&rest, "\x00", 1));
	SIG_CASE("trailing second signature", W_LEFT, 4,
		 pgpk_w_bytes(&rest, 2, sig.buf, sig.len));
	SIG_CASE("trailing field 4 as varint", W_LEFT, 4,
		 pgpk_w_uint(&rest, 4, 1));
	SIG_CASE("trailing field 5", W_LEFT, 4, pgpk_w_uint(&rest, 5, 1));
	SIG_CASE("trailing partial tag", W_LEFT, 4,
		 pgpk_w_raw(&rest, "\x80", 1));
	free(d);
}

/* Canonical.more_signatures: after content, bounded, each a Signature. */
static void pgpk_test_more_signatures(void)
{
	struct pgpk_w mat = { .len = 0 }, sig = { .len = 0 }, bad, blob;
	struct pgpk_canon_error err;
	static struct pgpk_w rest;
	static struct pgpk_canon d;
	unsigned int i;

	pgpk_w_sig(&sig, 4);
	bad.len = 0;
	pgpk_w_sig(&bad, 5);

#define MORE_CASE(name, want, body)                  \
	do {                                         \
		rest.len = 0;                        \
		body;                                \
		pgpk_w_sig_blob(&blob, &sig, &rest); \
		EXPECT(name, &blob, want);           \
	} while (0)

	MORE_CASE("content and three more signatures", W_OK, {
		pgpk_w_bytes(&rest, 3, "text", 4);
		for (i = 0; i < 3; i++)
			pgpk_w_bytes(&rest, 4, sig.buf, sig.len);
	});
	pgpk_check(!pgpk_canon_decode(blob.buf, blob.len, &d, &err) &&
			   d.nr_more == 3 &&
			   PGPK_HAS(&d, PGPK_CANON_MORE_SIGNATURES) &&
			   d.content.len == 4,
		   "three more signatures: count");
	for (i = 0; i <= 3; i++)
		pgpk_check(d.sigs[i].version == 4 &&
				   d.sigs[i].quick_check == 0xbeef &&
				   PGPK_HAS(&d.sigs[i], PGPK_SIG_ISSUER_KEY_ID),
			   "signature %u decoded", i);
	pgpk_check(!d.sigs[4].present, "no fifth signature");
	MORE_CASE("detached, one more signature", W_OK,
		  pgpk_w_bytes(&rest, 4, sig.buf, sig.len));
	pgpk_check(!pgpk_canon_decode(blob.buf, blob.len, &d, &err) &&
			   d.nr_more == 1 && !PGPK_HAS(&d, PGPK_CANON_CONTENT),
		   "one more signature: count");
	MORE_CASE("no more signatures", W_OK, {});
	pgpk_check(!pgpk_canon_decode(blob.buf, blob.len, &d, &err) &&
			   d.nr_more == 0 &&
			   !PGPK_HAS(&d, PGPK_CANON_MORE_SIGNATURES),
		   "no more signature: count");
	MORE_CASE("15 more signatures", W_OK, {
		for (i = 0; i < PGPK_MAX_SIGNATURES - 1; i++)
			pgpk_w_bytes(&rest, 4, sig.buf, sig.len);
	});
	pgpk_check(!pgpk_canon_decode(blob.buf, blob.len, &d, &err) &&
			   d.nr_more == PGPK_MAX_SIGNATURES - 1 &&
			   d.sigs[PGPK_MAX_SIGNATURES - 1].quick_check ==
				   0xbeef,
		   "15 more signatures: count");
	MORE_CASE("16 more signatures", W_LEFT, {
		for (i = 0; i < PGPK_MAX_SIGNATURES; i++)
			pgpk_w_bytes(&rest, 4, sig.buf, sig.len);
	});
	MORE_CASE("more signature before content", W_LEFT, {
		pgpk_w_bytes(&rest, 4, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 3, "text", 4);
	});
	MORE_CASE("second more signature version 5", W_SIGVER, {
		pgpk_w_bytes(&rest, 4, sig.buf, sig.len);
		pgpk_w_bytes(&rest, 4, bad.buf, bad.len);
	});
	MORE_CASE("empty more signature: version 0", W_SIGVER,
		  pgpk_w_bytes(&rest, 4, "", 0));
	MORE_CASE("more signature without its value", W_MISSING, {
		struct pgpk_w part = { .len = 0 };

		pgpk_w_sig_head(&part, 4);
		pgpk_w_uint(&part, 9, 1);
		pgpk_w_bytes(&rest, 4, part.buf, part.len);
	});
	MORE_CASE("more signature as a varint", W_LEFT,
		  pgpk_w_uint(&rest, 4, 1));
	MORE_CASE("more signatures, then field 5", W_LEFT, {
		pgpk_w_bytes(&rest, 4, sig.buf, sig.len);
		pgpk_w_uint(&rest, 5, 0);
	});

	/* Only with a signature. */
	pgpk_w_material(&mat);
	rest.len = 0;
	pgpk_w_bytes(&rest, 4, sig.buf, sig.len);
	pgpk_w_key_blob(&blob, &mat, NULL);
	pgpk_w_raw(&blob, rest.buf, rest.len);
	EXPECT("key with more signatures", &blob, W_ENVELOPE);
	blob.len = 0;
	pgpk_w_raw(&blob, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk_w_raw(&blob, rest.buf, rest.len);
	EXPECT("more signatures alone", &blob, W_ENVELOPE);
}

static void pgpk_test_envelope(void)
{
	struct pgpk_w mat = { .len = 0 }, sig = { .len = 0 }, rest, blob;
	uint8_t *big;

	pgpk_w_material(&mat);
	pgpk_w_sig(&sig, 4);

	rest.len = 0;
	pgpk_w_bytes(&rest, 2, sig.buf, sig.len);
	pgpk_w_key_blob(&blob, &mat, NULL);
	pgpk_w_raw(&blob, rest.buf, rest.len);
	EXPECT("key and signature", &blob, W_ENVELOPE);

	pgpk_w_key_blob(&blob, &mat, NULL);
	pgpk_w_bytes(&blob, 3, "x", 1);
	EXPECT("key with content", &blob, W_ENVELOPE);

	blob.len = 0;
	pgpk_w_raw(&blob, PGPK_MAGIC, PGPK_MAGIC_LEN);
	EXPECT("magic alone", &blob, W_ENVELOPE);
	pgpk_w_bytes(&blob, 3, "x", 1);
	EXPECT("content alone", &blob, W_ENVELOPE);

	blob.len = 0;
	pgpk_w_raw(&blob, "\x7fPGK\x02", PGPK_MAGIC_LEN);
	EXPECT("magic of another encoding version", &blob, W_MAGIC);
	blob.len = 0;
	pgpk_w_raw(&blob, "\x99\x01\x0d\x04", 4);
	EXPECT("OpenPGP packet", &blob, W_MAGIC);
	pgpk_expect("empty", blob.buf, 0, W_MAGIC);

	big = calloc(1, PGPK_MAX_BLOB + 1);
	if (!big)
		abort();
	memcpy(big, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk_expect("over 1 MiB", big, PGPK_MAX_BLOB + 1, W_MAGIC);
	free(big);
}

/* Every proper prefix of a key-only or signature-only blob is refused. */
static void pgpk_test_truncation(void)
{
	struct pgpk_w mat = { .len = 0 }, sig = { .len = 0 }, rest, blob;
	struct pgpk_canon_error err;
	static struct pgpk_canon d;
	size_t i, refused = 0, total = 0;
	unsigned int v;

	rest.len = 0;
	pgpk_w_material(&mat);
	pgpk_w_bytes(&rest, 4, "Bob <b@example.org>", 19);
	pgpk_w_sig(&sig, 4);
	pgpk_w_bytes(&rest, 10, sig.buf, sig.len);
	pgpk_w_uint(&rest, 13, 1);
	pgpk_w_bytes(&rest, 14, sig.buf, sig.len);
	pgpk_w_key_blob(&blob, &mat, &rest);
	EXPECT("key with certification, soft revocation, self-signature", &blob,
	       W_OK);
	for (i = 0; i < blob.len; i++, total++)
		refused += pgpk_canon_decode(blob.buf, i, &d, &err) == -EBADMSG;

	for (v = 4; v <= 6; v += 2) {
		sig.len = 0;
		pgpk_w_sig(&sig, v);
		pgpk_w_sig_blob(&blob, &sig, NULL);
		for (i = 0; i < blob.len; i++, total++)
			refused += pgpk_canon_decode(blob.buf, i, &d, &err) ==
				   -EBADMSG;
	}
	pgpk_check(refused == total, "truncation: %zu of %zu prefixes refused",
		   refused, total);
	printf("truncation: %zu of %zu prefixes refused\n", refused, total);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	pgpk_test_writer_matches_protobuf_c();
	pgpk_test_key_variants();
	pgpk_test_sig_variants();
	pgpk_test_more_signatures();
	pgpk_test_envelope();
	pgpk_test_truncation();
	pgpk_test_round_trip(3000);
	printf("%u checks, %u failed\n", pgpk_checks, pgpk_failures);
	return pgpk_failures ? 1 : 0;
}
