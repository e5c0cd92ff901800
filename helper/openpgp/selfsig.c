// SPDX-License-Identifier: GPL-2.0
/*
 * Validity from self-signatures (RFC 9580 5.2.3, 10.1.1): which user IDs,
 * keys and subkeys a certificate's verified self-signatures, bindings and
 * revocations make valid, revoked, expired and usable for signing,
 * following GnuPG's merge_selfsigs() so that listings agree with
 * `gpg --show-keys`; and which trust anchor's certification vouches for a
 * primary key (pgpk_certifier()).
 *
 * Only what decides the answer is verified: per user ID and subkey the
 * newest self-signature first (older ones only if it fails), every self-
 * revocation, and the back-signature of signing subkeys.  RSA signatures
 * are checked by rsa.c, DSA, ECDSA and EdDSA ones through OpenSSL's EVP
 * interface (pkalgo.c).  Algorithms OpenSSL lacks (ElGamal signatures,
 * unknown ones) never verify, as in GnuPG.  One certificate is validated
 * by one thread (workers.c), with a struct pgpk_vctx of its own.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"

static bool pgpk_sig_by(const struct pgpk_signature *sig,
			const struct pgpk_pubkey *key)
{
	if (sig->issuer_fpr_len)
		return sig->issuer_fpr_len == key->fpr_len &&
		       !memcmp(sig->issuer_fpr, key->fpr, key->fpr_len);
	return sig->has_issuer_keyid &&
	       !memcmp(sig->issuer_keyid, key->keyid, PGPK_KEYID_LEN);
}

static bool pgpk_sig_expired(const struct pgpk_signature *sig, int64_t now)
{
	return sig->sig_expires &&
	       (int64_t)sig->created + sig->sig_expires <= now;
}

/* RFC 9580 5.2.4: a user ID is hashed as 0xB4 (attribute 0xD1) and a
 * four-octet length; a v3 signature hashes it without header. */
static int pgpk_hash_uid(struct pgpk_digest *md,
			 const struct pgpk_signature *sig,
			 const struct pgpk_userid *uid)
{
	uint8_t hdr[5];

	if (sig->version != 3) {
		hdr[0] = uid->attribute ? 0xD1 : 0xB4;
		hdr[1] = (uint8_t)(uid->len >> 24);
		hdr[2] = (uint8_t)(uid->len >> 16);
		hdr[3] = (uint8_t)(uid->len >> 8);
		hdr[4] = (uint8_t)uid->len;
		if (pgpk_digest_update(md, hdr, 5))
			return -ENOMEM;
	}
	return pgpk_digest_update(md, uid->data, uid->len);
}

static int pgpk_hash_covered(struct pgpk_digest *md,
			     const struct pgpk_signature *sig,
			     const struct pgpk_pubkey *k1,
			     const struct pgpk_pubkey *k2,
			     const struct pgpk_userid *uid)
{
	if (pgpk_hash_key_packet(md, k1) ||
	    (k2 && pgpk_hash_key_packet(md, k2)) ||
	    (uid && pgpk_hash_uid(md, sig, uid)))
		return -ENOMEM;
	return 0;
}

/*
 * Start *md for `sig`: salt (v6), key k1 [, key k2] [, uid].  0, or
 * -ENOPKG (hash), -ENOMEM, or -E2BIG when the budget of salted prefixes
 * is spent; on failure *md holds nothing.
 */
static int pgpk_digest_start(struct pgpk_vctx *v, struct pgpk_digest *md,
			     const struct pgpk_signature *sig,
			     const struct pgpk_pubkey *k1,
			     const struct pgpk_pubkey *k2,
			     const struct pgpk_userid *uid)
{
	struct pgpk_md_prefix *p;
	size_t cost;
	int ret;

	if (sig->version == 6) {
		cost = sig->salt_len + k1->body_len + (k2 ? k2->body_len : 0) +
		       (uid ? uid->len : 0);
		if (cost > v->salted_left) {
			v->exhausted = true;
			return -E2BIG;
		}
		v->salted_left -= cost;
		ret = pgpk_digest_init(md, sig->hash_algo);
		if (ret)
			return ret;
		if (pgpk_hash_sig_prefix(md, sig) ||
		    pgpk_hash_covered(md, sig, k1, k2, uid)) {
			pgpk_digest_release(md);
			return -ENOMEM;
		}
		return 0;
	}
	p = &v->prefixes[sig->hash_algo][sig->version == 3];
	if (!p->ready || p->k1 != k1 || p->k2 != k2 || p->uid != uid) {
		if (p->ready)
			pgpk_digest_release(&p->d);
		p->ready = false;
		ret = pgpk_digest_init(&p->d, sig->hash_algo);
		if (ret)
			return ret;
		if (pgpk_hash_covered(&p->d, sig, k1, k2, uid)) {
			pgpk_digest_release(&p->d);
			return -ENOMEM;
		}
		p->k1 = k1;
		p->k2 = k2;
		p->uid = uid;
		p->ready = true;
	}
	return pgpk_digest_copy(md, &p->d);
}

/*
 * Does `sig`, made by `signer`, cover key k1 [, key k2] [, uid]?  The
 * result is cached in sig->verified.
 */
static bool pgpk_check(struct pgpk_vctx *v, const struct pgpk_pubkey *signer,
		       struct pgpk_signature *sig, const struct pgpk_pubkey *k1,
		       const struct pgpk_pubkey *k2,
		       const struct pgpk_userid *uid)
{
	uint8_t digest[EVP_MAX_MD_SIZE], recovered[EVP_MAX_MD_SIZE];
	struct pgpk_digest md;
	size_t rec_len = 0, dlen = 0;
	const struct pgpk_rsa *key;
	bool good = false, rsa;

	if (sig->verified)
		return sig->verified > 0;
	if (sig->malformed || sig->unknown_critical || !sig->has_created)
		goto done;
	/* GnuPG: a signature older than its key is a time conflict.  (GnuPG
	 * also refuses keys created in the future; not done here, so that a
	 * clock behind the key generator's never invalidates fresh keys.) */
	if (sig->created < signer->created)
		goto done;
	if (v->no_verify) {
		good = true;
		goto done;
	}
	if (pgpk_pk_algo_is_rsa(signer->algo) &&
	    (!pgpk_pk_algo_is_rsa(sig->pk_algo) || signer->mpi_noncanonical))
		goto done;
	if (!pgpk_pk_algo_is_rsa(signer->algo) && sig->pk_algo != signer->algo)
		goto done;
	/* GnuPG refuses MD5 signatures by default. */
	if (!pgpk_md_name(sig->hash_algo) || sig->hash_algo == PGPK_HASH_MD5)
		goto done;
	if (sig->hash_algo >= sizeof(v->prefixes) / sizeof(v->prefixes[0]))
		goto done;
	rsa = pgpk_pk_algo_is_rsa(signer->algo);
	/* Flooding: cheap refusals before any hashing. */
	if (rsa &&
	    pgpk_rsa_plausible(signer->rsa_n.len, sig->hash_algo, &sig->rsa_s))
		goto done;
	if (rsa && sig->version == 6) {
		/* Salted: its digest is not shared with the others, so the
		 * value is checked first (the quick check too). */
		key = pgpk_key_rsa(signer, v->bn);
		if (!key)
			goto done;
		v->verified++;
		if (pgpk_rsa_recover(key, v->bn, sig->hash_algo, &sig->rsa_s,
				     recovered, &rec_len) ||
		    ((unsigned int)recovered[0] << 8 | recovered[1]) !=
			    sig->quick_check)
			goto done;
	}
	if (pgpk_digest_start(v, &md, sig, k1, k2, uid))
		goto done;
	if (pgpk_hash_sig_trailer(&md, sig)) {
		pgpk_digest_release(&md);
		goto done;
	}
	if (pgpk_digest_final(&md, digest, &dlen))
		goto done;
	/* RFC 9580 5.2.3: the left 16 bits must match before any RSA (v3,
	 * v4: their digest is cheap, the prefix shared). */
	if (((unsigned int)digest[0] << 8 | digest[1]) != sig->quick_check)
		goto done;
	if (!rsa) {
		/* DSA, ECDSA, EdDSA (pkalgo.c); unsupported ones fail, as
		 * they do in GnuPG. */
		v->verified++;
		good = !pgpk_verify_digest(signer, sig, digest, dlen);
		goto done;
	}
	if (sig->version == 6) {
		good = dlen == rec_len && !memcmp(recovered, digest, dlen);
		goto done;
	}
	key = pgpk_key_rsa(signer, v->bn);
	if (!key)
		goto done;
	v->verified++;
	good = !pgpk_rsa_check(key, v->bn, sig->hash_algo, digest, dlen,
			       &sig->rsa_s);
done:
	sig->verified = good ? 1 : -1;
	return good;
}

/*
 * Candidate ordering, for pgpk_sort_ptrs(): newest first; on equal times
 * the later packet wins (GnuPG keeps the last signature with timestamp >=
 * the best so far).
 */
int pgpk_sig_newest_cmp(const void *a, const void *b)
{
	const struct pgpk_signature *x = a, *y = b;

	if (x->created != y->created)
		return x->created > y->created ? -1 : 1;
	return x > y ? -1 : (x < y ? 1 : 0);
}

typedef bool (*pgpk_sig_filter)(const struct pgpk_signature *sig,
				const struct pgpk_pubkey *primary, int64_t now);

static bool pgpk_is_uid_selfsig(const struct pgpk_signature *sig,
				const struct pgpk_pubkey *primary, int64_t now)
{
	return ((sig->type >= PGPK_SIG_CERT_GENERIC &&
		 sig->type <= PGPK_SIG_CERT_POSITIVE) ||
		sig->type == PGPK_SIG_CERT_REVOCATION) &&
	       pgpk_sig_by(sig, primary);
}

static bool pgpk_is_direct(const struct pgpk_signature *sig,
			   const struct pgpk_pubkey *primary, int64_t now)
{
	return sig->type == PGPK_SIG_DIRECT_KEY && pgpk_sig_by(sig, primary) &&
	       !pgpk_sig_expired(sig, now);
}

static bool pgpk_is_binding(const struct pgpk_signature *sig,
			    const struct pgpk_pubkey *primary, int64_t now)
{
	return sig->type == PGPK_SIG_SUBKEY_BINDING &&
	       pgpk_sig_by(sig, primary) && !pgpk_sig_expired(sig, now);
}

/*
 * The newest signature among sigs[] passing `filter` that verifies, or
 * NULL.  Older candidates are only verified if newer ones fail.
 */
static struct pgpk_signature *
pgpk_newest_good(struct pgpk_vctx *v, struct pgpk_signature *sigs, size_t nsigs,
		 pgpk_sig_filter filter, const struct pgpk_pubkey *primary,
		 const struct pgpk_pubkey *subkey,
		 const struct pgpk_userid *uid)
{
	struct pgpk_signature *stack_cands[16], **cands = stack_cands, *best;
	size_t i, n = 0;

	for (i = 0; i < nsigs; i++)
		if (filter(&sigs[i], primary, v->now))
			n++;
	if (!n)
		return NULL;
	if (n > sizeof(stack_cands) / sizeof(stack_cands[0])) {
		cands = pgpk_calloc_array(n, sizeof(*cands));
		if (!cands)
			return NULL;
	}
	n = 0;
	for (i = 0; i < nsigs; i++)
		if (filter(&sigs[i], primary, v->now))
			cands[n++] = &sigs[i];
	best = NULL;
	if (pgpk_sort_ptrs((const void **)cands, n, pgpk_sig_newest_cmp))
		goto out_free;
	for (i = 0; i < n && !best; i++)
		if (pgpk_check(v, primary, cands[i], primary, subkey, uid))
			best = cands[i];
out_free:
	if (cands != stack_cands)
		free(cands);
	return best;
}

/* GnuPG's openpgp_pk_algo_usage() as key flags. */
static uint8_t pgpk_algo_usage(unsigned int algo)
{
	switch (algo) {
	case PGPK_PK_RSA:
		return PGPK_KF_CERTIFY | PGPK_KF_SIGN | PGPK_KF_ENCRYPT_COMMS |
		       PGPK_KF_ENCRYPT_STORAGE | PGPK_KF_AUTH;
	case PGPK_PK_RSA_S:
		return PGPK_KF_CERTIFY | PGPK_KF_SIGN;
	case PGPK_PK_RSA_E:
	case PGPK_PK_ELGAMAL_E:
	case PGPK_PK_ECDH:
	case PGPK_PK_X25519:
	case PGPK_PK_X448:
		return PGPK_KF_ENCRYPT_COMMS | PGPK_KF_ENCRYPT_STORAGE;
	case PGPK_PK_DSA:
	case PGPK_PK_ECDSA:
	case PGPK_PK_EDDSA_LEGACY:
	case PGPK_PK_ED25519:
	case PGPK_PK_ED448:
		return PGPK_KF_CERTIFY | PGPK_KF_SIGN | PGPK_KF_AUTH;
	default:
		return 0; /* ElGamal sign+encrypt (20): unusable */
	}
}

/* Without Key Flags, all the algorithm can do; but a subkey certifies
 * nothing (RFC 9580 5.2.3.29; the kernel's rule). */
static uint8_t pgpk_usage_from(const struct pgpk_pubkey *key,
			       const struct pgpk_signature *sig)
{
	uint8_t mask = pgpk_algo_usage(key->algo);

	if (key->subkey)
		mask &= (uint8_t)~PGPK_KF_CERTIFY;
	return sig && sig->has_key_flags ? sig->key_flags & mask : mask;
}

/*
 * RFC 9580 5.2.3.13, 5.2.3.18: the end of a key whose deciding
 * self-signature is `sig`: its Key Expiration Time after the key's
 * creation, or its own expiry, the earlier; 0: never.  The kernel reads
 * the same (kernel/pgpk_key.c pgpk_self_sigs()).
 */
static int64_t pgpk_self_sig_end(const struct pgpk_pubkey *key,
				 const struct pgpk_signature *sig)
{
	int64_t end = 0, own;

	if (sig && sig->has_key_expires && sig->key_expires)
		end = (int64_t)key->created + sig->key_expires;
	own = sig && sig->sig_expires ?
		      (int64_t)sig->created + sig->sig_expires :
		      0;
	return own && (!end || own < end) ? own : end;
}

/* RFC 9580 5.2.3.34: the 0x19 back-signature embedded in a binding. */
static bool pgpk_check_backsig(struct pgpk_vctx *v, struct pgpk_cert *cert,
			       struct pgpk_pubkey *sub,
			       const struct pgpk_signature *binding)
{
	struct pgpk_signature back;

	if (!binding->embedded ||
	    pgpk_signature_parse(binding->embedded, binding->embedded_len,
				 binding->embedded_offset, &back, NULL))
		return false;
	if (back.type != PGPK_SIG_PRIMARY_BINDING)
		return false;
	return pgpk_check(v, sub, &back, &cert->primary, sub, NULL);
}

/*
 * RFC 9580 5.2.3.31: a revocation without a reason, with "no reason
 * specified" (0), "key material compromised" (2), or any other code than
 * "superseded" (1) and "retired" (3), is hard: every signature of the key
 * is invalid, whenever made.
 */
static bool pgpk_revocation_hard(const struct pgpk_signature *s)
{
	return !s->has_revocation_reason ||
	       (s->revocation_reason != 1 && s->revocation_reason != 3);
}

/* Record the verified revocation @s of @key. */
static void pgpk_revoke(struct pgpk_pubkey *key, const struct pgpk_signature *s)
{
	int reason = s->has_revocation_reason ? s->revocation_reason : -1;

	if (key->revoked_hard)
		return;
	if (pgpk_revocation_hard(s)) {
		key->revoked_hard = true;
		key->revoked_reason = reason;
	} else {
		if (!key->revoked || s->created < key->revoked_at) {
			key->revoked_at = s->created;
			key->revoked_reason = reason;
		}
	}
	key->revoked = true;
}

/*
 * Every revocation of type @type by the primary key over @k1 [, @k2]:
 * one hard revocation decides; soft ones date the key's end.  A newer
 * self-signature does not undo a revocation (GnuPG; Sequoia lets one undo
 * a soft revocation): what was revoked stays revoked.
 */
static void pgpk_revocations(struct pgpk_vctx *v, struct pgpk_pubkey *key,
			     uint8_t type, const struct pgpk_pubkey *pri,
			     const struct pgpk_pubkey *k2)
{
	size_t i;

	for (i = 0; i < key->nsigs && !key->revoked_hard; i++) {
		struct pgpk_signature *s = &key->sigs[i];

		if (s->type == type && pgpk_sig_by(s, pri) &&
		    pgpk_check(v, pri, s, pri, k2, NULL))
			pgpk_revoke(key, s);
	}
}

/* Oldest first; on equal times the earlier packet. */
static int pgpk_sig_oldest_cmp(const void *a, const void *b)
{
	return -pgpk_sig_newest_cmp(a, b);
}

/*
 * RFC 9580 5.2.1.8: a subkey belongs to its certificate from its oldest
 * binding signature that verifies (later ones only update it) and that
 * the kernel can check too (Key.first_binding: else the kernel would
 * count the subkey from a later binding than this): try the bindings
 * older than the deciding one @b, oldest first, each once.
 */
static const struct pgpk_signature *
pgpk_first_binding(struct pgpk_vctx *v, struct pgpk_cert *cert,
		   struct pgpk_pubkey *sub, const struct pgpk_signature *b)
{
	const struct pgpk_signature *first = b;
	struct pgpk_pubkey *pri = &cert->primary;
	struct pgpk_signature **cands;
	size_t i, n = 0;

	for (i = 0; i < sub->nsigs; i++)
		if (sub->sigs[i].type == PGPK_SIG_SUBKEY_BINDING &&
		    sub->sigs[i].created < b->created)
			n++;
	if (!n)
		return first;
	cands = pgpk_calloc_array(n, sizeof(*cands));
	if (!cands)
		return first; /* the later time: refuses more, never less */
	n = 0;
	for (i = 0; i < sub->nsigs; i++)
		if (sub->sigs[i].type == PGPK_SIG_SUBKEY_BINDING &&
		    sub->sigs[i].created < b->created)
			cands[n++] = &sub->sigs[i];
	if (!pgpk_sort_ptrs((const void **)cands, n, pgpk_sig_oldest_cmp))
		for (i = 0; i < n; i++)
			if (pgpk_sig_by(cands[i], pri) &&
			    pgpk_sig_kernel_checkable(cands[i], NULL) &&
			    pgpk_check(v, pri, cands[i], pri, sub, NULL)) {
				first = cands[i];
				break;
			}
	free(cands);
	return first;
}

static void pgpk_validate_subkey(struct pgpk_vctx *v, struct pgpk_cert *cert,
				 struct pgpk_pubkey *sub,
				 const struct pgpk_parse_opts *opts)
{
	struct pgpk_pubkey *pri = &cert->primary;
	struct pgpk_signature *b;

	b = pgpk_newest_good(v, sub->sigs, sub->nsigs, pgpk_is_binding, pri,
			     sub, NULL);
	pgpk_revocations(v, sub, PGPK_SIG_SUBKEY_REVOCATION, pri, sub);
	if (!b)
		return;
	sub->binding = b;
	sub->valid = true;
	/* Without the older bindings' checks: the deciding one's time, the
	 * later (refuses more, never less). */
	sub->first_binding =
		opts->no_bound_at ? b : pgpk_first_binding(v, cert, sub, b);
	sub->bound_at = sub->first_binding->created;
	sub->has_key_flags = b->has_key_flags;
	sub->key_flags = b->key_flags;
	sub->usage = pgpk_usage_from(sub, b);
	sub->expires = pgpk_self_sig_end(sub, b);
	if ((sub->usage & PGPK_KF_SIGN) && !opts->backsig_if_decisive)
		sub->backsig = pgpk_check_backsig(v, cert, sub, b);
}

void pgpk_validate_cert(struct pgpk_vctx *v, struct pgpk_cert *cert,
			const struct pgpk_parse_opts *opts)
{
	struct pgpk_pubkey *pri = &cert->primary;
	struct pgpk_signature *dk;
	const struct pgpk_signature *b;
	long best_primary = -1, best_other = -1, first_good = -1;
	uint32_t best_primary_t = 0, best_other_t = 0;
	size_t i;

	/* Direct-key self-signature (0x1F): the newest one counts. */
	dk = pgpk_newest_good(v, pri->sigs, pri->nsigs, pgpk_is_direct, pri,
			      NULL, NULL);
	if (dk)
		pri->valid = true;
	/* User IDs: the newest good self-signature, certification or
	 * revocation, decides (GnuPG allows re-certifying after a 0x30). */
	for (i = 0; i < cert->nuids; i++) {
		struct pgpk_userid *uid = &cert->uids[i];
		struct pgpk_signature *s;

		if (uid->attribute)
			continue;
		s = pgpk_newest_good(v, uid->sigs, uid->nsigs,
				     pgpk_is_uid_selfsig, pri, NULL, uid);
		if (!s)
			continue;
		pri->valid = true;
		if (first_good < 0)
			first_good = (long)i;
		if (s->type == PGPK_SIG_CERT_REVOCATION) {
			uid->revoked = true;
			continue;
		}
		uid->selfsig = s;
		if (pgpk_sig_expired(s, v->now))
			continue;
		uid->valid = true;
		if (s->primary_uid) {
			if (best_primary < 0 || s->created >= best_primary_t) {
				best_primary = (long)i;
				best_primary_t = s->created;
			}
		} else if (best_other < 0 || s->created >= best_other_t) {
			best_other = (long)i;
			best_other_t = s->created;
		}
	}
	cert->primary_uid = best_primary >= 0 ? best_primary :
			    best_other >= 0   ? best_other :
						first_good;
	if (cert->primary_uid < 0)
		for (i = 0; i < cert->nuids; i++)
			if (!cert->uids[i].attribute) {
				cert->primary_uid = (long)i;
				break;
			}
	/* Key revocations (0x20) by the key itself.  Designated revokers
	 * (RFC 9580 5.2.3.23) are not followed. */
	pgpk_revocations(v, pri, PGPK_SIG_KEY_REVOCATION, pri, NULL);
	/*
	 * The self-signature the kernel is given (Key.self_signature) and
	 * reads the key's flags and expiry from, the one its version reads
	 * (RFC 9580 10.1.1, 10.1.3): a v4 key's primary user ID's newest
	 * self-signature, a v6 key's direct-key signature; the submitter
	 * does not choose.  A v4 key's direct-key signature says its part
	 * too (GnuPG, sq): where it says less, the key is narrower than the
	 * kernel would read it, and does not convert (self_narrowed).
	 */
	b = cert->primary_uid >= 0 ? cert->uids[cert->primary_uid].selfsig :
				     NULL;
	if (pri->version == 6)
		b = dk;
	pri->binding = b;
	pri->has_key_flags = b && b->has_key_flags;
	pri->key_flags = b ? b->key_flags : 0;
	pri->usage = pgpk_usage_from(pri, b);
	pri->expires = pgpk_self_sig_end(pri, b);
	if (dk && dk != b) {
		uint8_t usage = pri->usage & pgpk_usage_from(pri, dk);
		int64_t end = pgpk_self_sig_end(pri, dk);

		pri->self_narrowed =
			usage != pri->usage ||
			(end && (!pri->expires || end < pri->expires));
		pri->usage = usage;
		if (end && (!pri->expires || end < pri->expires))
			pri->expires = end;
	}
	pri->expired = pri->expires && pri->expires <= v->now;
	pri->can_sign = !pgpk_key_usable(
		cert, pri, PGPK_USE_SIGN | PGPK_USE_OPENPGP, NULL);

	for (i = 0; i < cert->nsubkeys; i++) {
		struct pgpk_pubkey *sub = &cert->subkeys[i];

		if (opts->want_subkey &&
		    !opts->want_subkey(sub, opts->want_arg))
			continue; /* left invalid, its signatures unchecked */
		pgpk_validate_subkey(v, cert, sub, opts);
		/* GnuPG: the primary's state carries over to subkeys. */
		if (!pri->valid)
			sub->valid = false;
		if (pri->revoked && !sub->revoked_hard &&
		    (pri->revoked_hard || !sub->revoked ||
		     pri->revoked_at < sub->revoked_at)) {
			sub->revoked_hard = pri->revoked_hard;
			sub->revoked_at = pri->revoked_at;
			sub->revoked_reason = pri->revoked_reason;
			sub->revoked_primary = true;
		}
		sub->revoked = sub->revoked || pri->revoked;
		sub->expired = (sub->expires && sub->expires <= v->now) ||
			       pri->expired;
		/* pgpk_key_usable()'s order: the back-signature decides
		 * only after validity, revocation and expiry. */
		if (opts->backsig_if_decisive && (sub->usage & PGPK_KF_SIGN) &&
		    pri->valid && sub->valid && !sub->revoked && !sub->expired)
			sub->backsig =
				pgpk_check_backsig(v, cert, sub, sub->binding);
		sub->can_sign = !pgpk_key_usable(
			cert, sub, PGPK_USE_SIGN | PGPK_USE_OPENPGP, NULL);
	}
}

int pgpk_vctx_init(struct pgpk_vctx *v, const struct pgpk_keyring *ring,
		   int64_t now, bool no_verify)
{
	size_t i, j;

	/* Field by field: zeroing the 32 prefix digests' state (9 KB) cost
	 * a tenth of what a small verify runs outside its RSA arithmetic. */
	v->now = now;
	v->no_verify = no_verify;
	v->salted_left = PGPK_SALTED_BUDGET(ring->input.packets_len);
	v->exhausted = false;
	v->verified = 0;
	for (i = 0; i < sizeof(v->prefixes) / sizeof(v->prefixes[0]); i++)
		for (j = 0; j < 2; j++)
			v->prefixes[i][j].ready = false;
	v->bn = BN_CTX_new();
	return v->bn ? 0 : -ENOMEM;
}

void pgpk_vctx_release(struct pgpk_vctx *v)
{
	size_t i, j;

	for (i = 0; i < sizeof(v->prefixes) / sizeof(v->prefixes[0]); i++)
		for (j = 0; j < 2; j++)
			if (v->prefixes[i][j].ready)
				pgpk_digest_release(&v->prefixes[i][j].d);
	BN_CTX_free(v->bn);
}

int pgpk_certifier(const struct pgpk_keyring *ring,
		   const struct pgpk_cert *cert, const struct pgpk_userid *uid,
		   struct pgpk_signature *const *cands,
		   const struct pgpk_pubkey *const *signers, size_t n,
		   int64_t now, const struct pgpk_signature **out)
{
	const struct pgpk_pubkey **revoked;
	size_t i, j, k, nrevoked = 0;
	struct pgpk_signature *r;
	struct pgpk_vctx v;
	int ret;

	*out = NULL;
	if (!n)
		return 0;
	revoked = pgpk_calloc_array(n, sizeof(*revoked));
	ret = pgpk_vctx_init(&v, ring, now, false);
	for (i = 0; !ret && revoked && i < n && !*out; i++) {
		for (k = 0; k < nrevoked && revoked[k] != signers[i]; k++)
			;
		if (k < nrevoked || !pgpk_check(&v, signers[i], cands[i],
						&cert->primary, NULL, uid))
			continue;
		*out = cands[i];
		for (j = 0; j < uid->nsigs && *out; j++) {
			r = &uid->sigs[j];
			if (r->type == PGPK_SIG_CERT_REVOCATION &&
			    r->created >= cands[i]->created &&
			    pgpk_sig_by(r, signers[i]) &&
			    pgpk_check(&v, signers[i], r, &cert->primary, NULL,
				       uid)) {
				revoked[nrevoked++] = signers[i];
				*out = NULL;
			}
		}
	}
	pgpk_vctx_release(&v);
	if (!revoked)
		ret = -ENOMEM;
	free(revoked);
	return ret;
}
