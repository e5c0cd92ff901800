// SPDX-License-Identifier: GPL-2.0
/*
 * OpenPGP packet framing (RFC 9580 4.2, RFC 4880 4.2): old and new
 * formats, every length encoding, partial body lengths only for the data
 * packets that may use them.  Every error names the offset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/internal.h"

int pgpk_fail(struct pgpk_error *err, int code, size_t offset, const char *fmt,
	      ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void *pgpk_calloc_array(size_t n, size_t size)
{
	if (n == 0)
		n = 1;
	if (size && n > SIZE_MAX / size)
		return NULL;
	return calloc(n, size);
}

const char *pgpk_tag_name(unsigned int tag)
{
	static const char *const names[] = {
		[PGPK_TAG_PKESK] = "public-key encrypted session key",
		[PGPK_TAG_SIGNATURE] = "signature",
		[PGPK_TAG_SKESK] = "symmetric-key encrypted session key",
		[PGPK_TAG_ONE_PASS] = "one-pass signature",
		[PGPK_TAG_SECRET_KEY] = "secret key",
		[PGPK_TAG_PUBLIC_KEY] = "public key",
		[PGPK_TAG_SECRET_SUBKEY] = "secret subkey",
		[PGPK_TAG_COMPRESSED] = "compressed data",
		[PGPK_TAG_SED] = "symmetrically encrypted data",
		[PGPK_TAG_MARKER] = "marker",
		[PGPK_TAG_LITERAL] = "literal data",
		[PGPK_TAG_TRUST] = "trust",
		[PGPK_TAG_USER_ID] = "user ID",
		[PGPK_TAG_PUBLIC_SUBKEY] = "public subkey",
		[PGPK_TAG_USER_ATTRIBUTE] = "user attribute",
		[PGPK_TAG_SEIPD] = "encrypted integrity protected data",
		[PGPK_TAG_MDC] = "modification detection code",
		[PGPK_TAG_AEAD] = "AEAD encrypted data",
		[PGPK_TAG_PADDING] = "padding",
	};

	if (tag < sizeof(names) / sizeof(names[0]) && names[tag])
		return names[tag];
	return "unknown";
}

/*
 * RFC 9580 4.2.1.4 (RFC 4880 4.2.2.4): "An implementation MAY use Partial
 * Body Lengths for data packets, be they literal, compressed, or
 * encrypted."  Everything else must have a definite length.
 */
static bool pgpk_tag_is_data(unsigned int tag)
{
	return tag == PGPK_TAG_COMPRESSED || tag == PGPK_TAG_SED ||
	       tag == PGPK_TAG_LITERAL || tag == PGPK_TAG_SEIPD ||
	       tag == PGPK_TAG_AEAD;
}

/* RFC 9580 4.2.1: new-format length octets.  *partial set for 224..254. */
static int pgpk_new_length(struct pgpk_cursor *c, size_t *len, bool *partial,
			   struct pgpk_error *err)
{
	size_t at = pgpk_cursor_offset(c);
	uint8_t o1, o2;
	uint32_t l32;

	*partial = false;
	if (!pgpk_get_u8(c, &o1))
		return pgpk_fail(err, -EBADMSG, at,
				 "truncated packet length at offset %zu", at);
	if (o1 < 192) { /* 4.2.1.1: one octet */
		*len = o1;
	} else if (o1 < 224) { /* 4.2.1.2: two octets */
		if (!pgpk_get_u8(c, &o2))
			return pgpk_fail(
				err, -EBADMSG, at,
				"truncated two-octet length at offset %zu", at);
		*len = ((size_t)(o1 - 192) << 8) + o2 + 192;
	} else if (o1 == 255) { /* 4.2.1.3: five octets */
		if (!pgpk_get_be32(c, &l32))
			return pgpk_fail(
				err, -EBADMSG, at,
				"truncated five-octet length at offset %zu",
				at);
		*len = l32;
	} else { /* 4.2.1.4: partial, 2^(o1 & 0x1f) */
		*len = (size_t)1 << (o1 & 0x1f);
		*partial = true;
	}
	return 0;
}

/* Assemble a partial-length body (RFC 9580 4.2.1.4) into pkt->owned. */
static int pgpk_partial_body(struct pgpk_cursor *c, struct pgpk_packet *pkt,
			     size_t first, struct pgpk_error *err)
{
	size_t cap = 0, used = 0, chunk = first;
	uint8_t *buf = NULL, *nbuf;
	bool partial = true;
	const uint8_t *p;
	int ret;

	/* RFC 4880 4.2.2.4: "The first partial length MUST be at least 512
	 * octets long." */
	if (first < 512)
		return pgpk_fail(
			err, -EBADMSG, pkt->offset,
			"first partial body length %zu < 512 at offset %zu",
			first, pkt->hdr_offset);
	for (;;) {
		size_t at = pgpk_cursor_offset(c);

		if (!pgpk_get_bytes(c, chunk, &p)) {
			ret = pgpk_fail(
				err, -EBADMSG, at,
				"partial body chunk of %zu octets truncated at offset %zu",
				chunk, at);
			goto error_free_buf;
		}
		if (used + chunk > cap) {
			size_t ncap = cap ? cap : 8192;

			while (ncap < used + chunk)
				ncap *= 2;
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				ret = pgpk_fail(
					err, -ENOMEM, at,
					"out of memory assembling partial body");
				goto error_free_buf;
			}
			buf = nbuf;
			cap = ncap;
		}
		memcpy(buf + used, p, chunk);
		used += chunk;
		if (!partial)
			break;
		ret = pgpk_new_length(c, &chunk, &partial, err);
		if (ret)
			goto error_free_buf;
	}
	pkt->owned = buf;
	pkt->body = buf;
	pkt->len = used;
	pkt->partial = true;
	return 0;

error_free_buf:
	free(buf);
	return ret;
}

int pgpk_packet_next(struct pgpk_cursor *c, struct pgpk_packet *pkt,
		     struct pgpk_error *err)
{
	size_t at = pgpk_cursor_offset(c);
	bool partial = false, indeterminate = false;
	uint8_t ctb, o;
	uint16_t l16;
	uint32_t l32;
	size_t len = 0;
	int ret;

	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr_offset = at;
	if (!pgpk_get_u8(c, &ctb))
		return pgpk_fail(err, -EBADMSG, at, "no packet at offset %zu",
				 at);
	/* RFC 9580 4.2: bit 7 of the packet tag octet is always one. */
	if (!(ctb & 0x80))
		return pgpk_fail(
			err, -EBADMSG, at,
			"invalid packet tag octet 0x%02x at offset %zu (bit 7 clear)",
			ctb, at);
	if (ctb & 0x40) {
		/* RFC 9580 4.2.1: new format, tag in bits 5-0. */
		pkt->new_format = true;
		pkt->tag = ctb & 0x3f;
		ret = pgpk_new_length(c, &len, &partial, err);
		if (ret)
			return ret;
	} else {
		/* RFC 9580 4.2.2 (legacy format): tag in bits 5-2, length
		 * type in bits 1-0. */
		pkt->tag = (ctb >> 2) & 0x0f;
		switch (ctb & 3) {
		case 0:
			if (!pgpk_get_u8(c, &o))
				goto truncated_length;
			len = o;
			break;
		case 1:
			if (!pgpk_get_be16(c, &l16))
				goto truncated_length;
			len = l16;
			break;
		case 2:
			if (!pgpk_get_be32(c, &l32))
				goto truncated_length;
			len = l32;
			break;
		default:
			/* Indeterminate: to the end of the data. */
			indeterminate = true;
			len = pgpk_cursor_left(c);
			break;
		}
	}
	/* RFC 9580 4.3: tag 0 is reserved and MUST NOT be used. */
	if (pkt->tag == 0)
		return pgpk_fail(err, -EBADMSG, at,
				 "reserved packet tag 0 at offset %zu", at);
	pkt->offset = pgpk_cursor_offset(c);
	if ((partial || indeterminate) && !pgpk_tag_is_data(pkt->tag))
		return pgpk_fail(
			err, -EBADMSG, at,
			"%s length not allowed for %s packet (tag %u) at offset %zu",
			partial ? "partial body" : "indeterminate",
			pgpk_tag_name(pkt->tag), pkt->tag, at);
	if (partial)
		return pgpk_partial_body(c, pkt, len, err);
	if (!pgpk_get_bytes(c, len, &pkt->body))
		return pgpk_fail(
			err, -EBADMSG, at,
			"%s packet (tag %u) at offset %zu claims %zu octets, only %zu left",
			pgpk_tag_name(pkt->tag), pkt->tag, at, len,
			pgpk_cursor_left(c));
	pkt->len = len;
	return 0;

truncated_length:
	return pgpk_fail(err, -EBADMSG, at,
			 "truncated packet length at offset %zu", at);
}

void pgpk_packet_release(struct pgpk_packet *pkt)
{
	free(pkt->owned);
	pkt->owned = NULL;
}

int pgpk_cert_starts(const uint8_t *packets, size_t len, size_t **starts,
		     size_t *n, struct pgpk_error *err)
{
	struct pgpk_packet pkt;
	struct pgpk_cursor c;
	size_t cap = 0, *v = NULL, *nv;
	int ret;

	*starts = NULL;
	*n = 0;
	pgpk_cursor_init(&c, packets, len, 0);
	while (pgpk_cursor_left(&c)) {
		ret = pgpk_packet_next(&c, &pkt, err);
		pgpk_packet_release(&pkt);
		if (ret)
			goto error_free;
		if (pkt.tag != PGPK_TAG_PUBLIC_KEY)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			nv = pgpk_calloc_array(cap, sizeof(*nv));
			if (!nv) {
				ret = pgpk_fail(err, -ENOMEM, pkt.hdr_offset,
						"out of memory");
				goto error_free;
			}
			if (v)
				memcpy(nv, v, *n * sizeof(*v));
			free(v);
			v = nv;
		}
		v[(*n)++] = pkt.hdr_offset;
	}
	*starts = v;
	return 0;

error_free:
	free(v);
	*n = 0;
	return ret;
}
