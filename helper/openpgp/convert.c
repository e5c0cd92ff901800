// SPDX-License-Identifier: GPL-2.0
/*
 * OpenPGP -> canonical blobs (proto/pgpk.proto), encoded with protobuf-c,
 * and pgpk_convert(), the entry point of helper/pgpk_convert.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"
#include "proto/pgpk.pb-c.h"

static int pgpk_check_u32(size_t v, const char *what, size_t at,
			  struct pgpk_error *err)
{
	if (v > UINT32_MAX)
		return pgpk_fail(err, -EBADMSG, at,
				 "%s %zu does not fit the canonical form", what,
				 v);
	return 0;
}

/* KeyMaterial (RSA only).  The MPIs must be canonical so that the
 * kernel's rebuilt packet is octet for octet the one submitted. */
static int pgpk_material(const struct pgpk_pubkey *key, Pgpk__KeyMaterial *m,
			 struct pgpk_error *err)
{
	static const char hex[] = "0123456789ABCDEF";
	char fpr[2 * PGPK_FPR_MAX + 1];
	size_t i;

	/* For the messages below (snprintf() per octet cost 14,000
	 * instructions of every conversion). */
	for (i = 0; i < key->fpr_len; i++) {
		fpr[2 * i] = hex[key->fpr[i] >> 4];
		fpr[2 * i + 1] = hex[key->fpr[i] & 15];
	}
	fpr[2 * i] = '\0';
	if (!pgpk_pk_algo_is_rsa(key->algo))
		return pgpk_fail(
			err, -ENOPKG, key->offset,
			"unsupported algorithm %u (%s) of key %s at offset %zu: only RSA converts",
			key->algo, key->algo_name, fpr, key->offset);
	/* RFC 9580 9.1: RSA Encrypt-Only signs nothing; the kernel's
	 * decoder refuses it. */
	if (key->algo == PGPK_PK_RSA_E)
		return pgpk_fail(
			err, -ENOPKG, key->offset,
			"key %s at offset %zu is RSA Encrypt-Only (algorithm 2): it signs nothing",
			fpr, key->offset);
	if (key->mpi_noncanonical)
		return pgpk_fail(
			err, -EBADMSG, key->offset,
			"key %s at offset %zu: MPI bit count does not match its value",
			fpr, key->offset);
	if (!key->rsa_n.len || !key->rsa_e.len)
		return pgpk_fail(err, -EBADMSG, key->offset,
				 "key %s at offset %zu: zero RSA parameter",
				 fpr, key->offset);
	if (key->rsa_n.len > PGPK_MAX_MPI)
		return pgpk_fail(
			err, -ENOPKG, key->offset,
			"key %s at offset %zu: RSA key of %u bits exceeds %d",
			fpr, key->offset, key->bits, PGPK_MAX_MPI * 8);
	if (key->rsa_e.len > PGPK_MAX_EXPONENT)
		return pgpk_fail(
			err, -ENOPKG, key->offset,
			"key %s at offset %zu: RSA exponent of %zu octets exceeds %d",
			fpr, key->offset, key->rsa_e.len, PGPK_MAX_EXPONENT);
	m->version = key->version;
	m->created = key->created;
	m->algorithm = key->algo;
	m->rsa_n.data = (uint8_t *)(uintptr_t)key->rsa_n.data;
	m->rsa_n.len = key->rsa_n.len;
	m->rsa_e.data = (uint8_t *)(uintptr_t)key->rsa_e.data;
	m->rsa_e.len = key->rsa_e.len;
	return 0;
}

/*
 * Signature message (RSA, v4 or v6 only).  With `base` (the OpenPGP
 * octets the answer describes), the offset of the RSA value's octets in
 * them (Signature.rsa_s_offset: the kernel compares them there).
 */
static int pgpk_sig_msg(const struct pgpk_signature *sig, const uint8_t *base,
			Pgpk__Signature *s, struct pgpk_error *err)
{
	if (!pgpk_pk_algo_is_rsa(sig->pk_algo))
		return pgpk_fail(
			err, -ENOPKG, sig->offset,
			"unsupported signature algorithm %u (%s) at offset %zu: only RSA converts",
			sig->pk_algo, pgpk_pk_algo_name(sig->pk_algo),
			sig->offset);
	if (sig->malformed || !sig->has_created)
		return pgpk_fail(
			err, -EBADMSG, sig->offset,
			"signature at offset %zu is malformed (bad subpacket or no creation time)",
			sig->offset);
	/* RFC 9580 5.2.2: v3 is for no new signature, and its hashed
	 * octets name no issuer: the kernel checks v4 and v6 only. */
	if (sig->version != 4 && sig->version != 6)
		return pgpk_fail(
			err, -EKEYREJECTED, sig->offset,
			"policy: v%u signature at offset %zu refused (v4 and v6 only)",
			sig->version, sig->offset);
	if (sig->unknown_critical)
		return pgpk_fail(
			err, -EBADMSG, sig->offset,
			"signature at offset %zu has an unknown critical subpacket (RFC 9580 5.2.3.7)",
			sig->offset);
	if (!sig->rsa_s.len || sig->rsa_s.len > PGPK_MAX_MPI)
		return pgpk_fail(
			err, -EBADMSG, sig->offset,
			"signature at offset %zu: RSA value of %zu octets",
			sig->offset, sig->rsa_s.len);
	if (sig->hashed_len > PGPK_MAX_HASHED_AREA)
		return pgpk_fail(
			err, -EBADMSG, sig->offset,
			"signature at offset %zu: hashed area of %zu octets",
			sig->offset, sig->hashed_len);
	/* RFC 9580 9.5: the salt the kernel checks before hashing. */
	if (sig->version == 6 &&
	    sig->salt_len != pgpk_rebuild_salt_len(sig->hash_algo))
		return pgpk_fail(
			err, -ENOPKG, sig->offset,
			"v6 signature at offset %zu: hash %u has no salt size the kernel knows",
			sig->offset, sig->hash_algo);
	s->version = sig->version;
	s->type = sig->type;
	s->pubkey_algorithm = sig->pk_algo;
	s->hash_algorithm = sig->hash_algo;
	s->created = sig->created;
	s->has_hashed_area = 1;
	s->hashed_area.data = (uint8_t *)(uintptr_t)sig->hashed;
	s->hashed_area.len = sig->hashed_len;
	if (sig->version == 6) {
		s->has_salt = 1;
		s->salt.data = (uint8_t *)(uintptr_t)sig->salt;
		s->salt.len = sig->salt_len;
	}
	s->quick_check = sig->quick_check;
	s->rsa_s.data = (uint8_t *)(uintptr_t)sig->rsa_s.data;
	s->rsa_s.len = sig->rsa_s.len;
	if (sig->has_issuer_keyid) {
		s->has_issuer_key_id = 1;
		s->issuer_key_id.data = (uint8_t *)(uintptr_t)sig->issuer_keyid;
		s->issuer_key_id.len = PGPK_KEYID_LEN;
	}
	if (sig->issuer_fpr_len) {
		s->has_issuer_fingerprint = 1;
		s->issuer_fingerprint.data =
			(uint8_t *)(uintptr_t)sig->issuer_fpr;
		s->issuer_fingerprint.len = sig->issuer_fpr_len;
	}
	if (base) {
		s->has_rsa_s_offset = 1;
		s->rsa_s_offset = (uint32_t)(sig->rsa_s.data - base);
		return pgpk_check_u32((size_t)(sig->rsa_s.data - base),
				      "signature value offset", sig->offset,
				      err);
	}
	return 0;
}

/* Magic + packed Canonical, malloc()ed. */
static int pgpk_pack(const Pgpk__Canonical *c, uint8_t **blob, size_t *blob_len,
		     struct pgpk_error *err)
{
	size_t n = pgpk__canonical__get_packed_size(c);
	uint8_t *buf;

	if (PGPK_MAGIC_LEN + n > PGPK_MAX_BLOB)
		return pgpk_fail(err, -EBADMSG, 0,
				 "canonical blob of %zu octets exceeds %d",
				 PGPK_MAGIC_LEN + n, PGPK_MAX_BLOB);
	buf = malloc(PGPK_MAGIC_LEN + n);
	if (!buf)
		return pgpk_fail(err, -ENOMEM, 0, "out of memory");
	memcpy(buf, PGPK_MAGIC, PGPK_MAGIC_LEN);
	pgpk__canonical__pack(c, buf + PGPK_MAGIC_LEN);
	*blob = buf;
	*blob_len = PGPK_MAGIC_LEN + n;
	return 0;
}

/*
 * A third-party certification of the user ID that an anchor could have
 * made, as far as the signature alone tells (RFC 9580 5.2.1, 5.2.3): a
 * certification type, checkable by the kernel, by an RSA key with a
 * strong hash, naming an issuer other than the key, not expired, not
 * from the future (the kernel's PGPK_CLOCK_SKEW), with an RSA value the
 * kernel takes.  Nothing verified yet.
 */
static bool pgpk_is_candidate(const struct pgpk_pubkey *key,
			      const struct pgpk_signature *s, int64_t now)
{
	struct pgpk_hashed h;

	if (s->type < PGPK_SIG_CERT_GENERIC ||
	    s->type > PGPK_SIG_CERT_POSITIVE ||
	    !pgpk_sig_kernel_checkable(s, &h))
		return false;
	if (!s->has_issuer_keyid && !s->issuer_fpr_len)
		return false;
	if (!s->rsa_s.len || s->rsa_s.len > PGPK_MAX_MPI ||
	    (int64_t)s->created > now + PGPK_CLOCK_SKEW ||
	    (s->sig_expires && (int64_t)s->created + s->sig_expires <= now))
		return false;
	return s->issuer_fpr_len ?
		       !(s->issuer_fpr_len == key->fpr_len &&
			 !memcmp(s->issuer_fpr, key->fpr, key->fpr_len)) :
		       memcmp(s->issuer_keyid, key->keyid, PGPK_KEYID_LEN) != 0;
}

/* Does `s` name `key` as its issuer (fingerprint, else key ID)? */
static bool pgpk_names(const struct pgpk_signature *s,
		       const struct pgpk_pubkey *key)
{
	if (s->issuer_fpr_len)
		return s->issuer_fpr_len == key->fpr_len &&
		       !memcmp(s->issuer_fpr, key->fpr, key->fpr_len);
	return !memcmp(s->issuer_keyid, key->keyid, PGPK_KEYID_LEN);
}

/* The candidates, for pgpk_parse_opts.want: validate only the anchors
 * they name. */
struct pgpk_cands {
	struct pgpk_signature **sigs;
	size_t n;
};

static bool pgpk_anchor_wanted(const struct pgpk_cert *cert, void *arg)
{
	const struct pgpk_cands *c = arg;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (pgpk_names(c->sigs[i], &cert->primary))
			return true;
	return false;
}

/*
 * The anchor key that may have made candidate `s`: the first anchor
 * primary key it names that is usable (pgpk_key_usable(), the anchors'
 * policy), RSA, allowed to certify by its self-signature, could sign
 * then (pgpk_key_signed_at()) and is the key the hashed issuer
 * fingerprint names, if any (the kernel's rules).
 */
static const struct pgpk_pubkey *
pgpk_anchor_for(struct pgpk_keyring *const *rings, size_t nrings,
		const struct pgpk_anchors *anchors,
		const struct pgpk_signature *s)
{
	const struct pgpk_pubkey *a;
	struct pgpk_hashed h;
	size_t r, c;

	if (!pgpk_sig_kernel_checkable(s, &h))
		return NULL;
	for (r = 0; r < nrings; r++) {
		for (c = 0; rings[r] && c < rings[r]->ncerts; c++) {
			a = &rings[r]->certs[c].primary;
			if (!pgpk_names(s, a) ||
			    !pgpk_pk_algo_is_rsa(a->algo) ||
			    a->algo == PGPK_PK_RSA_E ||
			    !(a->usage & PGPK_KF_CERTIFY) ||
			    pgpk_key_usable(&rings[r]->certs[c], a,
					    anchors->use, NULL) ||
			    pgpk_key_signed_at(a, s->created, NULL))
				continue;
			if (h.fpr_len && (h.fpr_len != a->fpr_len ||
					  memcmp(h.fpr, a->fpr, a->fpr_len)))
				continue;
			return a;
		}
	}
	return NULL;
}

/*
 * Key.certification of a primary key with user ID `uid`, from the
 * anchors: the newest third-party certification of the user ID that
 * verifies with an anchor's key, not withdrawn by a revocation of that
 * anchor (pgpk_certifier()), or NULL.  Forgeries that claim an anchor
 * cost one RSA operation each and never hide a genuine one (every
 * candidate is tried, newest first); an anchor file that does not parse
 * vouches for nothing.  0, or -ENOMEM.
 */
static int pgpk_anchor_cert(const struct pgpk_keyring *ring,
			    const struct pgpk_cert *cert,
			    const struct pgpk_userid *uid,
			    const struct pgpk_anchors *anchors,
			    const struct pgpk_signature **out,
			    struct pgpk_error *err)
{
	struct pgpk_parse_opts popts = { .now = anchors->now };
	const struct pgpk_pubkey **signers = NULL;
	struct pgpk_keyring **rings = NULL;
	struct pgpk_cands cands = { 0 };
	struct pgpk_signature **pairs = NULL;
	size_t i, n = 0;
	int ret = -ENOMEM;

	*out = NULL;
	if (!anchors->nfiles || !uid->nsigs)
		return 0;
	cands.sigs = pgpk_calloc_array(uid->nsigs, sizeof(*cands.sigs));
	if (!cands.sigs)
		goto out_free;
	for (i = 0; i < uid->nsigs; i++)
		if (pgpk_is_candidate(&cert->primary, &uid->sigs[i],
				      anchors->now))
			cands.sigs[cands.n++] = &uid->sigs[i];
	ret = 0;
	if (!cands.n)
		goto out_free;
	ret = -ENOMEM;
	rings = pgpk_calloc_array(anchors->nfiles, sizeof(*rings));
	signers = pgpk_calloc_array(cands.n, sizeof(*signers));
	pairs = pgpk_calloc_array(cands.n, sizeof(*pairs));
	if (!rings || !signers || !pairs ||
	    pgpk_sort_ptrs((const void **)cands.sigs, cands.n,
			   pgpk_sig_newest_cmp))
		goto out_free;
	popts.want = pgpk_anchor_wanted;
	popts.want_arg = &cands;
	for (i = 0; i < anchors->nfiles; i++)
		if (pgpk_keyring_parse(anchors->files[i].data,
				       anchors->files[i].len, &popts, &rings[i],
				       NULL) == -ENOMEM)
			goto out_free;
	for (i = 0; i < cands.n; i++) {
		signers[n] = pgpk_anchor_for(rings, anchors->nfiles, anchors,
					     cands.sigs[i]);
		if (signers[n])
			pairs[n++] = cands.sigs[i];
	}
	ret = pgpk_certifier(ring, cert, uid, pairs, signers, n, anchors->now,
			     out);
out_free:
	for (i = 0; rings && i < anchors->nfiles; i++)
		pgpk_keyring_free(rings[i]);
	free(rings);
	free(pairs);
	free(signers);
	free(cands.sigs);
	return ret ? pgpk_fail(err, ret, 0,
			       "out of memory choosing a certification") :
		     0;
}

/*
 * A self-signature the kernel reads a key's use and life from
 * (Key.self_signature, Key.first_binding, a subkey's certification): a
 * key without one it can check is refused there, so it is refused here,
 * naming why.
 */
static int pgpk_self_msg(const struct pgpk_pubkey *key,
			 const struct pgpk_signature *sig, const char *what,
			 const uint8_t *base, Pgpk__Signature *s,
			 struct pgpk_error *err)
{
	if (!sig)
		return pgpk_fail(err, -EKEYREJECTED, key->offset,
				 "key at offset %zu has no %s", key->offset,
				 what);
	if (!pgpk_sig_kernel_checkable(sig, NULL))
		return pgpk_fail(
			err, -EKEYREJECTED, sig->offset,
			"key at offset %zu: its %s at offset %zu is one the kernel does not check (v%u, algorithm %u, %s, or a hashed area it refuses): policy floor",
			key->offset, what, sig->offset, sig->version,
			sig->pk_algo, pgpk_md_name(sig->hash_algo) ?: "hash ?");
	return pgpk_sig_msg(sig, base, s, err);
}

int pgpk_key_canonical(const struct pgpk_keyring *ring,
		       const struct pgpk_cert *cert,
		       const struct pgpk_pubkey *key,
		       const struct pgpk_anchors *anchors, unsigned int flags,
		       uint8_t **blob, size_t *blob_len, struct pgpk_error *err)
{
	Pgpk__Canonical c = PGPK__CANONICAL__INIT;
	Pgpk__Key k = PGPK__KEY__INIT;
	Pgpk__KeyMaterial mat = PGPK__KEY_MATERIAL__INIT;
	Pgpk__KeyMaterial pmat = PGPK__KEY_MATERIAL__INIT;
	Pgpk__Signature cs = PGPK__SIGNATURE__INIT;
	Pgpk__Signature ss = PGPK__SIGNATURE__INIT;
	Pgpk__Signature fs = PGPK__SIGNATURE__INIT;
	const struct pgpk_signature *cert_sig = NULL, *third = NULL;
	const struct pgpk_pubkey *pri = &cert->primary;
	const struct pgpk_userid *uid = pgpk_cert_primary_uid(cert);
	bool standalone = flags & PGPK_CANON_STANDALONE;
	const uint8_t *base = standalone ? NULL : ring->input.packets;
	int ret;

	ret = pgpk_material(key, &mat, err);
	if (ret)
		return ret;
	k.material = &mat;
	if (!standalone) {
		ret = pgpk_check_u32(key->offset, "packet offset", key->offset,
				     err);
		if (ret)
			return ret;
		k.has_packet_offset = 1;
		k.packet_offset = (uint32_t)key->offset;
	}
	/* Only reached for a soft revocation (pgpk_key_usable()). */
	if (key->revoked && !key->revoked_hard) {
		k.has_soft_revoked = 1;
		k.soft_revoked = key->revoked_at;
	}
	/* The primary user ID: a primary key's, or a subkey's primary's
	 * (its description; hashed when a certification of it counts). */
	if (uid && !uid->attribute && uid->len >= 1 &&
	    uid->len <= PGPK_MAX_USER_ID) {
		k.has_user_id = 1;
		k.user_id.data = (uint8_t *)(uintptr_t)uid->data;
		k.user_id.len = uid->len;
		if (!standalone) {
			ret = pgpk_check_u32(uid->offset, "user ID offset",
					     uid->offset, err);
			if (ret)
				return ret;
			k.has_user_id_offset = 1;
			k.user_id_offset = (uint32_t)uid->offset;
		}
	} else {
		uid = NULL;
	}
	if (key->subkey) {
		k.has_subkey = 1;
		k.subkey = 1;
		ret = pgpk_material(pri, &pmat, err);
		if (ret)
			return ret;
		k.primary = &pmat;
		/* The binding vouches, and says the subkey's use and life. */
		ret = pgpk_self_msg(key, key->binding, "binding signature",
				    base, &cs, err);
		if (ret)
			return ret;
		k.certification = &cs;
		if (key->first_binding && key->first_binding != key->binding) {
			ret = pgpk_self_msg(key, key->first_binding,
					    "first binding signature", base,
					    &fs, err);
			if (ret)
				return ret;
			k.first_binding = &fs;
		}
	} else {
		cert_sig = uid ? uid->selfsig : pri->binding;
		if (uid && anchors) {
			ret = pgpk_anchor_cert(ring, cert, uid, anchors, &third,
					       err);
			if (ret)
				return ret;
		}
		if (third)
			cert_sig = third;
		/*
		 * A certification the kernel cannot check would refuse the
		 * whole key there: left out, the key loads without
		 * authority (asym_auth).
		 */
		if (cert_sig && pgpk_sig_kernel_checkable(cert_sig, NULL)) {
			ret = pgpk_sig_msg(cert_sig, base, &cs, err);
			if (ret)
				return ret;
			k.certification = &cs;
		} else {
			cert_sig = NULL;
		}
	}
	/* The primary key's self-signature: its use and life, and a
	 * subkey's end (pgpk_key_expires()). */
	if (cert_sig != pri->binding) {
		ret = pgpk_self_msg(pri, pri->binding, "self-signature", base,
				    &ss, err);
		if (ret)
			return ret;
		k.self_signature = &ss;
	}
	c.key = &k;
	return pgpk_pack(&c, blob, blob_len, err);
}

int pgpk_sigs_canonical(const struct pgpk_sigset *set, const size_t *idx,
			size_t n, const struct pgpk_blob *content,
			uint8_t **blob, size_t *blob_len,
			struct pgpk_error *err)
{
	Pgpk__Canonical c = PGPK__CANONICAL__INIT;
	Pgpk__Signature s[PGPK_MAX_SIGNATURES];
	Pgpk__Signature *more[PGPK_MAX_SIGNATURES - 1];
	struct pgpk_blob own = { set->content, set->content_len };
	size_t i;
	int ret;

	if (!n || n > PGPK_MAX_SIGNATURES)
		return pgpk_fail(err, -EINVAL, 0, "%zu signatures, want 1..%d",
				 n, PGPK_MAX_SIGNATURES);
	for (i = 0; i < n; i++) {
		if (idx[i] >= set->nsigs)
			return pgpk_fail(err, -ENOKEY, 0, "no signature %zu",
					 idx[i]);
		pgpk__signature__init(&s[i]);
		ret = pgpk_sig_msg(&set->sigs[idx[i]], NULL, &s[i], err);
		if (ret)
			return ret;
		if (i)
			more[i - 1] = &s[i];
	}
	c.signature = &s[0];
	c.n_more_signatures = n - 1;
	c.more_signatures = more;
	if (!content && set->has_content)
		content = &own;
	if (content) {
		if (content->len > PGPK_MAX_CONTENT)
			return pgpk_fail(
				err, -EBADMSG, 0,
				"signed content of %zu octets exceeds %d",
				content->len, PGPK_MAX_CONTENT);
		c.has_content = 1;
		c.content.data = (uint8_t *)(uintptr_t)content->data;
		c.content.len = content->len;
	}
	return pgpk_pack(&c, blob, blob_len, err);
}

int pgpk_sig_canonical(const struct pgpk_sigset *set, size_t idx,
		       uint8_t **blob, size_t *blob_len, struct pgpk_error *err)
{
	return pgpk_sigs_canonical(set, &idx, 1, NULL, blob, blob_len, err);
}

static int pgpk_convert_key(const uint8_t *in, size_t len,
			    const struct pgpk_convert_opts *opts, uint8_t **out,
			    size_t *out_len, struct pgpk_error *err)
{
	struct pgpk_parse_opts popts = { .now = opts ? opts->now : 0 };
	const char *select = opts ? opts->select : NULL;
	struct pgpk_anchors anchors = { 0 };
	struct pgpk_keyring *ring;
	const struct pgpk_cert *cert;
	const struct pgpk_pubkey *key;
	unsigned int use = 0;
	int ret;

	if (opts && opts->allow_revoked)
		use |= PGPK_USE_ALLOW_REVOKED;
	if (opts && opts->allow_expired)
		use |= PGPK_USE_ALLOW_EXPIRED;
	ret = pgpk_keyring_parse(in, len, &popts, &ring, err);
	if (ret)
		return ret;
	if (select) {
		key = pgpk_keyring_find(ring, select, &cert);
		if (!key) {
			ret = pgpk_fail(err, -ENOKEY, 0,
					"no key or subkey matches '%.64s'",
					select);
			goto out_free_ring;
		}
	} else {
		cert = &ring->certs[0];
		key = &cert->primary;
	}
	/* The one validity rule (valid.c); the kernel cannot see
	 * revocations or back-signatures: refusing is our job. */
	ret = pgpk_key_usable(cert, key, use, err);
	if (ret)
		goto out_free_ring;
	if (opts && opts->nanchors) {
		anchors = (struct pgpk_anchors){ opts->anchors, opts->nanchors,
						 opts->now, use };
	}
	ret = pgpk_key_canonical(ring, cert, key,
				 anchors.nfiles ? &anchors : NULL, 0, out,
				 out_len, err);
out_free_ring:
	pgpk_keyring_free(ring);
	return ret;
}

/*
 * May set->sigs[idx] go into the answer?  It must convert (RSA, v4 or
 * v6, well formed) and pass the caller's filter (the broker's policy),
 * which sees it as the kernel will, decoded from its canonical form.
 */
static int pgpk_sig_usable(const struct pgpk_sigset *set, size_t idx,
			   const struct pgpk_convert_opts *opts,
			   struct pgpk_error *err)
{
	struct pgpk_canon *canon = NULL;
	struct pgpk_canon_error cerr;
	uint8_t *blob = NULL;
	size_t len;
	int ret;

	ret = pgpk_sigs_canonical(set, &idx, 1, NULL, &blob, &len, err);
	if (ret || !opts || !opts->sig_filter)
		goto out_free;
	canon = malloc(sizeof(*canon));
	ret = canon ? pgpk_canon_decode(blob, len, canon, &cerr) : -ENOMEM;
	if (ret) {
		pgpk_fail(err, ret, set->sigs[idx].offset,
			  "signature at offset %zu: %s", set->sigs[idx].offset,
			  canon ? "not canonical" : "out of memory");
		goto out_free;
	}
	ret = opts->sig_filter(opts->sig_filter_arg, &canon->sigs[0], err->msg,
			       sizeof(err->msg));
	if (ret) {
		err->code = ret;
		err->offset = set->sigs[idx].offset;
	}
out_free:
	free(canon);
	free(blob);
	return ret;
}

/*
 * A detached signature's data as Canonical.content: as it is for a
 * binary signature, canonicalised for a text one (RFC 9580 5.2.1.2).
 * Every signature of the answer must hash it so: one of the other kind
 * is left out.
 */
static int pgpk_detached_content(const struct pgpk_blob *data, bool text,
				 uint8_t **owned, struct pgpk_blob *content,
				 struct pgpk_error *err)
{
	*owned = NULL;
	*content = *data;
	if (!text)
		return 0;
	if (pgpk_text_canonicalize_detached(data->data, data->len, owned,
					    &content->len))
		return pgpk_fail(err, -ENOMEM, 0, "out of memory");
	content->data = *owned;
	return 0;
}

/*
 * Every signature that may go into the answer, in order, at most
 * PGPK_MAX_SIGNATURES: the first is Canonical.signature, the others
 * more_signatures.  None: the first signature's reason.
 */
static int pgpk_convert_sig(const uint8_t *in, size_t len,
			    const struct pgpk_convert_opts *opts, uint8_t **out,
			    size_t *out_len, struct pgpk_error *err)
{
	const struct pgpk_blob *data = opts ? opts->data : NULL;
	size_t keep[PGPK_MAX_SIGNATURES], n = 0, i;
	struct pgpk_blob content;
	uint8_t *owned = NULL;
	struct pgpk_sigset *set;
	struct pgpk_error e;
	bool text = false;
	int ret;

	ret = pgpk_sigset_parse(in, len, &set, err);
	if (ret)
		return ret;
	if (data && set->has_content) {
		ret = pgpk_fail(
			err, -EKEYREJECTED, 0,
			"the message carries its signed content: no data to add");
		goto out_free;
	}
	for (i = 0; i < set->nsigs; i++) {
		memset(&e, 0, sizeof(e));
		ret = n == PGPK_MAX_SIGNATURES ?
			      pgpk_fail(&e, -E2BIG, set->sigs[i].offset,
					"an answer holds at most %d signatures",
					PGPK_MAX_SIGNATURES) :
			      pgpk_sig_usable(set, i, opts, &e);
		if (!ret && data && n &&
		    (set->sigs[i].type == PGPK_SIG_TEXT) != text)
			ret = pgpk_fail(
				&e, -EKEYREJECTED, set->sigs[i].offset,
				"signature at offset %zu is a %s signature, the first one a %s one: one content per answer",
				set->sigs[i].offset, text ? "binary" : "text",
				text ? "text" : "binary");
		if (!ret) {
			text = n ? text : set->sigs[i].type == PGPK_SIG_TEXT;
			keep[n++] = i;
			continue;
		}
		if (!err->code)
			*err = e;
		if (opts && opts->left_out)
			opts->left_out(opts->left_out_arg, i, &e);
	}
	ret = err->code ? err->code :
			  pgpk_fail(err, -EBADMSG, 0, "no signature");
	if (!n)
		goto out_free;
	memset(err, 0, sizeof(*err));
	ret = data ? pgpk_detached_content(data, text, &owned, &content, err) :
		     0;
	if (!ret)
		ret = pgpk_sigs_canonical(set, keep, n, data ? &content : NULL,
					  out, out_len, err);
out_free:
	free(owned);
	pgpk_sigset_free(set);
	return ret;
}

int pgpk_convert(const uint8_t *in, size_t len, enum pgpk_want want,
		 const struct pgpk_convert_opts *opts, uint8_t **out,
		 size_t *out_len, struct pgpk_error *err)
{
	struct pgpk_error local;
	int ret;

	if (!err)
		err = &local;
	memset(err, 0, sizeof(*err));
	*out = NULL;
	*out_len = 0;
	switch (want) {
	case PGPK_WANT_KEY:
		ret = pgpk_convert_key(in, len, opts, out, out_len, err);
		break;
	case PGPK_WANT_SIG:
		ret = pgpk_convert_sig(in, len, opts, out, out_len, err);
		break;
	default:
		ret = pgpk_fail(err, -EINVAL, 0, "unknown conversion %d",
				(int)want);
		break;
	}
	if (ret && !err->code)
		pgpk_fail(err, ret, 0, "conversion failed (%d)", ret);
	return ret;
}
