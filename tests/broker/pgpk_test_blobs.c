// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "proto/pgpk.pb-c.h"
#include "tests/broker/pgpk_test_blobs.h"

void pgpk_test_modulus(uint8_t *n, unsigned int bits, uint8_t seed)
{
	size_t len = (bits + 7) / 8, i;
	uint32_t x = 0x9e3779b9u * (seed + 1u);

	for (i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		n[i] = (uint8_t)(x >> 16);
	}
	/* exactly `bits` bits: top bit set, nothing above it */
	n[0] &= (uint8_t)(0xff >> ((8 - bits % 8) % 8));
	n[0] |= (uint8_t)(0x80 >> ((8 - bits % 8) % 8));
	n[len - 1] |= 1;
}

static uint8_t *pgpk_test_pack(const Pgpk__Canonical *c, size_t *len)
{
	size_t body = pgpk__canonical__get_packed_size(c);
	uint8_t *blob = malloc(PGPK_MAGIC_LEN + body);

	if (!blob)
		return NULL;
	memcpy(blob, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk__canonical__pack(c, blob + PGPK_MAGIC_LEN);
	*len = PGPK_MAGIC_LEN + body;
	return blob;
}

uint8_t *pgpk_test_key_blob_opts(const uint8_t *n, size_t n_len,
				 uint32_t offset,
				 const struct pgpk_test_key_opts *o,
				 size_t *len)
{
	static const uint8_t e[] = { 0x01, 0x00, 0x01 };
	Pgpk__KeyMaterial m = PGPK__KEY_MATERIAL__INIT;
	Pgpk__Key key = PGPK__KEY__INIT;
	Pgpk__Signature sig = PGPK__SIGNATURE__INIT;
	Pgpk__Canonical c = PGPK__CANONICAL__INIT;
	uint8_t *area = NULL, *blob;

	m.version = 4;
	m.created = 1700000000;
	m.algorithm = 1;
	m.rsa_n.data = (uint8_t *)n;
	m.rsa_n.len = n_len;
	m.rsa_e.data = (uint8_t *)e;
	m.rsa_e.len = sizeof(e);
	key.material = &m;
	key.has_packet_offset = 1;
	key.packet_offset = offset;
	if (o->subkey) {
		key.has_subkey = 1;
		key.subkey = 1;
		key.primary = &m;
	}
	if (o->user_id) {
		key.has_user_id = 1;
		key.user_id.data = (uint8_t *)(uintptr_t)o->user_id;
		key.user_id.len = strlen(o->user_id);
		key.has_user_id_offset = 1;
		key.user_id_offset = o->user_id_offset;
	}
	if (o->cert_s) {
		area = calloc(1, o->cert_area_len + 6);
		if (!area)
			return NULL;
		memcpy(area, "\x05\x02\x65\x53\xf1\x00", 6);
		sig.version = 4;
		sig.type = 0x13;
		sig.pubkey_algorithm = 1;
		sig.hash_algorithm = 8;
		sig.created = 1700000000;
		sig.has_hashed_area = 1;
		sig.hashed_area.data = area;
		sig.hashed_area.len = o->cert_area_len + 6;
		sig.quick_check = 0x1234;
		sig.rsa_s.data = (uint8_t *)(uintptr_t)o->cert_s;
		sig.rsa_s.len = o->cert_s_len;
		sig.has_rsa_s_offset = o->cert_s_at;
		sig.rsa_s_offset = o->cert_s_offset;
		key.certification = &sig;
	}
	c.key = &key;
	blob = pgpk_test_pack(&c, len);
	free(area);
	return blob;
}

uint8_t *pgpk_test_key_blob(const uint8_t *n, size_t n_len, uint32_t offset,
			    size_t *len)
{
	static const uint8_t e[] = { 0x01, 0x00, 0x01 };
	Pgpk__KeyMaterial m = PGPK__KEY_MATERIAL__INIT;
	Pgpk__Key key = PGPK__KEY__INIT;
	Pgpk__Canonical c = PGPK__CANONICAL__INIT;

	m.version = 4;
	m.created = 1700000000;
	m.algorithm = 1;
	m.rsa_n.data = (uint8_t *)n;
	m.rsa_n.len = n_len;
	m.rsa_e.data = (uint8_t *)e;
	m.rsa_e.len = sizeof(e);
	key.material = &m;
	key.has_packet_offset = 1;
	key.packet_offset = offset;
	c.key = &key;
	return pgpk_test_pack(&c, len);
}

static uint8_t *pgpk_test_sig_or_msg(const uint8_t *s, size_t s_len,
				     unsigned int hash, uint64_t expires,
				     const uint8_t *content, size_t content_len,
				     size_t *len)
{
	/* RFC 9580 5.2.3.11 creation time 1700000000; 5.2.3.18 expiry */
	uint8_t area[12] = { 5, 2, 0x65, 0x53, 0xf1, 0x00, 5, 3 };
	uint32_t after = (uint32_t)(expires - 1700000000);
	Pgpk__Signature sig = PGPK__SIGNATURE__INIT;
	Pgpk__Canonical c = PGPK__CANONICAL__INIT;

	sig.version = 4;
	sig.type = 0;
	sig.pubkey_algorithm = 1;
	sig.hash_algorithm = hash;
	sig.created = 1700000000;
	area[8] = (uint8_t)(after >> 24);
	area[9] = (uint8_t)(after >> 16);
	area[10] = (uint8_t)(after >> 8);
	area[11] = (uint8_t)after;
	sig.has_hashed_area = 1;
	sig.hashed_area.data = area;
	sig.hashed_area.len = expires ? sizeof(area) : 6;
	sig.quick_check = 0x1234;
	sig.rsa_s.data = (uint8_t *)s;
	sig.rsa_s.len = s_len;
	c.signature = &sig;
	if (content) {
		c.has_content = 1;
		c.content.data = (uint8_t *)(uintptr_t)content;
		c.content.len = content_len;
	}
	return pgpk_test_pack(&c, len);
}

uint8_t *pgpk_test_sig_blob(const uint8_t *s, size_t s_len, unsigned int hash,
			    uint64_t expires, size_t *len)
{
	return pgpk_test_sig_or_msg(s, s_len, hash, expires, NULL, 0, len);
}

uint8_t *pgpk_test_msg_blob(const uint8_t *s, size_t s_len, unsigned int hash,
			    const uint8_t *content, size_t content_len,
			    size_t *len)
{
	return pgpk_test_sig_or_msg(s, s_len, hash, 0, content, content_len,
				    len);
}

uint8_t *pgpk_test_key_input(const uint8_t *n, size_t n_len, size_t total)
{
	size_t body = 1 + 4 + 1 + 2 + n_len + 2 + 3, i;
	unsigned int bits = (unsigned int)n_len * 8;
	uint8_t *in, *p, top;

	if (total < 3 + body)
		total = 3 + body;
	in = malloc(total);
	if (!in)
		return NULL;
	for (i = 0; i < total; i++)
		in[i] = (uint8_t)(i * 7 + 3);
	for (top = n[0]; !(top & 0x80); top <<= 1)
		bits--;
	p = in;
	*p++ = 0x99; /* tag 6, two-octet length */
	*p++ = (uint8_t)(body >> 8);
	*p++ = (uint8_t)body;
	*p++ = 4;
	*p++ = 0x65; /* 1700000000 = 0x6553f100 */
	*p++ = 0x53;
	*p++ = 0xf1;
	*p++ = 0x00;
	*p++ = 1;
	*p++ = (uint8_t)(bits >> 8);
	*p++ = (uint8_t)bits;
	memcpy(p, n, n_len);
	p += n_len;
	*p++ = 0;
	*p++ = 17;
	*p++ = 1;
	*p++ = 0;
	*p = 1;
	return in;
}

uint32_t pgpk_test_uid_offset(size_t n_len)
{
	return 3 + (1 + 4 + 1 + 2 + n_len + 2 + 3) + 2;
}

uint8_t *pgpk_test_key_uid_input(const uint8_t *n, size_t n_len,
				 const char *uid, size_t total)
{
	size_t at = pgpk_test_uid_offset(n_len), len = strlen(uid);
	uint8_t *in;

	if (total < at + len)
		total = at + len;
	in = pgpk_test_key_input(n, n_len, total);
	if (!in)
		return NULL;
	in[at - 2] = 0xb4; /* tag 13, one-octet length */
	in[at - 1] = (uint8_t)len;
	memcpy(in + at, uid, len);
	return in;
}
