// SPDX-License-Identifier: GPL-2.0
/*
 * ASCII armor (RFC 9580 6), CRC-24 (RFC 4880 6.1), cleartext signatures
 * (RFC 9580 7) and text canonicalisation (5.2.1.2, 7.2).
 */
#include <errno.h>

#include "helper/openpgp/openpgp.h"
#include "tests/openpgp/test_util.h"

static int pgpk_decode_str(const char *s, struct pgpk_input *in,
			   struct pgpk_error *err)
{
	return pgpk_input_decode((const uint8_t *)s, strlen(s), in, err);
}

static void test_crc24(void)
{
	/* RFC 4880 6.1: initial value; CRC-24/OPENPGP check value. */
	CHECK_EQ(pgpk_crc24((const uint8_t *)"", 0), 0xB704CE);
	CHECK_EQ(pgpk_crc24((const uint8_t *)"123456789", 9), 0x21CF02);
}

/* alice.asc (gpg --armor --export) decodes to alice.gpg exactly. */
static void test_armor_matches_binary(void)
{
	struct pgpk_input in;
	struct pgpk_error err;
	size_t alen, blen;
	uint8_t *asc = pgpk_test_read("alice.asc", &alen);
	uint8_t *bin = pgpk_test_read("alice.gpg", &blen);

	CHECK_EQ(pgpk_input_decode(asc, alen, &in, &err), 0);
	CHECK_EQ(in.kind, PGPK_INPUT_ARMOR);
	CHECK(!strcmp(in.armor_label, "PUBLIC KEY BLOCK"));
	CHECK_EQ(in.packets_len, blen);
	CHECK(in.packets_len == blen && !memcmp(in.packets, bin, blen));
	pgpk_input_release(&in);

	/* Binary input is passed through. */
	CHECK_EQ(pgpk_input_decode(bin, blen, &in, &err), 0);
	CHECK_EQ(in.kind, PGPK_INPUT_BINARY);
	CHECK(!memcmp(in.packets, bin, blen));
	pgpk_input_release(&in);
	free(asc);
	free(bin);
}

static void test_armor_errors(void)
{
	struct pgpk_input in;
	struct pgpk_error err;
	size_t alen;
	uint8_t *asc = pgpk_test_read("alice.asc", &alen);
	uint8_t *bad = malloc(alen + 16);
	char *crc;

	/* A wrong CRC-24 is refused. */
	memcpy(bad, asc, alen);
	bad[alen] = 0;
	crc = strstr((char *)bad, "\n=");
	CHECK(crc != NULL);
	if (crc) {
		crc[2] = crc[2] == 'A' ? 'B' : 'A';
		CHECK_EQ(pgpk_input_decode(bad, alen, &in, &err), -EBADMSG);
		CHECK(strstr(err.msg, "CRC-24") != NULL);
	}
	/* Without the checksum line it is accepted (RFC 9580 6.1). */
	memcpy(bad, asc, alen);
	crc = strstr((char *)bad, "\n=");
	if (crc) {
		size_t at = (size_t)(crc - (char *)bad) + 1, n = 6;

		memmove(bad + at, bad + at + n, alen - at - n);
		CHECK_EQ(pgpk_input_decode(bad, alen - n, &in, &err), 0);
		pgpk_input_release(&in);
	}
	/* Truncated: no END line. */
	CHECK_EQ(pgpk_input_decode(asc, alen - 20, &in, &err), -EBADMSG);
	CHECK(strstr(err.msg, "END") != NULL);
	/* Trailing garbage after END. */
	memcpy(bad, asc, alen);
	memcpy(bad + alen, "garbage\n", 8);
	CHECK_EQ(pgpk_input_decode(bad, alen + 8, &in, &err), -EBADMSG);
	CHECK_EQ(err.offset, alen);
	/* Trailing whitespace is fine. */
	memcpy(bad + alen, " \n\n", 3);
	CHECK_EQ(pgpk_input_decode(bad, alen + 3, &in, &err), 0);
	pgpk_input_release(&in);
	/* Two blocks with the same label concatenate. */
	{
		uint8_t *two = malloc(2 * alen);

		memcpy(two, asc, alen);
		memcpy(two + alen, asc, alen);
		CHECK_EQ(pgpk_input_decode(two, 2 * alen, &in, &err), 0);
		pgpk_input_release(&in);
		free(two);
	}
	/* Invalid base64 character, with its offset. */
	CHECK_EQ(pgpk_decode_str("-----BEGIN PGP SIGNATURE-----\n\nAB*D\n"
				 "-----END PGP SIGNATURE-----\n",
				 &in, &err),
		 -EBADMSG);
	CHECK_EQ(err.offset, 33);
	/* END label must match BEGIN. */
	CHECK_EQ(pgpk_decode_str("-----BEGIN PGP SIGNATURE-----\n\nABCD\n"
				 "-----END PGP MESSAGE-----\n",
				 &in, &err),
		 -EBADMSG);
	/* Incomplete base64 quantum. */
	CHECK_EQ(pgpk_decode_str("-----BEGIN PGP SIGNATURE-----\n\nABCDE\n"
				 "-----END PGP SIGNATURE-----\n",
				 &in, &err),
		 -EBADMSG);
	/* A UTF-8 byte order mark before the armor. */
	CHECK_EQ(pgpk_decode_str("\xEF\xBB\xBF-----BEGIN PGP SIGNATURE-----\n"
				 "\nABCD\n-----END PGP SIGNATURE-----\n",
				 &in, &err),
		 0);
	pgpk_input_release(&in);
	/* Neither armor nor packets. */
	CHECK_EQ(pgpk_decode_str("hello\n", &in, &err), -EBADMSG);
	CHECK_EQ(pgpk_input_decode((const uint8_t *)"", 0, &in, &err),
		 -EBADMSG);
	/* A short valid block: "ABCD" -> 00 10 83. */
	CHECK_EQ(pgpk_decode_str("-----BEGIN PGP SIGNATURE-----\n"
				 "Version: x\n\nABCD\n=\n"
				 "-----END PGP SIGNATURE-----\n",
				 &in, &err),
		 -EBADMSG); /* "=" alone is a malformed checksum */
	CHECK_EQ(pgpk_decode_str("-----BEGIN PGP SIGNATURE-----\n"
				 "Version: x\r\n\r\nAB\r\nCD\r\n"
				 "-----END PGP SIGNATURE-----\r\n",
				 &in, &err),
		 0);
	CHECK_EQ(in.packets_len, 3);
	CHECK(in.packets_len == 3 && in.packets[0] == 0x00 &&
	      in.packets[1] == 0x10 && in.packets[2] == 0x83);
	pgpk_input_release(&in);
	free(asc);
	free(bad);
}

static void test_cleartext(void)
{
	static const char expect[] =
		"Hello, kernel.\n- a line starting with a dash\n"
		"From the start   \ntrailing tab\t\nlast line without newline";
	static const char canon[] =
		"Hello, kernel.\r\n- a line starting with a dash\r\n"
		"From the start\r\ntrailing tab\r\nlast line without newline";
	struct pgpk_input in;
	struct pgpk_error err;
	uint8_t *out;
	size_t len, olen;
	uint8_t *clear = pgpk_test_read("msg.txt.clear", &len);

	CHECK_EQ(pgpk_input_decode(clear, len, &in, &err), 0);
	CHECK_EQ(in.kind, PGPK_INPUT_CLEARTEXT);
	CHECK_EQ(in.cleartext_len, strlen(expect));
	CHECK(in.cleartext_len == strlen(expect) &&
	      !memcmp(in.cleartext, expect, strlen(expect)));
	CHECK(in.packets_len > 0 && (in.packets[0] & 0x80));
	CHECK_EQ(pgpk_text_canonicalize(in.cleartext, in.cleartext_len, true,
					&out, &olen),
		 0);
	CHECK_EQ(olen, strlen(canon));
	CHECK(olen == strlen(canon) && !memcmp(out, canon, olen));
	free(out);
	pgpk_input_release(&in);

	/* No signature after the text. */
	CHECK_EQ(pgpk_decode_str("-----BEGIN PGP SIGNED MESSAGE-----\n"
				 "Hash: SHA256\n\ntext\n",
				 &in, &err),
		 -EBADMSG);
	free(clear);
}

static void test_canonicalize(void)
{
	static const struct {
		const char *in, *out;
		bool strip;
	} cases[] = {
		{ "a\nb", "a\r\nb", false },
		{ "a\r\nb\r\n", "a\r\nb\r\n", false },
		{ "a \t\nb  ", "a \t\r\nb  ", false }, /* text mode keeps */
		{ "a \t\nb  ", "a\r\nb", true }, /* cleartext strips */
		{ "a\rb\n", "a\rb\r\n", false }, /* lone CR kept */
		{ "\n\n", "\r\n\r\n", false },
		{ "", "", true },
	};
	size_t i, olen;
	uint8_t *out;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_EQ(pgpk_text_canonicalize((const uint8_t *)cases[i].in,
						strlen(cases[i].in),
						cases[i].strip, &out, &olen),
			 0);
		CHECK_EQ(olen, strlen(cases[i].out));
		CHECK(olen == strlen(cases[i].out) &&
		      (!olen || !memcmp(out, cases[i].out, olen)));
		free(out);
	}
}

int main(void)
{
	test_crc24();
	test_armor_matches_binary();
	test_armor_errors();
	test_cleartext();
	test_canonicalize();
	return pgpk_test_done("armor_test");
}
