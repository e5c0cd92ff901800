// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk: OpenPGP keys and signatures for the kernel keyrings, without an
 * OpenPGP parser in the kernel.  This file: the asymmetric key parser
 * "pgpk", its upcall, the trusted keyring ".pgpk", init and exit.
 *
 *   canonical blob -> strict decode                   -> load
 *   OpenPGP bytes  -> upcall -> strict decode -> bind -> load
 *   ASCII armor    -> -EBADMSG, "use gpg --dearmor or pgpk-helper import"
 *
 * The upcall (key type "pgpk", /sbin/request-key, pgpk-helper) is
 *
 *  - private by construction (trust rule 7): every request has a
 *    description of its own ("key:<128 random bits>"), is made with
 *    credentials whose thread keyring is a new keyring of its own (where
 *    the answer is linked, and /sbin/request-key's session keyring), and
 *    carries the module's mark (request_key()'s aux).  No other request
 *    can join it, no key a user holds can answer it, its answer serves no
 *    one else.  Nothing is cached, as the X.509 parser caches nothing.
 *  - bounded (trust rule 8): add_key() runs the parser holding
 *    key_types_sem and the asymmetric parsers' rwsem for reading; a writer
 *    queued behind them (a key type or parser registration) would block
 *    every keyring operation on the system.  So the key type constructs
 *    its keys itself (its request_key op): /sbin/request-key is started as
 *    the kernel's upcall starts it, but the requester waits for the
 *    answer, not the program, at most upcall_timeout seconds, killably.
 *
 * Binding (trust rule 2): an answer describes the submitted bytes.  It is
 * the certificate's primary key, whose packet (and user ID) the kernel
 * rebuilds must be a whole top-level packet at the offset the helper
 * named; the certification's RSA value must be at its own offset.
 * Subkeys come as canonical blobs (pgpk-helper import, pgpk-helper key).
 *
 * Loading: the RSA key in the DER form the kernel's RSA takes, which
 * judges it; fingerprint and key ID computed here; the policy floor
 * (trust rule 5: at least min_rsa_bits, for a subkey's primary too; no
 * later expiry than OpenPGP can say); asym_auth, Key.certification's
 * digest, which restrict.c verifies with the trusted key (the helper, or
 * whoever made a canonical blob, chose it: a wrong choice is refused
 * there); the IMA mark, confirmed here.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/cred.h>
#include <linux/key-type.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/umh.h>
#include <linux/wait_bit.h>
#include <crypto/akcipher.h>
#include <crypto/hash.h>
#include <keys/asymmetric-parser.h>
#include <keys/asymmetric-subtype.h>
#include <keys/request_key_auth-type.h>
#include <keys/user-type.h>
#include "pgpk.h"

static unsigned int pgpk_min_rsa_bits = 2048;
module_param_named(min_rsa_bits, pgpk_min_rsa_bits, uint, 0644);
MODULE_PARM_DESC(min_rsa_bits,
		 "Smallest RSA modulus in bits; 2048 if lower (default 2048)");

static unsigned int pgpk_upcall_timeout = 5;
module_param_named(upcall_timeout, pgpk_upcall_timeout, uint, 0644);
MODULE_PARM_DESC(upcall_timeout,
		 "Seconds add_key waits for pgpk-helper, 1 to 60 (default 5)");

static const u8 pgpk_ima_mark[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;

/* request_key()'s aux: the request is the module's own. */
static int pgpk_upcall_cookie;

/*
 * The answer is not charged to the requester's quota: like add_key()'s
 * own copy of its payload, it lives for the one add_key() that asked.
 */
static int pgpk_upcall_preparse(struct key_preparsed_payload *prep)
{
	int ret = user_preparse(prep);

	prep->quotalen = 0;
	return ret;
}

/* Only the helper answers, through request_key(); add_key() may not. */
static int pgpk_upcall_instantiate(struct key *key,
				   struct key_preparsed_payload *prep)
{
	if (!test_bit(KEY_FLAG_USER_CONSTRUCT, &key->flags))
		return -EPERM;
	return generic_key_instantiate(key, prep);
}

static int pgpk_umh_init(struct subprocess_info *info, struct cred *cred)
{
	key_put(cred->session_keyring);
	cred->session_keyring = key_get(info->data);
	return 0;
}

/*
 * The key type's request_key op: "/sbin/request-key create <key> <uid>
 * <gid> <thread, process and session keyrings>", as call_sbin_request_key()
 * (security/keys/request_key.c) runs it, with the request's own keyring as
 * its session keyring, holding the authorisation key; only its exec is
 * waited for.  Then at most upcall_timeout seconds for the answer.
 */
static int pgpk_upcall_actor(struct key *authkey, void *aux)
{
	char arg[10][36] = { "/sbin/request-key", "create", [8] = "HOME=/",
			     "PATH=/sbin:/bin:/usr/sbin:/usr/bin" };
	unsigned int secs = clamp_val(READ_ONCE(pgpk_upcall_timeout), 1, 60);
	struct key *key = get_request_key_auth(authkey)->target_key;
	char *argv[9] = { }, *envp[3] = { arg[8], arg[9] };
	const struct cred *cred = current_cred();
	struct key *ring = cred->thread_keyring;
	struct subprocess_info *info;
	int i, ret = -EPERM;

	if (aux == &pgpk_upcall_cookie)	/* only the module asks */
		ret = key_link(ring, authkey);
	sprintf(arg[2], "%d", key_serial(key));
	sprintf(arg[3], "%d", from_kuid(&init_user_ns, cred->fsuid));
	sprintf(arg[4], "%d", from_kgid(&init_user_ns, cred->fsgid));
	sprintf(arg[5], "%d", key_serial(ring));
	sprintf(arg[6], "%d", key_serial(cred->process_keyring));
	sprintf(arg[7], "%d", key_serial(cred->session_keyring));
	for (i = 0; i < 8; i++)
		argv[i] = arg[i];
	/* pgpk_umh_init() runs before the exec this waits for: @ring lives */
	info = ret ? NULL : call_usermodehelper_setup(argv[0], argv, envp,
						      GFP_KERNEL, pgpk_umh_init,
						      NULL, ring);
	if (info)
		ret = call_usermodehelper_exec(info, UMH_WAIT_EXEC);
	else if (!ret)
		ret = -ENOMEM;
	ret = ret ?: wait_on_bit_timeout(&key->flags, KEY_FLAG_USER_CONSTRUCT,
					 TASK_KILLABLE, secs * HZ);
	if (ret == -EAGAIN)
		ret = pgpk_refuse(-ETIMEDOUT, "key %x: no answer from pgpk-helper in %u s",
				  key_serial(key), secs);
	if (ret)
		key_reject_and_link(key, 0, -ret, NULL, authkey);
	return ret;
}

static struct key_type pgpk_key_type_upcall = {
	.name		= "pgpk",
	.flags		= KEY_TYPE_INSTANT_REAP,
	.preparse	= pgpk_upcall_preparse,
	.free_preparse	= user_free_preparse,
	.instantiate	= pgpk_upcall_instantiate,
	.destroy	= user_destroy,
	.request_key	= pgpk_upcall_actor,
};

/*
 * The helper's canonical form of OpenPGP bytes @data (the callout data):
 * the decoded answer, or the helper's rejection errno, -ETIMEDOUT,
 * -EBADMSG for an answer that is not canonical.
 */
static struct pgpk_answer *pgpk_upcall(const u8 *data, size_t len)
{
	const struct user_key_payload *p;
	char desc[sizeof("key:") + 32];
	struct key *ring, *key;
	const struct cred *saved;
	struct pgpk_answer *ans;
	struct cred *cred;
	u8 nonce[16];

	get_random_bytes(nonce, sizeof(nonce));
	snprintf(desc, sizeof(desc), "key:%*phN", (int)sizeof(nonce), nonce);
	cred = prepare_creds();
	ring = !cred ? ERR_PTR(-ENOMEM) :
	       keyring_alloc(".pgpk_request", cred->fsuid, cred->fsgid, cred,
			     KEY_POS_ALL, KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	key = ERR_CAST(ring);
	if (!IS_ERR(ring)) {
		key_put(cred->thread_keyring);
		cred->thread_keyring = ring;
		cred->jit_keyring = KEY_REQKEY_DEFL_THREAD_KEYRING;
		saved = override_creds(cred);
		key = request_key_with_auxdata(&pgpk_key_type_upcall, desc,
					       NULL, data, len,
					       &pgpk_upcall_cookie);
		revert_creds(saved);
	}
	if (cred)
		put_cred(cred);
	if (IS_ERR(key))
		return ERR_PTR(pgpk_refuse(PTR_ERR(key), "upcall %s refused: %ld",
					   desc, PTR_ERR(key)));
	p = key->payload.data[0];
	ans = pgpk_decode(p->data, p->datalen, "helper answer");
	if (IS_ERR(ans))
		key_put(key);
	else
		ans->key = key;
	return ans;
}

static int pgpk_bind(const u8 *data, size_t len, const struct pgpk_key *k)
{
	const struct pgpk_sig *cert = &k->certification;
	const char *what = NULL;
	size_t n, body;
	u8 *buf;

	if (k->subkey)
		return pgpk_refuse(-EKEYREJECTED, "binding: the helper answered with a subkey");
	buf = pgpk_key_packet(&k->material, &n, &body);
	if (!buf)
		return -ENOMEM;
	if (!pgpk_packet_at(data, len, k->packet_offset, PGPK_TAG_PUBLIC_KEY,
			    buf + body, n - body))
		what = "key packet";
	else if (k->user_id.data &&
		 !pgpk_packet_at(data, len, k->user_id_offset, PGPK_TAG_USER_ID,
				 k->user_id.data, k->user_id.len))
		what = "user ID packet";
	else if (cert->present &&
		 !pgpk_bytes_at(data, len, cert->rsa_s_offset, cert->rsa_s.data,
				cert->rsa_s.len))
		what = "certification value";
	kfree(buf);
	return what ? pgpk_refuse(-EKEYREJECTED, "binding: %s not where the helper said",
				  what) : 0;
}

/* X.690 8.1.3, 8.3: a definite length; INTEGERs get 0x00 before a 1 bit. */
static u8 *pgpk_der(u8 *p, u8 tag, const u8 *data, size_t len)
{
	bool pad = tag == 0x02 && data[0] & 0x80;
	size_t n = len + pad;

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
		return -ENOPKG;
	ret = crypto_akcipher_set_pub_key(tfm, pub->key, pub->keylen);
	crypto_free_akcipher(tfm);
	return ret ? pgpk_refuse(-ENOPKG, "RSA key refused by the kernel's RSA (%d)",
				 ret) : 0;
}

/*
 * asym_auth: the digest of Key.certification, for restrict.c.  RFC 9580
 * 5.2.4: a subkey binding (0x18) hashes the primary key and the subkey, a
 * user ID certification (0x10..0x13, the key's own or a third party's) the
 * key and the user ID, a direct key signature (0x1f) the key alone; no
 * other type vouches (-EBADMSG).  A certification the kernel cannot check
 * (not RSA) or that the policy floor excludes (a weak hash) leaves the key
 * without authority: NULL.  *@ima: whether it carries the IMA mark.
 */
static struct pgpk_sig_info *pgpk_certification(const struct pgpk_key *k,
						bool *ima)
{
	const struct pgpk_sig *sig = &k->certification;
	struct pgpk_signed what = { .key = { &k->material } };
	struct pgpk_sig_info *info;

	*ima = false;
	if (!sig->present)
		return NULL;
	if (k->subkey && sig->type == PGPK_SIG_SUBKEY_BINDING)
		what = (struct pgpk_signed){ .key = { &k->primary, &k->material } };
	else if (!k->subkey && sig->type >= PGPK_SIG_CERT_FIRST &&
		 sig->type <= PGPK_SIG_CERT_LAST && k->user_id.data)
		what.user_id = &k->user_id;
	else if (k->subkey || sig->type != PGPK_SIG_DIRECT_KEY)
		return ERR_PTR(pgpk_refuse(-EBADMSG, "type 0x%02x certifies nothing here",
					   sig->type));
	info = pgpk_sig_digest(sig, &what, pgpk_ima_mark, ima);
	if (info != ERR_PTR(-ENOPKG) && (info != ERR_PTR(-EKEYREJECTED) ||
					 sig->hash_algorithm > 3))
		return info;
	return pgpk_refuse(NULL, "policy: certification by algorithm %u, hash %u: no authority",
			   sig->pubkey_algorithm, sig->hash_algorithm);
}

/*
 * A key dedicated to IMA: its own certification carries the mark (a whole
 * subpacket of its hashed area, pgpk_canon.h), is a subkey binding (0x18),
 * and verifies, here and now, with the primary key: the mark is in octets
 * the primary key's holder signed, whoever submitted them.  A mark that
 * cannot be confirmed refuses the key: loaded as an ordinary key, its IMA
 * signatures would pass for OpenPGP document signatures.
 */
static int pgpk_ima_confirm(const struct pgpk_key *k,
			    const struct pgpk_sig_info *auth)
{
	struct public_key primary = { };
	int ret = -EKEYREJECTED;

	if (auth && auth->type == PGPK_SIG_SUBKEY_BINDING)
		ret = pgpk_rsa_key(&k->primary, &primary) ?:
		      pgpk_rsa_verify(&primary, k->primary.rsa_n.len,
				      &auth->pks);
	kfree(primary.key);
	return ret ? pgpk_refuse(ret == -ENOMEM ? ret : -EKEYREJECTED,
				 "IMA mark not confirmed: no subkey binding that verifies with the primary key (%d)",
				 ret) : 0;
}

/*
 * Fill the asymmetric key payload from canonical Key @k.  Once the
 * subtype is set, asymmetric_key_free_preparse() frees what is there on
 * any error (none of them -EBADMSG: the next parser would be tried).
 * RFC 9580 5.2.3.13: a key expires at most 2^32 - 1 s after its creation
 * (a canonical key may say anything; 2^64 - 1 overflowed the key garbage
 * collector's timer); an expired one would vanish at the next collection.
 */
static int pgpk_key_load(struct key_preparsed_payload *prep,
			 const struct pgpk_key *k)
{
	u32 min = max(READ_ONCE(pgpk_min_rsa_bits), 2048u), i, fpr_len;
	u64 expires = min_t(u64, k->expires, (u64)k->material.created + U32_MAX);
	const struct pgpk_key_material *m = &k->material;
	struct asymmetric_key_ids *kids;
	u8 fpr[PGPK_FPR_MAX], *keyid;
	struct pgpk_sig_info *auth;
	struct pgpk_public_key *pk;
	struct crypto_shash *tfm;
	bool ima = false;
	size_t len, body;
	u8 *buf;
	int ret;

	/* RFC 9580 5.5.4: v4 SHA-1, key ID its last 8 octets; v6 SHA-256 */
	tfm = crypto_alloc_shash(m->version == 6 ? "sha256" : "sha1", 0, 0);
	buf = IS_ERR(tfm) ? NULL : pgpk_key_packet(m, &len, &body);
	ret = !buf ? -ENOMEM : crypto_shash_tfm_digest(tfm, buf, len, fpr);
	fpr_len = IS_ERR(tfm) ? 0 : crypto_shash_digestsize(tfm);
	keyid = fpr + (m->version == 6 ? 0 : fpr_len - PGPK_KEYID_LEN);
	kfree(buf);
	if (!IS_ERR(tfm))
		crypto_free_shash(tfm);
	if (!ret && expires && expires <= ktime_get_real_seconds())
		ret = pgpk_refuse(-EKEYEXPIRED, "key %*phN expired at %llu",
				  PGPK_KEYID_LEN, keyid, expires);
	for (i = 0; !ret && i <= k->subkey; i++, m = &k->primary)
		if ((m->rsa_n.len - 1) * 8 + fls(m->rsa_n.data[0]) < min)
			ret = pgpk_refuse(-EKEYREJECTED,
					  "policy: key %*phN: RSA below min_rsa_bits %u",
					  PGPK_KEYID_LEN, keyid, min);
	auth = ret ? NULL : pgpk_certification(k, &ima);
	pk = ret || IS_ERR(auth) ? NULL : kzalloc(sizeof(*pk), GFP_KERNEL);
	ret = ret ?: PTR_ERR_OR_ZERO(auth) ?: !pk ? -ENOMEM :
	      !try_module_get(THIS_MODULE) ? -ENODEV : 0;
	if (ret) {	/* the key's subtype is our code: not while unloading */
		kfree(pk);
		if (!IS_ERR_OR_NULL(auth))
			public_key_signature_free(&auth->pks);
		return ret;
	}
	prep->payload.data[asym_subtype] = &pgpk_key_subtype;
	prep->payload.data[asym_crypto] = pk;
	prep->payload.data[asym_auth] = auth ? &auth->pks : NULL;
	pk->pub.id_type = ima ? "PGP-IMA" : "PGP";
	pk->ima = ima;
	pk->size = k->material.rsa_n.len;
	pk->created = k->material.created;
	pk->bound = max(k->bound, k->material.created);
	pk->soft_revoked = k->soft_revoked;
	pk->has_soft_revoked = PGPK_HAS(k, PGPK_KEY_SOFT_REVOKED);
	pk->key_flags = PGPK_HAS(k, PGPK_KEY_KEY_FLAGS) ? k->key_flags : 0xff;
	kids = kzalloc(sizeof(*kids), GFP_KERNEL);
	prep->payload.data[asym_key_ids] = kids;
	ret = pgpk_rsa_key(&k->material, &pk->pub) ?:
	      (ima ? pgpk_ima_confirm(k, auth) : 0) ?: !kids ? -ENOMEM :
	      pgpk_ids((struct asymmetric_key_id **)kids->id, fpr, fpr_len,
		       keyid);
	/* The user ID is the submitter's text: the key ID names the key. */
	if (!ret && !prep->orig_description) {
		prep->description = kasprintf(GFP_KERNEL, "PGP %s %*phN",
					      k->subkey ? "subkey" : "key",
					      PGPK_KEYID_LEN, keyid);
		ret = prep->description ? 0 : -ENOMEM;
	}
	if (!ret && expires)
		prep->expiry = expires;
	prep->quotalen = 100;
	return ret;
}

static int pgpk_parse(struct key_preparsed_payload *prep)
{
	const u8 *data = prep->data;
	struct pgpk_answer *ans;
	int ret;

	if (pgpk_canon_is_canonical(data, prep->datalen))
		ans = pgpk_decode(data, prep->datalen, "canonical key");
	else if (data[0] & 0x80)	/* RFC 9580 4.2 */
		ans = pgpk_upcall(data, prep->datalen);
	else if (prep->datalen > 15 && !memcmp(data, "-----BEGIN PGP ", 15))
		ans = ERR_PTR(pgpk_refuse(-EBADMSG,
					  "ASCII armor: use gpg --dearmor or pgpk-helper import"));
	else
		return -EBADMSG;	/* another parser's format */
	ret = PTR_ERR_OR_ZERO(ans);
	if (!ret && !PGPK_HAS(&ans->canon, PGPK_CANON_KEY))
		ret = pgpk_refuse(-EBADMSG, "a signature was given where a key was expected");
	if (!ret && ans->key)
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
	ret = register_key_type(&pgpk_key_type_upcall);
	if (ret)
		goto error_sig;
	ret = register_asymmetric_key_parser(&pgpk_key_parser);
	if (!ret)
		return 0;
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
	unregister_key_type(&pgpk_key_type_upcall);
	pgpk_sig_exit();
	key_revoke(pgpk_trusted_keys);
	key_put(pgpk_trusted_keys);
}

module_init(pgpk_init);
module_exit(pgpk_exit);

MODULE_DESCRIPTION("OpenPGP keys and signatures, parsed in user space");
MODULE_AUTHOR("pgpk");
MODULE_LICENSE("GPL");
