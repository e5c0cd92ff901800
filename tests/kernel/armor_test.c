// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/pgpk_armor.c in user space: OpenPGP detection, ASCII armor
 * removal (RFC 9580 6.2, 7), the binding check against every packet
 * header form (RFC 9580 4.2), and a random-input loop that must never
 * crash (run under ASan by tests/run-all.sh) nor accept what it should
 * not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_armor.h"

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

static size_t b64(const uint8_t *in, size_t len, char *out, const char *eol)
{
	static const char t[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, n = 0, col = 0;
	uint32_t v;

	for (i = 0; i < len; i += 3) {
		v = in[i] << 16 | (i + 1 < len ? in[i + 1] << 8 : 0) |
		    (i + 2 < len ? in[i + 2] : 0);
		out[n++] = t[v >> 18 & 63];
		out[n++] = t[v >> 12 & 63];
		out[n++] = i + 1 < len ? t[v >> 6 & 63] : '=';
		out[n++] = i + 2 < len ? t[v & 63] : '=';
		col += 4;
		if (col == 64 || i + 3 >= len) {
			n += sprintf(out + n, "%s", eol);
			col = 0;
		}
	}
	return n;
}

static void test_detect(void)
{
	CHECK(pgpk_is_openpgp((const uint8_t *)"\x99\x01\x0d", 3));
	CHECK(pgpk_is_openpgp((const uint8_t *)" \r\n-----BEGIN PGP PUBLIC",
			      23));
	CHECK(!pgpk_is_openpgp((const uint8_t *)"\x7fPGK\x01", 5));
	CHECK(!pgpk_is_openpgp((const uint8_t *)"\x30\x82\x01\x0a", 4));
	CHECK(!pgpk_is_openpgp((const uint8_t *)"-----BEGIN CERTIFICATE", 22));
	CHECK(!pgpk_is_openpgp((const uint8_t *)"-----BEGIN PGP", 14));
	CHECK(!pgpk_is_openpgp((const uint8_t *)"", 0));
}

/* Armor @bin with @eol line ends; a cleartext frame if @text. */
static size_t armor(const uint8_t *bin, size_t len, const char *eol,
		    const char *text, char *out)
{
	size_t n = 0;

	if (text)
		n += sprintf(out,
			     "-----BEGIN PGP SIGNED MESSAGE-----%sHash: "
			     "SHA256%s%s%s%s-----BEGIN PGP SIGNATURE-----%s",
			     eol, eol, eol, text, eol, eol);
	else
		n += sprintf(out, "  %s-----BEGIN PGP PUBLIC KEY BLOCK-----%s",
			     eol, eol);
	n += sprintf(out + n, "Version: test%sComment: a: b%s%s", eol, eol,
		     eol);
	n += b64(bin, len, out + n, eol);
	n += sprintf(out + n, "=AbCd%s-----END PGP %s-----%s", eol,
		     text ? "SIGNATURE" : "PUBLIC KEY BLOCK", eol);
	return n;
}

static void test_dearmor(void)
{
	static const char *const eols[] = { "\n", "\r\n" };
	static const char *const texts[] = {
		NULL,
		"text\n- -----BEGIN PGP SIGNATURE-----\nmore",
	};
	static uint8_t bin[3000];
	static char text[8000];
	struct pgpk_input in;
	size_t len, n, e, t;

	for (len = 1; len < sizeof(bin); len += 97) {
		for (n = 0; n < len; n++)
			bin[n] = rnd();
		bin[0] |= 0x80;
		for (e = 0; e < 2; e++) {
			for (t = 0; t < 2; t++) {
				n = armor(bin, len, eols[e], texts[t], text);
				CHECK(pgpk_is_openpgp((uint8_t *)text, n));
				CHECK(pgpk_input_init(&in, (uint8_t *)text,
						      n) == 0);
				CHECK(in.bin_len == len &&
				      !memcmp(in.bin, bin, len));
				pgpk_input_free(&in);
			}
		}
	}
	/* Binary input is used as it is. */
	CHECK(pgpk_input_init(&in, bin, 10) == 0 && in.bin == bin &&
	      in.bin_len == 10 && !in.buf);
	pgpk_input_free(&in);
}

static void test_dearmor_bad(void)
{
	static const char *const bad[] = {
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\nVersion: x\n",
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQIN\n",
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQ*N\n-----END\n",
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQ\x01N\n-----END\n",
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmR\n-----END\n",
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n-----END\n",
		"-----BEGIN PGP SIGNED MESSAGE-----\n\ntext\n",
		"-----BEGIN PGP SIGNED MESSAGE-----\n\n- -----BEGIN PGP "
		"SIGNATURE-----\n",
	};
	struct pgpk_input in;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(pgpk_input_init(&in, (const uint8_t *)bad[i],
				      strlen(bad[i])) == -EBADMSG);
		CHECK(!in.buf); /* nothing for the caller to free */
	}
}

/* RFC 9580 4.2: header @form (as pgpk_armor.c numbers them) for @tag. */
static size_t header(uint8_t *h, int form, uint8_t tag, uint32_t len)
{
	switch (form) {
	case 0:
		h[0] = 0xc0 | tag;
		h[1] = len;
		return 2;
	case 1:
		h[0] = 0xc0 | tag;
		h[1] = ((len - 192) >> 8) + 192;
		h[2] = len - 192;
		return 3;
	case 2:
		h[0] = 0xc0 | tag;
		h[1] = 0xff;
		h[2] = len >> 24;
		h[3] = len >> 16;
		h[4] = len >> 8;
		h[5] = len;
		return 6;
	case 3:
		h[0] = 0x80 | tag << 2;
		h[1] = len;
		return 2;
	case 4:
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
	return (form == 0 && len < 192) ||
	       (form == 1 && len >= 192 && len < 8384) || form == 2 ||
	       (form == 3 && len < 256) || (form == 4 && len < 65536) ||
	       form == 5;
}

static void test_bind(void)
{
	static const uint32_t lens[] = { 1, 191, 192, 300, 8383, 8384, 70000 };
	static uint8_t blob[80000], body[80000];
	struct pgpk_input in;
	size_t i, h, n;
	int form;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (n = 0; n < lens[i]; n++)
			body[n] = rnd();
		for (form = 0; form < 6; form++) {
			if (!form_fits(form, lens[i]))
				continue;
			blob[0] = 0xb4; /* something before the packet */
			h = 1 + header(blob + 1, form, 6, lens[i]);
			memcpy(blob + h, body, lens[i]);
			memset(&in, 0, sizeof(in));
			in.bin = blob;
			in.bin_len = h + lens[i];
			CHECK(pgpk_bind_packet(&in, h, 6, body, lens[i],
					       "key") == 0);
			/* wrong tag, wrong offset, wrong length, wrong body */
			CHECK(pgpk_bind_packet(&in, h, 14, body, lens[i],
					       "key") == -EKEYREJECTED);
			CHECK(pgpk_bind_packet(&in, h - 1, 6, body, lens[i],
					       "key") == -EKEYREJECTED);
			CHECK(pgpk_bind_packet(&in, h, 6, body, lens[i] - 1,
					       "key") == -EKEYREJECTED);
			CHECK(pgpk_bind_packet(&in, h + 1, 6, body, lens[i],
					       "key") == -EKEYREJECTED);
			body[lens[i] / 2] ^= 1;
			CHECK(pgpk_bind_packet(&in, h, 6, body, lens[i],
					       "key") == -EKEYREJECTED);
			body[lens[i] / 2] ^= 1;
			CHECK(pgpk_bind_packet(&in, 0, 6, blob, h + lens[i],
					       "key") == -EKEYREJECTED);
			CHECK(pgpk_bind_packet(&in, 0xffffffff, 6, body,
					       lens[i],
					       "key") == -EKEYREJECTED);
			CHECK(pgpk_input_contains(&in, body, lens[i]));
		}
	}
	CHECK(!pgpk_input_contains(&in, (const uint8_t *)"", 0));
	CHECK(!pgpk_input_contains(&in, body, sizeof(body)));
}

/* Random input: only 0 or -EBADMSG, a result inside the input's size. */
static void test_random(void)
{
	static const char alphabet[] = "AZaz09+/=-\n\r :";
	static uint8_t buf[600];
	struct pgpk_input in;
	size_t i, n, len;
	int ret;

	for (i = 0; i < 200000; i++) {
		len = rnd() % sizeof(buf);
		n = 0;
		if (rnd() & 1)
			n = sprintf(
				(char *)buf, "%s",
				rnd() & 1 ?
					"-----BEGIN PGP X-----\n\n" :
					"-----BEGIN PGP SIGNED MESSAGE-----\n\n");
		for (; n < len; n++)
			buf[n] = rnd() & 1 ? (uint8_t)alphabet[rnd() % 15] :
					     (uint8_t)rnd();
		if (!pgpk_is_openpgp(buf, len))
			continue;
		ret = pgpk_input_init(&in, buf, len);
		CHECK(ret == 0 || ret == -EBADMSG);
		CHECK(!ret || !in.buf);
		if (!ret) {
			CHECK(in.bin_len <= len);
			ret = pgpk_bind_packet(&in, rnd() % (len + 2),
					       rnd() % 16, buf, rnd() % 300,
					       "random");
			CHECK(ret == 0 || ret == -EKEYREJECTED);
		}
		pgpk_input_free(&in);
	}
}

int main(void)
{
	test_detect();
	test_dearmor();
	test_dearmor_bad();
	test_bind();
	test_random();
	if (failures) {
		fprintf(stderr, "armor_test: %d failures\n", failures);
		return 1;
	}
	printf("armor_test: all checks passed\n");
	return 0;
}
