// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pgpk_frame.c in user space, the module's walks over submitted
 * octets:
 *
 *  - pgpk_packet_at(): every RFC 9580 4.2 header form (new 1-, 2- and
 *    5-octet lengths, legacy 1-, 2- and 4-octet ones), a body after other
 *    packets, wrong tag, offset, length or octets; partial and
 *    indeterminate lengths refused; a body found only inside another
 *    packet (a notation of a flooded certification) or inside a header
 *    refused; lengths past the end;
 *  - pgpk_bytes_at(): inside, at the edges, past the end, offsets near
 *    2^32;
 *  - pgpk_hashed_walk(): one, two or no creation time, one of the wrong
 *    size, the critical bit on every type (RFC 9580 5.2.3.7), every
 *    subpacket length form, framing overrun and empty subpackets, the
 *    issuer fingerprint, expiration times, key flags, the IMA mark as a
 *    whole subpacket and not inside a notation's value;
 *  - pgpk_name(): seed 007's description, escapes, comments, 246 octets;
 *  - random input against a second implementation of the rules
 *    (pgpk_frame_ref.h), which must agree on every answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "tests/kernel/pgpk_frame_ref.h"

static int failures;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, \
				__LINE__, #cond);                              \
			failures++;                                            \
		}                                                              \
	} while (0)

static uint32_t rng = 0x9e3779b9;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* RFC 9580 4.2: header @form for @tag and a body of @len octets. */
enum { NEW1, NEW2, NEW5, OLD1, OLD2, OLD4, NR_FORMS };

static size_t header(uint8_t *h, int form, uint8_t tag, uint32_t len)
{
	switch (form) {
	case NEW1:
		h[0] = 0xc0 | tag;
		h[1] = len;
		return 2;
	case NEW2:
		h[0] = 0xc0 | tag;
		h[1] = ((len - 192) >> 8) + 192;
		h[2] = len - 192;
		return 3;
	case NEW5:
		h[0] = 0xc0 | tag;
		h[1] = 0xff;
		h[2] = len >> 24;
		h[3] = len >> 16;
		h[4] = len >> 8;
		h[5] = len;
		return 6;
	case OLD1:
		h[0] = 0x80 | tag << 2;
		h[1] = len;
		return 2;
	case OLD2:
		h[0] = 0x81 | tag << 2;
		h[1] = len >> 8;
		h[2] = len;
		return 3;
	default:
		h[0] = 0x82 | tag << 2;
		h[1] = len >> 24;
		h[2] = len >> 16;
		h[3] = len >> 8;
		h[4] = len;
		return 5;
	}
}

static bool form_fits(int form, uint32_t len)
{
	return (form == NEW1 && len < 192) ||
	       (form == NEW2 && len >= 192 && len < 8384) || form == NEW5 ||
	       (form == OLD1 && len < 256) || (form == OLD2 && len < 65536) ||
	       form == OLD4;
}

static uint8_t blob[200000], body[80000];

/* Append a packet of @tag, @form with body @b of @len: its body offset. */
static size_t put(size_t *at, int form, uint8_t tag, const uint8_t *b,
		  size_t len)
{
	size_t h = header(blob + *at, form, tag, len);

	memcpy(blob + *at + h, b, len);
	*at += h + len;
	return *at - len;
}

static void test_header_forms(void)
{
	static const uint32_t lens[] = { 0,   1,    191,  192,	 255,	256,
					 300, 8383, 8384, 65535, 65536, 70000 };
	size_t i, n, at, off, user;
	int form, lead;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (n = 0; n < lens[i]; n++)
			body[n] = rnd();
		for (form = 0; form < NR_FORMS; form++) {
			if (!form_fits(form, lens[i]))
				continue;
			/* alone, then after a user ID of each form */
			for (lead = -1; lead < NR_FORMS; lead++) {
				at = 0;
				if (lead >= 0 && form_fits(lead, 20))
					user = put(
						&at, lead, 13,
						(const uint8_t
							 *)"Alice <alice@x.org>.",
						20);
				else if (lead >= 0)
					continue;
				off = put(&at, form, 6, body, lens[i]);
				CHECK(pgpk_packet_at(blob, at, off, 6, body,
						     lens[i]));
				if (lead >= 0)
					CHECK(pgpk_packet_at(
						blob, at, user, 13,
						(const uint8_t
							 *)"Alice <alice@x.org>.",
						20));
				/* wrong tag, offset, length, octets */
				CHECK(!pgpk_packet_at(blob, at, off, 14, body,
						      lens[i]));
				CHECK(!pgpk_packet_at(blob, at, off - 1, 6,
						      body, lens[i]));
				CHECK(!pgpk_packet_at(
					blob, at, off + 1, 6, body + 1,
					lens[i] ? lens[i] - 1 : 0));
				if (lens[i]) {
					CHECK(!pgpk_packet_at(blob, at, off, 6,
							      body,
							      lens[i] - 1));
					body[lens[i] / 2] ^= 1;
					CHECK(!pgpk_packet_at(blob, at, off, 6,
							      body, lens[i]));
					body[lens[i] / 2] ^= 1;
				}
				/* the packet cut short: past the end */
				CHECK(!pgpk_packet_at(
					blob, at - 1, off, 6, body,
					lens[i] ? lens[i] - 1 : 0));
				if (lens[i])
					CHECK(!pgpk_packet_at(blob, at - 1, off,
							      6, body,
							      lens[i]));
				CHECK(!pgpk_packet_at(blob, at, 0xffffffff, 6,
						      body, lens[i]));
				CHECK(!pgpk_packet_at(blob, at, 0, 6, blob,
						      at));
			}
		}
	}
	/* the tags a legacy header can say: 0..15, a new one 0..63 */
	at = 0;
	off = put(&at, OLD1, 15, body, 10);
	CHECK(pgpk_packet_at(blob, at, off, 15, body, 10));
	at = 0;
	off = put(&at, NEW1, 63, body, 10);
	CHECK(pgpk_packet_at(blob, at, off, 63, body, 10));
	CHECK(!pgpk_packet_at(blob, 0, 2, 63, body, 0));
}

/* Lengths the walk refuses: what follows them is never reached. */
static void test_unframed(void)
{
	size_t at, off, i;

	for (i = 0; i < 200; i++)
		body[i] = rnd();
	/* RFC 9580 4.2.1.4: a partial length (224..254), then a key */
	for (i = 224; i < 255; i++) {
		size_t chunk = (size_t)1 << (i & 0x1f);

		if (chunk > 65536) /* refused at its length octet anyway */
			chunk = 0;
		at = 0;
		blob[at++] = 0xc0 | 11;
		blob[at++] = i;
		memset(blob + at, 0, chunk);
		at += chunk;
		blob[at++] = 10; /* a last chunk of 10 */
		memset(blob + at, 0, 10);
		at += 10;
		off = put(&at, NEW1, 6, body, 100);
		CHECK(!pgpk_packet_at(blob, at, off, 6, body, 100));
		CHECK(!pgpk_packet_at(blob, at, 2, 11, blob + 2, chunk));
	}
	/* a partial length's octet is no two-octet length (192..223) */
	for (i = 224; i < 255; i++) {
		size_t two = ((i - 192) << 8) + 192;

		at = 0;
		blob[at++] = 0xc0 | 6;
		blob[at++] = i;
		blob[at++] = 0;
		memcpy(blob + at, body, 200);
		memset(blob + at + 200, 0x42, two - 200);
		CHECK(!pgpk_packet_at(blob, at + two, 3, 6, blob + 3, two));
	}
	/* nor a five-octet one (255 only) */
	for (i = 224; i < 255; i++) {
		at = 0;
		blob[at++] = 0xc0 | 6;
		blob[at++] = i;
		memcpy(blob + at, "\0\0\0\x32", 4);
		at += 4;
		memcpy(blob + at, body, 50);
		CHECK(!pgpk_packet_at(blob, at + 50, 6, 6, body, 50));
	}
	/* nor is the indeterminate length an eight-octet one */
	at = 0;
	blob[at++] = 0x80 | 6 << 2 | 3;
	memcpy(blob + at, "\0\0\0\0\0\0\0\x32", 8);
	at += 8;
	memcpy(blob + at, body, 50);
	CHECK(!pgpk_packet_at(blob, at + 50, 9, 6, body, 50));
	CHECK(!pgpk_packet_at(blob, at + 50, 1, 6, blob + 1, 58));
	/* RFC 9580 4.2.2.4: the legacy indeterminate length */
	at = 0;
	blob[at++] = 0x80 | 11 << 2 | 3;
	off = at;
	memcpy(blob + at, body, 100);
	at += 100;
	CHECK(!pgpk_packet_at(blob, at, off, 11, body, 100));
	at = 1;
	off = put(&at, NEW1, 6, body, 50);
	CHECK(!pgpk_packet_at(blob, at, off, 6, body, 50));
	/* bit 7 clear: not a packet */
	at = 0;
	blob[at++] = 0x7f;
	off = put(&at, NEW1, 6, body, 50);
	CHECK(!pgpk_packet_at(blob, at, off, 6, body, 50));
	/* a header cut inside its length */
	at = 0;
	off = put(&at, NEW5, 6, body, 50);
	CHECK(pgpk_packet_at(blob, at, off, 6, body, 50));
	CHECK(!pgpk_packet_at(blob, 3, off, 6, body, 0));
	/* a length that claims more than there is, then a real packet */
	at = 0;
	put(&at, NEW1, 2, body, 40);
	blob[1] = 190;
	off = put(&at, NEW1, 6, body, 50);
	CHECK(!pgpk_packet_at(blob, at, off, 6, body, 50));
	blob[1] = 40;
	CHECK(pgpk_packet_at(blob, at, off, 6, body, 50));
}

/*
 * A key packet's octets, header and all, inside another packet's body (a
 * notation of a certification anyone may append): never a packet.
 */
static void test_nested(void)
{
	uint8_t inner[300], outer[400];
	size_t at, hi, off, key;
	int form;

	for (at = 0; at < 200; at++)
		body[at] = rnd();
	for (form = 0; form < NR_FORMS; form++) {
		if (!form_fits(form, 200))
			continue;
		hi = header(inner, form, 6, 200);
		memcpy(inner + hi, body, 200);
		memset(outer, 0x20, 50);
		memcpy(outer + 50, inner, hi + 200);
		at = 0;
		key = put(&at, NEW2, 6, body, 200);
		off = put(&at, NEW2, 2, outer, 50 + hi + 200) + 50 + hi;
		CHECK(!memcmp(blob + off, body, 200));
		CHECK(!pgpk_packet_at(blob, at, off, 6, body, 200));
		CHECK(pgpk_packet_at(blob, at, key, 6, body, 200));
		/* the same octets at top level are a packet */
		at = 0;
		off = put(&at, form, 6, body, 200);
		CHECK(pgpk_packet_at(blob, at, off, 6, body, 200));
	}
	/* an offset inside a header: its length octets as a body */
	at = 0;
	put(&at, NEW5, 6, body, 300);
	CHECK(!pgpk_packet_at(blob, at, 2, 0x3f & blob[2], blob + 2, 4));
	CHECK(!pgpk_packet_at(blob, at, 1, 0xff, blob + 1, 5));
}

static void test_bytes_at(void)
{
	static const uint8_t b[] = "0123456789";

	CHECK(pgpk_bytes_at(b, 10, 0, b, 10));
	CHECK(pgpk_bytes_at(b, 10, 3, b + 3, 7));
	CHECK(pgpk_bytes_at(b, 10, 9, b + 9, 1));
	CHECK(pgpk_bytes_at(b, 10, 10, b, 0));
	CHECK(!pgpk_bytes_at(b, 10, 11, b, 0));
	CHECK(!pgpk_bytes_at(b, 10, 3, b + 3, 8));
	CHECK(!pgpk_bytes_at(b, 10, 4, b + 3, 6));
	CHECK(!pgpk_bytes_at(b, 10, 2, b + 3, 6));
	CHECK(!pgpk_bytes_at(b, 10, 0xffffffff, b, 1));
	CHECK(!pgpk_bytes_at(b, 10, 5, b + 5, (size_t)-1));
	CHECK(!pgpk_bytes_at(b, 10, 5, b + 5, (size_t)-5));
	CHECK(!pgpk_bytes_at(b, 10, 1, (const uint8_t *)"12345678X", 9));
}

/* A subpacket of @type with @n octets of data, in @form (1, 2, 5). */
static size_t sub(uint8_t *p, int form, uint8_t type, const uint8_t *data,
		  size_t n)
{
	size_t len = n + 1, h;

	if (form == 1) {
		p[0] = len;
		h = 1;
	} else if (form == 2) {
		p[0] = ((len - 192) >> 8) + 192;
		p[1] = len - 192;
		h = 2;
	} else {
		p[0] = 255;
		p[1] = len >> 24;
		p[2] = len >> 16;
		p[3] = len >> 8;
		p[4] = len;
		h = 5;
	}
	p[h] = type;
	memcpy(p + h + 1, data, n);
	return h + 1 + n;
}

static const uint8_t mark[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;
static const uint8_t t1[4] = { 0x65, 0x53, 0xf1, 0x00 };

static bool walk(const uint8_t *a, size_t len, struct pgpk_hashed *h)
{
	return pgpk_hashed_walk(a, (u32)len, h);
}

static void test_hashed(void)
{
	static uint8_t a[70000], note[60000];
	uint8_t fpr[33] = { 4 };
	struct pgpk_hashed h;
	size_t n, i;
	int form;

	for (i = 1; i < sizeof(fpr); i++)
		fpr[i] = i;
	/* one creation time, in a one- and a five-octet length, among
	 * others (a two-octet length says 192 octets at least) */
	for (form = 1; form <= 5; form += 4) {
		n = sub(a, form, 2, t1, 4);
		CHECK(walk(a, n, &h) && h.created == 0x6553f100 && !h.fpr_len &&
		      !h.marked);
		n += sub(a + n, 1, 27, (const uint8_t *)"\x03", 1);
		CHECK(walk(a, n, &h) && h.created == 0x6553f100);
	}
	/* the critical bit does not hide it (RFC 9580 5.2.3.7) */
	n = sub(a, 1, 0x82, t1, 4);
	CHECK(walk(a, n, &h) && h.created == 0x6553f100);
	/* none, two, one of the wrong size */
	n = sub(a, 1, 27, (const uint8_t *)"\x03", 1);
	CHECK(!walk(a, n, &h));
	CHECK(!walk(a, 0, &h));
	n = sub(a, 1, 2, t1, 4);
	n += sub(a + n, 1, 2, t1, 4);
	CHECK(!walk(a, n, &h));
	n = sub(a, 1, 2, t1, 4);
	n += sub(a + n, 1, 0x82, t1, 4);
	CHECK(!walk(a, n, &h));
	n = sub(a, 1, 2, t1, 3);
	CHECK(!walk(a, n, &h));
	n = sub(a, 1, 2, (const uint8_t *)"\x65\x53\xf1\x00\x00", 5);
	CHECK(!walk(a, n, &h));
	n = sub(a, 1, 2, t1, 4);
	n += sub(a + n, 1, 2, t1, 3);
	CHECK(!walk(a, n, &h));
	/* the creation time's octets inside a notation: not one */
	n = sub(note, 1, 2, t1, 4);
	n = sub(a, 1, 20, note, n);
	CHECK(!walk(a, n, &h));
	n += sub(a + n, 1, 2, (const uint8_t *)"\0\0\0\1", 4);
	CHECK(walk(a, n, &h) && h.created == 1);
	/* framing: overrun, empty subpacket, lengths cut short */
	n = sub(a, 1, 2, t1, 4);
	a[0] = 6;
	CHECK(!walk(a, n, &h));
	a[0] = 5;
	CHECK(!walk(a, n - 1, &h));
	a[n] = 0;
	CHECK(!walk(a, n + 1, &h));
	n = sub(a, 1, 2, t1, 4);
	a[n] = 200; /* a two-octet length without its second octet */
	CHECK(!walk(a, n + 1, &h));
	a[n] = 255; /* a five-octet length cut */
	CHECK(!walk(a, n + 4, &h));
	memcpy(a + n, "\xff\xff\xff\xff\xff", 5); /* 2^32 - 1 octets */
	CHECK(!walk(a, n + 10, &h));
	/* RFC 9580 5.2.3.35: the issuer fingerprint, v4 and v6 */
	for (i = 20; i <= 32; i += 12) {
		n = sub(a, 1, 2, t1, 4);
		n += sub(a + n, 1, 33, fpr, i + 1);
		CHECK(walk(a, n, &h) && h.fpr_len == i && h.fpr == a + n - i &&
		      !memcmp(h.fpr, fpr + 1, i));
	}
	/* any other length names no key: none */
	for (i = 0; i <= 32; i++) {
		n = sub(a, 1, 2, t1, 4);
		n += sub(a + n, 1, 33, fpr, i + 1);
		CHECK(walk(a, n, &h) &&
		      h.fpr_len == (i == 20 || i == 32 ? i : 0));
	}
	/* RFC 9580 5.2.3.18: at most one expiration time, of 4 octets */
	n = sub(a, 1, 2, t1, 4);
	CHECK(walk(a, n, &h) && !h.expires);
	n += sub(a + n, 1, 3, (const uint8_t *)"\0\0\x0e\x10", 4);
	CHECK(walk(a, n, &h) && h.expires == 3600 && h.created == 0x6553f100);
	i = n;
	n += sub(a + n, 1, 0x83, (const uint8_t *)"\0\0\0\1", 4);
	CHECK(!walk(a, n, &h)); /* two, the second critical */
	n = i - 6 + sub(a + i - 6, 1, 3, (const uint8_t *)"\0\x0e\x10", 3);
	CHECK(!walk(a, n, &h)); /* of 3 octets */
	n = sub(a, 1, 3, (const uint8_t *)"\0\0\0\0", 4);
	n += sub(a + n, 1, 2, t1, 4);
	CHECK(walk(a, n, &h) && !h.expires); /* 0: never */
	/* the IMA mark: a whole subpacket, not inside a value */
	n = sub(a, 1, 2, t1, 4);
	memcpy(a + n, mark, sizeof(mark));
	n += sizeof(mark);
	CHECK(walk(a, n, &h) && h.marked);
	a[n - sizeof(mark) + 1] |= 0x80; /* a critical notation: refused */
	CHECK(!walk(a, n, &h));
	n = sub(a, 1, 2, t1, 4);
	n += sub(a + n, 1, 20, mark, sizeof(mark));
	CHECK(walk(a, n, &h) && !h.marked);
	/* RFC 9580 5.2.3.13: at most one key expiration time, 4 octets */
	n = sub(a, 1, 2, t1, 4);
	CHECK(walk(a, n, &h) && !h.key_expires && h.key_flags == 0xff);
	n += sub(a + n, 1, 9, (const uint8_t *)"\0\x01\x51\x80", 4);
	CHECK(walk(a, n, &h) && h.key_expires == 86400 && !h.expires);
	i = n;
	n += sub(a + n, 1, 9, (const uint8_t *)"\0\0\0\1", 4);
	CHECK(!walk(a, n, &h)); /* two */
	n = i + sub(a + i, 1, 0x89, (const uint8_t *)"\0\0\0", 3);
	CHECK(!walk(a, n, &h)); /* of 3 octets */
	/* RFC 9580 5.2.3.29: at most one key flags, its first octet */
	n = sub(a, 1, 2, t1, 4);
	n += sub(a + n, 1, 0x9b, (const uint8_t *)"\x03\x04", 2);
	CHECK(walk(a, n, &h) && h.key_flags == 0x03);
	i = n;
	n += sub(a + n, 1, 27, (const uint8_t *)"\x01", 1);
	CHECK(!walk(a, n, &h)); /* two */
	n = i - 4 + sub(a + i - 4, 1, 27, (const uint8_t *)"", 0);
	CHECK(walk(a, n, &h) && h.key_flags == 0); /* empty: says none */
	/* RFC 9580 5.2.3.7: a critical subpacket pgpk does not understand
	 * refuses the area; an unknown one that is not critical does not */
	for (i = 0; i < 128; i++) {
		n = sub(a, 1, 2, t1, 4);
		n += sub(a + n, 1, (uint8_t)(0x80 | i),
			 (const uint8_t *)"\0\0\0\0", i == 27 ? 1 : 4);
		CHECK(walk(a, n, &h) ==
		      (i < 64 && (PGPK_CRITICAL_OK >> i & 1) && i != 2));
		a[7] &= 0x7f;
		CHECK(walk(a, n, &h) == (i != 2));
	}
	/* a large notation first (two- and five-octet lengths) */
	memset(note, 'n', sizeof(note));
	for (form = 2; form <= 5; form += 3) {
		n = sub(a, form, 20, note, form == 2 ? 8000 : 60000);
		memcpy(a + n, mark, sizeof(mark));
		n += sizeof(mark);
		n += sub(a + n, 1, 2, t1, 4);
		CHECK(walk(a, n, &h) && h.marked && h.created == 0x6553f100);
	}
}

/* Seed 007's description (pgpk_name()), and against the reference. */
static void name_is(const char *uid, size_t len, bool subkey, const char *want)
{
	static const uint8_t keyid[8] = { 0x01, 0x23, 0x45, 0x67,
					  0x89, 0xab, 0xcd, 0xef };
	struct pgpk_bytes b = { (const u8 *)uid, (u32)len, 0 };
	char out[PGPK_NAME_SIZE];

	pgpk_name(uid ? &b : NULL, subkey, keyid, out);
	if (strcmp(out, want)) {
		fprintf(stderr, "name of '%.*s': '%s', want '%s'\n", (int)len,
			uid ? uid : "", out, want);
		failures++;
	}
}

static void test_name(void)
{
	char uid[400], want[PGPK_NAME_SIZE], got[PGPK_NAME_SIZE];
	uint8_t keyid[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct pgpk_bytes b;
	size_t i, k, len;

	name_is("Alice Example (work) <a@example.org>", 36, false,
		"Alice Example 89abcdef");
	name_is("Bob <bob@example.org>", 21, true,
		"Bob <bob@example.org> 89abcdef");
	name_is("Carol\nX", 7, false, "Carol\\x0aX 89abcdef");
	name_is("J\xfcrgen", 6, false, "J\\xfcrgen 89abcdef");
	name_is("J\xc3\xbcrgen", 7, false, "J\\xc3\\xbcrgen 89abcdef");
	name_is("a\\b", 3, false, "a\\x5cb 89abcdef");
	name_is("nul\0after", 9, false, "nul\\x00after 89abcdef");
	name_is("(only a comment)", 16, false, "PGP key 0123456789abcdef");
	name_is("   (x)", 6, true, "PGP subkey 0123456789abcdef");
	name_is(NULL, 0, false, "PGP key 0123456789abcdef");
	name_is(NULL, 0, true, "PGP subkey 0123456789abcdef");
	name_is("trailing   ", 11, false, "trailing 89abcdef");
	/* at most 246 octets of the user ID (the seed's 255 - 9) */
	memset(uid, 'L', sizeof(uid));
	memset(want, 'L', 246);
	strcpy(want + 246, " 89abcdef");
	name_is(uid, 300, false, want);
	/* at most 4 characters an octet: the longest name fits */
	memset(uid, 0xff, sizeof(uid));
	b.data = (const u8 *)uid;
	b.len = sizeof(uid);
	pgpk_name(&b, true, keyid, got);
	CHECK(strlen(got) == 4 * 246 + 9 && strlen(got) < PGPK_NAME_SIZE);
	/* random user IDs against the reference */
	for (i = 0; i < 20000; i++) {
		len = 1 + rnd() % (rnd() % 4 ? 40 : sizeof(uid));
		for (k = 0; k < len; k++)
			uid[k] = rnd() % 3 ? ' ' + rnd() % 95 : rnd();
		b.data = (const u8 *)uid;
		b.len = (u32)len;
		pgpk_name(&b, i & 1, keyid, got);
		pgpk_ref_name((const uint8_t *)uid, len, i & 1, keyid, want);
		CHECK(!strcmp(got, want));
	}
}

static struct pgpk_ref_packet refs[70000];

/* Random packet streams: the kernel and the reference agree. */
static void test_random_packets(void)
{
	size_t i, len, n, k, at;
	uint32_t off;
	uint8_t tag;
	int form;

	for (i = 0; i < 20000; i++) {
		len = 0;
		/* mostly well-framed packets, then junk */
		while (len < 2000 && rnd() % 8) {
			n = rnd() % (rnd() % 4 ? 200 : 9000);
			for (k = 0; k < n; k++)
				body[k] = rnd();
			do
				form = rnd() % NR_FORMS;
			while (!form_fits(form, n));
			at = len;
			put(&at, form, rnd() % 16, body, n);
			len = at;
		}
		/* a header of any form, any octets, then some body */
		if (rnd() % 2) {
			blob[len++] = 0x80 | (rnd() & 0x7f);
			for (k = rnd() % 9; k; k--)
				blob[len++] =
					rnd() % 3 ?
						rnd() :
						(uint8_t)(rnd() % 4 ? 0 : 1);
			for (k = rnd() % 300; k; k--)
				blob[len++] = rnd();
		}
		for (k = rnd() % 8; k; k--)
			blob[len++] = rnd();
		n = pgpk_ref_packets(blob, len, refs,
				     sizeof(refs) / sizeof(refs[0]));
		/* every packet of the reference walk, found */
		for (k = 0; k < n; k++)
			CHECK(pgpk_packet_at(blob, len, refs[k].body,
					     refs[k].tag, blob + refs[k].body,
					     refs[k].len));
		/* and random questions, answered alike */
		for (k = 0; k < 50; k++) {
			off = rnd() % (len + 3);
			tag = rnd() % 16;
			if (n && rnd() % 2) {
				off = refs[rnd() % n].body + rnd() % 3 - 1;
				tag = rnd() % 2 ? tag : blob[0] & 0x3f;
			}
			at = off <= len ? rnd() % (len - off + 2) : 0;
			CHECK(pgpk_packet_at(
				      blob, len, off, tag, blob + off,
				      off <= len && at <= len - off ? at : 0) ==
			      pgpk_ref_packet_at(
				      refs, n, blob, off, tag, blob + off,
				      off <= len && at <= len - off ? at : 0));
		}
	}
}

/* Random hashed areas: the kernel and the reference agree. */
static void test_random_hashed(void)
{
	static uint8_t a[3000];
	struct pgpk_ref_hashed r;
	struct pgpk_hashed h;
	size_t i, n, k, len;
	uint8_t data[300];
	bool ok;

	for (i = 0; i < 200000; i++) {
		len = 0;
		while (len < 2500 && rnd() % 6) {
			n = rnd() % 8 ? rnd() % 40 : rnd() % 300;
			for (k = 0; k < n; k++)
				data[k] = rnd();
			switch (rnd() % 5) {
			case 0:
				len += sub(a + len, 1, 2, t1, 4);
				break;
			case 1:
				memcpy(a + len, mark, sizeof(mark));
				len += sizeof(mark);
				break;
			case 2:
				data[0] = 4;
				len += sub(a + len, 1, 33, data,
					   rnd() % 2 ? 21 : 33);
				break;
			default:
				len += sub(a + len, n + 1 < 192 ? 1 : 2,
					   rnd() % 64 | (rnd() % 3 ? 0 : 0x80),
					   data, n);
			}
		}
		if (rnd() % 4 == 0 && len)
			a[rnd() % len] = rnd();
		if (rnd() % 8 == 0 && len)
			len -= rnd() % len;
		ok = walk(a, len, &h);
		r = pgpk_ref_hashed_walk(a, len);
		CHECK(ok == r.ok);
		if (ok && r.ok) {
			CHECK(h.created == r.created && h.marked == r.marked &&
			      h.fpr_len == r.fpr_len && h.expires == r.expires);
			CHECK(h.key_expires == r.key_expires &&
			      h.key_flags ==
				      (r.key_flags < 0 ? 0xff : r.key_flags));
			CHECK(!r.fpr_len || h.fpr == a + r.fpr_at);
			CHECK(!h.fpr_len || h.fpr + h.fpr_len <= a + len);
		}
	}
}

int main(void)
{
	test_header_forms();
	test_unframed();
	test_nested();
	test_bytes_at();
	test_hashed();
	test_random_packets();
	test_random_hashed();
	test_name();
	if (failures) {
		fprintf(stderr, "frame_test: %d failures\n", failures);
		return 1;
	}
	printf("frame_test: all checks passed\n");
	return 0;
}
