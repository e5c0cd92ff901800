// SPDX-License-Identifier: GPL-2.0
/*
 * Signatures: their digests, what a pgpk key verifies, and the test key
 * type "pgpk_test", which verifies a document signature.
 *
 * Every octet hashed is rebuilt here from canonical fields
 * (pgpk_rebuild.c): key packets, user IDs, trailers.  Nothing is taken
 * from anyone as a digest.
 *
 * The subtype of pgpk keys decides, once, for every caller (restrict.c,
 * pkcs7_trust.c, IMA, keyctl pkey_verify hand it every signature):
 *
 *  - One key, one protocol (trust rule 6).  An OpenPGP v4 signature of D
 *    is PKCS#1 over H(D || trailer): the same value is an X.509
 *    certificate signature when D || trailer is a TBSCertificate, an IMA
 *    signature of the file D || trailer...  A pgpk key verifies only what
 *    pgpk framed (pgpk_sig_digest() sets its protocol, OpenPGP, which
 *    no other subtype verifies); a key dedicated to IMA (pgpk_key.c)
 *    only IMA's PKCS#1 over SHA-256/384/512 (and keyctl pkey_verify),
 *    and nothing pgpk framed.
 *  - Authority (trust rule 10; RFC 9580 5.2.3.11, .18, .29, .31), for
 *    documents and certifications alike: the key is the one a hashed
 *    issuer fingerprint names; the signature is not expired, nor from the
 *    future, nor older than the key or a subkey's first binding, nor
 *    made at or after a soft revocation; a document only by a key whose
 *    flags allow signing, a certification or binding only by a primary
 *    key whose flags allow certifying.  Flags and binding times are read
 *    from the self-signatures the kernel verified when it loaded the key
 *    (pgpk_key.c pgpk_self_sigs()); the soft revocation time is a hint.
 *    The helper's pgpk_key_usable() and pgpk_key_signed_at() are these
 *    rules.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <keys/asymmetric-type.h>
#include "pgpk.h"

/*
 * The hashes, allocated once by pgpk_sig_init(): allocating one may run
 * modprobe, and no verification may wait for user space (trust rule 8:
 * IMA may be appraising the helper's own exec).  SHA-1 hashes v4 fingerprints only (RFC 9580
 * 5.5.4).
 */
static const u8 pgpk_hashes[] = { HASH_ALGO_SHA1, HASH_ALGO_SHA224,
	HASH_ALGO_SHA256, HASH_ALGO_SHA384, HASH_ALGO_SHA512 };
struct crypto_shash *pgpk_tfm[HASH_ALGO__LAST];	/* NULL: not in this kernel */

/*
 * The subtype's destroy: a key's payload (@crypto, a pgpk_public_key) and
 * a signature pgpk framed (@auth, the pks of a pgpk_sig_info), if not NULL.
 */
void pgpk_subtype_destroy(void *crypto, void *auth)
{
	struct pgpk_public_key *pk = crypto;
	struct pgpk_sig_info *info;

	kfree(pk ? pk->pub.key : NULL);
	kfree(pk);
	if (!auth)
		return;
	info = container_of(auth, struct pgpk_sig_info, pks);
	kfree(info->pks.auth_ids[0]);
	kfree(info->pks.auth_ids[1]);
	kfree(info);
}

struct pgpk_answer *pgpk_decode(const u8 *blob, size_t len, const char *what)
{
	struct pgpk_answer *ans = kzalloc_obj(*ans);
	struct pgpk_canon_error err;

	if (!ans)
		return ERR_PTR(-ENOMEM);
	if (!pgpk_canon_decode(blob, len, &ans->canon, &err))
		return ans;
	kfree(ans);
	return ERR_PTR(pgpk_refuse(-EBADMSG, "%s refused: %s at offset %u",
				   what, err.why, err.offset));
}

/* RFC 9580 5.5.4, 5.2.4: a key packet as hashed; its body at *@body. */
u8 *pgpk_key_packet(const struct pgpk_key_material *m, size_t *len,
		    size_t *body)
{
	u8 *p = kmalloc(PGPK_PREFIX_MAX + pgpk_rebuild_key(m, NULL),
			GFP_KERNEL);

	if (p) {
		*body = pgpk_rebuild_key_prefix(m, p);
		*len = *body + pgpk_rebuild_key(m, p + *body);
	}
	return p;
}

/* [0] a fingerprint, [1] a key ID: how pgpk names keys and their signers. */
int pgpk_ids(struct asymmetric_key_id **ids, const u8 *fpr, u32 fpr_len,
	     const u8 *keyid)
{
	int i, ret = 0;

	if (fpr && !keyid)	/* RFC 9580 5.5.4 */
		keyid = fpr + (fpr_len == 32 ? 0 : fpr_len - PGPK_KEYID_LEN);
	ids[0] = fpr ? asymmetric_key_generate_id(fpr, fpr_len, NULL, 0) : NULL;
	ids[1] = keyid ? asymmetric_key_generate_id(keyid, PGPK_KEYID_LEN,
						    NULL, 0) : NULL;
	for (i = 0; i < 2; i++)
		if (IS_ERR(ids[i]))
			ids[i] = NULL, ret = -ENOMEM;
	return ret;
}

/**
 * pgpk_sig_digest - hash what @sig signs, as pgpk frames it
 * @sig: the signature, decoded
 * @what: what it hashes before its trailer
 *
 * RSA only (RFC 9580 9.1: algorithms 1 and 3 sign), SHA-224/256/384/512
 * only: MD5 (1), SHA-1 (2) and RIPEMD-160 (3) sign nothing, whoever
 * submits the signature (the policy floor, trust rule 5: SHA-1 collisions
 * were shown on OpenPGP key certifications).  The creation time must be
 * the one of the hashed area (pgpk_hashed_walk()), a v6 salt as long as
 * the hash says (RFC 9580 9.5), the 16-bit quick check the digest's.
 * auth_ids, for restrict.c: the issuer fingerprint (5.2.3.35) and key ID
 * (5.2.3.12, or the fingerprint's as 5.5.4 says).
 *
 * Return: the signature, marked as framed by pgpk (free with
 * pgpk_subtype_destroy(NULL, &info->pks)); ERR_PTR: -ENOPKG unsupported,
 * -EKEYREJECTED weak hash or quick check, -EBADMSG, -ENOMEM.
 */
struct pgpk_sig_info *pgpk_sig_digest(const struct pgpk_sig *sig,
				      const struct pgpk_signed *what)
{
	static const u8 algos[12] = { [8] = HASH_ALGO_SHA256,
		[9] = HASH_ALGO_SHA384, [10] = HASH_ALGO_SHA512,
		[11] = HASH_ALGO_SHA224 };
	u32 hash = sig->hash_algorithm, algo = hash < 12 ? algos[hash] : 0;
	struct crypto_shash *tfm = pgpk_tfm[algo];	/* [0]: NULL */
	const struct pgpk_bytes *uid = what->user_id;
	SHASH_DESC_ON_STACK(desc, tfm);	/* of HASH_MAX_DESCSIZE */
	u8 *buf, *digest, prefix[PGPK_PREFIX_MAX];
	struct pgpk_sig_info *info;
	struct pgpk_hashed h;
	size_t len, body;
	int i, ret;

	if (!pgpk_hashed_walk(sig->hashed_area.data, sig->hashed_area.len, &h) ||
	    h.created != sig->created || (sig->version == 6 &&
	    sig->salt.len != pgpk_rebuild_salt_len(hash)))
		return ERR_PTR(pgpk_refuse(-EBADMSG,
					   "signature of %u: its hashed area is not framed as pgpk takes it (one creation time, this one; no critical subpacket pgpk does not understand), or its v6 salt not as long as its hash says",
					   sig->created));
	if (!tfm || (sig->pubkey_algorithm != 1 && sig->pubkey_algorithm != 3))
		return ERR_PTR(pgpk_refuse(hash && hash <= 3 ? -EKEYREJECTED :
					   -ENOPKG, "signature by algorithm %u, hash %u: %s",
					   sig->pubkey_algorithm, hash,
					   hash && hash <= 3 ? "policy: too weak" :
					   "not supported"));
	info = kzalloc(struct_size(info, s, sig->rsa_s.len), GFP_KERNEL);
	if (!info)
		return ERR_PTR(-ENOMEM);
	digest = info->digest;
	info->h = h;
	info->h.fpr = NULL;	/* it points into the blob */
	/* RFC 9580 5.2.3.18: seconds after its creation; 0: never */
	info->expires = h.expires ? (u64)h.created + h.expires : 0;
	info->type = sig->type;
	info->pks = PGPK_SIG_OPENPGP(hash_algo_name[algo], digest,
				     crypto_shash_digestsize(tfm));
	info->pks.s = memcpy(info->s, sig->rsa_s.data, sig->rsa_s.len);
	info->pks.s_size = sig->rsa_s.len;
	/* the issuer: by its hashed fingerprint, if it has one */
	ret = pgpk_ids(info->pks.auth_ids,
		       h.fpr_len ? h.fpr : sig->issuer_fingerprint.data,
		       h.fpr_len ?: sig->issuer_fingerprint.len,
		       sig->issuer_key_id.data);
	desc->tfm = tfm;
	ret = ret ?: crypto_shash_init(desc);
	if (!ret && sig->version == 6)
		ret = crypto_shash_update(desc, sig->salt.data, sig->salt.len);
	for (i = 0; !ret && i < 2 && what->key[i]; i++) {
		buf = pgpk_key_packet(what->key[i], &len, &body);
		ret = buf ? crypto_shash_update(desc, buf, len) : -ENOMEM;
		kfree(buf);
	}
	if (!ret && uid) {	/* 0xB4 and a length first */
		len = pgpk_rebuild_uid_prefix(uid->len, prefix);
		ret = crypto_shash_update(desc, prefix, len) ?:
		      crypto_shash_update(desc, uid->data, uid->len);
	}
	if (!ret && what->data)
		ret = crypto_shash_update(desc, what->data, what->len);
	buf = ret ? NULL : kmalloc(pgpk_rebuild_trailer(sig, NULL), GFP_KERNEL);
	if (!ret)
		ret = buf ? crypto_shash_finup(desc, buf,
					       pgpk_rebuild_trailer(sig, buf),
					       digest) : -ENOMEM;
	kfree(buf);
	shash_desc_zero(desc);
	if (!ret && (digest[0] << 8 | digest[1]) != sig->quick_check)
		ret = pgpk_refuse(-EKEYREJECTED, "signature quick check %04x, computed %02x%02x",
				  sig->quick_check, digest[0], digest[1]);
	if (!ret)
		return info;
	pgpk_subtype_destroy(NULL, &info->pks);
	return ERR_PTR(ret);
}

/* Why @key may not have made @info's signature (*@err), or NULL. */
static const char *pgpk_sig_refused(const struct key *key,
				    const struct pgpk_sig_info *info, int *err)
{
	const struct pgpk_public_key *pk = key->payload.data[asym_crypto];
	const struct asymmetric_key_id *fpr = asymmetric_key_ids(key)->id[0];
	time64_t now = ktime_get_real_seconds();

	if (info->pks.auth_ids[0] &&
	    !asymmetric_key_id_same(info->pks.auth_ids[0], fpr))
		return "the issuer fingerprint names another key";
	if (info->h.created > now + PGPK_CLOCK_SKEW)
		return "signature made in the future";
	if (!(pk->key_flags & (info->type <= PGPK_SIG_TEXT ? PGPK_KEY_FLAG_SIGN :
			       PGPK_KEY_FLAG_CERTIFY)))
		return info->type <= PGPK_SIG_TEXT ? "not a signing key (key flags)" :
		       "not a primary key whose key flags allow certifying";
	if (info->h.created < pk->bound)
		return "signature predates its key (or a subkey not yet bound when it signed)";
	if (info->h.created >= pk->soft_revoked)
		return "signature made after its key was revoked (soft revocation)";
	*err = -EKEYEXPIRED;
	return info->expires && info->expires <= now ? "signature expired" : NULL;
}

/*
 * What a key dedicated to IMA verifies: an IMA signature (PKCS#1 over
 * SHA-256/384/512, pgpk_sig_for_ima()), and nothing pgpk framed.
 */
static const char *pgpk_ima_refused(const struct public_key_signature *sig)
{
	static const char *const hashes[] = { "sha256", "sha384", "sha512" };

	if (pgpk_sig_is_openpgp(sig))
		return "an OpenPGP signature by a key dedicated to IMA";
	if (!pgpk_sig_for_ima(sig) || !sig->encoding ||
	    strcmp(sig->encoding, "pkcs1") || !sig->hash_algo ||
	    match_string(hashes, 3, sig->hash_algo) < 0)
		return "all but raw PKCS#1 SHA-256/384/512 naming no certificate (IMA key)";
	return NULL;
}

/*
 * @sig verified with @pub, whose modulus is @size octets.  OpenPGP stores
 * the RSA value without leading zero octets (RFC 9580 5.2.3.1); the
 * kernel's RSA wants it exactly as long as the modulus: pad a copy.
 */
int pgpk_rsa_verify(const struct public_key *pub, u32 size,
		    const struct public_key_signature *sig)
{
	struct public_key_signature pks = *sig;
	int ret;

	if (sig->s_size > size)
		return pgpk_refuse(-EKEYREJECTED, "RSA value longer than its key");
	pks.s = kzalloc(size, GFP_KERNEL);
	if (!pks.s)
		return -ENOMEM;
	memcpy(pks.s + size - sig->s_size, sig->s, sig->s_size);
	pks.s_size = size;
	pks.encoding = "pkcs1";	/* out of tree: pgpk_compat_encoding */
	ret = public_key_verify_signature(pub, &pks);
	kfree(pks.s);
	/* pkcs1pad reports a bad RSA value as malformed padding */
	return ret == -EBADMSG || ret == -EINVAL ? -EKEYREJECTED : ret;
}

static int pgpk_subtype_verify(const struct key *key,
			       const struct public_key_signature *sig)
{
	const struct pgpk_public_key *pk = key->payload.data[asym_crypto];
	int ret = -EKEYREJECTED;
	const char *why;

	if (pk->ima)
		why = pgpk_ima_refused(sig);
	else if (pgpk_sig_is_openpgp(sig))
		why = pgpk_sig_refused(key, container_of(sig, struct pgpk_sig_info, pks),
				       &ret);
	else
		why = "a signature pgpk did not frame";
	ret = why ? ret : pgpk_rsa_verify(&pk->pub, pk->size, sig);
	return ret ? pgpk_refuse(ret, "key %x: refused %s (encoding %s, %d)",
				 key_serial(key), why ?: "a signature that does not verify",
				 sig->encoding ?: "none", ret) : 0;
}

/* public_key's subtype, but for what a pgpk key verifies and frees */
struct asymmetric_key_subtype pgpk_key_subtype = {
	.owner			= THIS_MODULE,
	.name			= "pgpk",
	.name_len		= sizeof("pgpk") - 1,
	.describe		= public_key_describe,
	.destroy		= pgpk_subtype_destroy,
	.query			= public_key_query,
	.eds_op			= public_key_eds_op,
	.verify_signature	= pgpk_subtype_verify,
};

/*
 * Document signature @sig over @data by a key of @keyring.  The issuer is
 * looked up first, by fingerprint, else key ID: a signature whose key is
 * not there is skipped (-ENOKEY).  Only an OpenPGP key issues: an X.509
 * key's PKCS#1 signature made for another protocol is also a v3 signature
 * of its data minus a 5-octet trailer (its subtype refuses pgpk's encoding
 * anyway: this names why).
 */
static int pgpk_sig_check(const struct pgpk_sig *sig, const u8 *data,
			  size_t len, struct key *ring)
{
	const struct pgpk_bytes *id = sig->issuer_fingerprint.data ?
		&sig->issuer_fingerprint : &sig->issuer_key_id;
	struct pgpk_signed what = { .data = data, .len = len };
	char ex[sizeof("ex:") + 2 * PGPK_FPR_MAX];
	struct pgpk_sig_info *info;
	struct key *key;
	key_ref_t ref;
	int ret;

	snprintf(ex, sizeof(ex), "ex:%*phN", id->len, id->data);
	ref = keyring_search(make_key_ref(ring, true), &key_type_asymmetric,
			     ex, true);
	if (IS_ERR(ref))
		return PTR_ERR(ref) == -ENOMEM ? -ENOMEM : -ENOKEY;
	key = key_ref_to_ptr(ref);
	info = pgpk_sig_digest(sig, &what);
	if (asymmetric_key_subtype(key) != &pgpk_key_subtype)
		ret = pgpk_refuse(-ENOKEY, "issuer key %x is not an OpenPGP key",
				  key_serial(key));
	else if (sig->type > PGPK_SIG_TEXT)
		ret = pgpk_refuse(-EKEYREJECTED, "signature type 0x%02x does not sign a document",
				  sig->type);
	else
		ret = PTR_ERR_OR_ZERO(info) ?: verify_signature(key, &info->pks);
	pgpk_subtype_destroy(NULL, IS_ERR(info) ? NULL : &info->pks);
	key_put(key);
	return ret;
}

/*
 * The signatures of @c over @data by keys of @keyring, judged as gpgv, apt
 * and pgpk-helper verify do: one whose issuer is not in the keyring is
 * skipped; any other failure refuses the document; one at least must
 * verify.  0, -ENOKEY (none by a key there), or the first failure.  The
 * one rule for pgpk_test and verify_openpgp_signature() in tree.
 */
int pgpk_sigs_check(const struct pgpk_canon *c, const u8 *data, size_t len,
		    struct key *keyring)
{
	int i, ret = -ENOKEY, good = 0;

	for (i = 0; i <= c->nr_more && (!ret || ret == -ENOKEY); i++) {
		ret = pgpk_sig_check(&c->sigs[i], data, len, keyring);
		good |= !ret;
	}
	return ret == -ENOKEY && good ? 0 : ret;
}

/*
 * Key type "pgpk_test", as pkcs7_test: the payload is a canonical
 * signature with its content (pgpk-helper sig), the key's payload the
 * content (user_preparse(): at most 32767 octets).  Searched for the
 * issuers: the module's trusted keyring, then the caller's session
 * keyring if he has one (a process of systemd --user may not), by
 * pgpk_sigs_check().  It never leaves the kernel (trust rule 8): OpenPGP
 * is converted in user space first, which also canonicalises the text of
 * a text signature (RFC 9580 5.2.1.2); the kernel hashes the content as
 * it is given.
 *
 *	pgpk-helper sig msg.gpg | keyctl padd pgpk_test t @s
 */
static int pgpk_test_preparse(struct key_preparsed_payload *prep)
{
	struct key *rings[2] = { pgpk_trusted_keys,
				 current_cred()->session_keyring };
	const struct pgpk_canon *c;
	struct pgpk_answer *ans;
	int ret = -ENOKEY, r;

	ans = pgpk_decode(prep->data, prep->datalen, "canonical signature");
	if (IS_ERR(ans))
		return PTR_ERR(ans);
	c = &ans->canon;
	if (!PGPK_HAS(c, PGPK_CANON_SIGNATURE) || !PGPK_HAS(c, PGPK_CANON_CONTENT))
		ret = pgpk_refuse(-EBADMSG, "pgpk_test takes a signature with content");
	/* the content is signed and kept (nothing reads data after preparse) */
	prep->data = c->content.data;
	prep->datalen = c->content.len;
	for (r = 0; r < 2 && rings[r] && ret == -ENOKEY; r++)
		ret = pgpk_sigs_check(c, prep->data, prep->datalen, rings[r]);
	ret = ret ?: user_preparse(prep);
	kfree(ans);
	return ret;
}

static struct key_type pgpk_key_type_test = {
	.name		= "pgpk_test",
	.preparse	= pgpk_test_preparse,
	.free_preparse	= user_free_preparse,
	.instantiate	= generic_key_instantiate,
	.revoke		= user_revoke,
	.destroy	= user_destroy,
	.describe	= user_describe,
	.read		= user_read,
};

/* The test key type first: then nothing fails once hashes are allocated. */
int pgpk_sig_init(void)
{
	struct crypto_shash *tfm;
	int i, ret = 0;

	if (IS_ENABLED(CONFIG_OPENPGP_TEST_KEY))
		ret = register_key_type(&pgpk_key_type_test);
	for (i = 0; !ret && i < ARRAY_SIZE(pgpk_hashes); i++) {
		tfm = crypto_alloc_shash(hash_algo_name[pgpk_hashes[i]], 0, 0);
		pgpk_tfm[pgpk_hashes[i]] = IS_ERR(tfm) ? NULL : tfm;
		/* a hash this kernel lacks: ENOPKG later; no memory: no module */
		ret = tfm == ERR_PTR(-ENOMEM) ? -ENOMEM : 0;
	}
	if (ret && i)	/* the test key type was registered */
		pgpk_sig_exit();
	return ret;
}

void pgpk_sig_exit(void)
{
	int i;

	if (IS_ENABLED(CONFIG_OPENPGP_TEST_KEY))
		unregister_key_type(&pgpk_key_type_test);
	for (i = 0; i < ARRAY_SIZE(pgpk_hashes); i++)
		crypto_free_shash(pgpk_tfm[pgpk_hashes[i]]);	/* NULL: nothing */
}
