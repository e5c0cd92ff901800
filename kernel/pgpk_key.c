// SPDX-License-Identifier: GPL-2.0
/*
 * A decoded canonical Key becomes an asymmetric key payload: the RSA
 * public key in the DER form the kernel's RSA takes, key IDs computed
 * here (fingerprint and key ID), a description, and asym_auth, the
 * certification with a digest computed here, for restricted keyrings
 * (chosen by pgpk_certify.c).
 *
 * The kernel's policy floor for keys (trust rule 5) is here too, applied
 * whoever submits the key and however: an RSA modulus of at least
 * min_rsa_bits (and its primary's, for a subkey), an expiry no later than
 * OpenPGP can express, and only v4/v6 certifications with a strong hash
 * as asym_auth.
 *
 * The key's subtype is pgpk_key_subtype (pgpk_subtype.c), which holds a
 * reference on this module for as long as the key lives.  A subkey whose
 * binding signature carries the IMA mark (pgpk_ima.h), verified here with
 * its primary key, is dedicated to IMA (pgpk_ima_confirm()).
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <crypto/akcipher.h>
#include <keys/asymmetric-subtype.h>
#include "pgpk.h"
#include "pgpk_ima.h"
#include "pgpk_rebuild.h"

#define PGPK_DESC_MAX		255	/* as the 2022 patch set */
#define PGPK_MIN_RSA_BITS	2048	/* the helper's default; no lower */

static unsigned int pgpk_min_rsa_bits = PGPK_MIN_RSA_BITS;

static int pgpk_set_min_rsa_bits(const char *val,
				 const struct kernel_param *kp)
{
	unsigned int bits;

	if (kstrtouint(val, 0, &bits) || bits < PGPK_MIN_RSA_BITS)
		return -EINVAL;
	return param_set_uint(val, kp);
}

static const struct kernel_param_ops pgpk_min_rsa_bits_ops = {
	.set	= pgpk_set_min_rsa_bits,
	.get	= param_get_uint,
};

module_param_cb(min_rsa_bits, &pgpk_min_rsa_bits_ops, &pgpk_min_rsa_bits,
		0644);
MODULE_PARM_DESC(min_rsa_bits,
		 "Smallest RSA modulus in bits, 2048 or more (default 2048)");

/* X.690 8.1.3: definite length octets, short or long form. */
static size_t pgpk_der_len_size(size_t len)
{
	return len < 0x80 ? 1 : len < 0x100 ? 2 : 3;
}

static u8 *pgpk_der_header(u8 *p, u8 tag, size_t len)
{
	*p++ = tag;
	if (len >= 0x100) {
		*p++ = 0x82;
		*p++ = len >> 8;
	} else if (len >= 0x80) {
		*p++ = 0x81;
	}
	*p++ = len;
	return p;
}

/* X.690 8.3: a non-negative INTEGER needs 0x00 before a set top bit. */
static size_t pgpk_der_int_len(const struct pgpk_bytes *b)
{
	return b->len + (b->data[0] >> 7);
}

static u8 *pgpk_der_int(u8 *p, const struct pgpk_bytes *b)
{
	p = pgpk_der_header(p, 0x02, pgpk_der_int_len(b));
	if (b->data[0] & 0x80)
		*p++ = 0;
	memcpy(p, b->data, b->len);
	return p + b->len;
}

/*
 * RFC 8017 A.1.1: RSAPublicKey ::= SEQUENCE { modulus INTEGER,
 * publicExponent INTEGER }, the form crypto/rsa.c parses.  n and e are at
 * most PGPK_MAX_MPI octets, so every length fits in two octets.
 */
static int pgpk_rsa_der(const struct pgpk_key_material *m, struct public_key *pub)
{
	size_t n = pgpk_der_int_len(&m->rsa_n), e = pgpk_der_int_len(&m->rsa_e);
	size_t body = 1 + pgpk_der_len_size(n) + n + 1 + pgpk_der_len_size(e) + e;
	u8 *p;

	pub->keylen = 1 + pgpk_der_len_size(body) + body;
	pub->key = kmalloc(pub->keylen, GFP_KERNEL);
	if (!pub->key)
		return -ENOMEM;
	p = pgpk_der_header(pub->key, 0x30, body);
	p = pgpk_der_int(p, &m->rsa_n);
	pgpk_der_int(p, &m->rsa_e);
	return 0;
}

/* Policy floor: the modulus length in bits (n has no leading zero). */
static int pgpk_rsa_bits_check(const struct pgpk_key_material *m,
			       const struct pgpk_key_id *id)
{
	u32 bits = (m->rsa_n.len - 1) * 8 + fls(m->rsa_n.data[0]);
	u32 min = READ_ONCE(pgpk_min_rsa_bits);

	if (bits >= min)
		return 0;
	pr_warn_ratelimited("policy: key %*phN has %u-bit RSA, min_rsa_bits is %u\n",
			    PGPK_KEYID_LEN, id->keyid, bits, min);
	return -EKEYREJECTED;
}

/* Let the kernel's RSA judge the key. */
static int pgpk_rsa_check(const struct public_key *pub)
{
	struct crypto_akcipher *tfm;
	int ret;

	tfm = crypto_alloc_akcipher("rsa", 0, 0);
	if (IS_ERR(tfm))
		return -ENOPKG;
	ret = crypto_akcipher_set_pub_key(tfm, pub->key, pub->keylen);
	crypto_free_akcipher(tfm);
	if (ret) {
		pr_warn_ratelimited("RSA key refused by the kernel's RSA (%d)\n", ret);
		return -ENOPKG;
	}
	return ret;
}

/*
 * A description that selects a key: its key ID (16 hex digits) or
 * fingerprint (40 for v4, 64 for v6), optionally with "0x".  Copies it in
 * upper case to @out, the form the upcall description uses.
 */
int pgpk_select_parse(const char *desc, char *out, size_t size)
{
	size_t i, n;

	if (!desc)
		return 0;
	if (desc[0] == '0' && (desc[1] == 'x' || desc[1] == 'X'))
		desc += 2;
	n = strlen(desc);
	if ((n != 16 && n != 40 && n != 64) || n >= size)
		return 0;
	for (i = 0; i < n; i++) {
		if (!isxdigit(desc[i]))
			return 0;
		out[i] = toupper(desc[i]);
	}
	out[n] = '\0';
	return n;
}

static bool pgpk_select_match(const char *select, const struct pgpk_key_id *id)
{
	size_t n = strlen(select) / 2;
	u8 want[PGPK_FPR_MAX];

	if (n > sizeof(want) || hex2bin(want, select, n))
		return false;
	if (n == PGPK_KEYID_LEN)
		return !memcmp(want, id->keyid, n);
	return n == id->fpr_len && !memcmp(want, id->fpr, n);
}

/*
 * The 2022 patch set's description: the user ID without its comment, a
 * space, the last 8 hex digits of the key ID.  Without a user ID (a
 * subkey): "PGP key" or "PGP subkey" and the whole key ID.
 */
static char *pgpk_describe(const struct pgpk_key *k,
			   const struct pgpk_key_id *id)
{
	const char *uid = (const char *)k->user_id.data;
	const char *paren;
	char *desc;
	size_t i, len;

	/* "%.*s" stops at a NUL: so must len, which bounds the loop below. */
	len = strnlen(uid, k->user_id.len);
	paren = len ? memchr(uid, '(', len) : NULL;
	if (paren)
		len = paren - uid;
	while (len && uid[len - 1] == ' ')
		len--;
	if (!len)
		return kasprintf(GFP_KERNEL, "PGP %s %*phN",
				 k->subkey ? "subkey" : "key",
				 PGPK_KEYID_LEN, id->keyid);

	len = min_t(size_t, len, PGPK_DESC_MAX - 9);
	desc = kasprintf(GFP_KERNEL, "%.*s %*phN", (int)len, uid, 4,
			 id->keyid + PGPK_KEYID_LEN - 4);
	/* /proc/keys prints one key per line: no ASCII control characters. */
	for (i = 0; desc && i < len; i++)
		if ((u8)desc[i] < 0x20 || desc[i] == 0x7f)
			desc[i] = '?';
	return desc;
}

static struct asymmetric_key_ids *pgpk_key_ids(const struct pgpk_key_id *id)
{
	struct asymmetric_key_ids *kids;
	struct asymmetric_key_id *kid;

	kids = kzalloc(sizeof(*kids), GFP_KERNEL);
	if (!kids)
		return ERR_PTR(-ENOMEM);
	kid = asymmetric_key_generate_id(id->fpr, id->fpr_len, NULL, 0);
	if (IS_ERR(kid))
		goto error_free_kids;
	kids->id[0] = kid;
	kid = asymmetric_key_generate_id(id->keyid, PGPK_KEYID_LEN, NULL, 0);
	if (IS_ERR(kid))
		goto error_free_kids;
	kids->id[1] = kid;
	return kids;

error_free_kids:
	kfree(kids->id[0]);
	kfree(kids);
	return ERR_CAST(kid);
}

/*
 * RFC 9580 5.2.3.13: a key expires at most 2^32 - 1 seconds after its
 * creation.  A canonical key may say anything (2^64 - 1 overflowed the
 * key garbage collector's timer): clamp to what OpenPGP can express.
 */
static u64 pgpk_key_expiry(const struct pgpk_key *k)
{
	return min_t(u64, k->expires, (u64)k->material.created + U32_MAX);
}

static const u8 pgpk_ima_mark[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;

/*
 * The mark is one whole subpacket of @area: the framing is walked
 * (lengths only, pgpk_rebuild_subpacket()) and each subpacket of the
 * mark's length compared with it, so that the mark's octets inside
 * another subpacket's data (a notation's value) do not count.
 */
static bool pgpk_ima_marked(const struct pgpk_bytes *area)
{
	const u8 *p = area->data, *end = p + area->len, *head;
	u32 n;

	while (p < end) {
		head = p;
		if (!pgpk_rebuild_subpacket(&p, end, &n))
			return false;
		if (p + n - head == sizeof(pgpk_ima_mark) &&
		    !memcmp(head, pgpk_ima_mark, sizeof(pgpk_ima_mark)))
			return true;
		p += n;
	}
	return false;
}

/*
 * Is @k dedicated to IMA?  Only if its own certification carries the mark
 * (a whole subpacket, pgpk_ima.h) and is a subkey binding (0x18) that the
 * kernel hashes and verifies here, now, with the primary key: the mark is
 * in the octets the primary key's holder signed, whoever submitted them.
 * A mark that cannot be confirmed refuses the key: loaded as an ordinary
 * key, its IMA signatures would pass for OpenPGP document signatures.
 *
 * Return: 1 dedicated to IMA, 0 not marked, -EKEYREJECTED (or -ENOMEM).
 */
static int pgpk_ima_confirm(const struct pgpk_key *k,
			    const struct pgpk_key_id *id)
{
	const struct pgpk_sig *sig = &k->certification;
	struct public_key_signature *pks;
	struct public_key primary = { };
	const char *why;
	int ret;

	if (!PGPK_HAS(k, PGPK_KEY_CERTIFICATION) ||
	    !pgpk_ima_marked(&sig->hashed_area))
		return 0;
	why = "not a subkey binding signature";
	ret = -EKEYREJECTED;
	if (!k->subkey || sig->type != 0x18)
		goto error;
	/* RFC 9580 9.1: an RSA Encrypt-Only key (2) signs nothing. */
	why = "the primary key is RSA encrypt-only";
	if (k->primary.algorithm == 2)
		goto error;
	why = "binding signature expired";
	if (sig->expires && sig->expires <= ktime_get_real_seconds())
		goto error;
	why = "binding signature: digest or quick check";
	pks = pgpk_cert_digest(k, sig);
	if (IS_ERR(pks)) {
		ret = PTR_ERR(pks);
		goto error;
	}
	why = "binding signature does not verify with the primary key";
	primary.pkey_algo = "rsa";
	ret = pgpk_rsa_der(&k->primary, &primary);
	if (!ret)
		ret = pgpk_rsa_verify(&primary, pks, k->primary.rsa_n.len);
	kfree(primary.key);
	public_key_signature_free(pks);
	if (!ret)
		return 1;
error:
	pr_warn_ratelimited("key %*phN: IMA mark not confirmed: %s (%d)\n",
			    PGPK_KEYID_LEN, id->keyid, why, ret);
	return ret == -ENOMEM ? ret : -EKEYREJECTED;
}

/**
 * pgpk_key_load - fill an asymmetric key payload from a canonical Key
 * @prep: the payload being prepared
 * @k: the decoded (and, for OpenPGP input, bound) Key
 * @select: a key ID or fingerprint (upper-case hex) @k must have, or NULL
 *
 * Return: 0, -ENOKEY if @k is not the selected key, -EKEYEXPIRED if it
 * expired, -ENOPKG if the kernel cannot use it, -EKEYREJECTED if policy
 * refuses it or it carries an IMA mark the kernel cannot confirm,
 * -EBADMSG for a certification that does not fit the key.
 */
int pgpk_key_load(struct key_preparsed_payload *prep, const struct pgpk_key *k,
		  const char *select)
{
	struct public_key_signature *auth = NULL;
	struct asymmetric_key_ids *kids;
	u64 expires = pgpk_key_expiry(k);
	struct pgpk_public_key *pk;
	struct public_key *pub;
	struct pgpk_key_id id;
	int ret;

	ret = pgpk_key_identify(&k->material, &id);
	if (ret)
		return ret;
	/* An expired key would be garbage-collected out of its keyring. */
	if (expires && expires <= ktime_get_real_seconds()) {
		pr_warn_ratelimited("key %*phN expired at %llu\n", (int)id.fpr_len, id.fpr,
				    expires);
		return -EKEYEXPIRED;
	}
	if (select && !pgpk_select_match(select, &id)) {
		pr_warn_ratelimited("key %*phN is not the selected %s\n",
				    (int)id.fpr_len, id.fpr, select);
		return -ENOKEY;
	}
	/* RFC 9580 9.1: an RSA Encrypt-Only key (2) signs nothing. */
	if (k->material.algorithm == 2) {
		pr_warn_ratelimited("key %*phN is RSA encrypt-only\n",
				    (int)id.fpr_len, id.fpr);
		return -ENOPKG;
	}
	ret = pgpk_rsa_bits_check(&k->material, &id);
	if (!ret && k->subkey)
		ret = pgpk_rsa_bits_check(&k->primary, &id);
	if (ret)
		return ret;

	pk = kzalloc(sizeof(*pk), GFP_KERNEL);
	if (!pk)
		return -ENOMEM;
	pk->created = k->material.created;
	pk->bound = max(k->bound, k->material.created);
	pk->soft_revoked = k->soft_revoked;
	pk->has_soft_revoked = PGPK_HAS(k, PGPK_KEY_SOFT_REVOKED);
	pk->key_flags = PGPK_HAS(k, PGPK_KEY_KEY_FLAGS) ? k->key_flags : 0xff;
	pub = &pk->pub;
	pub->id_type = "PGP";
	pub->pkey_algo = "rsa";
	ret = pgpk_rsa_der(&k->material, pub);
	if (!ret)
		ret = pgpk_rsa_check(pub);
	if (ret)
		goto error_free_pub;

	kids = pgpk_key_ids(&id);
	if (IS_ERR(kids)) {
		ret = PTR_ERR(kids);
		goto error_free_pub;
	}
	/*
	 * Without a certification the kernel can check (none, expired, by a
	 * non-RSA key, v3, weak hash) the key is usable, but not in
	 * restricted keyrings.
	 */
	auth = pgpk_certify(k, &id);
	if (IS_ERR(auth)) {
		ret = PTR_ERR(auth);
		goto error_free_kids;
	}
	ret = pgpk_ima_confirm(k, &id);
	if (ret < 0)
		goto error_free_auth;
	if (ret)
		pgpk_key_mark_ima(pub);
	if (!prep->orig_description) {
		ret = -ENOMEM;
		prep->description = pgpk_describe(k, &id);
		if (!prep->description)
			goto error_free_auth;
	}
	if (expires)
		prep->expiry = expires;

	/* The key's subtype is our code: not if we are being unloaded. */
	ret = -ENODEV;
	if (!try_module_get(THIS_MODULE))
		goto error_free_desc;
	prep->payload.data[asym_subtype] = &pgpk_key_subtype;
	prep->payload.data[asym_key_ids] = kids;
	prep->payload.data[asym_crypto] = pub;
	prep->payload.data[asym_auth] = auth;
	prep->quotalen = 100;
	pr_debug("key %*phN loaded\n", (int)id.fpr_len, id.fpr);
	return 0;

error_free_desc:
	if (!prep->orig_description) {
		kfree(prep->description);
		prep->description = NULL;
	}
error_free_auth:
	public_key_signature_free(auth);
error_free_kids:
	kfree(kids->id[0]);
	kfree(kids->id[1]);
	kfree(kids);
error_free_pub:
	public_key_free(pub);
	return ret;
}
