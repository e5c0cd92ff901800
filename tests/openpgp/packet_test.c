// SPDX-License-Identifier: GPL-2.0
/*
 * Packet framing (RFC 9580 4.2): every length encoding of both formats,
 * partial lengths only for data packets, truncation, trailing garbage,
 * error offsets.
 */
#include <errno.h>

#include "helper/openpgp/internal.h"
#include "tests/openpgp/test_util.h"

static int frame(const uint8_t *buf, size_t len, struct pgpk_packet *pkt,
		 size_t *consumed, struct pgpk_error *err)
{
	struct pgpk_cursor c;
	int ret;

	pgpk_cursor_init(&c, buf, len, 0);
	ret = pgpk_packet_next(&c, pkt, err);
	*consumed = c.pos;
	return ret;
}

static void test_new_format(void)
{
	static uint8_t buf[70000 + 16];
	struct pgpk_packet pkt;
	struct pgpk_error err;
	size_t used;

	/* 4.2.1.1: one-octet length (user ID, tag 13). */
	buf[0] = 0xC0 | 13;
	buf[1] = 5;
	memcpy(buf + 2, "alice", 5);
	CHECK_EQ(frame(buf, 7, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.tag, 13);
	CHECK_EQ(pkt.len, 5);
	CHECK_EQ(pkt.offset, 2);
	CHECK_EQ(used, 7);
	CHECK(pkt.new_format);
	/* 4.2.1.2: two-octet length: 192..8383; 1000 = (195-192)<<8 + 40 + 192. */
	buf[1] = 195;
	buf[2] = 40;
	CHECK_EQ(frame(buf, 3 + 1000, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.len, 1000);
	CHECK_EQ(pkt.offset, 3);
	/* The smallest two-octet value is 192. */
	buf[1] = 192;
	buf[2] = 0;
	CHECK_EQ(frame(buf, 3 + 192, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.len, 192);
	/* 4.2.1.3: five-octet length. */
	buf[1] = 255;
	buf[2] = 0;
	buf[3] = 0x01;
	buf[4] = 0x11;
	buf[5] = 0x70; /* 70000 */
	CHECK_EQ(frame(buf, 6 + 70000, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.len, 70000);
	CHECK_EQ(pkt.offset, 6);
	/* Body truncated by one octet: refused, offset of the header. */
	CHECK_EQ(frame(buf, 6 + 69999, &pkt, &used, &err), -EBADMSG);
	CHECK_EQ(err.offset, 0);
	/* Truncated length octets. */
	CHECK_EQ(frame(buf, 3, &pkt, &used, &err), -EBADMSG);
	buf[1] = 200;
	CHECK_EQ(frame(buf, 2, &pkt, &used, &err), -EBADMSG);
	CHECK_EQ(frame(buf, 1, &pkt, &used, &err), -EBADMSG);
	/* 4.3: tag 0 is reserved. */
	buf[0] = 0xC0;
	buf[1] = 0;
	CHECK_EQ(frame(buf, 2, &pkt, &used, &err), -EBADMSG);
	/* 4.2: bit 7 must be set. */
	buf[0] = 0x40 | 13;
	CHECK_EQ(frame(buf, 2, &pkt, &used, &err), -EBADMSG);
	CHECK(strstr(err.msg, "bit 7") != NULL);
}

static void test_partial(void)
{
	static uint8_t buf[4096];
	struct pgpk_packet pkt;
	struct pgpk_error err;
	size_t used, i;

	/* 4.2.1.4: literal data (tag 11): 512 (0xE9), then 3 octets. */
	buf[0] = 0xC0 | 11;
	buf[1] = 0xE0 | 9;
	for (i = 0; i < 512; i++)
		buf[2 + i] = (uint8_t)i;
	buf[514] = 3;
	buf[515] = 0xAA;
	buf[516] = 0xBB;
	buf[517] = 0xCC;
	CHECK_EQ(frame(buf, 518, &pkt, &used, &err), 0);
	CHECK(pkt.partial);
	CHECK_EQ(pkt.len, 515);
	CHECK_EQ(used, 518);
	CHECK(pkt.len == 515 && pkt.body[511] == 255 && pkt.body[514] == 0xCC);
	pgpk_packet_release(&pkt);
	/* Two partial chunks then a zero-length final one. */
	buf[514] = 0xE0 | 9;
	memset(buf + 515, 7, 512);
	buf[1027] = 0;
	CHECK_EQ(frame(buf, 1028, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.len, 1024);
	pgpk_packet_release(&pkt);
	/* Truncated partial chunk. */
	CHECK_EQ(frame(buf, 1000, &pkt, &used, &err), -EBADMSG);
	/* Missing final length. */
	CHECK_EQ(frame(buf, 1027, &pkt, &used, &err), -EBADMSG);
	/* RFC 4880 4.2.2.4: the first partial length is at least 512. */
	buf[1] = 0xE0 | 8;
	CHECK_EQ(frame(buf, 1028, &pkt, &used, &err), -EBADMSG);
	/* Partial lengths outside data packets: signature, user ID, key. */
	buf[1] = 0xE0 | 9;
	buf[0] = 0xC0 | 2;
	CHECK_EQ(frame(buf, 1028, &pkt, &used, &err), -EBADMSG);
	CHECK(strstr(err.msg, "partial") != NULL);
	buf[0] = 0xC0 | 13;
	CHECK_EQ(frame(buf, 1028, &pkt, &used, &err), -EBADMSG);
	buf[0] = 0xC0 | 6;
	CHECK_EQ(frame(buf, 1028, &pkt, &used, &err), -EBADMSG);
	/* Compressed data (8) may use them. */
	buf[0] = 0xC0 | 8;
	CHECK_EQ(frame(buf, 1028, &pkt, &used, &err), 0);
	pgpk_packet_release(&pkt);
}

static void test_old_format(void)
{
	static uint8_t buf[600];
	struct pgpk_packet pkt;
	struct pgpk_error err;
	size_t used;

	/* 4.2.2: tag in bits 5-2; length type 0: one octet. */
	buf[0] = 0x80 | (13 << 2) | 0;
	buf[1] = 4;
	CHECK_EQ(frame(buf, 6, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.tag, 13);
	CHECK_EQ(pkt.len, 4);
	CHECK(!pkt.new_format);
	/* Type 1: two octets. */
	buf[0] = 0x80 | (13 << 2) | 1;
	buf[1] = 0x01;
	buf[2] = 0x00;
	CHECK_EQ(frame(buf, 3 + 256, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.len, 256);
	CHECK_EQ(pkt.offset, 3);
	CHECK_EQ(frame(buf, 3 + 255, &pkt, &used, &err), -EBADMSG);
	/* Type 2: four octets. */
	buf[0] = 0x80 | (13 << 2) | 2;
	buf[1] = 0;
	buf[2] = 0;
	buf[3] = 0x01;
	buf[4] = 0x00;
	CHECK_EQ(frame(buf, 5 + 256, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.len, 256);
	CHECK_EQ(pkt.offset, 5);
	/* Type 3: indeterminate, data packets only. */
	buf[0] = 0x80 | (11 << 2) | 3;
	CHECK_EQ(frame(buf, 100, &pkt, &used, &err), 0);
	CHECK_EQ(pkt.len, 99);
	CHECK_EQ(used, 100);
	buf[0] = 0x80 | (13 << 2) | 3;
	CHECK_EQ(frame(buf, 100, &pkt, &used, &err), -EBADMSG);
	buf[0] = 0x80 | (2 << 2) | 3;
	CHECK_EQ(frame(buf, 100, &pkt, &used, &err), -EBADMSG);
	/* Truncated length. */
	buf[0] = 0x80 | (13 << 2) | 2;
	CHECK_EQ(frame(buf, 3, &pkt, &used, &err), -EBADMSG);
}

/* Whole keyrings: trailing garbage and truncation are errors with the
 * right offset. */
static void test_keyring_framing(void)
{
	struct pgpk_parse_opts opts = { .now = 1800000000 };
	struct pgpk_keyring *ring;
	struct pgpk_error err;
	size_t len;
	uint8_t *key = pgpk_test_read("alice.gpg", &len);
	uint8_t *buf = malloc(len + 8);

	CHECK_EQ(pgpk_keyring_parse(key, len, &opts, &ring, &err), 0);
	pgpk_keyring_free(ring);
	memcpy(buf, key, len);
	/* A stray zero octet after the last packet. */
	buf[len] = 0x00;
	CHECK_EQ(pgpk_keyring_parse(buf, len + 1, &opts, &ring, &err),
		 -EBADMSG);
	CHECK_EQ(err.offset, len);
	/* A new packet header without a body. */
	buf[len] = 0xC0 | 13;
	buf[len + 1] = 10;
	CHECK_EQ(pgpk_keyring_parse(buf, len + 2, &opts, &ring, &err),
		 -EBADMSG);
	CHECK_EQ(err.offset, len);
	/* Truncated last packet. */
	CHECK_EQ(pgpk_keyring_parse(key, len - 1, &opts, &ring, &err),
		 -EBADMSG);
	/* Every truncation is refused cleanly (no crash, no leak). */
	for (size_t cut = 1; cut < len; cut += 7) {
		int ret = pgpk_keyring_parse(key, cut, &opts, &ring, &err);

		if (!ret)
			pgpk_keyring_free(ring);
	}
	/* A keyring must start with a public key packet. */
	CHECK_EQ(pgpk_keyring_parse(key + 272, len - 272, &opts, &ring, &err),
		 -EBADMSG);
	CHECK(strstr(err.msg, "must start") != NULL);
	/* A data packet inside a key is refused. */
	buf[len] = 0xC0 | 11;
	buf[len + 1] = 0;
	CHECK_EQ(pgpk_keyring_parse(buf, len + 2, &opts, &ring, &err),
		 -EBADMSG);
	CHECK_EQ(err.offset, len);
	free(key);
	free(buf);
}

int main(void)
{
	test_new_format();
	test_partial();
	test_old_format();
	test_keyring_framing();
	return pgpk_test_done("packet_test");
}
