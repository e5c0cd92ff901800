// SPDX-License-Identifier: GPL-2.0
/*
 * Input forms: binary packets, ASCII armor (RFC 9580 6, CRC-24 of RFC 4880
 * 6.1), cleartext-signed messages (RFC 9580 7) with dash-escaping, and the
 * text canonicalisation of RFC 9580 5.2.1.2 / 7.2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/internal.h"

/* RFC 4880 6.1: CRC-24, generator 0x864CFB, initial value 0xB704CE. */
#define PGPK_CRC24_INIT 0xB704CEu
#define PGPK_CRC24_POLY 0x1864CFBu

uint32_t pgpk_crc24(const uint8_t *data, size_t len)
{
	uint32_t crc = PGPK_CRC24_INIT;
	size_t i;
	int bit;

	for (i = 0; i < len; i++) {
		crc ^= (uint32_t)data[i] << 16;
		for (bit = 0; bit < 8; bit++) {
			crc <<= 1;
			if (crc & 0x1000000)
				crc ^= PGPK_CRC24_POLY;
		}
	}
	return crc & 0xFFFFFFu;
}

/* A line of text input: [start, end) without the LF, with a CR if any. */
struct pgpk_line {
	size_t start;
	size_t end; /* excluding '\n' */
	size_t next; /* start of the following line */
};

static bool pgpk_next_line(const uint8_t *in, size_t len, size_t pos,
			   struct pgpk_line *line)
{
	const uint8_t *nl;

	if (pos >= len)
		return false;
	line->start = pos;
	nl = memchr(in + pos, '\n', len - pos);
	if (nl) {
		line->end = (size_t)(nl - in);
		line->next = line->end + 1;
	} else {
		line->end = len;
		line->next = len;
	}
	return true;
}

/* Length of the line without trailing spaces, tabs and CR. */
static size_t pgpk_line_trimmed(const uint8_t *in, const struct pgpk_line *l)
{
	size_t end = l->end;

	while (end > l->start && (in[end - 1] == ' ' || in[end - 1] == '\t' ||
				  in[end - 1] == '\r'))
		end--;
	return end - l->start;
}

static bool pgpk_line_is(const uint8_t *in, const struct pgpk_line *l,
			 const char *text)
{
	size_t n = strlen(text);

	return pgpk_line_trimmed(in, l) == n && !memcmp(in + l->start, text, n);
}

static bool pgpk_line_starts(const uint8_t *in, const struct pgpk_line *l,
			     const char *text)
{
	size_t n = strlen(text);

	return l->end - l->start >= n && !memcmp(in + l->start, text, n);
}

static int pgpk_b64_value(uint8_t ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

/* Growing output buffer. */
struct pgpk_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

static int pgpk_buf_reserve(struct pgpk_buf *b, size_t more)
{
	size_t ncap;
	uint8_t *nd;

	if (b->len + more <= b->cap)
		return 0;
	if (more > PGPK_MAX_INPUT || b->len + more > PGPK_MAX_INPUT)
		return -ENOMEM;
	ncap = b->cap ? b->cap : 4096;
	while (ncap < b->len + more)
		ncap *= 2;
	nd = realloc(b->data, ncap);
	if (!nd)
		return -ENOMEM;
	b->data = nd;
	b->cap = ncap;
	return 0;
}

static int pgpk_buf_put(struct pgpk_buf *b, const void *p, size_t n)
{
	if (pgpk_buf_reserve(b, n))
		return -ENOMEM;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

/*
 * Decode one armored block whose BEGIN line is at `pos` (RFC 9580 6.2):
 * BEGIN line, armor headers, blank line, base64 lines, optional "=" CRC-24
 * line, END line with the same label.  Appends to *out, sets *next past the
 * END line and copies the label.
 */
static int pgpk_armor_block(const uint8_t *in, size_t len, size_t pos,
			    struct pgpk_buf *out, size_t *next, char *label,
			    size_t label_size, struct pgpk_error *err)
{
	static const char begin[] = "-----BEGIN PGP ";
	struct pgpk_line l;
	size_t tl, lab_len, block_start = out->len;
	uint32_t acc = 0, crc_want = 0;
	int nbits = 0, pad = 0, v;
	bool have_crc = false, in_headers = true;
	char end_line[64];
	size_t i;

	if (!pgpk_next_line(in, len, pos, &l) ||
	    !pgpk_line_starts(in, &l, begin))
		return pgpk_fail(err, -EBADMSG, pos,
				 "no armor BEGIN line at offset %zu", pos);
	tl = pgpk_line_trimmed(in, &l);
	if (tl < sizeof(begin) - 1 + 5 ||
	    memcmp(in + l.start + tl - 5, "-----", 5))
		return pgpk_fail(err, -EBADMSG, pos,
				 "malformed armor BEGIN line at offset %zu",
				 pos);
	lab_len = tl - (sizeof(begin) - 1) - 5;
	if (lab_len == 0 || lab_len >= label_size)
		return pgpk_fail(err, -EBADMSG, pos,
				 "bad armor label at offset %zu", pos);
	memcpy(label, in + l.start + sizeof(begin) - 1, lab_len);
	label[lab_len] = '\0';
	snprintf(end_line, sizeof(end_line), "-----END PGP %s-----", label);

	pos = l.next;
	while (pgpk_next_line(in, len, pos, &l)) {
		size_t n = pgpk_line_trimmed(in, &l);
		const uint8_t *p = in + l.start;

		pos = l.next;
		if (in_headers) {
			/* RFC 9580 6.2: "Key: Value" lines, then a blank
			 * line.  A first line that is not a header starts
			 * the data (tolerated, as GnuPG does). */
			if (n == 0) {
				in_headers = false;
				continue;
			}
			if (memchr(p, ':', n)) {
				continue;
			}
			in_headers = false;
		}
		if (pgpk_line_is(in, &l, end_line))
			goto end_found;
		if (n && p[0] == '-')
			return pgpk_fail(err, -EBADMSG, l.start,
					 "expected '%s' at offset %zu",
					 end_line, l.start);
		if (have_crc) {
			if (n == 0)
				continue;
			return pgpk_fail(
				err, -EBADMSG, l.start,
				"data after the armor checksum at offset %zu",
				l.start);
		}
		if (n && p[0] == '=') {
			/* RFC 9580 6.1: "=" and 4 base64 characters. */
			uint32_t c = 0;

			if (n != 5)
				return pgpk_fail(
					err, -EBADMSG, l.start,
					"malformed armor checksum line at offset %zu",
					l.start);
			for (i = 1; i < 5; i++) {
				v = pgpk_b64_value(p[i]);
				if (v < 0)
					return pgpk_fail(
						err, -EBADMSG, l.start + i,
						"bad character in armor checksum at offset %zu",
						l.start + i);
				c = c << 6 | (uint32_t)v;
			}
			crc_want = c;
			have_crc = true;
			continue;
		}
		for (i = 0; i < n; i++) {
			uint8_t ch = p[i];

			if (ch == ' ' || ch == '\t' || ch == '\r')
				continue;
			if (ch == '=') {
				pad++;
				if (pad > 2)
					goto bad_char;
				continue;
			}
			v = pgpk_b64_value(ch);
			if (v < 0 || pad)
				goto bad_char;
			acc = acc << 6 | (uint32_t)v;
			nbits += 6;
			if (nbits >= 8) {
				uint8_t o;

				nbits -= 8;
				o = (uint8_t)(acc >> nbits);
				if (pgpk_buf_put(out, &o, 1))
					return pgpk_fail(err, -ENOMEM, l.start,
							 "armor too large");
			}
			continue;
bad_char:
			return pgpk_fail(
				err, -EBADMSG, l.start + i,
				"invalid base64 character 0x%02x at offset %zu",
				ch, l.start + i);
		}
	}
	return pgpk_fail(
		err, -EBADMSG, len,
		"armor truncated: no '%s' line before the end (offset %zu)",
		end_line, len);

end_found:
	/* Leftover bits must be padding zeros of a complete quantum. */
	if (nbits >= 6 || (acc & ((1u << nbits) - 1)))
		return pgpk_fail(err, -EBADMSG, l.start,
				 "truncated base64 data before offset %zu",
				 l.start);
	/* An empty body leaves out->data NULL: no pointer arithmetic on it. */
	if (have_crc && pgpk_crc24(out->len ? out->data + block_start : NULL,
				   out->len - block_start) != crc_want)
		return pgpk_fail(
			err, -EBADMSG, l.start,
			"armor CRC-24 mismatch (END line at offset %zu)",
			l.start);
	*next = l.next;
	return 0;
}

/* Find a line starting with `text` at or after pos. */
static bool pgpk_find_line(const uint8_t *in, size_t len, size_t pos,
			   const char *text, size_t *at)
{
	struct pgpk_line l;

	while (pgpk_next_line(in, len, pos, &l)) {
		if (pgpk_line_starts(in, &l, text)) {
			*at = l.start;
			return true;
		}
		pos = l.next;
	}
	return false;
}

static bool pgpk_only_space(const uint8_t *in, size_t len, size_t pos,
			    size_t *bad)
{
	for (; pos < len; pos++) {
		if (in[pos] != ' ' && in[pos] != '\t' && in[pos] != '\r' &&
		    in[pos] != '\n') {
			*bad = pos;
			return false;
		}
	}
	return true;
}

/* Armored blocks from `pos` to the end, all with the same label. */
static int pgpk_armor_all(const uint8_t *in, size_t len, size_t pos,
			  struct pgpk_input *out, struct pgpk_error *err)
{
	struct pgpk_buf buf = { 0 };
	char label[32];
	size_t bad;
	int ret;

	for (;;) {
		ret = pgpk_armor_block(in, len, pos, &buf, &pos, label,
				       sizeof(label), err);
		if (ret)
			goto error_free_buf;
		if (!out->armor_label[0])
			memcpy(out->armor_label, label, sizeof(label));
		else if (strcmp(out->armor_label, label)) {
			ret = pgpk_fail(
				err, -EBADMSG, pos,
				"armor block '%s' follows a '%s' block (offset %zu)",
				label, out->armor_label, pos);
			goto error_free_buf;
		}
		if (pgpk_only_space(in, len, pos, &bad))
			break;
		pos = bad;
		if (len - pos < 15 || memcmp(in + pos, "-----BEGIN PGP ", 15)) {
			ret = pgpk_fail(
				err, -EBADMSG, pos,
				"trailing garbage after armor at offset %zu",
				pos);
			goto error_free_buf;
		}
	}
	if (!buf.len) {
		ret = pgpk_fail(err, -EBADMSG, pos, "empty armor");
		goto error_free_buf;
	}
	out->packets = buf.data;
	out->packets_len = buf.len;
	return 0;

error_free_buf:
	free(buf.data);
	return ret;
}

/*
 * RFC 9580 7: "-----BEGIN PGP SIGNED MESSAGE-----", "Hash:" headers, a
 * blank line, the dash-escaped text (7.1), then an armored SIGNATURE.  The
 * line ending before the signature's BEGIN line is not part of the text.
 */
static int pgpk_cleartext(const uint8_t *in, size_t len, size_t pos,
			  struct pgpk_input *out, struct pgpk_error *err)
{
	struct pgpk_buf text = { 0 };
	struct pgpk_line l = { 0 };
	bool first = true;
	int ret;

	pgpk_next_line(in, len, pos, &l);
	pos = l.next;
	/* Armor headers ("Hash: SHA256"), up to a blank line. */
	for (;;) {
		if (!pgpk_next_line(in, len, pos, &l))
			return pgpk_fail(
				err, -EBADMSG, pos,
				"cleartext message truncated in its headers at offset %zu",
				pos);
		pos = l.next;
		if (pgpk_line_trimmed(in, &l) == 0)
			break;
		if (!memchr(in + l.start, ':', l.end - l.start))
			return pgpk_fail(
				err, -EBADMSG, l.start,
				"malformed cleartext header at offset %zu",
				l.start);
	}
	for (;;) {
		size_t s;

		if (!pgpk_next_line(in, len, pos, &l)) {
			ret = pgpk_fail(
				err, -EBADMSG, len,
				"cleartext message without a signature (offset %zu)",
				len);
			goto error_free_text;
		}
		if (pgpk_line_is(in, &l, "-----BEGIN PGP SIGNATURE-----"))
			break;
		pos = l.next;
		s = l.start;
		/* RFC 9580 7.1: dash-escaped lines start with "- ". */
		if (l.end - s >= 2 && in[s] == '-' && in[s + 1] == ' ')
			s += 2;
		if ((!first && pgpk_buf_put(&text, "\n", 1)) ||
		    pgpk_buf_put(&text, in + s, l.end - s)) {
			ret = pgpk_fail(err, -ENOMEM, s, "cleartext too large");
			goto error_free_text;
		}
		first = false;
	}
	ret = pgpk_armor_all(in, len, l.start, out, err);
	if (ret)
		goto error_free_text;
	if (strcmp(out->armor_label, "SIGNATURE")) {
		ret = pgpk_fail(err, -EBADMSG, l.start,
				"cleartext message followed by '%s' armor",
				out->armor_label);
		free(out->packets);
		out->packets = NULL;
		goto error_free_text;
	}
	/* An empty text still needs a non-NULL pointer. */
	if (!text.data && pgpk_buf_reserve(&text, 1)) {
		ret = pgpk_fail(err, -ENOMEM, 0, "out of memory");
		free(out->packets);
		out->packets = NULL;
		goto error_free_text;
	}
	out->cleartext = text.data;
	out->cleartext_len = text.len;
	out->kind = PGPK_INPUT_CLEARTEXT;
	return 0;

error_free_text:
	free(text.data);
	return ret;
}

int pgpk_input_decode(const uint8_t *in, size_t len, struct pgpk_input *out,
		      struct pgpk_error *err)
{
	return pgpk_input_decode_borrow(in, len, out, false, err);
}

int pgpk_input_decode_borrow(const uint8_t *in, size_t len,
			     struct pgpk_input *out, bool borrow,
			     struct pgpk_error *err)
{
	size_t at, start = 0;
	bool bom;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return pgpk_fail(err, -EBADMSG, 0, "empty input");
	if (len > PGPK_MAX_INPUT)
		return pgpk_fail(err, -ENOMEM, 0,
				 "input of %zu octets too large", len);
	/* RFC 9580 4.2: a packet starts with an octet with bit 7 set; armor
	 * and cleartext are ASCII, perhaps after a UTF-8 byte order mark
	 * that editors add (never a valid packet header: tag 47). */
	bom = len >= 3 && in[0] == 0xEF && in[1] == 0xBB && in[2] == 0xBF;
	if (bom) {
		start = 3;
	} else if (in[0] & 0x80) {
		out->kind = PGPK_INPUT_BINARY;
		if (borrow) {
			out->packets = (uint8_t *)(uintptr_t)in;
			out->packets_len = len;
			out->borrowed = true;
			return 0;
		}
		out->packets = malloc(len);
		if (!out->packets)
			return pgpk_fail(err, -ENOMEM, 0, "out of memory");
		memcpy(out->packets, in, len);
		out->packets_len = len;
		return 0;
	}
	if (!pgpk_find_line(in, len, start, "-----BEGIN PGP ", &at))
		return pgpk_fail(
			err, -EBADMSG, 0,
			"neither OpenPGP packets nor ASCII armor (first octet 0x%02x)",
			in[0]);
	if (pgpk_find_line(in, len, start, "-----BEGIN PGP SIGNED MESSAGE-----",
			   &at)) {
		struct pgpk_line l = { 0 };

		pgpk_next_line(in, len, at, &l);
		if (pgpk_line_is(in, &l, "-----BEGIN PGP SIGNED MESSAGE-----"))
			return pgpk_cleartext(in, len, at, out, err);
	}
	pgpk_find_line(in, len, start, "-----BEGIN PGP ", &at);
	out->kind = PGPK_INPUT_ARMOR;
	return pgpk_armor_all(in, len, at, out, err);
}

void pgpk_input_release(struct pgpk_input *input)
{
	if (!input->borrowed)
		free(input->packets);
	free(input->cleartext);
	input->packets = NULL;
	input->cleartext = NULL;
}

int pgpk_text_canonicalize(const uint8_t *in, size_t len, bool strip_trailing,
			   uint8_t **out, size_t *out_len)
{
	struct pgpk_buf b = { 0 };
	size_t i, line_start = 0;

	if (pgpk_buf_reserve(&b, len + len / 8 + 2))
		return -ENOMEM;
	for (i = 0; i <= len; i++) {
		size_t end;

		if (i < len && in[i] != '\n')
			continue;
		end = i;
		if (strip_trailing) {
			/* RFC 9580 7.2 (cleartext): trailing spaces and
			 * tabs are removed; so is a CR, replaced below. */
			while (end > line_start &&
			       (in[end - 1] == ' ' || in[end - 1] == '\t' ||
				in[end - 1] == '\r'))
				end--;
		} else if (end > line_start && in[end - 1] == '\r') {
			end--; /* CRLF stays CRLF */
		}
		if (pgpk_buf_put(&b, in + line_start, end - line_start))
			goto error_free_buf;
		/* RFC 9580 5.2.1.2: line endings become CRLF. */
		if (i < len && pgpk_buf_put(&b, "\r\n", 2))
			goto error_free_buf;
		line_start = i + 1;
	}
	*out = b.data;
	*out_len = b.len;
	return 0;

error_free_buf:
	free(b.data);
	return -ENOMEM;
}

int pgpk_text_canonicalize_detached(const uint8_t *in, size_t len,
				    uint8_t **out, size_t *out_len)
{
	const uint8_t *end = in + len, *eol;
	struct pgpk_buf b = { 0 };
	size_t n;

	if (pgpk_buf_reserve(&b, len + len / 8 + 2))
		return -ENOMEM;
	while (in < end) {
		eol = memchr(in, '\n', (size_t)(end - in));
		n = (size_t)((eol ? eol : end) - in);
		while (n && in[n - 1] == '\r')
			n--;
		if (pgpk_buf_put(&b, in, n) ||
		    (eol && pgpk_buf_put(&b, "\r\n", 2))) {
			free(b.data);
			return -ENOMEM;
		}
		if (!eol)
			break;
		in = eol + 1;
	}
	*out = b.data;
	*out_len = b.len;
	return 0;
}
