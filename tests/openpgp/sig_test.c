// SPDX-License-Identifier: GPL-2.0
/*
 * Signature packet parsing (RFC 9580 5.2): subpacket length forms
 * (5.2.3.7), criticality, malformed values, v3/v4/v6 layouts, trailing
 * octets.  Bodies are built by hand; nothing is signed here.
 */
#include <errno.h>

#include "helper/openpgp/internal.h"
#include "tests/openpgp/test_util.h"

struct sbuf {
	uint8_t d[4096];
	size_t n;
};

static void add(struct sbuf *b, const void *p, size_t n)
{
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void add8(struct sbuf *b, unsigned int v)
{
	b->d[b->n++] = (uint8_t)v;
}

/* Subpacket with the given length form: 1, 2 or 5 octets. */
static void subpacket(struct sbuf *b, int form, unsigned int type,
		      const void *p, size_t n)
{
	size_t len = n + 1;

	if (form == 1) {
		add8(b, (unsigned int)len);
	} else if (form == 2) {
		len -= 192;
		add8(b, (unsigned int)(len >> 8) + 192);
		add8(b, (unsigned int)len & 0xff);
	} else {
		add8(b, 255);
		add8(b, 0);
		add8(b, 0);
		add8(b, (unsigned int)(len >> 8));
		add8(b, (unsigned int)len & 0xff);
	}
	add8(b, type);
	add(b, p, n);
}

/* v4 RSA signature body around the given areas; s = one-octet MPI. */
static void v4sig(struct sbuf *out, const struct sbuf *hashed,
		  const struct sbuf *unhashed)
{
	out->n = 0;
	add8(out, 4);
	add8(out, 0x00);
	add8(out, 1);
	add8(out, 8);
	add8(out, (unsigned int)hashed->n >> 8);
	add8(out, hashed->n & 0xff);
	add(out, hashed->d, hashed->n);
	add8(out, (unsigned int)unhashed->n >> 8);
	add8(out, unhashed->n & 0xff);
	add(out, unhashed->d, unhashed->n);
	add8(out, 0xAB); /* left 16 bits */
	add8(out, 0xCD);
	add8(out, 0); /* MPI: 7 bits, 0x55 */
	add8(out, 7);
	add8(out, 0x55);
}

static const uint8_t created[4] = { 0x65, 0x00, 0x00, 0x01 };

static void test_length_forms(void)
{
	struct sbuf h = { .n = 0 }, u = { .n = 0 }, body;
	struct pgpk_signature sig;
	struct pgpk_error err;
	uint8_t notation[300] = { 0 };
	uint8_t flags = 0x03, issuer[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t fpr[21] = { 4 };
	uint32_t exp = 86400;
	uint8_t expb[4] = { exp >> 24, exp >> 16, exp >> 8, exp };

	subpacket(&h, 1, 2, created, 4);
	/* A 300-octet notation: two-octet length. */
	notation[5] = 4; /* name length */
	memcpy(notation + 8, "a@bc", 4);
	subpacket(&h, 2, 20, notation, sizeof(notation));
	subpacket(&h, 5, 27, &flags, 1); /* five-octet length */
	subpacket(&h, 1, 9, expb, 4);
	memset(fpr + 1, 0x11, 20);
	subpacket(&h, 1, 33, fpr, 21);
	subpacket(&u, 1, 16, issuer, 8);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 100, &sig, &err), 0);
	CHECK_EQ(sig.version, 4);
	CHECK_EQ(sig.created, 0x65000001);
	CHECK(sig.has_created);
	CHECK(sig.has_key_flags && sig.key_flags == 3);
	CHECK(sig.has_key_expires && sig.key_expires == 86400);
	CHECK(sig.has_issuer_keyid && !memcmp(sig.issuer_keyid, issuer, 8));
	CHECK_EQ(sig.issuer_fpr_len, 20);
	CHECK_EQ(sig.quick_check, 0xABCD);
	CHECK(sig.rsa_s.len == 1 && sig.rsa_s.data[0] == 0x55);
	CHECK(!sig.malformed && !sig.unknown_critical);
	CHECK_EQ(sig.hashed_len, h.n);
	/* Key flags in the UNHASHED area are not believed. */
	u.n = 0;
	subpacket(&u, 1, 27, &flags, 1);
	h.n = 0;
	subpacket(&h, 1, 2, created, 4);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), 0);
	CHECK(!sig.has_key_flags);
}

static void test_bad_subpackets(void)
{
	struct sbuf h = { .n = 0 }, u = { .n = 0 }, body;
	struct pgpk_signature sig;
	struct pgpk_error err;
	uint8_t fpr[20] = { 4 }, notation[8 + 32] = { 0x80 };
	static const char known[] = "preferred-email-encoding@pgp.com";

	/* Zero-length subpacket: framing error, with an offset. */
	subpacket(&h, 1, 2, created, 4);
	add8(&h, 0);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 1000, &sig, &err),
		 -EBADMSG);
	CHECK_EQ(err.offset, 1000 + 6 + 6);
	/* Subpacket running past its area. */
	h.n = 0;
	subpacket(&h, 1, 2, created, 4);
	add8(&h, 9);
	add8(&h, 2);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), -EBADMSG);
	/* Issuer fingerprint of a wrong size: malformed (ignored). */
	h.n = 0;
	subpacket(&h, 1, 2, created, 4);
	subpacket(&h, 1, 33, fpr, sizeof(fpr));
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), 0);
	CHECK(sig.malformed);
	/* Unknown critical subpacket (5.2.3.7). */
	h.n = 0;
	subpacket(&h, 1, 2, created, 4);
	subpacket(&h, 1, 0x80 | 110, "z", 1);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), 0);
	CHECK(sig.unknown_critical);
	/* Known critical subpacket: fine. */
	h.n = 0;
	subpacket(&h, 1, 0x80 | 2, created, 4);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), 0);
	CHECK(!sig.unknown_critical && sig.has_created);
	/* Critical notations: every one invalid (RFC 9580 5.2.3.24; sqv and
	 * the kernel: PGPK_CRITICAL_OK). */
	notation[5] = 4;
	memcpy(notation + 8, "x@yz", 4);
	h.n = 0;
	subpacket(&h, 1, 2, created, 4);
	subpacket(&h, 1, 0x80 | 20, notation, 12);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), 0);
	CHECK(sig.unknown_critical);
	notation[5] = (uint8_t)strlen(known);
	memcpy(notation + 8, known, strlen(known));
	h.n = 0;
	subpacket(&h, 1, 2, created, 4);
	subpacket(&h, 1, 0x80 | 20, notation, 8 + strlen(known));
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), 0);
	CHECK(sig.unknown_critical); /* GnuPG's known ones too (the kernel) */
	/* A critical trust signature (5) or regular expression (6) limits
	 * a certification, which nothing here enforces: not understood. */
	for (unsigned int t = 5; t <= 6; t++) {
		h.n = 0;
		subpacket(&h, 1, 2, created, 4);
		subpacket(&h, 1, 0x80 | t, t == 5 ? "\1\170" : "x\0", 2);
		v4sig(&body, &h, &u);
		CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err),
			 0);
		CHECK(sig.unknown_critical);
	}
	/* No hashed creation time: malformed (5.2.3.11). */
	h.n = 0;
	subpacket(&u, 1, 2, created, 4);
	v4sig(&body, &h, &u);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), 0);
	CHECK(sig.malformed && !sig.has_created);
	/* Trailing octet after the MPI. */
	u.n = 0;
	subpacket(&h, 1, 2, created, 4);
	v4sig(&body, &h, &u);
	add8(&body, 0);
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), -EBADMSG);
	/* Truncated MPI. */
	body.n -= 2;
	CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err), -EBADMSG);
}

static void test_versions(void)
{
	/* RFC 4880 5.2.2: v3, hashed length 5. */
	static const uint8_t v3[] = {
		3, 5, 0x00, 0x65, 0, 0, 1,    1,    2, 3, 4,
		5, 6, 7,    8,	  1, 2, 0x12, 0x34, 0, 1, 1,
	};
	static const uint8_t v5[] = { 5, 0, 1, 8 };
	struct pgpk_signature sig;
	struct pgpk_error err;
	uint8_t bad[sizeof(v3)], v6[64];
	size_t n = 0, i;

	CHECK_EQ(pgpk_signature_parse(v3, sizeof(v3), 0, &sig, &err), 0);
	CHECK_EQ(sig.version, 3);
	CHECK_EQ(sig.created, 0x65000001);
	CHECK_EQ(sig.hash_algo, 2);
	CHECK_EQ(sig.quick_check, 0x1234);
	CHECK(sig.has_issuer_keyid && sig.issuer_keyid[7] == 8);
	CHECK_EQ(sig.hashed_len, 5);
	memcpy(bad, v3, sizeof(v3));
	bad[1] = 6;
	CHECK_EQ(pgpk_signature_parse(bad, sizeof(bad), 0, &sig, &err),
		 -EBADMSG);
	CHECK_EQ(pgpk_signature_parse(v5, sizeof(v5), 7, &sig, &err), -ENOPKG);
	CHECK_EQ(err.offset, 7);
	/* v6: four-octet area lengths, salt of the hash's size. */
	v6[n++] = 6;
	v6[n++] = 0;
	v6[n++] = 1;
	v6[n++] = 8; /* SHA-256: 16-octet salt */
	v6[n++] = 0;
	v6[n++] = 0;
	v6[n++] = 0;
	v6[n++] = 6;
	v6[n++] = 5;
	v6[n++] = 2;
	memcpy(v6 + n, created, 4);
	n += 4;
	for (i = 0; i < 4; i++)
		v6[n++] = 0; /* no unhashed area */
	v6[n++] = 0xBE;
	v6[n++] = 0xEF;
	v6[n++] = 16;
	for (i = 0; i < 16; i++)
		v6[n++] = (uint8_t)i;
	v6[n++] = 0;
	v6[n++] = 1;
	v6[n++] = 1;
	CHECK_EQ(pgpk_signature_parse(v6, n, 0, &sig, &err), 0);
	CHECK_EQ(sig.version, 6);
	CHECK_EQ(sig.salt_len, 16);
	CHECK_EQ(sig.quick_check, 0xBEEF);
	CHECK(sig.has_created && !sig.malformed);
	/* Wrong salt size for SHA-256. */
	v6[4 + 4 + 6 + 4 + 2] = 15;
	CHECK_EQ(pgpk_signature_parse(v6, n - 1, 0, &sig, &err), -EBADMSG);
}

/*
 * Which signatures the kernel can check (pgpk_sig_kernel_checkable()):
 * RSA signing algorithms 1 and 3, SHA-2 but SHA-512/224, a framing its
 * walk takes.  Not RSA encrypt-only (2): the kernel refuses it.
 */
static void test_kernel_checkable(void)
{
	struct sbuf h = { .n = 0 }, u = { .n = 0 }, body;
	struct pgpk_signature sig;
	struct pgpk_error err;
	static const struct {
		uint8_t algo, hash;
		bool ok;
	} cases[] = {
		{ 1, 8, true },	 { 3, 8, true },  { 1, 11, true },
		{ 1, 10, true }, { 2, 8, false }, { 1, 9, true },
		{ 1, 2, false }, { 1, 1, false }, { 1, 3, false },
	};

	subpacket(&h, 1, 2, created, 4);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v4sig(&body, &h, &u);
		body.d[2] = cases[i].algo;
		body.d[3] = cases[i].hash;
		CHECK_EQ(pgpk_signature_parse(body.d, body.n, 0, &sig, &err),
			 0);
		if (pgpk_sig_kernel_checkable(&sig, NULL) != cases[i].ok)
			fprintf(stderr, "  algorithm %u, hash %u\n",
				cases[i].algo, cases[i].hash);
		CHECK_EQ(pgpk_sig_kernel_checkable(&sig, NULL), cases[i].ok);
	}
}

int main(void)
{
	test_length_forms();
	test_bad_subpackets();
	test_versions();
	test_kernel_checkable();
	return pgpk_test_done("sig_test");
}
