// SPDX-License-Identifier: GPL-2.0
/*
 * Everything the kernel hashes itself: fingerprints (RFC 9580 5.5.4) and
 * signature digests (RFC 9580 5.2.4).  The hashed octets are rebuilt from
 * canonical fields by pgpk_rebuild.c; nothing is taken from the helper as
 * a digest.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/slab.h>
#include <crypto/hash.h>
#include <crypto/hash_info.h>
#include <keys/asymmetric-type.h>
#include "pgpk.h"
#include "pgpk_rebuild.h"

#define PGPK_SIG_TEXT	0x01	/* RFC 9580 5.2.1: canonical text document */

struct pgpk_digest {
	const struct pgpk_sig *sig;	/* NULL for a fingerprint */
	enum hash_algo algo;
	struct shash_desc *desc;
};

/*
 * The policy floor (trust rule 5): MD5 (1), SHA-1 (2) and RIPEMD-160 (3)
 * sign nothing, whoever submits the signature and however (RFC 9580 9.5:
 * MUST NOT generate, and SHA-1 collisions were shown on exactly OpenPGP
 * key certifications).
 */
bool pgpk_hash_weak(u32 id)
{
	return id >= 1 && id <= 3;
}

/* RFC 9580 9.5: the hash algorithms a signature may use here. */
static int pgpk_hash_algo(u32 id)
{
	switch (id) {
	case 8:
		return HASH_ALGO_SHA256;
	case 9:
		return HASH_ALGO_SHA384;
	case 10:
		return HASH_ALGO_SHA512;
	case 11:
		return HASH_ALGO_SHA224;
	}
	return pgpk_hash_weak(id) ? -EKEYREJECTED : -ENOPKG;
}

static struct pgpk_digest *pgpk_hash_alloc(enum hash_algo algo)
{
	struct crypto_shash *tfm;
	struct pgpk_digest *d;
	int ret = -ENOMEM;

	tfm = crypto_alloc_shash(hash_algo_name[algo], 0, 0);
	if (IS_ERR(tfm)) {
		pr_warn_ratelimited("hash %s unavailable: %ld\n", hash_algo_name[algo],
				    PTR_ERR(tfm));
		return ERR_PTR(-ENOPKG);
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		goto error_free_tfm;
	d->desc = kzalloc(sizeof(*d->desc) + crypto_shash_descsize(tfm),
			  GFP_KERNEL);
	if (!d->desc)
		goto error_free_d;
	d->algo = algo;
	d->desc->tfm = tfm;
	ret = crypto_shash_init(d->desc);
	if (ret)
		goto error_free_desc;
	return d;

error_free_desc:
	kfree(d->desc);
error_free_d:
	kfree(d);
error_free_tfm:
	crypto_free_shash(tfm);
	return ERR_PTR(ret);
}

void pgpk_digest_abort(struct pgpk_digest *d)
{
	if (IS_ERR_OR_NULL(d))
		return;
	crypto_free_shash(d->desc->tfm);
	kfree_sensitive(d->desc);
	kfree(d);
}

static int pgpk_hash(struct pgpk_digest *d, const void *data, size_t len)
{
	return crypto_shash_update(d->desc, data, len);
}

/* RFC 9580 5.5.2: the key packet body, rebuilt from canonical fields. */
int pgpk_key_body(const struct pgpk_key_material *m, u8 **body, size_t *len)
{
	*len = pgpk_rebuild_key_len(m);
	*body = kmalloc(*len, GFP_KERNEL);
	if (!*body)
		return -ENOMEM;
	pgpk_rebuild_key(m, *body);
	return 0;
}

/* RFC 9580 5.2.4: a key is hashed as its fingerprint prefix and body. */
int pgpk_digest_key(struct pgpk_digest *d, const struct pgpk_key_material *m)
{
	u8 prefix[PGPK_PREFIX_MAX];
	size_t len;
	u8 *body;
	int ret;

	ret = pgpk_key_body(m, &body, &len);
	if (ret)
		return ret;
	ret = pgpk_hash(d, prefix, pgpk_rebuild_key_prefix(m, len, prefix));
	if (!ret)
		ret = pgpk_hash(d, body, len);
	kfree(body);
	return ret;
}

/*
 * RFC 9580 5.5.4: v4 fingerprint = SHA-1, key ID its last 8 octets;
 * v6 fingerprint = SHA-256, key ID its first 8 octets.
 */
int pgpk_key_identify(const struct pgpk_key_material *m,
		      struct pgpk_key_id *id)
{
	bool v6 = m->version == 6;
	struct pgpk_digest *d;
	int ret;

	d = pgpk_hash_alloc(v6 ? HASH_ALGO_SHA256 : HASH_ALGO_SHA1);
	if (IS_ERR(d))
		return PTR_ERR(d);
	ret = pgpk_digest_key(d, m);
	if (!ret)
		ret = crypto_shash_final(d->desc, id->fpr);
	if (!ret) {
		id->fpr_len = crypto_shash_digestsize(d->desc->tfm);
		memcpy(id->keyid,
		       v6 ? id->fpr : id->fpr + id->fpr_len - PGPK_KEYID_LEN,
		       PGPK_KEYID_LEN);
	}
	pgpk_digest_abort(d);
	return ret;
}

/*
 * Start the digest of @sig: RSA only (RFC 9580 9.1: 1 and 3 may sign),
 * with a hash the kernel has; a v6 signature hashes its salt first
 * (RFC 9580 5.2.4).
 */
struct pgpk_digest *pgpk_digest_begin(const struct pgpk_sig *sig)
{
	struct pgpk_digest *d;
	int algo, ret;

	if (sig->pubkey_algorithm != 1 && sig->pubkey_algorithm != 3) {
		pr_warn_ratelimited("signature algorithm %u is not RSA\n",
				    sig->pubkey_algorithm);
		return ERR_PTR(-ENOPKG);
	}
	algo = pgpk_hash_algo(sig->hash_algorithm);
	if (algo == -EKEYREJECTED)
		pr_warn_ratelimited("policy: hash algorithm %u is too weak to sign\n",
				    sig->hash_algorithm);
	else if (algo < 0)
		pr_warn_ratelimited("signature hash algorithm %u not supported\n",
				    sig->hash_algorithm);
	if (algo < 0)
		return ERR_PTR(algo);
	d = pgpk_hash_alloc(algo);
	if (IS_ERR(d))
		return d;
	d->sig = sig;
	if (sig->version == 6) {
		ret = pgpk_hash(d, sig->salt.data, sig->salt.len);
		if (ret) {
			pgpk_digest_abort(d);
			return ERR_PTR(ret);
		}
	}
	return d;
}

/* RFC 9580 5.2.4: v4/v6 signatures hash 0xB4 + 4-octet length first. */
int pgpk_digest_user_id(struct pgpk_digest *d, const struct pgpk_bytes *uid)
{
	u8 prefix[PGPK_PREFIX_MAX];
	int ret = 0;

	if (d->sig->version != 3)
		ret = pgpk_hash(d, prefix,
				pgpk_rebuild_uid_prefix(uid->len, prefix));
	return ret ?: pgpk_hash(d, uid->data, uid->len);
}

/*
 * The signed data.  RFC 9580 5.2.1: a text signature (type 0x01) is made
 * over the data with line endings converted to CR LF.  As GnuPG does
 * (textfilter.c), every CR at the end of a line is dropped before its CR
 * LF, and at the end of the data; canonical text hashes unchanged.
 */
int pgpk_digest_data(struct pgpk_digest *d, const u8 *data, size_t len)
{
	const u8 *end = data + len, *eol;
	int ret = 0;
	size_t n;

	if (d->sig->type != PGPK_SIG_TEXT)
		return pgpk_hash(d, data, len);
	while (!ret && data < end) {
		eol = memchr(data, '\n', end - data);
		n = (eol ? eol : end) - data;
		while (n && data[n - 1] == '\r')
			n--;
		ret = pgpk_hash(d, data, n);
		if (!eol)
			break;
		ret = ret ?: pgpk_hash(d, "\r\n", 2);
		data = eol + 1;
	}
	return ret;
}

/*
 * Hash the trailer (RFC 9580 5.2.4), check the 16-bit quick check and
 * return the signature for public_key_verify_signature().  Consumes @d.
 */
struct public_key_signature *pgpk_digest_end(struct pgpk_digest *d)
{
	const struct pgpk_sig *sig = d->sig;
	struct public_key_signature *pks;
	u8 *trailer, *digest;
	size_t len;
	int ret;

	ret = -ENOMEM;
	len = pgpk_rebuild_trailer_len(sig);
	trailer = kmalloc(len, GFP_KERNEL);
	if (!trailer)
		goto error_abort;
	pgpk_rebuild_trailer(sig, trailer);
	ret = pgpk_hash(d, trailer, len);
	kfree(trailer);
	if (ret)
		goto error_abort;

	ret = -ENOMEM;
	pks = kzalloc(sizeof(*pks), GFP_KERNEL);
	if (!pks)
		goto error_abort;
	pgpk_sig_mark(pks);
	pks->hash_algo = hash_algo_name[d->algo];
	digest = pgpk_sig_alloc_digest(pks,
				       crypto_shash_digestsize(d->desc->tfm));
	pks->s = kmemdup(sig->rsa_s.data, sig->rsa_s.len, GFP_KERNEL);
	pks->s_size = sig->rsa_s.len;
	if (!digest || !pks->s)
		goto error_free_pks;
	ret = crypto_shash_final(d->desc, digest);
	if (ret)
		goto error_free_pks;
	pgpk_digest_abort(d);

	/* RFC 9580 5.2.3: the left 16 bits of the hash, as a quick check. */
	if (get_unaligned_be16(digest) != sig->quick_check) {
		pr_warn_ratelimited("signature quick check %04x, computed %02x%02x\n",
				    sig->quick_check, digest[0], digest[1]);
		public_key_signature_free(pks);
		return ERR_PTR(-EKEYREJECTED);
	}
	return pks;

error_free_pks:
	public_key_signature_free(pks);
error_abort:
	pgpk_digest_abort(d);
	return ERR_PTR(ret);
}

/*
 * auth_ids for restrict.c: [0] the issuer fingerprint (RFC 9580 5.2.3.35),
 * [1] the issuer key ID (5.2.3.12, or derived from the fingerprint as in
 * 5.5.4), matching the IDs pgpk_key.c gives keys.
 */
int pgpk_sig_auth_ids(struct public_key_signature *pks,
		      const struct pgpk_sig *sig)
{
	const struct pgpk_bytes *fpr = &sig->issuer_fingerprint;
	const u8 *keyid = NULL;
	struct asymmetric_key_id *kid;

	if (PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT)) {
		kid = asymmetric_key_generate_id(fpr->data, fpr->len, NULL, 0);
		if (IS_ERR(kid))
			return PTR_ERR(kid);
		pks->auth_ids[0] = kid;
		keyid = fpr->len == 32 ? fpr->data :
			fpr->data + fpr->len - PGPK_KEYID_LEN;
	}
	if (PGPK_HAS(sig, PGPK_SIG_ISSUER_KEY_ID))
		keyid = sig->issuer_key_id.data;
	if (!keyid)
		return 0;
	kid = asymmetric_key_generate_id(keyid, PGPK_KEYID_LEN, NULL, 0);
	if (IS_ERR(kid))
		return PTR_ERR(kid);
	pks->auth_ids[1] = kid;
	return 0;
}
