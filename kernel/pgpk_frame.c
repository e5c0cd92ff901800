// SPDX-License-Identifier: GPL-2.0
/*
 * Framing walks and comparisons over attacker-chosen octets: the binding
 * of a helper's answer to the submitted OpenPGP bytes, and a signature's
 * hashed area.  Nothing here interprets a value:
 * lengths and type octets are read to find boundaries, the rest is
 * compared.  Every loop advances at least one octet and stops at the end
 * of its input.  Compiles in user space (bazel/kernel_user.h).
 */
#include <linux/string.h>
#include "pgpk_canon.h"

static u32 pgpk_be(const u8 *p, unsigned int n)
{
	u32 v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/*
 * RFC 9580 4.2.1, 5.2.3.7: a one-, two- or five-octet length at @p, of
 * something that must fit in the @left octets there; two-octet lengths
 * start below @two (a packet's octets 224..254 are partial lengths, which
 * only data packets have).  *@n is the length, *@size that of its octets.
 */
static bool pgpk_len(const u8 *p, size_t left, u8 two, u32 *n, u32 *size)
{
	if (left >= 1 && p[0] < 192)
		*size = 1, *n = p[0];
	else if (left >= 2 && p[0] < two)
		*size = 2, *n = ((p[0] - 192) << 8) + p[1] + 192;
	else if (left >= 5 && p[0] == 255)
		*size = 5, *n = pgpk_be(p + 1, 4);
	else
		return false;
	return *n <= left - *size;
}

/*
 * RFC 9580 4.2: the packet at @p: its tag, body length and header size.
 * Legacy headers have a 1-, 2- or 4-octet length, or an indeterminate one
 * (data packets only).
 */
static bool pgpk_header(const u8 *p, size_t left, u8 *tag, u32 *n, u32 *hlen)
{
	u32 size = 1 << (p[0] & 3);

	if (!(p[0] & 0x80))
		return false;
	if (p[0] & 0x40) {
		*tag = p[0] & 0x3f;
		if (!pgpk_len(p + 1, left - 1, 224, n, hlen))
			return false;
	} else {
		*tag = (p[0] >> 2) & 0xf;
		if ((p[0] & 3) == 3 || left - 1 < size)
			return false;
		*hlen = size;
		*n = pgpk_be(p + 1, size);
	}
	return *n <= left - 1 - *hlen;
}

/**
 * pgpk_packet_at - is there a @tag packet with body @body at @offset?
 * @buf: the submitted OpenPGP bytes
 * @len: their length
 * @offset: where the helper said the body starts
 * @tag: the packet tag it must have
 * @body: the body the kernel rebuilt
 * @body_len: its length
 *
 * The packets of @buf are walked from its first octet, so the body must
 * be a whole top-level packet: octets that merely look like one inside
 * another packet (a notation of a flooded certification) do not count.
 */
bool pgpk_packet_at(const u8 *buf, size_t len, u32 offset, u8 tag,
		    const u8 *body, size_t body_len)
{
	size_t pos;
	u32 n, h;
	u8 t;

	for (pos = 0; pos < len && pos < offset; pos += 1 + h + n) {
		if (!pgpk_header(buf + pos, len - pos, &t, &n, &h))
			return false;
		if (pos + 1 + h == offset)
			return t == tag && n == body_len &&
			       !memcmp(buf + offset, body, n);
	}
	return false;
}

/* RFC 9580 5.2.3.1: a signature's RSA value is stored verbatim. */
bool pgpk_bytes_at(const u8 *buf, size_t len, u32 offset, const u8 *bytes,
		   size_t n)
{
	return offset <= len && n <= len - offset &&
	       !memcmp(buf + offset, bytes, n);
}

/**
 * pgpk_hashed_walk - walk a v4/v6 hashed area's subpacket framing
 * @p: the hashed area (RFC 9580 5.2.3.7)
 * @len: its length
 * @mark: a whole subpacket (its length octet too) to look for, or NULL
 * @mark_len: its length
 * @h: what the area says
 *
 * A search for octets anywhere in the area would also find them inside
 * another subpacket's data (a notation, a fingerprint), which the signer
 * chose and a canonical blob could name: only the framing counts.
 *
 * Return: whether the area is framed exactly and holds exactly one
 * Signature Creation Time (5.2.3.11) and at most one Signature Expiration
 * Time (5.2.3.18), each of 4 octets.
 */
bool pgpk_hashed_walk(const u8 *p, u32 len, const u8 *mark, u32 mark_len,
		      struct pgpk_hashed *h)
{
	unsigned int created = 0, expires = 0;	/* how many; 2 for a bad one */
	const u8 *end = p + len;
	u32 n, size;

	memset(h, 0, sizeof(*h));
	for (; p < end; p += size + n) {
		if (!pgpk_len(p, end - p, 255, &n, &size) || !n)
			return false;
		if (mark && size + n == mark_len && !memcmp(p, mark, mark_len))
			h->marked = true;
		switch (p[size] & 0x7f) {
		case 2:		/* 5.2.3.11 */
			h->created = pgpk_be(p + size + 1, n == 5 ? 4 : 0);
			created += n == 5 ? 1 : 2;
			break;
		case 3:		/* 5.2.3.18 */
			h->expires = pgpk_be(p + size + 1, n == 5 ? 4 : 0);
			expires += n == 5 ? 1 : 2;
			break;
		case 33:	/* 5.2.3.35: version, 20 (v4) or 32 (v6) octets */
			h->fpr = p + size + 2;
			h->fpr_len = n == 22 || n == 34 ? n - 2 : 0;
			break;
		}
	}
	return created == 1 && expires <= 1;
}
