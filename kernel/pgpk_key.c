// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk: OpenPGP keys and signatures for the kernel keyrings, without an
 * OpenPGP parser in the kernel.  This file: the asymmetric key parser
 * "pgpk", the trusted keyring ".pgpk", init and exit.
 *
 *   canonical blob -> strict decode                   -> load
 *   OpenPGP bytes  -> upcall -> strict decode -> bind -> load
 *                     (pgpk_upcall.c, CONFIG_OPENPGP_KEY_UPCALL; without
 *                     it OpenPGP octets are not this parser's: -EBADMSG)
 *
 * Loading: the RSA key in the DER form the kernel's RSA takes, which
 * judges it; fingerprint and key ID computed here; the policy floor
 * (trust rule 5: at least CONFIG_OPENPGP_KEY_MIN_RSA_BITS, for a
 * subkey's primary too; no later expiry than OpenPGP can say); the
 * self-signatures, verified here, say the key's use and life;
 * asym_auth, Key.certification's digest, which restrict.c verifies with
 * the trusted key (the helper, or whoever made a canonical blob, chose
 * it: a wrong choice is refused there).
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <crypto/akcipher.h>
#include <keys/system_keyring.h>
#include "pgpk.h"

/*
 * X.690 8.1.3, 8.3: a definite length; an INTEGER gets 0x00 first, which
 * keeps it positive whatever its first octet (crypto/rsa.c reads its
 * INTEGERs as unsigned and drops leading zeros: mpi_read_raw_data()).
 */
static u8 *pgpk_der(u8 *p, u8 tag, const u8 *data, size_t len)
{
	size_t pad = tag == 0x02, n = len + pad;

	*p++ = tag;
	if (n >= 0x80)
		*p++ = n >= 0x100 ? 0x82 : 0x81;
	if (n >= 0x100)
		*p++ = n >> 8;
	*p++ = n;
	*p = 0;
	memmove(p + pad, data, len);
	return p + n;
}

/*
 * RFC 8017 A.1.1: RSAPublicKey ::= SEQUENCE { modulus, publicExponent },
 * the form crypto/rsa.c takes; the kernel's RSA judges the key (6.1 knows
 * 2048, 3072 and 4096 bits: -ENOPKG for other sizes).  The INTEGERs are
 * written after room for the SEQUENCE, which then moves them into place.
 */
static int pgpk_rsa_key(const struct pgpk_key_material *m,
			struct public_key *pub)
{
	size_t room = m->rsa_n.len + m->rsa_e.len + 16;
	struct crypto_akcipher *tfm;
	u8 *der, *ints, *end;
	int ret;

	der = kmalloc(2 * room, GFP_KERNEL);
	if (!der)
		return -ENOMEM;
	pub->key = der;
	ints = der + room;
	end = pgpk_der(pgpk_der(ints, 0x02, m->rsa_n.data, m->rsa_n.len), 0x02,
		       m->rsa_e.data, m->rsa_e.len);
	pub->keylen = pgpk_der(der, 0x30, ints, end - ints) - der;
	pub->pkey_algo = "rsa";
	tfm = crypto_alloc_akcipher("rsa", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm) == -ENOMEM ? -ENOMEM : -ENOPKG;
	ret = crypto_akcipher_set_pub_key(tfm, pub->key, pub->keylen);
	crypto_free_akcipher(tfm);
	if (ret && ret != -ENOMEM)
		ret = pgpk_refuse(-ENOPKG, "RSA key refused by the kernel's RSA (%d)",
				  ret);
	return ret;
}

/*
 * What @sig, by @k's primary key or vouching for it, hashes (RFC 9580
 * 5.2.4): the primary key and the user ID (0x10..0x13), the primary key
 * alone (0x1f), or, @binding, the primary key and the subkey @k (0x18).
 * No other type vouches for a key (-EBADMSG).  A signature the kernel
 * cannot check (not RSA: -ENOPKG) or that the policy floor excludes (a
 * weak hash: -EKEYREJECTED) refuses the key: the helper leaves out such
 * certifications, and refuses such self-signatures.
 */
static struct pgpk_sig_info *pgpk_digest_of(const struct pgpk_key *k,
					    const struct pgpk_sig *sig,
					    bool binding)
{
	struct pgpk_signed what = { .key = { k->subkey ? &k->primary :
					     &k->material } };
	u32 type = sig->type;

	if (binding && k->subkey && type == PGPK_SIG_SUBKEY_BINDING)
		what.key[1] = &k->material;
	else if (!binding && type >= PGPK_SIG_CERT_FIRST &&
		 type <= PGPK_SIG_CERT_LAST && k->user_id.data)
		what.user_id = &k->user_id;
	else if (binding || type != PGPK_SIG_DIRECT_KEY)
		return ERR_PTR(pgpk_refuse(-EBADMSG, "type 0x%02x certifies nothing here",
					   type));
	return pgpk_sig_digest(sig, &what);
}

/*
 * A key's use and life, from self-signatures made by its primary key and
 * verified here (trust rule 10; RFC 9580 5.2.3.10: the self-signature
 * says what a key is for and until when): [0] the primary key's own, of
 * its version's kind, not the submitter's pick (RFC 9580 10.1.1, 10.1.3:
 * a v4 key's certification of its user ID, a v6 key's direct-key
 * signature): Key.self_signature, else the certification; [1] a subkey's
 * binding, its certification; [2] a subkey's first binding,
 * Key.first_binding, if older.  Key flags: [0] for a primary key, [1] for a subkey, which never
 * certifies; an expiry (the Key Expiration Time after the key's creation,
 * or the Signature Expiration Time): [0] and [1], the earliest; the
 * subkey signs from the oldest binding; it is dedicated to IMA if [1]
 * carries the mark, which a primary key's [0] may not.  @pk: key_flags,
 * bound, ima; *@expires: 0 (never) or when; *@named: [0] certifies the
 * user ID.
 */
static int pgpk_self_sigs(const struct pgpk_key *k, struct pgpk_public_key *pk,
			  u64 *expires, bool *named)
{
	const struct pgpk_key_material *pm = k->subkey ? &k->primary :
					     &k->material;
	const struct pgpk_sig *sig[3] = {
		PGPK_HAS(k, PGPK_KEY_SELF_SIGNATURE) ? &k->self_signature :
		k->subkey ? NULL : &k->certification,
		k->subkey ? &k->certification : NULL,
		PGPK_HAS(k, PGPK_KEY_FIRST_BINDING) ? &k->first_binding : NULL };
	struct public_key pri = { };
	struct pgpk_sig_info *info;
	u64 end = U64_MAX;
	int i, ret;

	ret = pgpk_rsa_key(pm, &pri);
	for (i = 0; i < 3 && !ret; i++) {
		if (i && !sig[i])	/* not needed */
			continue;
		info = sig[i] && sig[i]->present ? pgpk_digest_of(k, sig[i], i) :
		       ERR_PTR(-EKEYREJECTED);
		ret = PTR_ERR_OR_ZERO(info) ?:
		      pgpk_rsa_verify(&pri, pm->rsa_n.len, &info->pks) ?:
		      (!i && (info->h.marked || (pm->version == 6) !=
			      (info->type == PGPK_SIG_DIRECT_KEY)) ? -EKEYREJECTED : 0);
		if (ret)
			pgpk_refuse(ret, "self-sig [%d]: none, bad, of another kind or marked (%d)",
				    i, ret);
		if (!ret && i < 2 && info->h.key_expires)
			end = min(end, (u64)(i ? k->material.created : pm->created) +
				  info->h.key_expires);
		if (!ret && i < 2 && info->expires)
			end = min(end, info->expires);
		if (!ret && i == k->subkey)
			pk->key_flags = info->h.key_flags &
					~(k->subkey ? PGPK_KEY_FLAG_CERTIFY : 0);
		if (!ret && i)
			pk->bound = i == 1 ? info->h.created :
				    min(pk->bound, info->h.created);
		pk->ima |= !ret && i == 1 && info->h.marked;
		*named |= !ret && !i && info->type != PGPK_SIG_DIRECT_KEY;
		pgpk_subtype_destroy(NULL, IS_ERR(info) ? NULL : &info->pks);
	}
	kfree(pri.key);
	*expires = end == U64_MAX ? 0 : end;
	return ret;
}

/*
 * Fill the asymmetric key payload from canonical Key @k.  Whatever can be
 * -EBADMSG comes first: the next parser would be tried.  Once the subtype
 * is set, asymmetric_key_free_preparse() frees what is there on any
 * error.  RFC 9580 5.2.3.13, .18: an expiry is a 4-octet time after a
 * 4-octet one, before 2^33 (2^64 - 1 overflowed the key garbage
 * collector's timer); an expired key would vanish at the next collection.
 */
static int pgpk_key_load(struct key_preparsed_payload *prep,
			 const struct pgpk_key *k)
{
	u32 min = CONFIG_OPENPGP_KEY_MIN_RSA_BITS, fpr_len;
	const struct pgpk_key_material *m = &k->material;
	struct pgpk_sig_info *auth = NULL;
	struct asymmetric_key_ids *kids;
	u8 fpr[PGPK_FPR_MAX], *keyid;
	struct pgpk_public_key *pk;
	struct crypto_shash *tfm;
	u64 expires = 0;
	bool named = false;
	size_t len, body;
	u8 *buf;
	int ret;

	/* RFC 9580 5.5.4: v4 SHA-1, key ID its last 8 octets; v6 SHA-256 */
	tfm = pgpk_tfm[m->version == 6 ? HASH_ALGO_SHA256 : HASH_ALGO_SHA1];
	fpr_len = m->version == 6 ? 32 : 20;
	keyid = fpr + (m->version == 6 ? 0 : fpr_len - PGPK_KEYID_LEN);
	buf = pgpk_key_packet(m, &len, &body);
	ret = !tfm ? -ENOPKG : !buf ? -ENOMEM :
	      crypto_shash_tfm_digest(tfm, buf, len, fpr);
	kfree(buf);
	if (!ret && (m->rsa_n.bits < min ||
		     (k->subkey && k->primary.rsa_n.bits < min)))
		ret = pgpk_refuse(-EKEYREJECTED,
				  "policy: key %*phN or its primary: RSA below min_rsa_bits %u",
				  PGPK_KEYID_LEN, keyid, min);
	if (!ret && k->certification.present)
		auth = pgpk_digest_of(k, &k->certification, k->subkey);
	pk = ret || IS_ERR(auth) ? NULL : kzalloc_obj(*pk);
	ret = ret ?: PTR_ERR_OR_ZERO(auth) ?: !pk ? -ENOMEM :
	      pgpk_self_sigs(k, pk, &expires, &named);
	if (!ret && expires && expires <= ktime_get_real_seconds())
		ret = pgpk_refuse(-EKEYEXPIRED, "key %*phN expired at %llu",
				  PGPK_KEYID_LEN, keyid, expires);
	if (!ret && !try_module_get(THIS_MODULE))
		ret = -ENODEV;	/* the key's subtype is our code */
	if (ret) {	/* pk has no key yet */
		pgpk_subtype_destroy(pk, IS_ERR_OR_NULL(auth) ? NULL : &auth->pks);
		return ret;
	}
	prep->payload.data[asym_subtype] = &pgpk_key_subtype;
	prep->payload.data[asym_crypto] = pk;
	prep->payload.data[asym_auth] = auth ? &auth->pks : NULL;
	pk->pub.id_type = pk->ima ? "PGP-IMA" : "PGP";
	pk->size = m->rsa_n.len;
	pk->bound = max(pk->bound, m->created);
	pk->soft_revoked = PGPK_HAS(k, PGPK_KEY_SOFT_REVOKED) ? k->soft_revoked :
			   U32_MAX;
	/*
	 * The verified key flags as X.509's usage, for restrict_link_by_ca()
	 * and restrict_link_by_digsig(): certify is a CA's keyCertSign, sign
	 * digitalSignature (RFC 9580 5.2.3.29).
	 */
	pgpk_set_eflags(&pk->pub, (pk->key_flags & PGPK_KEY_FLAG_CERTIFY ?
			BIT(KEY_EFLAG_CA) | BIT(KEY_EFLAG_KEYCERTSIGN) : 0) |
			(pk->key_flags & PGPK_KEY_FLAG_SIGN ?
			 BIT(KEY_EFLAG_DIGITALSIG) : 0));
	kids = kzalloc_obj(*kids);
	prep->payload.data[asym_key_ids] = kids;
	ret = pgpk_rsa_key(m, &pk->pub) ?: !kids ? -ENOMEM :
	      pgpk_ids((struct asymmetric_key_id **)kids->id, fpr, fpr_len,
		       keyid);
	if (!ret && !prep->orig_description) {
		prep->description = kmalloc(PGPK_NAME_SIZE, GFP_KERNEL);
		if (prep->description)
			pgpk_name(named ? &k->user_id : NULL, k->subkey, keyid,
				  prep->description);
		ret = prep->description ? 0 : -ENOMEM;
	}
	prep->expiry = expires ?: TIME64_MAX;	/* 0: never */
	prep->quotalen = 100;
	return ret;
}

static int pgpk_parse(struct key_preparsed_payload *prep)
{
	const u8 *data = prep->data;
	struct pgpk_answer *ans;
	int ret;

	switch (pgpk_canon_form(data, prep->datalen)) {
	case PGPK_FORM_CANONICAL:
		ans = pgpk_decode(data, prep->datalen, "canonical key");
		break;
	case PGPK_FORM_OPENPGP:	/* converted by the helper, if built */
		ans = IS_ENABLED(CONFIG_OPENPGP_KEY_UPCALL) ?
		      pgpk_upcall(data, prep->datalen) : ERR_PTR(-EBADMSG);
		break;
	default:
		return -EBADMSG;	/* another parser's format */
	}
	ret = PTR_ERR_OR_ZERO(ans);
	if (!ret && !PGPK_HAS(&ans->canon, PGPK_CANON_KEY))
		ret = pgpk_refuse(-EBADMSG, "a signature was given where a key was expected");
	if (!ret && IS_ENABLED(CONFIG_OPENPGP_KEY_UPCALL) && ans->key)
		ret = pgpk_bind(data, prep->datalen, &ans->canon.key);
	if (!ret)
		ret = pgpk_key_load(prep, &ans->canon.key);
	if (!IS_ERR(ans)) {
		key_put(ans->key);
		kfree(ans);
	}
	return ret;
}

static struct asymmetric_key_parser pgpk_key_parser = {
	.owner	= THIS_MODULE,
	.name	= "pgpk",
	.parse	= pgpk_parse,
};

/*
 * ".pgpk" holds the trust anchors: root adds them at boot (pgpk-anchors,
 * from /etc/pgpk/anchors/) and may then lock it ("keyctl
 * restrict_keyring %:.pgpk": nothing more can be linked, by anyone, until
 * reboot).  Everyone may view, read and search it; root may clear it (its
 * keys pin the module).
 */
struct key *pgpk_trusted_keys;

static int __init pgpk_init(void)
{
	int ret;

	pgpk_trusted_keys = keyring_alloc(".pgpk", GLOBAL_ROOT_UID,
					  GLOBAL_ROOT_GID, current_cred(),
					  KEY_POS_ALL | KEY_USR_ALL | KEY_OTH_VIEW |
					  KEY_OTH_READ | KEY_OTH_SEARCH,
					  KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	if (IS_ERR(pgpk_trusted_keys))
		return PTR_ERR(pgpk_trusted_keys);
	set_bit(KEY_FLAG_ROOT_CAN_CLEAR, &pgpk_trusted_keys->flags);
	ret = pgpk_sig_init();
	if (ret)
		goto error_put_trusted;
	if (IS_ENABLED(CONFIG_OPENPGP_KEY_UPCALL))
		ret = register_key_type(&pgpk_key_type_upcall);
	if (ret)
		goto error_sig;
	ret = register_asymmetric_key_parser(&pgpk_key_parser);
	if (!ret) {
		load_system_openpgp_keys();	/* the builtin keyring's, if any */
		return 0;
	}
	if (IS_ENABLED(CONFIG_OPENPGP_KEY_UPCALL))
		unregister_key_type(&pgpk_key_type_upcall);
error_sig:
	pgpk_sig_exit();
error_put_trusted:
	key_put(pgpk_trusted_keys);
	return ret;
}

static void __exit pgpk_exit(void)
{
	unregister_asymmetric_key_parser(&pgpk_key_parser);
	if (IS_ENABLED(CONFIG_OPENPGP_KEY_UPCALL))
		unregister_key_type(&pgpk_key_type_upcall);
	pgpk_sig_exit();
	key_revoke(pgpk_trusted_keys);
	key_put(pgpk_trusted_keys);
}

module_init(pgpk_init);
module_exit(pgpk_exit);

MODULE_DESCRIPTION("OpenPGP keys and signatures, parsed in user space");
MODULE_LICENSE("GPL");
