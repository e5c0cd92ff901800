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
	if (key->mpi_noncanonical)
		return pgpk_fail(
			err, -EBADMSG, key->offset,
			"key %s at offset %zu: MPI bit count does not match its value",
			fpr, key->offset);
	if (!key->rsa_n.len || !key->rsa_e.len)
		return pgpk_fail(err, -EBADMSG, key->offset,
				 "key %s at offset %zu: zero RSA parameter",
				 fpr, key->offset);
	if (key->rsa_n.len > PGPK_MAX_MPI || key->rsa_e.len > PGPK_MAX_MPI)
		return pgpk_fail(
			err, -ENOPKG, key->offset,
			"key %s at offset %zu: RSA key of %u bits exceeds %d",
			fpr, key->offset, key->bits, PGPK_MAX_MPI * 8);
	m->version = key->version;
	m->created = key->created;
	m->algorithm = key->algo;
	m->rsa_n.data = (uint8_t *)(uintptr_t)key->rsa_n.data;
	m->rsa_n.len = key->rsa_n.len;
	m->rsa_e.data = (uint8_t *)(uintptr_t)key->rsa_e.data;
	m->rsa_e.len = key->rsa_e.len;
	return 0;
}

/* Signature message (RSA only). */
static int pgpk_sig_msg(const struct pgpk_signature *sig, Pgpk__Signature *s,
			struct pgpk_error *err)
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
	s->version = sig->version;
	s->type = sig->type;
	s->pubkey_algorithm = sig->pk_algo;
	s->hash_algorithm = sig->hash_algo;
	s->created = sig->created;
	if (sig->sig_expires) {
		s->has_expires = 1;
		s->expires = (uint64_t)sig->created + sig->sig_expires;
	}
	if (sig->version != 3) {
		if (sig->hashed_len > PGPK_MAX_HASHED_AREA)
			return pgpk_fail(
				err, -EBADMSG, sig->offset,
				"signature at offset %zu: hashed area of %zu octets",
				sig->offset, sig->hashed_len);
		s->has_hashed_area = 1;
		s->hashed_area.data = (uint8_t *)(uintptr_t)sig->hashed;
		s->hashed_area.len = sig->hashed_len;
	}
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

static bool pgpk_is_cert_type(unsigned int type)
{
	return type >= PGPK_SIG_CERT_GENERIC && type <= PGPK_SIG_CERT_POSITIVE;
}

/*
 * RFC 9580 5.2.1.15: a certification revocation (0x30) by the same issuer,
 * made at or after the certification, withdraws it.  Same issuer: the
 * same fingerprint when both name one, else the same key ID when both
 * name one.  The revocation cannot be verified here (no issuer key), so an
 * unverified one is believed: that can only make the kernel refuse, never
 * accept.
 *
 * The revocations are indexed by issuer, newest first within an issuer,
 * so that each certification is looked up by binary search: a user ID
 * flooded with thousands of certifications and revocations costs
 * O(n log n), not O(n^2).  Hence three indexes: by fingerprint, by key
 * ID of those without a fingerprint, by key ID of all.
 */
enum { PGPK_REV_FPR, PGPK_REV_KEYID_ONLY, PGPK_REV_KEYID, PGPK_REV_NR };

struct pgpk_revocations {
	const void **idx[PGPK_REV_NR];
	size_t n[PGPK_REV_NR];
	const void **mem;
};

static int pgpk_newer_first(const struct pgpk_signature *x,
			    const struct pgpk_signature *y)
{
	if (x->created != y->created)
		return x->created > y->created ? -1 : 1;
	return 0;
}

static int pgpk_fpr_cmp(const struct pgpk_signature *x,
			const struct pgpk_signature *y)
{
	if (x->issuer_fpr_len != y->issuer_fpr_len)
		return x->issuer_fpr_len < y->issuer_fpr_len ? -1 : 1;
	return memcmp(x->issuer_fpr, y->issuer_fpr, x->issuer_fpr_len);
}

static int pgpk_rev_fpr_cmp(const void *a, const void *b)
{
	int r = pgpk_fpr_cmp(a, b);

	return r ? r : pgpk_newer_first(a, b);
}

static int pgpk_keyid_cmp(const struct pgpk_signature *x,
			  const struct pgpk_signature *y)
{
	return memcmp(x->issuer_keyid, y->issuer_keyid, PGPK_KEYID_LEN);
}

static int pgpk_rev_keyid_cmp(const void *a, const void *b)
{
	int r = pgpk_keyid_cmp(a, b);

	return r ? r : pgpk_newer_first(a, b);
}

static void pgpk_revocations_free(struct pgpk_revocations *revs)
{
	free(revs->mem);
	memset(revs, 0, sizeof(*revs));
}

static int pgpk_revocations_index(const struct pgpk_userid *uid,
				  struct pgpk_revocations *revs)
{
	size_t i, k;

	memset(revs, 0, sizeof(*revs));
	revs->mem = pgpk_calloc_array(uid->nsigs, PGPK_REV_NR * sizeof(void *));
	if (!revs->mem)
		return -ENOMEM;
	for (k = 0; k < PGPK_REV_NR; k++)
		revs->idx[k] = revs->mem + k * (uid->nsigs ? uid->nsigs : 1);
	for (i = 0; i < uid->nsigs; i++) {
		const struct pgpk_signature *r = &uid->sigs[i];

		if (r->type != PGPK_SIG_CERT_REVOCATION || r->malformed)
			continue;
		if (r->issuer_fpr_len)
			revs->idx[PGPK_REV_FPR][revs->n[PGPK_REV_FPR]++] = r;
		if (r->has_issuer_keyid && !r->issuer_fpr_len)
			revs->idx[PGPK_REV_KEYID_ONLY]
				 [revs->n[PGPK_REV_KEYID_ONLY]++] = r;
		if (r->has_issuer_keyid)
			revs->idx[PGPK_REV_KEYID][revs->n[PGPK_REV_KEYID]++] =
				r;
	}
	if (pgpk_sort_ptrs(revs->idx[PGPK_REV_FPR], revs->n[PGPK_REV_FPR],
			   pgpk_rev_fpr_cmp) ||
	    pgpk_sort_ptrs(revs->idx[PGPK_REV_KEYID_ONLY],
			   revs->n[PGPK_REV_KEYID_ONLY], pgpk_rev_keyid_cmp) ||
	    pgpk_sort_ptrs(revs->idx[PGPK_REV_KEYID], revs->n[PGPK_REV_KEYID],
			   pgpk_rev_keyid_cmp)) {
		pgpk_revocations_free(revs);
		return -ENOMEM;
	}
	return 0;
}

/* The newest revocation in idx[0..n) by cert's issuer (cmp), or NULL. */
static const struct pgpk_signature *
pgpk_newest_by(const void *const *idx, size_t n,
	       const struct pgpk_signature *cert,
	       int (*cmp)(const struct pgpk_signature *,
			  const struct pgpk_signature *))
{
	size_t lo = 0, hi = n, mid;

	/* The first entry not below cert's issuer: the newest of its run. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cmp(idx[mid], cert) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && !cmp(idx[lo], cert))
		return idx[lo];
	return NULL;
}

static bool pgpk_certification_revoked(const struct pgpk_revocations *revs,
				       const struct pgpk_signature *cert)
{
	const struct pgpk_signature *r = NULL;

	if (cert->issuer_fpr_len) {
		r = pgpk_newest_by(revs->idx[PGPK_REV_FPR],
				   revs->n[PGPK_REV_FPR], cert, pgpk_fpr_cmp);
		if (r && r->created >= cert->created)
			return true;
	}
	if (!cert->has_issuer_keyid)
		return false;
	/* Key IDs decide only where one side has no fingerprint. */
	if (cert->issuer_fpr_len)
		r = pgpk_newest_by(revs->idx[PGPK_REV_KEYID_ONLY],
				   revs->n[PGPK_REV_KEYID_ONLY], cert,
				   pgpk_keyid_cmp);
	else
		r = pgpk_newest_by(revs->idx[PGPK_REV_KEYID],
				   revs->n[PGPK_REV_KEYID], cert,
				   pgpk_keyid_cmp);
	return r && r->created >= cert->created;
}

/* RFC 9580 9.5: the hashes the kernel checks, minus the broken SHA-1. */
static bool pgpk_kernel_cert_hash(unsigned int hash_algo)
{
	return hash_algo == PGPK_HASH_SHA224 || hash_algo == PGPK_HASH_SHA256 ||
	       hash_algo == PGPK_HASH_SHA384 || hash_algo == PGPK_HASH_SHA512;
}

/*
 * A third-party certification of the user ID the kernel could check: v4
 * or v6 (never v3), RSA (1 or 3), a hash above, an issuer to look up, an
 * RSA value that fits the canonical form and is not much shorter than the
 * smallest issuer modulus the kernel accepts (a genuine value is shorter
 * than the modulus by 8 octets or more with probability 2^-64), not made
 * by this key, not revoked by its issuer.
 */
static bool pgpk_is_candidate(const struct pgpk_pubkey *key,
			      const struct pgpk_revocations *revs,
			      const struct pgpk_signature *s)
{
	bool self;

	if (!pgpk_is_cert_type(s->type) || s->malformed ||
	    s->unknown_critical || !s->has_created ||
	    (s->version != 4 && s->version != 6) ||
	    (s->pk_algo != PGPK_PK_RSA && s->pk_algo != PGPK_PK_RSA_S) ||
	    !pgpk_kernel_cert_hash(s->hash_algo))
		return false;
	if (!s->has_issuer_keyid && !s->issuer_fpr_len)
		return false;
	if (s->rsa_s.len < PGPK_MIN_ISSUER_BITS / 8 - 8 ||
	    s->rsa_s.len > PGPK_MAX_MPI || s->hashed_len > PGPK_MAX_HASHED_AREA)
		return false;
	self = s->issuer_fpr_len ?
		       (s->issuer_fpr_len == key->fpr_len &&
			!memcmp(s->issuer_fpr, key->fpr, key->fpr_len)) :
		       !memcmp(s->issuer_keyid, key->keyid, PGPK_KEYID_LEN);
	return !self && !pgpk_certification_revoked(revs, s);
}

/*
 * Key.third_party: every candidate certification of the user ID, newest
 * first, at most PGPK_MAX_THIRD_PARTY (more than a 64 KiB add_key payload
 * can hold).  None is verified here (the issuer keys are not known); the
 * kernel verifies them with the issuer keys its caller can reach.
 * *out is malloc()ed, NULL when there is none.
 */
static int pgpk_third_party(const struct pgpk_pubkey *key,
			    const struct pgpk_userid *uid,
			    const struct pgpk_signature ***out, size_t *n)
{
	const struct pgpk_signature **cands;
	struct pgpk_revocations revs;
	size_t i;

	*out = NULL;
	*n = 0;
	cands = pgpk_calloc_array(uid->nsigs ? uid->nsigs : 1, sizeof(*cands));
	if (!cands || pgpk_revocations_index(uid, &revs)) {
		free(cands);
		return -ENOMEM;
	}
	for (i = 0; i < uid->nsigs; i++)
		if (pgpk_is_candidate(key, &revs, &uid->sigs[i]))
			cands[(*n)++] = &uid->sigs[i];
	pgpk_revocations_free(&revs);
	if (pgpk_sort_ptrs((const void **)cands, *n, pgpk_sig_newest_cmp)) {
		free(cands);
		return -ENOMEM;
	}
	if (*n > PGPK_MAX_THIRD_PARTY)
		*n = PGPK_MAX_THIRD_PARTY;
	*out = cands;
	return 0;
}

int pgpk_key_canonical(const struct pgpk_keyring *ring,
		       const struct pgpk_cert *cert,
		       const struct pgpk_pubkey *key, unsigned int flags,
		       uint8_t **blob, size_t *blob_len, struct pgpk_error *err)
{
	Pgpk__Canonical c = PGPK__CANONICAL__INIT;
	Pgpk__Key k = PGPK__KEY__INIT;
	Pgpk__KeyMaterial mat = PGPK__KEY_MATERIAL__INIT;
	Pgpk__KeyMaterial pmat = PGPK__KEY_MATERIAL__INIT;
	Pgpk__Signature cs = PGPK__SIGNATURE__INIT;
	const struct pgpk_signature *cert_sig = NULL, **third = NULL;
	Pgpk__Signature *tp = NULL, **tps = NULL;
	size_t nthird = 0, i;
	bool standalone = flags & PGPK_CANON_STANDALONE;
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
	/* A subkey lives no longer than its primary key. */
	if (pgpk_key_expires(cert, key)) {
		k.has_expires = 1;
		k.expires = (uint64_t)pgpk_key_expires(cert, key);
	}
	/* Only reached for a soft revocation (pgpk_key_usable()). */
	if (key->revoked && !key->revoked_hard) {
		k.has_soft_revoked = 1;
		k.soft_revoked = key->revoked_at;
	}
	if (key->has_key_flags) {
		k.has_key_flags = 1;
		k.key_flags = key->key_flags;
	}
	if (key->subkey) {
		k.has_subkey = 1;
		k.subkey = 1;
		ret = pgpk_material(&cert->primary, &pmat, err);
		if (ret)
			return ret;
		k.primary = &pmat;
		if (!standalone) {
			ret = pgpk_check_u32(cert->primary.offset,
					     "primary offset",
					     cert->primary.offset, err);
			if (ret)
				return ret;
			k.has_primary_offset = 1;
			k.primary_offset = (uint32_t)cert->primary.offset;
		}
		cert_sig = key->binding;
		k.bound = key->bound_at;
		k.has_bound = k.bound != 0;
	} else {
		const struct pgpk_userid *uid = pgpk_cert_primary_uid(cert);

		if (uid && !uid->attribute && uid->len >= 1 &&
		    uid->len <= PGPK_MAX_USER_ID) {
			k.has_user_id = 1;
			k.user_id.data = (uint8_t *)(uintptr_t)uid->data;
			k.user_id.len = uid->len;
			if (!standalone) {
				ret = pgpk_check_u32(uid->offset,
						     "user ID offset",
						     uid->offset, err);
				if (ret)
					return ret;
				k.has_user_id_offset = 1;
				k.user_id_offset = (uint32_t)uid->offset;
			}
			cert_sig = uid->selfsig;
			ret = pgpk_third_party(key, uid, &third, &nthird);
			if (ret)
				return pgpk_fail(err, ret, 0, "out of memory");
		} else if (key->binding &&
			   key->binding->type == PGPK_SIG_DIRECT_KEY) {
			/* No user ID (allowed for v6, RFC 9580 10.1.1): the
			 * direct-key self-signature vouches for the key. */
			cert_sig = key->binding;
		}
	}
	if (cert_sig && pgpk_pk_algo_is_rsa(cert_sig->pk_algo)) {
		ret = pgpk_sig_msg(cert_sig, &cs, err);
		if (ret)
			goto out_free;
		k.certification = &cs;
	}
	if (nthird) {
		ret = -ENOMEM;
		tp = pgpk_calloc_array(nthird, sizeof(*tp));
		tps = pgpk_calloc_array(nthird, sizeof(*tps));
		if (!tp || !tps) {
			pgpk_fail(err, ret, 0, "out of memory");
			goto out_free;
		}
		for (i = 0; i < nthird; i++) {
			pgpk__signature__init(&tp[i]);
			ret = pgpk_sig_msg(third[i], &tp[i], err);
			if (ret)
				goto out_free;
			tps[i] = &tp[i];
		}
		k.n_third_party = nthird;
		k.third_party = tps;
	}
	c.key = &k;
	/* Candidates never make a key unconvertible: the oldest go first. */
	while (k.n_third_party &&
	       PGPK_MAGIC_LEN + pgpk__canonical__get_packed_size(&c) >
		       PGPK_MAX_BLOB)
		k.n_third_party--;
	ret = pgpk_pack(&c, blob, blob_len, err);
out_free:
	free(tps);
	free(tp);
	free(third);
	return ret;
}

int pgpk_sigs_canonical(const struct pgpk_sigset *set, const size_t *idx,
			size_t n, uint8_t **blob, size_t *blob_len,
			struct pgpk_error *err)
{
	Pgpk__Canonical c = PGPK__CANONICAL__INIT;
	Pgpk__Signature s[PGPK_MAX_SIGNATURES];
	Pgpk__Signature *more[PGPK_MAX_SIGNATURES - 1];
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
		ret = pgpk_sig_msg(&set->sigs[idx[i]], &s[i], err);
		if (ret)
			return ret;
		if (i)
			more[i - 1] = &s[i];
	}
	c.signature = &s[0];
	c.n_more_signatures = n - 1;
	c.more_signatures = more;
	if (set->has_content) {
		if (set->content_len > PGPK_MAX_CONTENT)
			return pgpk_fail(
				err, -EBADMSG, 0,
				"signed content of %zu octets exceeds %d",
				set->content_len, PGPK_MAX_CONTENT);
		c.has_content = 1;
		c.content.data = set->content;
		c.content.len = set->content_len;
	}
	return pgpk_pack(&c, blob, blob_len, err);
}

int pgpk_sig_canonical(const struct pgpk_sigset *set, size_t idx,
		       uint8_t **blob, size_t *blob_len, struct pgpk_error *err)
{
	return pgpk_sigs_canonical(set, &idx, 1, blob, blob_len, err);
}

static int pgpk_convert_key(const uint8_t *in, size_t len,
			    const struct pgpk_convert_opts *opts, uint8_t **out,
			    size_t *out_len, struct pgpk_error *err)
{
	struct pgpk_parse_opts popts = { .now = opts ? opts->now : 0 };
	const char *select = opts ? opts->select : NULL;
	struct pgpk_keyring *ring;
	const struct pgpk_cert *cert;
	const struct pgpk_pubkey *key;
	int ret;

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
	ret = pgpk_key_usable(
		cert, key,
		(opts && opts->allow_revoked ? PGPK_USE_ALLOW_REVOKED : 0) |
			(opts && opts->allow_expired ? PGPK_USE_ALLOW_EXPIRED :
						       0),
		err);
	if (!ret)
		ret = pgpk_key_canonical(ring, cert, key, 0, out, out_len, err);
out_free_ring:
	pgpk_keyring_free(ring);
	return ret;
}

/*
 * May set->sigs[idx] go into the answer?  It must convert (RSA, well
 * formed) and pass the caller's filter (the broker's policy), which sees
 * it as the kernel will, decoded from its canonical form.
 */
static int pgpk_sig_usable(const struct pgpk_sigset *set, size_t idx,
			   const struct pgpk_convert_opts *opts,
			   struct pgpk_error *err)
{
	struct pgpk_canon canon;
	uint8_t *blob = NULL;
	size_t len;
	int ret;

	ret = pgpk_sig_canonical(set, idx, &blob, &len, err);
	if (ret || !opts || !opts->sig_filter)
		goto out_free;
	ret = pgpk_canon_decode(blob, len, &canon, NULL);
	if (ret) {
		pgpk_fail(err, ret, set->sigs[idx].offset,
			  "signature at offset %zu: not canonical",
			  set->sigs[idx].offset);
		goto out_free;
	}
	ret = opts->sig_filter(opts->sig_filter_arg, &canon.sig, err->msg,
			       sizeof(err->msg));
	if (ret) {
		err->code = ret;
		err->offset = set->sigs[idx].offset;
	}
out_free:
	free(blob);
	return ret;
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
	size_t keep[PGPK_MAX_SIGNATURES], n = 0, i;
	struct pgpk_sigset *set;
	struct pgpk_error e;
	int ret;

	ret = pgpk_sigset_parse(in, len, &set, err);
	if (ret)
		return ret;
	for (i = 0; i < set->nsigs && n < PGPK_MAX_SIGNATURES; i++) {
		memset(&e, 0, sizeof(e));
		if (!pgpk_sig_usable(set, i, opts, &e))
			keep[n++] = i;
		else if (!err->code)
			*err = e;
	}
	if (n) {
		memset(err, 0, sizeof(*err));
		ret = pgpk_sigs_canonical(set, keep, n, out, out_len, err);
	} else {
		ret = err->code;
	}
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
