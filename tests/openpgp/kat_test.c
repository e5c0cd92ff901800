// SPDX-License-Identifier: GPL-2.0
/*
 * Known answers: canonical blobs of fixed gpg-made keys and signatures,
 * compared octet for octet with blobs derived independently
 * (data/make-expected.py: gpg --list-packets offsets, OpenSSL modulus, a
 * hand-written protobuf encoder); fingerprints from gpg; validity states;
 * signature contents checked by verifying the RSA signatures over them.
 */
#include <errno.h>

#include <openssl/evp.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"
#include "tests/openpgp/test_util.h"

#define NOW 1800000000 /* 2027-01-15: after the keys were made */

/*
 * pgpk_convert() of @input equals @expected; @anchors: NULL, or the
 * NULL-terminated names of trust anchor files.
 */
static void check_anchored(const char *input, enum pgpk_want want,
			   const char *select, const char *const *anchors,
			   const char *expected)
{
	struct pgpk_convert_opts opts = { .select = select, .now = NOW };
	struct pgpk_blob files[4];
	struct pgpk_error err = { 0 };
	static struct pgpk_canon canon;
	struct pgpk_canon_error cerr;
	size_t len, elen, olen = 0, i;
	uint8_t *in = pgpk_test_read(input, &len);
	uint8_t *exp = pgpk_test_read(expected, &elen);
	uint8_t *out = NULL;
	int ret;

	for (i = 0; anchors && anchors[i] && i < 4; i++)
		files[i].data = pgpk_test_read(anchors[i], &files[i].len);
	opts.anchors = files;
	opts.nanchors = i;
	ret = pgpk_convert(in, len, want, &opts, &out, &olen, &err);
	CHECK_EQ(ret, 0);
	if (ret)
		fprintf(stderr, "  %s: %s\n", input, err.msg);
	CHECK_EQ(olen, elen);
	CHECK(olen == elen && out && !memcmp(out, exp, elen));
	if (olen != elen || !out || memcmp(out, exp, elen))
		fprintf(stderr, "  %s with %zu anchors: not %s\n", input, i,
			expected);
	/* The kernel's strict decoder accepts it. */
	CHECK(out && pgpk_canon_decode(out, olen, &canon, &cerr) == 0);
	while (i--)
		free((void *)(uintptr_t)files[i].data);
	free(out);
	free(in);
	free(exp);
}

static void check_blob(const char *input, enum pgpk_want want,
		       const char *select, const char *expected)
{
	check_anchored(input, want, select, NULL, expected);
}

static void test_known_blobs(void)
{
	static const char *const carol[] = { "carol.gpg", NULL };
	static const char *const others[] = { "ed25519.gpg", "revoked.gpg",
					      "carol.gpg", NULL };
	static const char *const self[] = { "alice.gpg", NULL };
	static const char *const none[] = { "revoked.gpg", "expired.gpg",
					    "dsa.gpg", NULL };

	check_blob("alice.gpg", PGPK_WANT_KEY, NULL, "alice.key.expected");
	check_blob("alice.asc", PGPK_WANT_KEY, NULL, "alice.key.expected");
	check_blob("alice-certified.gpg", PGPK_WANT_KEY, NULL,
		   "alice-certified.key.expected");
	/* Carol certified Alice: with Carol an anchor, hers vouches. */
	check_anchored("alice-certified.gpg", PGPK_WANT_KEY, NULL, carol,
		       "alice-certified.carol.expected");
	check_anchored("alice-certified.gpg", PGPK_WANT_KEY, NULL, others,
		       "alice-certified.carol.expected");
	/* Alice herself as an anchor, or anchors who certified nothing. */
	check_anchored("alice-certified.gpg", PGPK_WANT_KEY, NULL, self,
		       "alice-certified.key.expected");
	check_anchored("alice-certified.gpg", PGPK_WANT_KEY, NULL, none,
		       "alice-certified.key.expected");
	/* A subkey's certification is its binding, whoever the anchors. */
	check_anchored("alice.gpg", PGPK_WANT_KEY, "AD9473038E5EEBFB", carol,
		       "alice.subkey1.expected");
	check_blob("alice.gpg", PGPK_WANT_KEY,
		   "9B9FABE5A6D8E7E9CBC04272AD9473038E5EEBFB",
		   "alice.subkey1.expected");
	check_blob("alice.gpg", PGPK_WANT_KEY, "AD9473038E5EEBFB",
		   "alice.subkey1.expected");
	check_blob("alice.gpg", PGPK_WANT_KEY, "0x8e5eebfb",
		   "alice.subkey1.expected");
	check_blob("msg.txt.sig", PGPK_WANT_SIG, NULL, "msg.txt.sig.expected");
	check_blob("msg.txt.asc", PGPK_WANT_SIG, NULL, "msg.txt.asc.expected");
	check_blob("msg.txt.clear", PGPK_WANT_SIG, NULL,
		   "msg.txt.clear.expected");
}

static void hex(char *out, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02X", p[i]);
}

/* Fingerprints and key IDs agree with gpg (fingerprints.expected). */
static void test_fingerprints(void)
{
	struct pgpk_parse_opts opts = { .now = NOW };
	struct pgpk_keyring *ring;
	struct pgpk_error err;
	size_t len, flen;
	char *fprs = (char *)pgpk_test_read("fingerprints.expected", &flen);
	char name[64], fpr[80];
	char *line, *save = NULL;

	fprs = realloc(fprs, flen + 1);
	fprs[flen] = 0;
	for (line = strtok_r(fprs, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok, *s2 = NULL;
		uint8_t *in;
		size_t k = 0;

		tok = strtok_r(line, " ", &s2);
		snprintf(name, sizeof(name), "%s", tok);
		in = pgpk_test_read(name, &len);
		CHECK_EQ(pgpk_keyring_parse(in, len, &opts, &ring, &err), 0);
		while ((tok = strtok_r(NULL, " ", &s2))) {
			const struct pgpk_pubkey *key;

			key = k == 0 ? &ring->certs[0].primary :
				       &ring->certs[0].subkeys[k - 1];
			hex(fpr, key->fpr, key->fpr_len);
			CHECK(!strcmp(fpr, tok));
			/* v4 key ID: the low 64 bits of the fingerprint. */
			CHECK(!memcmp(key->keyid, key->fpr + 12, 8));
			k++;
		}
		CHECK_EQ(k, 1 + ring->certs[0].nsubkeys);
		pgpk_keyring_free(ring);
		free(in);
	}
	free(fprs);
}

static const struct pgpk_pubkey *parse_one(const char *name,
					   struct pgpk_keyring **ring)
{
	struct pgpk_parse_opts opts = { .now = NOW };
	struct pgpk_error err;
	size_t len;
	uint8_t *in = pgpk_test_read(name, &len);
	int ret = pgpk_keyring_parse(in, len, &opts, ring, &err);

	free(in);
	CHECK_EQ(ret, 0);
	return ret ? NULL : &(*ring)->certs[0].primary;
}

static void test_validity(void)
{
	struct pgpk_keyring *ring;
	const struct pgpk_pubkey *k;
	struct pgpk_convert_opts copts = { .now = NOW };
	struct pgpk_error err;
	uint8_t *in, *out;
	size_t len, olen;
	char desc[300];

	k = parse_one("alice.gpg", &ring);
	if (k) {
		const struct pgpk_cert *c = &ring->certs[0];

		CHECK(k->valid && !k->revoked && !k->expired && k->can_sign);
		CHECK_EQ(k->bits, 2048);
		CHECK_EQ(k->algo, 1);
		CHECK_EQ(c->nsubkeys, 2);
		CHECK(c->subkeys[0].can_sign && c->subkeys[0].backsig);
		CHECK(c->subkeys[1].valid && !c->subkeys[1].can_sign);
		CHECK_EQ(c->primary_uid, 0);
		/* Patch 07: comment cut, lower-case key ID tail. */
		pgpk_key_description(c, k, desc, sizeof(desc));
		CHECK(!strcmp(desc, "Alice Example 6f6509da"));
		pgpk_key_description(c, &c->subkeys[0], desc, sizeof(desc));
		CHECK(!strcmp(desc, "Alice Example 8e5eebfb"));
		CHECK(ring->nsigs_verified >= 4);
		pgpk_keyring_free(ring);
	}
	k = parse_one("revoked.gpg", &ring);
	if (k) {
		CHECK(k->valid && k->revoked && !k->can_sign);
		pgpk_keyring_free(ring);
	}
	k = parse_one("expired.gpg", &ring);
	if (k) {
		CHECK(k->valid && k->expired && !k->can_sign);
		CHECK_EQ(k->expires, 1609502400);
		pgpk_keyring_free(ring);
	}
	k = parse_one("ed25519.gpg", &ring);
	if (k) {
		CHECK_EQ(k->algo, PGPK_PK_EDDSA_LEGACY);
		CHECK_EQ(k->bits, 255);
		CHECK(k->curve && !strcmp(k->curve, "ed25519"));
		CHECK(k->can_sign);
		pgpk_keyring_free(ring);
	}
	/* Conversion refusals: revoked, non-RSA, no such key. */
	in = pgpk_test_read("revoked.gpg", &len);
	CHECK_EQ(
		pgpk_convert(in, len, PGPK_WANT_KEY, &copts, &out, &olen, &err),
		-EKEYREJECTED);
	free(in);
	in = pgpk_test_read("ed25519.gpg", &len);
	CHECK_EQ(
		pgpk_convert(in, len, PGPK_WANT_KEY, &copts, &out, &olen, &err),
		-ENOPKG);
	CHECK(strstr(err.msg, "EdDSA") != NULL);
	free(in);
	in = pgpk_test_read("alice.gpg", &len);
	copts.select = "0123456789ABCDEF";
	CHECK_EQ(
		pgpk_convert(in, len, PGPK_WANT_KEY, &copts, &out, &olen, &err),
		-ENOKEY);
	copts.select = NULL;
	/* A flipped octet in the self-signature's RSA value: rejected. */
	in[318 + 3 + 334 - 10] ^= 0x01;
	CHECK_EQ(
		pgpk_convert(in, len, PGPK_WANT_KEY, &copts, &out, &olen, &err),
		-EKEYREJECTED);
	free(in);
}

/* Non-RSA self-signatures are verified too (pkalgo.c): each key is
 * valid as made by gpg, and invalid once its signature value changes. */
static void test_non_rsa(void)
{
	static const struct {
		const char *file;
		unsigned int algo, bits;
	} cases[] = {
		{ "ed25519.gpg", PGPK_PK_EDDSA_LEGACY, 255 },
		{ "nistp256.gpg", PGPK_PK_ECDSA, 256 },
		{ "dsa.gpg", PGPK_PK_DSA, 2048 },
	};
	struct pgpk_parse_opts opts = { .now = NOW };
	struct pgpk_keyring *ring;
	struct pgpk_error err;
	size_t i, len;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t *in = pgpk_test_read(cases[i].file, &len);

		CHECK_EQ(pgpk_keyring_parse(in, len, &opts, &ring, &err), 0);
		if (ring) {
			const struct pgpk_pubkey *k = &ring->certs[0].primary;

			CHECK_EQ(k->algo, cases[i].algo);
			CHECK_EQ(k->bits, cases[i].bits);
			CHECK(k->valid && k->can_sign);
			CHECK_EQ(ring->nsigs_verified, 1);
			pgpk_keyring_free(ring);
		}
		in[len - 2] ^= 0x10;
		CHECK_EQ(pgpk_keyring_parse(in, len, &opts, &ring, &err), 0);
		if (ring) {
			CHECK(!ring->certs[0].primary.valid);
			CHECK(!ring->certs[0].primary.can_sign);
			pgpk_keyring_free(ring);
		}
		free(in);
	}
}

/* borrow_input: binary input used in place, armored input decoded. */
static void test_borrow(void)
{
	struct pgpk_parse_opts opts = { .now = NOW, .borrow_input = true };
	struct pgpk_keyring *ring;
	struct pgpk_error err;
	size_t len;
	uint8_t *in = pgpk_test_read("alice.gpg", &len);

	CHECK_EQ(pgpk_keyring_parse(in, len, &opts, &ring, &err), 0);
	if (ring) {
		CHECK(ring->input.borrowed && ring->input.packets == in);
		CHECK(ring->certs[0].primary.valid);
		pgpk_keyring_free(ring);
	}
	free(in);
	in = pgpk_test_read("alice.asc", &len);
	CHECK_EQ(pgpk_keyring_parse(in, len, &opts, &ring, &err), 0);
	if (ring) {
		CHECK(!ring->input.borrowed && ring->input.packets != in);
		pgpk_keyring_free(ring);
	}
	free(in);
}

/* A hand-made v3 key packet: refused as unsupported, clearly. */
static void test_v3_key(void)
{
	static const uint8_t v3[] = {
		0x99, 0x00, 0x0E, 0x03, 0x5F, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x01, 0x00, 0x03, 0x05, 0x00, 0x02, 0x03,
	};
	struct pgpk_parse_opts opts = { .now = NOW };
	struct pgpk_keyring *ring;
	struct pgpk_error err;

	CHECK_EQ(pgpk_keyring_parse(v3, sizeof(v3), &opts, &ring, &err),
		 -ENOPKG);
	CHECK(strstr(err.msg, "v3") != NULL);
	CHECK_EQ(err.offset, 3);
}

/* Verify set->sigs[0] with alice's key over set->content (or data). */
static bool verify_with_alice(const struct pgpk_sigset *set,
			      const uint8_t *data, size_t dlen)
{
	struct pgpk_parse_opts opts = { .now = NOW };
	const struct pgpk_signature *sig = &set->sigs[0];
	const struct pgpk_pubkey *key;
	const struct pgpk_cert *cert;
	struct pgpk_keyring *ring;
	struct pgpk_error err;
	uint8_t digest[PGPK_DIGEST_MAX];
	struct pgpk_digest md;
	size_t n = 0, len;
	uint8_t *in = pgpk_test_read("alice.gpg", &len);
	char id[17];
	bool good = false;

	if (pgpk_keyring_parse(in, len, &opts, &ring, &err))
		goto out;
	hex(id, sig->issuer_keyid, 8);
	key = pgpk_keyring_find(ring, id, &cert);
	if (key && !pgpk_digest_init(&md, sig->hash_algo)) {
		if (!pgpk_digest_update(&md, data, dlen) &&
		    !pgpk_hash_sig_trailer(&md, sig) &&
		    !pgpk_digest_final(&md, digest, &n))
			good = (digest[0] << 8 | digest[1]) ==
				       sig->quick_check &&
			       !pgpk_rsa_verify_digest(&key->rsa_n, &key->rsa_e,
						       sig->hash_algo, digest,
						       n, &sig->rsa_s);
		pgpk_digest_release(&md);
	}
	pgpk_keyring_free(ring);
out:
	free(in);
	return good;
}

static void test_messages(void)
{
	static const struct {
		const char *file;
		bool content;
		unsigned int type, hash;
	} cases[] = {
		{ "msg.txt.sig", false, 0, PGPK_HASH_SHA256 },
		{ "msg.txt.asc", false, 0, PGPK_HASH_SHA512 },
		{ "msg.txt.textsig", false, 1, PGPK_HASH_SHA384 },
		{ "msg.txt.subsig", false, 0, PGPK_HASH_SHA256 },
		{ "msg.txt.clear", true, 1, PGPK_HASH_SHA256 },
		{ "msg.txt.inline", true, 0, PGPK_HASH_SHA256 },
		{ "msg.txt.inline-zlib", true, 0, PGPK_HASH_SHA256 },
		{ "msg.txt.inline-zip", true, 0, PGPK_HASH_SHA256 },
	};
	size_t mlen, len, i, clen;
	uint8_t *msg = pgpk_test_read("msg.txt", &mlen), *canon;

	CHECK_EQ(pgpk_text_canonicalize(msg, mlen, false, &canon, &clen), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pgpk_sigset *set;
		struct pgpk_error err;
		uint8_t *in = pgpk_test_read(cases[i].file, &len);
		int ret = pgpk_sigset_parse(in, len, &set, &err);

		free(in);
		CHECK_EQ(ret, 0);
		if (ret) {
			fprintf(stderr, "  %s: %s\n", cases[i].file, err.msg);
			continue;
		}
		CHECK_EQ(set->nsigs, 1);
		CHECK_EQ(set->has_content, cases[i].content);
		CHECK_EQ(set->sigs[0].type, cases[i].type);
		CHECK_EQ(set->sigs[0].hash_algo, cases[i].hash);
		if (set->has_content) {
			CHECK(verify_with_alice(set, set->content,
						set->content_len));
			if (cases[i].type == 0)
				CHECK(set->content_len == mlen &&
				      !memcmp(set->content, msg, mlen));
		} else if (cases[i].file[8] != 's' || cases[i].file[9] != 'u') {
			/* Detached by the primary: verify over the file,
			 * canonicalised for text mode. */
			CHECK(cases[i].type ?
				      verify_with_alice(set, canon, clen) :
				      verify_with_alice(set, msg, mlen));
			/* Tampered data fails. */
			msg[0] ^= 1;
			CHECK(!verify_with_alice(set, msg, mlen));
			msg[0] ^= 1;
		}
		pgpk_sigset_free(set);
	}
	free(canon);
	free(msg);
}

/* Message structure: hand-made wrappers around a real signature packet. */
static void test_message_forms(void)
{
	struct pgpk_sigset *set;
	struct pgpk_error err;
	size_t slen, n, i, depth;
	uint8_t *sigpkt = pgpk_test_read("msg.txt.sig", &slen);
	uint8_t *buf = malloc(slen + 2048);

	/* Detached signature plus a literal with partial lengths (RFC
	 * 9580 4.2.1.4): 512 + 100 octets of content. */
	n = 0;
	buf[n++] = 0xC0 | 11;
	buf[n++] = 0xE0 | 9;
	buf[n++] = 'b';
	buf[n++] = 0;
	memset(buf + n, 0, 4);
	n += 4;
	for (i = 0; i < 506; i++)
		buf[n++] = (uint8_t)('a' + i % 26);
	buf[n++] = 100;
	for (i = 0; i < 100; i++)
		buf[n++] = 'z';
	memcpy(buf + n, sigpkt, slen);
	n += slen;
	CHECK_EQ(pgpk_sigset_parse(buf, n, &set, &err), 0);
	if (set) {
		CHECK(set->has_content);
		CHECK_EQ(set->content_len, 606);
		CHECK(set->content_len == 606 && set->content[605] == 'z' &&
		      set->content[0] == 'a');
		pgpk_sigset_free(set);
	}
	/* Signature inside nested uncompressed "compressed" packets
	 * (algorithm 0): 3 levels fine, 5 refused. */
	for (depth = 3; depth <= 5; depth += 2) {
		size_t len = slen;

		memcpy(buf + 1024, sigpkt, slen);
		for (i = 0; i < depth; i++) {
			size_t l = len + 1 - 192;

			/* Two-octet length (4.2.1.2), algorithm 0. */
			memmove(buf + 1024 + 4, buf + 1024, len);
			buf[1024] = 0xC0 | 8;
			buf[1025] = (uint8_t)((l >> 8) + 192);
			buf[1026] = (uint8_t)(l & 0xff);
			buf[1027] = 0;
			len += 4;
		}
		CHECK_EQ(pgpk_sigset_parse(buf + 1024, len, &set, &err),
			 depth == 3 ? 0 : -EBADMSG);
		if (depth == 3 && set) {
			CHECK_EQ(set->nsigs, 1);
			pgpk_sigset_free(set);
		}
	}
	/* BZip2 (3) is not supported; encrypted data neither. */
	buf[0] = 0xC0 | 8;
	buf[1] = 2;
	buf[2] = 3;
	buf[3] = 0;
	CHECK_EQ(pgpk_sigset_parse(buf, 4, &set, &err), -ENOPKG);
	buf[0] = 0xC0 | 18;
	buf[1] = 1;
	buf[2] = 1;
	CHECK_EQ(pgpk_sigset_parse(buf, 3, &set, &err), -ENOPKG);
	/* Corrupt zlib stream. */
	buf[0] = 0xC0 | 8;
	buf[1] = 3;
	buf[2] = 2;
	buf[3] = 0xFF;
	buf[4] = 0xFF;
	CHECK_EQ(pgpk_sigset_parse(buf, 5, &set, &err), -EBADMSG);
	/* A one-pass signature without literal data. */
	buf[0] = 0xC0 | 4;
	buf[1] = 13;
	memset(buf + 2, 0, 13);
	memcpy(buf + 15, sigpkt, slen);
	CHECK_EQ(pgpk_sigset_parse(buf, 15 + slen, &set, &err), -EBADMSG);
	/* No signature at all. */
	CHECK_EQ(pgpk_sigset_parse(buf, 15, &set, &err), -EBADMSG);
	free(buf);
	free(sigpkt);
}

int main(void)
{
	test_known_blobs();
	test_fingerprints();
	test_validity();
	test_non_rsa();
	test_borrow();
	test_v3_key();
	test_messages();
	test_message_forms();
	return pgpk_test_done("kat_test");
}
