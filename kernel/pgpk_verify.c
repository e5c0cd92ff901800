// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk_verify_signature(): the OpenPGP counterpart of
 * verify_pkcs7_signature() for kernel users (IMA, fs-verity), as the 2022
 * verify_pgp_signature() was.
 *
 * The kernel hashes the data and the trailer it rebuilt from canonical
 * fields, checks the quick check, finds the key by issuer fingerprint or
 * key ID, and lets the key's subtype (pgpk_subtype.c) check the RSA
 * value.
 *
 * Keyrings: the kernel's builtin, secondary and platform keyrings are not
 * exported to modules in 6.1, and they hold X.509 keys only.  NULL and
 * VERIFY_USE_SECONDARY_KEYRING therefore mean this module's trusted
 * keyring ".pgpk" (the preloaded keys); VERIFY_USE_PLATFORM_KEYRING fails
 * with -ENOKEY, as verify_pkcs7_signature() does without that keyring.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <keys/asymmetric-subtype.h>
#include <keys/asymmetric-type.h>
#include "pgpk.h"
#include "pgpk_rebuild.h"

#define PGPK_SIG_DOCUMENT_LAST	0x01	/* RFC 9580 5.2.1: binary, text */
#define PGPK_KEY_FLAG_SIGN	0x02	/* RFC 9580 5.2.3.29 */

/* RFC 9580 5.2.3.1: every signature's RSA value is in the bytes. */
static bool pgpk_sigs_bound(const struct pgpk_input *in,
			    const struct pgpk_canon *c)
{
	const struct pgpk_sig *sig = &c->sig;
	struct pgpk_sig more;
	u32 pos = 0;
	int ret;

	for (;;) {
		if (!pgpk_input_contains(in, sig->rsa_s.data, sig->rsa_s.len))
			return false;
		ret = pgpk_canon_next(&c->more_signatures, &pos, &more);
		if (ret)
			return ret == -ENOENT;
		sig = &more;
	}
}

/**
 * pgpk_sig_obtain - decode a signature, canonical or OpenPGP
 * @raw: the signature as given
 * @len: its length
 * @ans: the decoded signature; release with pgpk_answer_put()
 *
 * OpenPGP goes through the upcall; the answer is bound to the submitted
 * bytes by the RSA values of its signatures, which must occur in them
 * (RFC 9580 5.2.3.1: the value is stored verbatim).  Combined with the
 * verification, the content is the one those signatures sign.
 */
int pgpk_sig_obtain(const u8 *raw, size_t len, struct pgpk_answer *ans)
{
	struct pgpk_canon_error err;
	struct pgpk_input in;
	int ret;

	ans->key = NULL;
	if (pgpk_canon_is_canonical(raw, len)) {
		ret = pgpk_canon_decode(raw, len, &ans->canon, &err);
		if (ret)
			pr_warn_ratelimited("canonical signature refused: %s at offset %u\n",
					    pgpk_canon_reason_str(err.reason), err.offset);
	} else if (len && pgpk_is_openpgp(raw, len)) {
		ret = pgpk_input_init(&in, raw, len);
		if (ret)
			return ret;
		ret = pgpk_upcall("sig", &in, NULL, ans);
		if (!ret && PGPK_HAS(&ans->canon, PGPK_CANON_SIGNATURE) &&
		    !pgpk_sigs_bound(&in, &ans->canon)) {
			pr_warn_ratelimited("binding: signature value not in the submitted bytes\n");
			ret = -EKEYREJECTED;
		}
		pgpk_input_free(&in);
	} else {
		ret = -EBADMSG;
	}
	if (!ret && !PGPK_HAS(&ans->canon, PGPK_CANON_SIGNATURE)) {
		pr_warn_ratelimited("a key was given where a signature was expected\n");
		ret = -EBADMSG;
	}
	if (ret)
		pgpk_answer_put(ans);
	return ret;
}

/*
 * Find the issuer: by fingerprint exactly, else by key ID.  Only an
 * OpenPGP key issues: an X.509 key's PKCS#1 signature made for another
 * protocol is also a v3 signature of its data minus a 5-octet trailer.
 * (An X.509 key would refuse pgpk_sig_encoding anyway: this names why.)
 */
static struct key *pgpk_find_issuer(struct key *keyring,
				    const struct public_key_signature *pks)
{
	struct key *key;

	if (pks->auth_ids[0])
		key = find_asymmetric_key(keyring, pks->auth_ids[0], NULL,
					  NULL, false);
	else if (pks->auth_ids[1])
		key = find_asymmetric_key(keyring, NULL, pks->auth_ids[1],
					  NULL, true);
	else
		key = ERR_PTR(-ENOKEY);
	if (IS_ERR(key)) {
		pr_warn_ratelimited("no issuer key for the signature: %ld\n", PTR_ERR(key));
		return key;
	}
	if (asymmetric_key_subtype(key) != &pgpk_key_subtype) {
		pr_warn_ratelimited("issuer key %x is not an OpenPGP key\n",
				    key_serial(key));
		key_put(key);
		return ERR_PTR(-ENOKEY);
	}
	return key;
}

/*
 * RFC 9580 5.2.3.29: a key whose flags lack "sign data" signs no document
 * (a certify-only primary key, an encryption subkey).  5.2.3.11, 5.2.3.31:
 * a key signs nothing before it exists, a subkey nothing before it is
 * bound to its certificate, a softly revoked key nothing after its
 * revocation.  The signature's time is confirmed
 * (pgpk_rebuild_hashed_ok()), and so is the key's creation time (in its
 * rebuilt packet); flags, binding and revocation times are hints.  The
 * key must be the one the hashed issuer fingerprint names, if the
 * signature has one: the same RSA material loaded as two keys (another
 * creation time, another fingerprint) has other times.  The helper's
 * pgpk_key_usable() and pgpk_key_signed_at() are the same rules.  For a
 * certification (@document false), all but the flags: a primary key
 * certifies whatever its flags say (RFC 9580 5.2.3.29, as GnuPG).
 */
int pgpk_sig_key_check(const struct key *key, const struct pgpk_sig *sig,
		       bool document)
{
	const struct pgpk_public_key *pk = key->payload.data[asym_crypto];
	const struct asymmetric_key_id *fpr = asymmetric_key_ids(key)->id[0];
	struct pgpk_bytes hashed_fpr;
	const char *why;

	if (!pgpk_rebuild_hashed_ok(sig, &hashed_fpr)) {
		pr_warn_ratelimited("signature creation time %u is not the one creation time of its hashed area\n",
				    sig->created);
		return -EBADMSG;
	}
	if (hashed_fpr.data &&
	    (hashed_fpr.len != fpr->len ||
	     memcmp(hashed_fpr.data, fpr->data, fpr->len)))
		why = "the hashed issuer fingerprint names another key";
	else if (sig->created > ktime_get_real_seconds() + PGPK_CLOCK_SKEW)
		why = "signature made in the future";
	else if (document && !(pk->key_flags & PGPK_KEY_FLAG_SIGN))
		why = "not a signing key";
	else if (sig->created < pk->created)
		why = "signature predates its key";
	else if (sig->created < pk->bound)
		why = "subkey not yet bound when it signed";
	else if (pk->has_soft_revoked && sig->created >= pk->soft_revoked)
		why = "signature made after its key was revoked (soft revocation)";
	else
		return 0;
	pr_warn_ratelimited("key %x: %s: signature created %u, key created %u, bound %u, revoked %u, flags 0x%02x\n",
			    key_serial(key), why, sig->created, pk->created,
			    pk->bound, pk->soft_revoked, pk->key_flags);
	return -EKEYREJECTED;
}

/**
 * pgpk_sig_check - verify a decoded signature over data
 * @sig: the signature, decoded from a canonical blob
 * @data: the signed data
 * @len: its length
 * @keyring: where to find the issuer
 *
 * Return: 0, -ENOKEY no issuer key (checked first), -ENOPKG unsupported
 * algorithm, -EKEYREJECTED bad signature or not a document signature or
 * made outside its key's lifetime, -EKEYEXPIRED expired signature or key,
 * -EBADMSG a creation time that is not the one of the hashed area.
 */
int pgpk_sig_check(const struct pgpk_sig *sig, const void *data, size_t len,
		   struct key *keyring)
{
	struct public_key_signature ids = { }, *pks;
	struct pgpk_digest *d;
	struct key *key;
	int ret;

	/*
	 * The issuer first: a signature whose key is not there is skipped
	 * by pgpk_sigs_check() whatever else is wrong with it.
	 */
	ret = pgpk_sig_auth_ids(&ids, sig);
	if (ret)
		goto error_free_ids;
	key = pgpk_find_issuer(keyring, &ids);
	if (IS_ERR(key)) {
		ret = PTR_ERR(key);
		goto error_free_ids;
	}
	ret = -EKEYREJECTED;
	if (sig->type > PGPK_SIG_DOCUMENT_LAST) {
		pr_warn_ratelimited("signature type 0x%02x does not sign a document\n",
				    sig->type);
		goto error_put_key;
	}
	ret = -EKEYEXPIRED;
	if (sig->expires && sig->expires <= ktime_get_real_seconds()) {
		pr_warn_ratelimited("signature expired at %llu\n", sig->expires);
		goto error_put_key;
	}
	d = pgpk_digest_begin(sig);
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
		goto error_put_key;
	}
	ret = pgpk_digest_data(d, data, len);
	if (ret) {
		pgpk_digest_abort(d);
		goto error_put_key;
	}
	pks = pgpk_digest_end(d);
	if (IS_ERR(pks)) {
		ret = PTR_ERR(pks);
		goto error_put_key;
	}
	memcpy(pks->auth_ids, ids.auth_ids, sizeof(ids.auth_ids));
	memset(ids.auth_ids, 0, sizeof(ids.auth_ids));
	ret = pgpk_sig_key_check(key, sig, true);
	if (!ret)
		ret = verify_signature(key, pks);
	if (ret)
		pr_warn_ratelimited("signature by key %x refused: %d\n", key_serial(key),
				    ret);
	public_key_signature_free(pks);
error_put_key:
	key_put(key);
error_free_ids:
	kfree(ids.auth_ids[0]);
	kfree(ids.auth_ids[1]);
	return ret;
}

/*
 * A document signed by several keys (Canonical.signature and
 * more_signatures), judged as gpgv, apt and `pgpk-helper verify` do: a
 * signature whose issuer is not in @keyring is skipped; any other failure
 * (a bad value for a key that is there) refuses the document; at least
 * one must verify.  Return: 0, -ENOKEY if no issuer was found, else the
 * first failure.
 */
static int pgpk_sigs_check(const struct pgpk_canon *c, const void *data,
			   size_t len, struct key *keyring)
{
	const struct pgpk_sig *sig = &c->sig;
	struct pgpk_sig more;
	bool good = false;
	u32 pos = 0;
	int ret;

	for (;;) {
		ret = pgpk_sig_check(sig, data, len, keyring);
		if (ret && ret != -ENOKEY)
			return ret;
		good |= !ret;
		ret = pgpk_canon_next(&c->more_signatures, &pos, &more);
		if (ret == -ENOENT)
			return good ? 0 : -ENOKEY;
		if (ret)
			return ret;
		sig = &more;
	}
}

/**
 * pgpk_verify_signature - verify an OpenPGP signature on data
 * @data: the signed data, or NULL to verify the content the signature
 *	carries (an inline or cleartext signed message)
 * @len: size of @data
 * @raw_sig: the signature(s): canonical blob, or OpenPGP binary or armored
 *	(several signatures: those whose key is found must all verify, and
 *	one at least; pgpk_sigs_check())
 * @sig_len: size of @raw_sig
 * @trusted_keys: keyring to find the key in; NULL or
 *	VERIFY_USE_SECONDARY_KEYRING for the module's ".pgpk" keyring
 * @usage: the use to which the key is being put
 * @view_content: if not NULL, called with the verified data
 * @ctx: context for @view_content
 *
 * Return: 0, or -EBADMSG malformed, -ENOPKG unsupported, -ENOKEY no key,
 * -EKEYREJECTED bad signature, -EKEYEXPIRED expired, -EINVAL misuse.
 */
int pgpk_verify_signature(const void *data, size_t len,
			  const void *raw_sig, size_t sig_len,
			  struct key *trusted_keys,
			  enum key_being_used_for usage,
			  int (*view_content)(void *ctx, const void *data,
					      size_t len, size_t asn1hdrlen),
			  void *ctx)
{
	struct pgpk_answer ans;
	int ret;

	if (usage >= NR__KEY_BEING_USED_FOR)
		return -EINVAL;
	if (!trusted_keys || trusted_keys == VERIFY_USE_SECONDARY_KEYRING)
		trusted_keys = pgpk_trusted_keys;
	else if (trusted_keys == VERIFY_USE_PLATFORM_KEYRING)
		return -ENOKEY;

	ret = pgpk_sig_obtain(raw_sig, sig_len, &ans);
	if (ret)
		return ret;
	ret = -EINVAL;
	if (PGPK_HAS(&ans.canon, PGPK_CANON_CONTENT) == !!data) {
		pr_warn_ratelimited("signed data must come either with the signature or from the caller\n");
		goto error_put_answer;
	}
	if (!data) {
		data = ans.canon.content.data;
		len = ans.canon.content.len;
	}
	ret = pgpk_sigs_check(&ans.canon, data, len, trusted_keys);
	if (!ret && view_content)
		ret = view_content(ctx, data, len, 0);
error_put_answer:
	pgpk_answer_put(&ans);
	return ret;
}
EXPORT_SYMBOL_GPL(pgpk_verify_signature);
