// SPDX-License-Identifier: GPL-2.0
/*
 * Certificate validity on synthetic certificates: keys, user IDs and
 * signatures built here octet by octet (RFC 9580) and signed with an RSA
 * key OpenSSL generates at run time, so every rule can be exercised: the
 * unknown critical subpacket (5.2.3.7), newest self-signature wins, key
 * expiry, primary user ID, back-signatures of signing subkeys (5.2.3.34),
 * subkey revocation, signature older than the key, v6 keys and
 * signatures (salt, SHA-256 fingerprint, 5.5.4.3), a genuine signature
 * moved to a user ID with the same quick check.
 */
#include <errno.h>

#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/core_names.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"
#include "proto/pgpk_fields.h"
#include "tests/openpgp/test_util.h"

#define T0 1700000000u /* key creation */
#define NOW 1750000000

struct buf {
	uint8_t d[16384];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > sizeof(b->d))
		abort();
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void put8(struct buf *b, unsigned int v)
{
	uint8_t o = (uint8_t)v;

	put(b, &o, 1);
}

static void put16(struct buf *b, unsigned int v)
{
	put8(b, v >> 8);
	put8(b, v);
}

static void put32(struct buf *b, uint32_t v)
{
	put16(b, v >> 16);
	put16(b, v & 0xffff);
}

/* RFC 9580 3.2: MPI with exact bit count. */
static void put_mpi(struct buf *b, const uint8_t *p, size_t n)
{
	unsigned int bits;
	uint8_t top;

	while (n && !*p) {
		p++;
		n--;
	}
	bits = n ? (unsigned int)(n - 1) * 8 : 0;
	for (top = n ? p[0] : 0; top; top >>= 1)
		bits++;
	put16(b, bits);
	put(b, p, n);
}

/* New-format packet (RFC 9580 4.2.1), five-octet length if large. */
static void put_packet(struct buf *out, unsigned int tag,
		       const struct buf *body)
{
	put8(out, 0xC0 | tag);
	if (body->n < 192) {
		put8(out, (unsigned int)body->n);
	} else {
		put8(out, 255);
		put32(out, (uint32_t)body->n);
	}
	put(out, body->d, body->n);
}

struct rsakey {
	EVP_PKEY *pkey;
	uint8_t n[512], e[8];
	size_t nlen, elen;
	struct buf body; /* key packet body */
	unsigned int version;
	uint8_t fpr[32];
	size_t fpr_len;
};

static void make_key(struct rsakey *k, unsigned int version, uint32_t created)
{
	BIGNUM *n = NULL, *e = NULL;
	struct buf mat = { .n = 0 };
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	uint8_t hdr[5];
	unsigned int fl;

	memset(k, 0, sizeof(*k));
	k->pkey = EVP_RSA_gen(1024);
	if (!k->pkey ||
	    !EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_N, &n) ||
	    !EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_E, &e))
		abort();
	k->nlen = (size_t)BN_bn2bin(n, k->n);
	k->elen = (size_t)BN_bn2bin(e, k->e);
	BN_free(n);
	BN_free(e);
	k->version = version;
	put_mpi(&mat, k->n, k->nlen);
	put_mpi(&mat, k->e, k->elen);
	/* RFC 9580 5.5.2.2 / 5.5.2.3 */
	put8(&k->body, version);
	put32(&k->body, created);
	put8(&k->body, 1);
	if (version == 6)
		put32(&k->body, (uint32_t)mat.n);
	put(&k->body, mat.d, mat.n);
	/* Fingerprint, independently (RFC 9580 5.5.4). */
	if (version == 6) {
		hdr[0] = 0x9B;
		hdr[1] = (uint8_t)(k->body.n >> 24);
		hdr[2] = (uint8_t)(k->body.n >> 16);
		hdr[3] = (uint8_t)(k->body.n >> 8);
		hdr[4] = (uint8_t)k->body.n;
	} else {
		hdr[0] = 0x99;
		hdr[1] = (uint8_t)(k->body.n >> 8);
		hdr[2] = (uint8_t)k->body.n;
	}
	EVP_DigestInit_ex(md, version == 6 ? EVP_sha256() : EVP_sha1(), NULL);
	EVP_DigestUpdate(md, hdr, version == 6 ? 5 : 3);
	EVP_DigestUpdate(md, k->body.d, k->body.n);
	EVP_DigestFinal_ex(md, k->fpr, &fl);
	k->fpr_len = fl;
	EVP_MD_CTX_free(md);
}

static const uint8_t *keyid_of(const struct rsakey *k)
{
	return k->version == 6 ? k->fpr : k->fpr + k->fpr_len - 8;
}

static void hash_key(EVP_MD_CTX *md, const struct rsakey *k)
{
	uint8_t hdr[5];

	if (k->version == 6) {
		hdr[0] = 0x9B;
		hdr[1] = (uint8_t)(k->body.n >> 24);
		hdr[2] = (uint8_t)(k->body.n >> 16);
		hdr[3] = (uint8_t)(k->body.n >> 8);
		hdr[4] = (uint8_t)k->body.n;
		EVP_DigestUpdate(md, hdr, 5);
	} else {
		hdr[0] = 0x99;
		hdr[1] = (uint8_t)(k->body.n >> 8);
		hdr[2] = (uint8_t)k->body.n;
		EVP_DigestUpdate(md, hdr, 3);
	}
	EVP_DigestUpdate(md, k->body.d, k->body.n);
}

/* Subpacket helpers (RFC 9580 5.2.3.7), one-octet lengths. */
static void sp(struct buf *b, unsigned int type, const void *p, size_t n)
{
	put8(b, (unsigned int)n + 1);
	put8(b, type);
	put(b, p, n);
}

static void sp32(struct buf *b, unsigned int type, uint32_t v)
{
	uint8_t o[4] = { v >> 24, v >> 16, v >> 8, v };

	sp(b, type, o, 4);
}

/* What a signature covers. */
struct target {
	const struct rsakey *k1, *k2;
	const char *uid;
};

/*
 * A v4 or v6 (version of the signer) RSA signature packet body of `type`
 * by `signer` over `t`, with `extra` hashed subpackets after creation
 * time and issuer fingerprint, and an issuer key ID unhashed.
 */
static void make_sig(struct buf *out, const struct rsakey *signer,
		     unsigned int type, uint32_t created,
		     const struct buf *extra, const struct buf *unhashed_extra,
		     const struct target *t)
{
	struct buf hashed = { .n = 0 }, unhashed = { .n = 0 }, pre = { .n = 0 };
	unsigned int v = signer->version;
	uint8_t fp[33], salt[16], digest[64], sigbuf[512], trailer[6];
	size_t slen = sizeof(sigbuf);
	unsigned int dlen;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx;

	sp32(&hashed, 2, created);
	fp[0] = (uint8_t)v;
	memcpy(fp + 1, signer->fpr, signer->fpr_len);
	sp(&hashed, 33, fp, 1 + signer->fpr_len);
	if (extra)
		put(&hashed, extra->d, extra->n);
	if (v == 4)
		sp(&unhashed, 16, keyid_of(signer), 8);
	if (unhashed_extra)
		put(&unhashed, unhashed_extra->d, unhashed_extra->n);
	/* RFC 9580 5.2.3 */
	put8(&pre, v);
	put8(&pre, type);
	put8(&pre, 1);
	put8(&pre, 8); /* SHA-256 */
	if (v == 6)
		put32(&pre, (uint32_t)hashed.n);
	else
		put16(&pre, (unsigned int)hashed.n);
	put(&pre, hashed.d, hashed.n);
	/* RFC 9580 5.2.4: [salt] data, trailer. */
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	for (size_t i = 0; i < sizeof(salt); i++)
		salt[i] = (uint8_t)(i * 7 + 1);
	if (v == 6)
		EVP_DigestUpdate(md, salt, sizeof(salt));
	if (t->k1)
		hash_key(md, t->k1);
	if (t->k2)
		hash_key(md, t->k2);
	if (t->uid) {
		uint8_t h[5] = { 0xB4, 0, 0, 0, (uint8_t)strlen(t->uid) };

		EVP_DigestUpdate(md, h, 5);
		EVP_DigestUpdate(md, t->uid, strlen(t->uid));
	}
	EVP_DigestUpdate(md, pre.d, pre.n);
	trailer[0] = (uint8_t)v;
	trailer[1] = 0xFF;
	trailer[2] = (uint8_t)(pre.n >> 24);
	trailer[3] = (uint8_t)(pre.n >> 16);
	trailer[4] = (uint8_t)(pre.n >> 8);
	trailer[5] = (uint8_t)pre.n;
	EVP_DigestUpdate(md, trailer, 6);
	EVP_DigestFinal_ex(md, digest, &dlen);
	EVP_MD_CTX_free(md);
	pctx = EVP_PKEY_CTX_new(signer->pkey, NULL);
	if (EVP_PKEY_sign_init(pctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha256()) <= 0 ||
	    EVP_PKEY_sign(pctx, sigbuf, &slen, digest, dlen) <= 0)
		abort();
	EVP_PKEY_CTX_free(pctx);

	out->n = 0;
	put(out, pre.d, pre.n);
	if (v == 6)
		put32(out, (uint32_t)unhashed.n);
	else
		put16(out, (unsigned int)unhashed.n);
	put(out, unhashed.d, unhashed.n);
	put(out, digest, 2);
	if (v == 6) {
		put8(out, sizeof(salt));
		put(out, salt, sizeof(salt));
	}
	put_mpi(out, sigbuf, slen);
}

static void add_uid(struct buf *cert, const char *uid)
{
	struct buf b = { .n = 0 };

	put(&b, uid, strlen(uid));
	put_packet(cert, 13, &b);
}

static void add_selfsig(struct buf *cert, const struct rsakey *k,
			const char *uid, uint32_t created,
			const struct buf *extra)
{
	struct buf s;
	struct target t = { .k1 = k, .uid = uid };

	make_sig(&s, k, 0x13, created, extra, NULL, &t);
	put_packet(cert, 2, &s);
}

static int parse(const struct buf *cert, struct pgpk_keyring **ring)
{
	struct pgpk_parse_opts opts = { .now = NOW };
	struct pgpk_error err;
	int ret = pgpk_keyring_parse(cert->d, cert->n, &opts, ring, &err);

	if (ret)
		fprintf(stderr, "  parse: %s\n", err.msg);
	return ret;
}

static void test_basic_and_critical(const struct rsakey *k)
{
	struct buf cert = { .n = 0 }, key = k->body, extra = { .n = 0 };
	struct pgpk_keyring *ring;
	struct pgpk_convert_opts copts = { .now = NOW };
	struct pgpk_error err;
	uint8_t *out;
	size_t olen;
	uint8_t flags = PGPK_KF_CERTIFY | PGPK_KF_SIGN;

	put_packet(&cert, 6, &key);
	add_uid(&cert, "Test <t@example.org>");
	sp(&extra, 27, &flags, 1);
	sp(&extra, 100, "x", 1); /* unknown, not critical: fine */
	add_selfsig(&cert, k, "Test <t@example.org>", T0 + 10, &extra);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		const struct pgpk_pubkey *p = &ring->certs[0].primary;

		CHECK(p->valid && p->can_sign && !p->expired);
		CHECK_EQ(p->fpr_len, k->fpr_len);
		CHECK(!memcmp(p->fpr, k->fpr, k->fpr_len));
		CHECK(!memcmp(p->keyid, keyid_of(k), 8));
		CHECK_EQ(p->version, k->version);
		CHECK_EQ(ring->nsigs_verified, 1);
		pgpk_keyring_free(ring);
	}
	/* A v6 key's self-signature is its direct-key signature (RFC 9580
	 * 10.1.3): without one there is none the kernel would read. */
	CHECK_EQ(pgpk_convert(cert.d, cert.n, PGPK_WANT_KEY, &copts, &out,
			      &olen, &err),
		 k->version == 6 ? -EKEYREJECTED : 0);
	if (!err.code)
		free(out);
	else
		CHECK(strstr(err.msg, "has no direct-key self-signature"));

	/* The same with the unknown subpacket marked critical: the only
	 * self-signature is invalid, so is the key (5.2.3.7). */
	cert.n = 0;
	extra.n = 0;
	put_packet(&cert, 6, &key);
	add_uid(&cert, "Test <t@example.org>");
	sp(&extra, 27, &flags, 1);
	sp(&extra, 0x80 | 100, "x", 1);
	add_selfsig(&cert, k, "Test <t@example.org>", T0 + 10, &extra);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		CHECK(!ring->certs[0].primary.valid);
		CHECK(ring->certs[0].uids[0].sigs[0].unknown_critical);
		CHECK_EQ(ring->nsigs_verified, 0);
		pgpk_keyring_free(ring);
	}
	CHECK_EQ(pgpk_convert(cert.d, cert.n, PGPK_WANT_KEY, &copts, &out,
			      &olen, &err),
		 -EKEYREJECTED);

	/* A signature older than its key is a time conflict (GnuPG). */
	cert.n = 0;
	put_packet(&cert, 6, &key);
	add_uid(&cert, "Test <t@example.org>");
	add_selfsig(&cert, k, "Test <t@example.org>", T0 - 10, NULL);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		CHECK(!ring->certs[0].primary.valid);
		pgpk_keyring_free(ring);
	}

	/* A self-signature over another user ID does not verify. */
	cert.n = 0;
	put_packet(&cert, 6, &key);
	add_uid(&cert, "Test <t@example.org>");
	add_selfsig(&cert, k, "Mallory <m@example.org>", T0 + 10, NULL);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		CHECK(!ring->certs[0].primary.valid);
		CHECK_EQ(ring->certs[0].uids[0].sigs[0].verified, -1);
		pgpk_keyring_free(ring);
	}
}

/*
 * The SHA-256 digest a signature body `sig` by `k` (built by make_sig())
 * would have over k and `uid`: [salt] key, user ID, hashed part, trailer.
 */
static void sig_digest(const struct buf *sig, const struct rsakey *k,
		       const char *uid, uint8_t *digest)
{
	const uint8_t *b = sig->d;
	bool v6 = b[0] == 6;
	size_t pre =
		v6 ? 8 + ((size_t)b[4] << 24 | b[5] << 16 | b[6] << 8 | b[7]) :
		     6 + ((size_t)b[4] << 8 | b[5]);
	size_t ulen = v6 ? ((size_t)b[pre] << 24 | b[pre + 1] << 16 |
			    b[pre + 2] << 8 | b[pre + 3]) :
			   ((size_t)b[pre] << 8 | b[pre + 1]);
	size_t qc = pre + (v6 ? 4 : 2) + ulen;
	uint8_t h[5] = { 0xB4, 0, 0, 0, (uint8_t)strlen(uid) };
	uint8_t trailer[6] = {
		b[0], 0xFF, pre >> 24, pre >> 16, pre >> 8, pre
	};
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	if (v6)
		EVP_DigestUpdate(md, b + qc + 3, b[qc + 2]); /* salt */
	hash_key(md, k);
	EVP_DigestUpdate(md, h, 5);
	EVP_DigestUpdate(md, uid, strlen(uid));
	EVP_DigestUpdate(md, b, pre);
	EVP_DigestUpdate(md, trailer, 6);
	EVP_DigestFinal_ex(md, digest, NULL);
	EVP_MD_CTX_free(md);
}

/*
 * A genuine self-signature moved to another user ID whose digest has the
 * same first two octets (anyone can search for one): the quick check
 * passes, and for v6 the RSA value recovers a well-padded digest with
 * that quick check too; only the comparison of the whole digest refuses
 * it.
 */
static void test_same_quick_check(const struct rsakey *k)
{
	const char *uid = "Test <t@example.org>";
	struct buf cert = { .n = 0 }, key = k->body, sig;
	struct target t = { .k1 = k, .uid = uid };
	struct pgpk_keyring *ring;
	uint8_t want[32], got[32];
	char other[64];
	unsigned int i;

	make_sig(&sig, k, 0x13, T0 + 10, NULL, NULL, &t);
	sig_digest(&sig, k, uid, want);
	for (i = 0; i < (1u << 24); i++) {
		snprintf(other, sizeof(other), "Mallory %u <m@example.org>", i);
		sig_digest(&sig, k, other, got);
		if (got[0] == want[0] && got[1] == want[1])
			break;
	}
	CHECK(i < (1u << 24));
	CHECK(memcmp(got, want, 32) != 0);
	put_packet(&cert, 6, &key);
	add_uid(&cert, other);
	put_packet(&cert, 2, &sig);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		CHECK(!ring->certs[0].primary.valid);
		CHECK(!ring->certs[0].uids[0].valid);
		CHECK_EQ(ring->certs[0].uids[0].sigs[0].verified, -1);
		pgpk_keyring_free(ring);
	}
	/* The same signature on its own user ID verifies. */
	cert.n = 0;
	put_packet(&cert, 6, &key);
	add_uid(&cert, uid);
	put_packet(&cert, 2, &sig);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		CHECK(ring->certs[0].primary.valid);
		CHECK_EQ(ring->certs[0].uids[0].sigs[0].verified, 1);
		pgpk_keyring_free(ring);
	}
}

static void test_newest_and_primary(const struct rsakey *k)
{
	struct buf cert = { .n = 0 }, key = k->body, e1 = { .n = 0 },
		   e2 = { .n = 0 }, e3 = { .n = 0 };
	struct pgpk_keyring *ring;
	uint8_t one = 1;

	put_packet(&cert, 6, &key);
	add_uid(&cert, "Old <old@example.org>");
	/* Older self-sig: expires in 10 days; newer: 1000 days. */
	sp32(&e1, 9, 10 * 86400);
	add_selfsig(&cert, k, "Old <old@example.org>", T0 + 10, &e1);
	sp32(&e2, 9, 1000 * 86400);
	add_selfsig(&cert, k, "Old <old@example.org>", T0 + 20, &e2);
	add_uid(&cert, "Main (comment) <main@example.org>");
	sp(&e3, 25, &one, 1); /* primary user ID */
	add_selfsig(&cert, k, "Main (comment) <main@example.org>", T0 + 5, &e3);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		const struct pgpk_cert *c = &ring->certs[0];
		char desc[128], want[128];

		/* One self-signature decides, the primary user ID's (as the
		 * kernel reads it): GnuPG would take Old's 1000 days. */
		CHECK_EQ(c->primary.expires, 0);
		CHECK(!c->primary.expired);
		/* Only the newest self-signature needed verifying. */
		CHECK_EQ(c->uids[0].sigs[1].verified, 1);
		CHECK_EQ(c->uids[0].sigs[0].verified, 0);
		CHECK_EQ(c->primary_uid, 1);
		pgpk_key_description(c, &c->primary, desc, sizeof(desc));
		/* A v6 key is named by its key ID: its self-signature is
		 * the direct-key signature, which certifies no user ID. */
		if (k->version == 6)
			snprintf(want, sizeof(want),
				 "PGP key %02x%02x%02x%02x%02x%02x%02x%02x",
				 keyid_of(k)[0], keyid_of(k)[1], keyid_of(k)[2],
				 keyid_of(k)[3], keyid_of(k)[4], keyid_of(k)[5],
				 keyid_of(k)[6], keyid_of(k)[7]);
		else
			snprintf(want, sizeof(want), "Main %02x%02x%02x%02x",
				 keyid_of(k)[4], keyid_of(k)[5], keyid_of(k)[6],
				 keyid_of(k)[7]);
		CHECK(!strcmp(desc, want));
		pgpk_keyring_free(ring);
	}
}

/* pgpk_convert() of the subkey: 0 or the error. */
static int convert_sub(const struct buf *cert, const struct rsakey *sub)
{
	struct pgpk_convert_opts copts = { .now = NOW };
	struct pgpk_error err;
	char sel[65];
	uint8_t *out;
	size_t olen, i;
	int ret;

	for (i = 0; i < sub->fpr_len; i++)
		sprintf(sel + 2 * i, "%02X", sub->fpr[i]);
	copts.select = sel;
	ret = pgpk_convert(cert->d, cert->n, PGPK_WANT_KEY, &copts, &out, &olen,
			   &err);
	if (!ret)
		free(out);
	return ret;
}

static void test_subkeys(const struct rsakey *k, const struct rsakey *sub)
{
	struct buf cert = { .n = 0 }, key = k->body, skey = sub->body;
	struct buf bind, back, hx = { .n = 0 }, ux = { .n = 0 }, rev;
	struct target t = { .k1 = k, .k2 = sub };
	struct pgpk_keyring *ring;
	uint8_t sign = PGPK_KF_SIGN;
	size_t base;

	put_packet(&cert, 6, &key);
	add_uid(&cert, "Test <t@example.org>");
	add_selfsig(&cert, k, "Test <t@example.org>", T0 + 10, NULL);
	base = cert.n;

	/* Signing subkey without a back-signature: not usable. */
	sp(&hx, 27, &sign, 1);
	make_sig(&bind, k, 0x18, T0 + 30, &hx, NULL, &t);
	put_packet(&cert, 14, &skey);
	put_packet(&cert, 2, &bind);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		const struct pgpk_pubkey *s = &ring->certs[0].subkeys[0];

		CHECK(s->valid && !s->backsig && !s->can_sign);
		pgpk_keyring_free(ring);
	}
	/* ... and not converted (the kernel could not tell). */
	CHECK_EQ(convert_sub(&cert, sub), -EKEYREJECTED);

	/* With the 0x19 back-signature embedded (unhashed, as gpg). */
	cert.n = base;
	make_sig(&back, sub, 0x19, T0 + 30, NULL, NULL, &t);
	put8(&ux, 255);
	put32(&ux, (uint32_t)back.n + 1);
	put8(&ux, 32);
	put(&ux, back.d, back.n);
	make_sig(&bind, k, 0x18, T0 + 30, &hx, &ux, &t);
	put_packet(&cert, 14, &skey);
	put_packet(&cert, 2, &bind);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		const struct pgpk_pubkey *s = &ring->certs[0].subkeys[0];

		CHECK(s->valid && s->backsig && s->can_sign && !s->revoked);
		CHECK(!memcmp(s->fpr, sub->fpr, sub->fpr_len));
		pgpk_keyring_free(ring);
	}
	CHECK_EQ(convert_sub(&cert, sub), 0);

	/* A back-signature made by the primary instead: refused. */
	{
		struct buf cert2 = { .n = 0 }, bad, ux2 = { .n = 0 };

		put(&cert2, cert.d, base);
		make_sig(&bad, k, 0x19, T0 + 30, NULL, NULL, &t);
		put8(&ux2, 255);
		put32(&ux2, (uint32_t)bad.n + 1);
		put8(&ux2, 32);
		put(&ux2, bad.d, bad.n);
		make_sig(&bind, k, 0x18, T0 + 30, &hx, &ux2, &t);
		put_packet(&cert2, 14, &skey);
		put_packet(&cert2, 2, &bind);
		CHECK_EQ(parse(&cert2, &ring), 0);
		if (ring) {
			CHECK(!ring->certs[0].subkeys[0].can_sign);
			pgpk_keyring_free(ring);
		}
	}

	/* Then a subkey revocation (0x28): revoked whatever its date. */
	make_sig(&rev, k, 0x28, T0 + 20, NULL, NULL, &t);
	put_packet(&cert, 2, &rev);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		const struct pgpk_pubkey *s = &ring->certs[0].subkeys[0];

		CHECK(s->revoked && !s->can_sign);
		CHECK(!ring->certs[0].primary.revoked);
		pgpk_keyring_free(ring);
	}
	CHECK_EQ(convert_sub(&cert, sub), -EKEYREJECTED);
}

/* A v6 certificate without user IDs: a direct-key signature (0x1F)
 * alone makes it valid, and becomes the certification (its version's
 * self-signature, RFC 9580 10.1.3). */
static void test_direct_key_only(const struct rsakey *k)
{
	struct buf cert = { .n = 0 }, key = k->body, s, extra = { .n = 0 };
	struct target t = { .k1 = k };
	struct pgpk_convert_opts copts = { .now = NOW, .allow_expired = true };
	struct pgpk_keyring *ring;
	struct pgpk_error err;
	uint8_t flags = PGPK_KF_CERTIFY | PGPK_KF_SIGN, *out;
	size_t olen;

	sp(&extra, 27, &flags, 1);
	sp32(&extra, 9, 3600);
	make_sig(&s, k, 0x1F, T0 + 5, &extra, NULL, &t);
	put_packet(&cert, 6, &key);
	put_packet(&cert, 2, &s);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		const struct pgpk_pubkey *p = &ring->certs[0].primary;

		CHECK(p->valid && p->has_key_flags && p->key_flags == flags);
		CHECK_EQ(p->expires, T0 + 3600);
		CHECK(p->expired && !p->can_sign);
		CHECK(p->binding && p->binding->type == 0x1F);
		pgpk_keyring_free(ring);
	}
	CHECK_EQ(pgpk_convert(cert.d, cert.n, PGPK_WANT_KEY, &copts, &out,
			      &olen, &err),
		 0);
	if (!err.code) {
		struct pgpk_canon canon;
		struct pgpk_canon_error cerr;

		CHECK_EQ(pgpk_canon_decode(out, olen, &canon, &cerr), 0);
		CHECK(PGPK_HAS(&canon.key, PGPK_KEY_CERTIFICATION));
		CHECK_EQ(canon.key.certification.type, 0x1F);
		CHECK(!PGPK_HAS(&canon.key, PGPK_KEY_USER_ID));
		free(out);
	}
}

static int convert_key(const struct buf *cert, struct pgpk_canon *canon,
		       struct pgpk_error *err)
{
	struct pgpk_convert_opts copts = { .now = NOW };
	struct pgpk_canon_error cerr;
	uint8_t *out;
	size_t olen;
	int ret = pgpk_convert(cert->d, cert->n, PGPK_WANT_KEY, &copts, &out,
			       &olen, err);

	if (ret)
		return ret;
	/* canon points into out: callers read only its scalars. */
	ret = pgpk_canon_decode(out, olen, canon, &cerr);
	free(out);
	return ret;
}

/*
 * A v4 key's self-signature is its primary user ID's (RFC 9580 10.1.1):
 * a direct-key signature alone gives none the kernel reads, and one that
 * says less than it stops the key converting (GnuPG and sq read the
 * narrower of both; the kernel reads one signature).
 */
static void test_v4_direct_key(const struct rsakey *k)
{
	struct buf cert = { .n = 0 }, key = k->body, dk, both = { .n = 0 },
		   certify = { .n = 0 };
	struct target t = { .k1 = k };
	struct pgpk_keyring *ring;
	struct pgpk_canon canon;
	struct pgpk_error err;
	uint8_t cs = PGPK_KF_CERTIFY | PGPK_KF_SIGN, c = PGPK_KF_CERTIFY;
	const char *uid = "Four <four@example.org>";

	sp(&both, 27, &cs, 1);
	sp(&certify, 27, &c, 1);
	make_sig(&dk, k, 0x1F, T0 + 5, &both, NULL, &t);
	put_packet(&cert, 6, &key);
	put_packet(&cert, 2, &dk);
	CHECK_EQ(convert_key(&cert, &canon, &err), -EKEYREJECTED);
	CHECK(strstr(err.msg, "self-signature of its primary user ID"));

	/* A user ID self-signature saying as much: it is the one. */
	add_uid(&cert, uid);
	add_selfsig(&cert, k, uid, T0 + 6, &both);
	CHECK_EQ(convert_key(&cert, &canon, &err), 0);
	if (!err.code)
		CHECK_EQ(canon.key.certification.type, 0x13);

	/* A direct-key signature for certifying only: narrower. */
	cert.n = 0;
	make_sig(&dk, k, 0x1F, T0 + 7, &certify, NULL, &t);
	put_packet(&cert, 6, &key);
	put_packet(&cert, 2, &dk);
	add_uid(&cert, uid);
	add_selfsig(&cert, k, uid, T0 + 6, &both);
	CHECK_EQ(parse(&cert, &ring), 0);
	if (ring) {
		const struct pgpk_pubkey *p = &ring->certs[0].primary;

		CHECK(p->valid && p->self_narrowed && !p->can_sign);
		CHECK(p->binding && p->binding->type == 0x13);
		pgpk_keyring_free(ring);
	}
	CHECK_EQ(convert_key(&cert, &canon, &err), -EKEYREJECTED);
	CHECK(strstr(err.msg, "direct-key signature says less"));
}

int main(void)
{
	struct rsakey k4, s4, k6;

	make_key(&k4, 4, T0);
	make_key(&s4, 4, T0 + 1);
	make_key(&k6, 6, T0);
	test_basic_and_critical(&k4);
	test_basic_and_critical(&k6);
	test_same_quick_check(&k4);
	test_same_quick_check(&k6);
	test_newest_and_primary(&k4);
	test_newest_and_primary(&k6);
	test_subkeys(&k4, &s4);
	test_direct_key_only(&k6);
	test_v4_direct_key(&k4);
	EVP_PKEY_free(k4.pkey);
	EVP_PKEY_free(s4.pkey);
	EVP_PKEY_free(k6.pkey);
	return pgpk_test_done("cert_test");
}
