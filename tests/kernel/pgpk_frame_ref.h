/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A second implementation of kernel/pgpk_frame.c's framing rules, written
 * from RFC 9580 and sharing no code with it: the unit test
 * (tests/kernel/frame_test.c) and the fuzz targets (tests/fuzz/frame_*)
 * compare the kernel's answers with these.
 *
 *   packets (4.2): new format, a 1-octet (< 192), 2-octet (192..223) or
 *   5-octet (255) length; 224..254 are partial lengths, which end the
 *   walk (only data packets have them, never what the kernel binds);
 *   legacy format, a 1-, 2- or 4-octet length, the indeterminate one
 *   ends the walk; a body past the end ends it too.
 *   subpackets (5.2.3.7): a 1-octet (< 192), 2-octet (192..254) or
 *   5-octet (255) length, at least 1 (the type octet), inside the area.
 */
#ifndef PGPK_FRAME_REF_H
#define PGPK_FRAME_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pgpk_ref_packet {
	size_t body; /* offset of the body */
	size_t len;
	uint8_t tag;
};

/*
 * The top-level packets of buf[0..len), walked from octet 0, up to max;
 * the walk stops at the first header it cannot frame.  Their number.
 */
static inline size_t pgpk_ref_packets(const uint8_t *buf, size_t len,
				      struct pgpk_ref_packet *out, size_t max)
{
	size_t pos = 0, n = 0, hl, blen;
	uint8_t c;

	while (pos < len && n < max) {
		c = buf[pos];
		if (!(c & 0x80))
			break;
		if (c & 0x40) {
			if (pos + 1 >= len)
				break;
			if (buf[pos + 1] < 192) {
				hl = 2;
				blen = buf[pos + 1];
			} else if (buf[pos + 1] < 224) {
				if (pos + 2 >= len)
					break;
				hl = 3;
				blen = ((size_t)(buf[pos + 1] - 192) << 8) +
				       buf[pos + 2] + 192;
			} else if (buf[pos + 1] == 255) {
				if (pos + 5 >= len)
					break;
				hl = 6;
				blen = (size_t)buf[pos + 2] << 24 |
				       (size_t)buf[pos + 3] << 16 |
				       (size_t)buf[pos + 4] << 8 | buf[pos + 5];
			} else {
				break; /* partial */
			}
			out[n].tag = c & 0x3f;
		} else {
			size_t k, ll;

			if ((c & 3) == 3)
				break; /* indeterminate */
			ll = (size_t)1 << (c & 3);
			if (pos + ll >= len)
				break;
			hl = 1 + ll;
			for (blen = 0, k = 0; k < ll; k++)
				blen = blen << 8 | buf[pos + 1 + k];
			out[n].tag = (c >> 2) & 0x0f;
		}
		if (blen > len - pos - hl)
			break;
		out[n].body = pos + hl;
		out[n].len = blen;
		n++;
		pos += hl + blen;
	}
	return n;
}

/* What pgpk_packet_at() must answer, from the walk above. */
static inline bool pgpk_ref_packet_at(const struct pgpk_ref_packet *p, size_t n,
				      const uint8_t *buf, uint32_t offset,
				      uint8_t tag, const uint8_t *body,
				      size_t body_len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i].body == offset)
			return p[i].tag == tag && p[i].len == body_len &&
			       !memcmp(buf + offset, body, body_len);
	return false;
}

struct pgpk_ref_hashed {
	bool ok; /* framed exactly, no critical subpacket outside the
		  * understood list, exactly one 4-octet creation time, at
		  * most one 4-octet signature and key expiration time, at
		  * most one key flags */
	uint32_t created;
	uint32_t expires;
	uint32_t key_expires;
	int key_flags; /* -1: no Key Flags subpacket */
	size_t fpr_at; /* offset in the area of the last fingerprint */
	size_t fpr_len; /* 20 or 32; 0: none, or another length */
	bool marked; /* the IMA mark, a whole subpacket */
};

/* RFC 9580 5.2.3.7: the subpacket types taken when critical. */
static inline bool pgpk_ref_critical_ok(unsigned int type)
{
	/* not 5 nor 6 (trust signatures), 20 (notations) */
	static const uint8_t ok[] = { 2,  3,  4,  7,  9,  10, 11, 12, 16,
				      21, 22, 23, 24, 25, 26, 27, 28, 29,
				      30, 31, 32, 33, 34, 35, 37, 38, 39 };
	size_t i;

	for (i = 0; i < sizeof(ok); i++)
		if (ok[i] == type)
			return true;
	return false;
}

static inline uint32_t pgpk_ref_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * RFC 9580 5.2.3.7, .11, .13, .18, .29, .35: a hashed area, walked
 * subpacket by subpacket.
 */
static inline struct pgpk_ref_hashed pgpk_ref_hashed_walk(const uint8_t *a,
							  size_t len)
{
	static const uint8_t ima[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;
	struct pgpk_ref_hashed r = { .key_flags = -1 };
	size_t pos = 0, hl, n, times = 0, exps = 0, kexps = 0, flags = 0;
	bool bad = false;

	while (pos < len) {
		if (a[pos] < 192) {
			hl = 1;
			n = a[pos];
		} else if (a[pos] < 255) {
			if (len - pos < 2)
				return r;
			hl = 2;
			n = ((size_t)(a[pos] - 192) << 8) + a[pos + 1] + 192;
		} else {
			if (len - pos < 5)
				return r;
			hl = 5;
			n = (size_t)a[pos + 1] << 24 |
			    (size_t)a[pos + 2] << 16 | (size_t)a[pos + 3] << 8 |
			    a[pos + 4];
		}
		if (!n || n > len - pos - hl)
			return r;
		if (hl + n == sizeof(ima) && !memcmp(a + pos, ima, sizeof(ima)))
			r.marked = true;
		if ((a[pos + hl] & 0x80) &&
		    !pgpk_ref_critical_ok(a[pos + hl] & 0x7f))
			bad = true;
		switch (a[pos + hl] & 0x7f) {
		case 2:
			times++;
			bad |= n != 5;
			if (n == 5)
				r.created = pgpk_ref_be32(a + pos + hl + 1);
			break;
		case 3:
			exps++;
			bad |= n != 5;
			if (n == 5)
				r.expires = pgpk_ref_be32(a + pos + hl + 1);
			break;
		case 9:
			kexps++;
			bad |= n != 5;
			if (n == 5)
				r.key_expires = pgpk_ref_be32(a + pos + hl + 1);
			break;
		case 27:
			flags++;
			r.key_flags = n > 1 ? a[pos + hl + 1] : 0;
			break;
		case 33:
			r.fpr_at = pos + hl + 2;
			r.fpr_len = n == 22 || n == 34 ? n - 2 : 0;
			break;
		}
		pos += hl + n;
	}
	r.ok = !bad && times == 1 && exps <= 1 && kexps <= 1 && flags <= 1;
	return r;
}

/*
 * Seed 007's description (../shared/seeds/007-...): the user ID up to its
 * first "(", trailing spaces removed, at most 246 octets, each octet
 * outside printable ASCII and the backslash as \xNN, a space, the last 4
 * octets of the key ID in hex; without a user ID or a name left, "PGP
 * key " or "PGP subkey " and the 8 octets.  out: 4 * 246 + 10 octets.
 */
static inline void pgpk_ref_name(const uint8_t *uid, size_t len, bool subkey,
				 const uint8_t *keyid, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, i, o = 0;

	while (uid && n < len && uid[n] != '(')
		n++;
	while (n && uid[n - 1] == ' ')
		n--;
	if (n > 246)
		n = 246;
	for (i = 0; i < n; i++) {
		uint8_t c = uid[i];

		if (c >= ' ' && c <= '~' && c != '\\') {
			out[o++] = (char)c;
		} else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	if (!n) {
		memcpy(out + o, subkey ? "PGP subkey " : "PGP key ",
		       subkey ? 11 : 8);
		o += subkey ? 11 : 8;
	} else {
		out[o++] = ' ';
	}
	for (i = n ? 4 : 0; i < 8; i++) {
		out[o++] = hex[keyid[i] >> 4];
		out[o++] = hex[keyid[i] & 15];
	}
	out[o] = '\0';
}

#endif /* PGPK_FRAME_REF_H */
