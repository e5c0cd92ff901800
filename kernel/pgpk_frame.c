// SPDX-License-Identifier: GPL-2.0
/*
 * Framing walks and comparisons over attacker-chosen octets: the binding
 * of a helper's answer to the submitted OpenPGP bytes, and a signature's
 * hashed area.  Nothing here interprets a value:
 * lengths and type octets are read to find boundaries, the rest is
 * compared.  Every loop advances at least one octet and stops at the end
 * of its input.  Compiles in user space (bazel/kernel_user.h).
 */
#include <linux/kernel.h>
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
 *
 * Return: whether it is there.
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

static const u8 pgpk_ima_mark[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;

/**
 * pgpk_hashed_walk - walk a v4/v6 hashed area's subpacket framing
 * @p: the hashed area (RFC 9580 5.2.3.7)
 * @len: its length
 * @h: what the area says
 *
 * A search for octets anywhere in the area would also find them inside
 * another subpacket's data (a notation, a fingerprint), which the signer
 * chose and a canonical blob could name: only the framing counts.
 *
 * Return: whether the area is framed exactly, has no critical subpacket
 * pgpk does not understand (PGPK_CRITICAL_OK), and holds exactly one
 * Signature Creation Time (5.2.3.11), at most one Signature Expiration
 * Time (5.2.3.18) and Key Expiration Time (5.2.3.13), each of 4 octets,
 * and at most one Key Flags (5.2.3.29).
 */
bool pgpk_hashed_walk(const u8 *p, u32 len, struct pgpk_hashed *h)
{
	u32 n, size, type, bad = 0, v[28] = { }, seen[28] = { };
	const u8 *end = p + len;

	memset(h, 0, sizeof(*h));
	for (; p < end; p += size + n) {
		if (!pgpk_len(p, end - p, 255, &n, &size) || !n)
			return false;
		type = p[size] & 0x7f;	/* RFC 9580 5.2.3.7: and critical? */
		bad |= p[size] >> 7 && (type > 63 || !(PGPK_CRITICAL_OK >> type & 1));
		/* times: 4 octets (a bad one counts 2); flags: the first octet */
		if (type == 2 || type == 3 || type == 9 || type == 27) {
			v[type] = pgpk_be(p + size + 1, type == 27 ? n > 1 : 4 * (n == 5));
			seen[type] += type == 27 || n == 5 ? 1 : 2;
		} else if (type == 33) {	/* version, 20 (v4) or 32 (v6) */
			h->fpr = p + size + 2;
			h->fpr_len = n == 22 || n == 34 ? n - 2 : 0;
		}
		h->marked |= size + n == PGPK_IMA_MARK_LEN &&
			     !memcmp(p, pgpk_ima_mark, PGPK_IMA_MARK_LEN);
	}
	h->created = v[2], h->expires = v[3], h->key_expires = v[9];
	h->key_flags = seen[27] ? v[27] : 0xff;
	return !bad && seen[2] == 1 && seen[3] <= 1 && seen[9] <= 1 &&
	       seen[27] <= 1;
}

/**
 * pgpk_name - seed 007's description of a key
 * @uid: the user ID its (or its primary key's) self-signature certifies,
 *	or NULL
 * @subkey: whether the key is a subkey
 * @keyid: its key ID
 * @out: PGPK_NAME_SIZE octets
 *
 * The user ID up to a comment ("("), without the spaces before it, at
 * most PGPK_NAME_UID octets of it; a space; the last 8 hex digits of the
 * key ID.  It is one line of printable ASCII: every other octet, and
 * "\", is written "\xNN" (Latin-1 and UTF-8 alike).  Without a user ID
 * (or one that leaves no name): "PGP key <key ID>" or "PGP subkey <key
 * ID>".
 */
void pgpk_name(const struct pgpk_bytes *uid, bool subkey, const u8 *keyid,
	       char *out)
{
	const u8 *s = uid ? uid->data : NULL;
	const u8 *paren = s ? memchr(s, '(', uid->len) : NULL;
	u32 i, len = paren ? paren - s : s ? uid->len : 0;

	while (len && s[len - 1] == ' ')
		len--;
	len = min_t(u32, len, PGPK_NAME_UID);
	for (i = 0; i < len; i++)
		out += sprintf(out, s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\' ?
			       "%c" : "\\x%02x", s[i]);
	out += sprintf(out, "%s", len ? " " : subkey ? "PGP subkey " : "PGP key ");
	for (i = len ? 4 : 0; i < 8; i++)	/* a key ID is 8 octets */
		out += sprintf(out, "%02x", keyid[i]);
}
