// SPDX-License-Identifier: GPL-2.0
/*
 * Certificates (RFC 9580 10.1.1): a keyring's packets framed and built
 * into certificates (key, user IDs, subkeys and their signatures), then
 * validated (workers.c, selfsig.c); a key found by fingerprint or key ID;
 * a key's name as the kernel gives it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"

struct pgpk_ring_priv {
	struct pgpk_userid *uids;
	struct pgpk_pubkey *subkeys;
	struct pgpk_signature *sigs;
};

/* Which packets may appear in a transferable public key (RFC 9580
 * 10.1.1); trust, marker and padding packets are skipped. */
static bool pgpk_tag_ignored(unsigned int tag)
{
	return tag == PGPK_TAG_TRUST || tag == PGPK_TAG_MARKER ||
	       tag == PGPK_TAG_PADDING;
}

static int pgpk_frame_all(const struct pgpk_input *input,
			  struct pgpk_packet **out, size_t *count,
			  struct pgpk_error *err)
{
	struct pgpk_cursor c;
	struct pgpk_packet *pkts = NULL, *np, pkt;
	size_t n = 0, cap = 0;
	int ret;

	pgpk_cursor_init(&c, input->packets, input->packets_len, 0);
	while (pgpk_cursor_left(&c)) {
		ret = pgpk_packet_next(&c, &pkt, err);
		if (ret)
			goto error_free_pkts;
		if (pgpk_tag_ignored(pkt.tag))
			continue;
		/* RFC 9580 5.2.3: no signature packet is shorter than 12
		 * octets (v4 without subpackets, 1-bit MPI).  Such a packet
		 * could only be ignored later; not storing it bounds the
		 * memory a hostile input of tiny packets can claim. */
		if (pkt.tag == PGPK_TAG_SIGNATURE && pkt.len < 12 && n)
			continue;
		switch (pkt.tag) {
		case PGPK_TAG_PUBLIC_KEY:
		case PGPK_TAG_PUBLIC_SUBKEY:
		case PGPK_TAG_USER_ID:
		case PGPK_TAG_USER_ATTRIBUTE:
		case PGPK_TAG_SIGNATURE:
			break;
		case PGPK_TAG_SECRET_KEY:
		case PGPK_TAG_SECRET_SUBKEY:
			ret = pgpk_fail(
				err, -EBADMSG, pkt.hdr_offset,
				"%s packet at offset %zu: only public keys are accepted",
				pgpk_tag_name(pkt.tag), pkt.hdr_offset);
			pgpk_packet_release(&pkt);
			goto error_free_pkts;
		default:
			ret = pgpk_fail(
				err, -EBADMSG, pkt.hdr_offset,
				"unexpected %s packet (tag %u) in a key at offset %zu",
				pgpk_tag_name(pkt.tag), pkt.tag,
				pkt.hdr_offset);
			pgpk_packet_release(&pkt);
			goto error_free_pkts;
		}
		if (n == 0 && pkt.tag != PGPK_TAG_PUBLIC_KEY) {
			ret = pgpk_fail(
				err, -EBADMSG, pkt.hdr_offset,
				"a key must start with a public key packet, found %s at offset %zu",
				pgpk_tag_name(pkt.tag), pkt.hdr_offset);
			goto error_free_pkts;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 256;

			if (ncap > PGPK_MAX_PACKETS) {
				ret = pgpk_fail(err, -ENOMEM, pkt.hdr_offset,
						"too many packets");
				goto error_free_pkts;
			}
			np = realloc(pkts, ncap * sizeof(*pkts));
			if (!np) {
				ret = pgpk_fail(err, -ENOMEM, pkt.hdr_offset,
						"out of memory");
				goto error_free_pkts;
			}
			pkts = np;
			cap = ncap;
		}
		pkts[n++] = pkt;
	}
	if (!n) {
		ret = pgpk_fail(err, -ENOKEY, 0, "no key in the input");
		goto error_free_pkts;
	}
	*out = pkts;
	*count = n;
	return 0;

error_free_pkts:
	free(pkts);
	return ret;
}

void pgpk_keyring_free(struct pgpk_keyring *ring)
{
	struct pgpk_ring_priv *priv;
	size_t i, j;

	if (!ring)
		return;
	for (i = 0; i < ring->ncerts; i++) {
		pgpk_key_rsa_release(&ring->certs[i].primary);
		for (j = 0; j < ring->certs[i].nsubkeys; j++)
			pgpk_key_rsa_release(&ring->certs[i].subkeys[j]);
	}
	priv = ring->arena;
	if (priv) {
		free(priv->uids);
		free(priv->subkeys);
		free(priv->sigs);
		free(priv);
	}
	free(ring->certs);
	pgpk_input_release(&ring->input);
	free(ring);
}

/* Build the certificates from the framed packets. */
static int pgpk_build(struct pgpk_keyring *ring, const struct pgpk_packet *pkts,
		      size_t n, struct pgpk_error *err)
{
	struct pgpk_ring_priv *priv = ring->arena;
	size_t ncert = 0, nuid = 0, nsub = 0, nsig = 0, i;
	struct pgpk_cert *cert = NULL;
	struct pgpk_signature **comp_sigs = NULL;
	size_t *comp_nsigs = NULL;
	struct pgpk_error first_skip = { 0 };
	bool skipping = false;
	int ret;

	for (i = 0; i < n; i++) {
		switch (pkts[i].tag) {
		case PGPK_TAG_PUBLIC_KEY:
			ncert++;
			break;
		case PGPK_TAG_PUBLIC_SUBKEY:
			nsub++;
			break;
		case PGPK_TAG_SIGNATURE:
			nsig++;
			break;
		default:
			nuid++;
			break;
		}
	}
	ring->certs = pgpk_calloc_array(ncert, sizeof(*ring->certs));
	priv->uids = pgpk_calloc_array(nuid, sizeof(*priv->uids));
	priv->subkeys = pgpk_calloc_array(nsub, sizeof(*priv->subkeys));
	priv->sigs = pgpk_calloc_array(nsig, sizeof(*priv->sigs));
	if (!ring->certs || !priv->uids || !priv->subkeys || !priv->sigs)
		return pgpk_fail(err, -ENOMEM, 0,
				 "out of memory for %zu packets", n);
	nuid = nsub = nsig = 0;
	for (i = 0; i < n; i++) {
		const struct pgpk_packet *p = &pkts[i];
		struct pgpk_signature *sig;

		if (p->tag == PGPK_TAG_PUBLIC_KEY) {
			struct pgpk_error kerr;

			cert = &ring->certs[ring->ncerts];
			memset(cert, 0, sizeof(*cert));
			cert->primary_uid = -1;
			ret = pgpk_pubkey_parse(p->body, p->len, p->offset,
						false, &cert->primary, &kerr);
			if (ret == -ENOPKG) {
				/* Unsupported key version (v3, v5): the
				 * whole certificate is skipped, as GnuPG
				 * does; an error only if nothing else. */
				if (!first_skip.code)
					first_skip = kerr;
				skipping = true;
				continue;
			}
			if (ret) {
				if (err)
					*err = kerr;
				return ret;
			}
			skipping = false;
			ring->ncerts++;
			cert->uids = &priv->uids[nuid];
			cert->subkeys = &priv->subkeys[nsub];
			comp_sigs = &cert->primary.sigs;
			comp_nsigs = &cert->primary.nsigs;
			continue;
		}
		if (skipping)
			continue;
		switch (p->tag) {
		case PGPK_TAG_USER_ID:
		case PGPK_TAG_USER_ATTRIBUTE: {
			struct pgpk_userid *uid = &priv->uids[nuid++];

			uid->offset = p->offset;
			uid->data = p->body;
			uid->len = p->len;
			uid->attribute = p->tag == PGPK_TAG_USER_ATTRIBUTE;
			cert->nuids++;
			comp_sigs = &uid->sigs;
			comp_nsigs = &uid->nsigs;
			break;
		}
		case PGPK_TAG_PUBLIC_SUBKEY: {
			struct pgpk_pubkey *sub = &priv->subkeys[nsub];

			ret = pgpk_pubkey_parse(p->body, p->len, p->offset,
						true, sub, err);
			if (ret == -ENOPKG) {
				/* Unknown subkey version: ignored with its
				 * signatures. */
				comp_sigs = NULL;
				comp_nsigs = NULL;
				break;
			}
			if (ret)
				return ret;
			nsub++;
			cert->nsubkeys++;
			comp_sigs = &sub->sigs;
			comp_nsigs = &sub->nsigs;
			break;
		}
		case PGPK_TAG_SIGNATURE:
			if (!comp_sigs)
				break;
			/* Parsed where its certificate is validated
			 * (pgpk_parse_cert_sigs()), on several threads. */
			sig = &priv->sigs[nsig++];
			sig->body = p->body;
			sig->body_len = p->len;
			sig->offset = p->offset;
			if (!*comp_nsigs)
				*comp_sigs = sig;
			(*comp_nsigs)++;
			break;
		default:
			break;
		}
	}
	if (!ring->ncerts) {
		if (first_skip.code) {
			if (err)
				*err = first_skip;
			return first_skip.code;
		}
		return pgpk_fail(err, -ENOKEY, 0, "no key in the input");
	}
	return 0;
}

int pgpk_keyring_parse(const uint8_t *in, size_t len,
		       const struct pgpk_parse_opts *opts,
		       struct pgpk_keyring **out, struct pgpk_error *err)
{
	struct pgpk_keyring *ring;
	struct pgpk_packet *pkts = NULL;
	size_t n = 0;
	int ret;

	*out = NULL;
	ring = calloc(1, sizeof(*ring));
	if (!ring)
		return pgpk_fail(err, -ENOMEM, 0, "out of memory");
	ring->arena = calloc(1, sizeof(struct pgpk_ring_priv));
	if (!ring->arena) {
		ret = pgpk_fail(err, -ENOMEM, 0, "out of memory");
		goto error_free_ring;
	}
	ret = pgpk_input_decode_borrow(in, len, &ring->input,
				       opts->borrow_input, err);
	if (ret)
		goto error_free_ring;
	if (ring->input.kind == PGPK_INPUT_CLEARTEXT) {
		ret = pgpk_fail(err, -EBADMSG, 0,
				"a cleartext-signed message is not a key");
		goto error_free_ring;
	}
	ret = pgpk_frame_all(&ring->input, &pkts, &n, err);
	if (ret)
		goto error_free_ring;
	ret = pgpk_build(ring, pkts, n, err);
	free(pkts);
	if (ret)
		goto error_free_ring;
	ret = pgpk_validate_all(ring, opts);
	if (ret == -E2BIG) {
		/* Some signature went unchecked: validity could be wrong
		 * either way (a revocation unseen), so nothing is answered. */
		ret = pgpk_fail(
			err, -EBADMSG, 0,
			"too many salted (v6) signatures to check within %zu octets of digests: certificate flooding?",
			PGPK_SALTED_BUDGET(ring->input.packets_len));
		goto error_free_ring;
	}
	if (ret) {
		pgpk_fail(err, ret, 0, "validation failed: out of memory");
		goto error_free_ring;
	}
	*out = ring;
	return 0;

error_free_ring:
	pgpk_keyring_free(ring);
	return ret;
}

static int pgpk_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool pgpk_key_matches(const struct pgpk_pubkey *key, const uint8_t *want,
			     size_t n)
{
	if (n == key->fpr_len)
		return !memcmp(key->fpr, want, n);
	if (n == PGPK_KEYID_LEN)
		return !memcmp(key->keyid, want, n);
	if (n == 4)
		return !memcmp(key->keyid + 4, want, n);
	return false;
}

const struct pgpk_pubkey *pgpk_keyring_find(const struct pgpk_keyring *ring,
					    const char *select,
					    const struct pgpk_cert **cert)
{
	uint8_t want[PGPK_FPR_MAX];
	size_t len, n, i, j;

	if (!strncmp(select, "0x", 2) || !strncmp(select, "0X", 2))
		select += 2;
	len = strlen(select);
	if (len % 2 || len / 2 > sizeof(want) ||
	    (len != 8 && len != 16 && len != 40 && len != 64))
		return NULL;
	n = len / 2;
	for (i = 0; i < n; i++) {
		int hi = pgpk_hex_value(select[2 * i]);
		int lo = pgpk_hex_value(select[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return NULL;
		want[i] = (uint8_t)(hi << 4 | lo);
	}
	for (i = 0; i < ring->ncerts; i++) {
		const struct pgpk_cert *c = &ring->certs[i];

		if (pgpk_key_matches(&c->primary, want, n)) {
			*cert = c;
			return &c->primary;
		}
		for (j = 0; j < c->nsubkeys; j++)
			if (pgpk_key_matches(&c->subkeys[j], want, n)) {
				*cert = c;
				return &c->subkeys[j];
			}
	}
	return NULL;
}

const struct pgpk_userid *pgpk_cert_primary_uid(const struct pgpk_cert *cert)
{
	if (cert->primary_uid < 0 || (size_t)cert->primary_uid >= cert->nuids)
		return NULL;
	return &cert->uids[cert->primary_uid];
}

size_t pgpk_key_description(const struct pgpk_cert *cert,
			    const struct pgpk_pubkey *key, char *buf,
			    size_t size)
{
	const struct pgpk_userid *uid = pgpk_cert_primary_uid(cert);
	const struct pgpk_signature *self = cert->primary.binding;
	struct pgpk_bytes u = { 0 };
	char name[PGPK_NAME_SIZE];

	/* Named by the user ID only if the self-signature the kernel is
	 * given certifies it (pgpk_key_canonical(), pgpk_self_sigs()). */
	if (uid && !uid->attribute && uid->len >= 1 &&
	    uid->len <= PGPK_MAX_USER_ID && self &&
	    self->type >= PGPK_SIG_CERT_GENERIC &&
	    self->type <= PGPK_SIG_CERT_POSITIVE) {
		u.data = uid->data;
		u.len = (u32)uid->len;
	}
	pgpk_name(u.data ? &u : NULL, key->subkey, key->keyid, name);
	return (size_t)snprintf(buf, size, "%s", name);
}
