// SPDX-License-Identifier: GPL-2.0
/*
 * Signatures and signed messages: detached signatures (one or more
 * signature packets), inline signed messages (RFC 9580 10.3: one-pass
 * signature(s), literal data, signature(s); or signature then literal),
 * possibly inside compressed data (5.6), and cleartext-signed messages
 * (RFC 9580 7).
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "helper/openpgp/internal.h"

#define PGPK_MAX_DECOMPRESSED (64u * 1024 * 1024)

struct pgpk_sigset_priv {
	uint8_t **bufs; /* decompressed buffers the sigs point into */
	size_t nbufs;
	size_t cap_bufs;
	size_t cap_sigs;
};

/* Walk state shared across nesting levels. */
struct pgpk_msg {
	struct pgpk_sigset *set;
	struct pgpk_sigset_priv *priv;
	const uint8_t *literal; /* literal data octets */
	size_t literal_len;
	uint8_t *literal_owned; /* partial-length literal body */
	bool have_literal;
	size_t one_pass;
	size_t total_out; /* decompressed octets so far */
};

void pgpk_sigset_free(struct pgpk_sigset *set)
{
	struct pgpk_sigset_priv *priv;
	size_t i;

	if (!set)
		return;
	priv = set->arena;
	if (priv) {
		for (i = 0; i < priv->nbufs; i++)
			free(priv->bufs[i]);
		free(priv->bufs);
		free(priv);
	}
	free(set->sigs);
	free(set->content);
	pgpk_input_release(&set->input);
	free(set);
}

/* Capacity doubles: thousands of compressed packets cost linear time. */
static int pgpk_keep_buf(struct pgpk_sigset_priv *priv, uint8_t *buf)
{
	uint8_t **nb;
	size_t ncap;

	if (priv->nbufs == priv->cap_bufs) {
		ncap = priv->cap_bufs ? 2 * priv->cap_bufs : 8;
		nb = pgpk_calloc_array(ncap, sizeof(*nb));
		if (!nb)
			return -ENOMEM;
		if (priv->nbufs)
			memcpy(nb, priv->bufs, priv->nbufs * sizeof(*nb));
		free(priv->bufs);
		priv->bufs = nb;
		priv->cap_bufs = ncap;
	}
	priv->bufs[priv->nbufs++] = buf;
	return 0;
}

static int pgpk_add_sig(struct pgpk_msg *m, const struct pgpk_packet *pkt,
			struct pgpk_error *err)
{
	struct pgpk_sigset *set = m->set;
	struct pgpk_signature *ns;
	int ret;

	if (set->nsigs == m->priv->cap_sigs) {
		size_t ncap = m->priv->cap_sigs ? m->priv->cap_sigs * 2 : 4;

		if (ncap > 65536)
			return pgpk_fail(err, -EBADMSG, pkt->hdr_offset,
					 "too many signatures (offset %zu)",
					 pkt->hdr_offset);
		ns = realloc(set->sigs, ncap * sizeof(*ns));
		if (!ns)
			return pgpk_fail(err, -ENOMEM, pkt->hdr_offset,
					 "out of memory");
		set->sigs = ns;
		m->priv->cap_sigs = ncap;
	}
	ret = pgpk_signature_parse(pkt->body, pkt->len, pkt->offset,
				   &set->sigs[set->nsigs], err);
	if (ret)
		return ret;
	set->nsigs++;
	return 0;
}

/* RFC 9580 5.6: compressed data; 0 uncompressed, 1 ZIP (raw deflate),
 * 2 ZLIB, 3 BZip2 (not supported). */
static int pgpk_decompress(struct pgpk_msg *m, const struct pgpk_packet *pkt,
			   uint8_t **out, size_t *out_len,
			   struct pgpk_error *err)
{
	z_stream zs;
	uint8_t *buf = NULL, *nb;
	size_t cap = 0, used = 0;
	uint8_t algo;
	int zret, ret;

	if (pkt->len < 1)
		return pgpk_fail(err, -EBADMSG, pkt->offset,
				 "empty compressed data packet at offset %zu",
				 pkt->offset);
	algo = pkt->body[0];
	if (algo != 0 && algo != 1 && algo != 2)
		return pgpk_fail(
			err, -ENOPKG, pkt->offset,
			"unsupported compression algorithm %u at offset %zu",
			algo, pkt->offset);
	if (algo == 0) {
		buf = malloc(pkt->len);
		if (!buf)
			return pgpk_fail(err, -ENOMEM, pkt->offset,
					 "out of memory");
		memcpy(buf, pkt->body + 1, pkt->len - 1);
		*out = buf;
		*out_len = pkt->len - 1;
		return 0;
	}
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, algo == 1 ? -15 : 15) != Z_OK)
		return pgpk_fail(err, -ENOMEM, pkt->offset, "zlib init failed");
	if (pkt->len - 1 > UINT32_MAX) {
		ret = pgpk_fail(err, -EBADMSG, pkt->offset,
				"compressed packet too large");
		goto error_end;
	}
	zs.next_in = (Bytef *)(uintptr_t)(pkt->body + 1);
	zs.avail_in = (uInt)(pkt->len - 1);
	do {
		if (used == cap) {
			size_t ncap = cap ? cap * 2 : 65536;

			if (m->total_out + ncap > PGPK_MAX_DECOMPRESSED)
				ncap = PGPK_MAX_DECOMPRESSED - m->total_out;
			if (ncap <= used) {
				ret = pgpk_fail(
					err, -EBADMSG, pkt->offset,
					"compressed data at offset %zu expands beyond %u octets",
					pkt->offset, PGPK_MAX_DECOMPRESSED);
				goto error_end;
			}
			nb = realloc(buf, ncap);
			if (!nb) {
				ret = pgpk_fail(err, -ENOMEM, pkt->offset,
						"out of memory");
				goto error_end;
			}
			buf = nb;
			cap = ncap;
		}
		zs.next_out = buf + used;
		zs.avail_out = (uInt)(cap - used);
		zret = inflate(&zs, Z_NO_FLUSH);
		used = cap - zs.avail_out;
		if (zret == Z_STREAM_END)
			break;
		if (zret != Z_OK || (zs.avail_in == 0 && zs.avail_out != 0)) {
			ret = pgpk_fail(err, -EBADMSG, pkt->offset,
					"corrupt compressed data at offset %zu",
					pkt->offset);
			goto error_end;
		}
	} while (1);
	inflateEnd(&zs);
	/* Kept until the set is freed: only what was used (a 64 KiB
	 * buffer per tiny packet would let 1 MiB of input claim GiBs). */
	if (used < cap) {
		nb = realloc(buf, used ? used : 1);
		if (nb)
			buf = nb;
	}
	m->total_out += used;
	*out = buf;
	*out_len = used;
	return 0;

error_end:
	inflateEnd(&zs);
	free(buf);
	return ret;
}

static int pgpk_msg_walk(struct pgpk_msg *m, const uint8_t *data, size_t len,
			 int depth, struct pgpk_error *err)
{
	struct pgpk_cursor c;
	struct pgpk_packet pkt;
	int ret = 0;

	pgpk_cursor_init(&c, data, len, 0);
	while (pgpk_cursor_left(&c)) {
		ret = pgpk_packet_next(&c, &pkt, err);
		if (ret)
			return ret;
		switch (pkt.tag) {
		case PGPK_TAG_SIGNATURE:
			ret = pgpk_add_sig(m, &pkt, err);
			break;
		case PGPK_TAG_ONE_PASS:
			m->one_pass++;
			break;
		case PGPK_TAG_MARKER:
		case PGPK_TAG_PADDING:
			break;
		case PGPK_TAG_LITERAL: {
			/* RFC 9580 5.9: format, name length, name, date,
			 * then the data. */
			size_t nlen;

			if (m->have_literal) {
				ret = pgpk_fail(
					err, -EBADMSG, pkt.hdr_offset,
					"second literal data packet at offset %zu",
					pkt.hdr_offset);
				break;
			}
			if (pkt.len < 2 || pkt.len < 6 + (size_t)pkt.body[1]) {
				ret = pgpk_fail(
					err, -EBADMSG, pkt.offset,
					"truncated literal data header at offset %zu",
					pkt.offset);
				break;
			}
			nlen = pkt.body[1];
			m->have_literal = true;
			m->literal = pkt.body + 6 + nlen;
			m->literal_len = pkt.len - 6 - nlen;
			m->literal_owned = pkt.owned;
			pkt.owned = NULL;
			break;
		}
		case PGPK_TAG_COMPRESSED: {
			uint8_t *buf = NULL;
			size_t blen = 0;

			if (depth >= PGPK_MAX_NESTING) {
				ret = pgpk_fail(
					err, -EBADMSG, pkt.hdr_offset,
					"compressed data nested too deep at offset %zu",
					pkt.hdr_offset);
				break;
			}
			ret = pgpk_decompress(m, &pkt, &buf, &blen, err);
			if (ret)
				break;
			ret = pgpk_keep_buf(m->priv, buf);
			if (ret) {
				free(buf);
				ret = pgpk_fail(err, ret, pkt.offset,
						"out of memory");
				break;
			}
			ret = pgpk_msg_walk(m, buf, blen, depth + 1, err);
			break;
		}
		default:
			ret = pgpk_fail(
				err,
				pkt.tag == PGPK_TAG_SEIPD ||
						pkt.tag == PGPK_TAG_SED ||
						pkt.tag == PGPK_TAG_AEAD ||
						pkt.tag == PGPK_TAG_PKESK ||
						pkt.tag == PGPK_TAG_SKESK ?
					-ENOPKG :
					-EBADMSG,
				pkt.hdr_offset,
				"unexpected %s packet (tag %u) in a signature at offset %zu",
				pgpk_tag_name(pkt.tag), pkt.tag,
				pkt.hdr_offset);
			break;
		}
		pgpk_packet_release(&pkt);
		if (ret)
			return ret;
	}
	return 0;
}

int pgpk_sigset_parse(const uint8_t *in, size_t len, struct pgpk_sigset **out,
		      struct pgpk_error *err)
{
	struct pgpk_sigset *set;
	struct pgpk_msg m = { 0 };
	int ret;

	*out = NULL;
	set = calloc(1, sizeof(*set));
	if (!set)
		return pgpk_fail(err, -ENOMEM, 0, "out of memory");
	set->arena = calloc(1, sizeof(struct pgpk_sigset_priv));
	if (!set->arena) {
		ret = pgpk_fail(err, -ENOMEM, 0, "out of memory");
		goto error_free_set;
	}
	m.set = set;
	m.priv = set->arena;
	ret = pgpk_input_decode(in, len, &set->input, err);
	if (ret)
		goto error_free_set;
	ret = pgpk_msg_walk(&m, set->input.packets, set->input.packets_len, 0,
			    err);
	if (ret)
		goto error_free_literal;
	if (!set->nsigs) {
		ret = pgpk_fail(err, -EBADMSG, 0, "no signature in the input");
		goto error_free_literal;
	}
	if (set->input.kind == PGPK_INPUT_CLEARTEXT) {
		if (m.have_literal || m.one_pass) {
			ret = pgpk_fail(
				err, -EBADMSG, 0,
				"cleartext signature block holds a message");
			goto error_free_literal;
		}
		/* RFC 9580 7.2: the canonicalised text is what is signed. */
		ret = pgpk_text_canonicalize(set->input.cleartext,
					     set->input.cleartext_len, true,
					     &set->content, &set->content_len);
		if (ret) {
			pgpk_fail(err, ret, 0, "out of memory");
			goto error_free_literal;
		}
		set->has_content = true;
	} else if (m.have_literal) {
		/* RFC 9580 5.2.1.2: a text signature hashes canonical
		 * text; a binary one the literal octets as they are. */
		if (set->sigs[0].type == PGPK_SIG_TEXT) {
			ret = pgpk_text_canonicalize(m.literal, m.literal_len,
						     false, &set->content,
						     &set->content_len);
		} else {
			set->content =
				malloc(m.literal_len ? m.literal_len : 1);
			ret = set->content ? 0 : -ENOMEM;
			if (!ret && m.literal_len)
				memcpy(set->content, m.literal, m.literal_len);
			set->content_len = m.literal_len;
		}
		if (ret) {
			pgpk_fail(err, ret, 0, "out of memory");
			goto error_free_literal;
		}
		set->has_content = true;
	} else if (m.one_pass) {
		ret = pgpk_fail(err, -EBADMSG, 0,
				"one-pass signature without literal data");
		goto error_free_literal;
	}
	free(m.literal_owned);
	*out = set;
	return 0;

error_free_literal:
	free(m.literal_owned);
error_free_set:
	pgpk_sigset_free(set);
	return ret;
}
