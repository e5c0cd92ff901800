// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk: OpenPGP keys and signatures for the kernel keyrings, without an
 * OpenPGP parser in the kernel.  This file: the asymmetric key parser
 * "pgpk", its upcall, the trusted keyring ".pgpk", init and exit.
 *
 *   canonical blob -> strict decode                   -> load
 *   OpenPGP bytes  -> upcall -> strict decode -> bind -> load
 *   ASCII armor    -> upcall -> the helper's -EBADMSG ("use gpg --dearmor
 *                               or pgpk-helper import", in its log)
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
#include <linux/pid.h>
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
MODULE_PARM_DESC(min_rsa_bits, "Smallest RSA modulus in bits (2048 at least)");

static unsigned int pgpk_upcall_timeout = 5;
module_param_named(upcall_timeout, pgpk_upcall_timeout, uint, 0644);
MODULE_PARM_DESC(upcall_timeout, "Seconds add_key waits for pgpk-helper (1-60)");

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

/* /sbin/request-key's start: the request's keyring in, its pid out. */
struct pgpk_umh {
	struct key *ring;
	struct pid *pid;
};

static int pgpk_umh_init(struct subprocess_info *info, struct cred *cred)
{
	struct pgpk_umh *umh = info->data;

	key_put(cred->session_keyring);
	cred->session_keyring = key_get(umh->ring);
	umh->pid = get_pid(task_pid(current));
	return 0;
}

/*
 * The key type's request_key op: "/sbin/request-key create <key> <uid>
 * <gid> <thread, process and session keyrings>", as call_sbin_request_key()
 * (security/keys/request_key.c) runs it, with the request's own keyring as
 * its session keyring, holding the authorisation key; only its exec is
 * waited for, then at most upcall_timeout seconds for the answer.  A
 * program still running when the request fails (no answer in time, the
 * requester killed) is killed: nothing of a request outlives it.
 */
static int pgpk_upcall_actor(struct key *authkey, void *aux)
{
	char arg[10][36] = { "/sbin/request-key", "create", [8] = "HOME=/",
			     "PATH=/sbin:/bin:/usr/sbin:/usr/bin" };
	unsigned int secs = clamp_val(READ_ONCE(pgpk_upcall_timeout), 1, 60);
	struct key *key = get_request_key_auth(authkey)->target_key;
	char *argv[9] = { arg[0], arg[1], arg[2], arg[3], arg[4], arg[5],
			  arg[6], arg[7] }, *envp[3] = { arg[8], arg[9] };
	const struct cred *cred = current_cred();
	struct pgpk_umh umh = { cred->thread_keyring };
	struct subprocess_info *info;
	int ret = -EPERM;

	if (aux == &pgpk_upcall_cookie)	/* only the module asks */
		ret = key_link(umh.ring, authkey);
	sprintf(arg[2], "%d", key_serial(key));
	sprintf(arg[3], "%d", from_kuid(&init_user_ns, cred->fsuid));
	sprintf(arg[4], "%d", from_kgid(&init_user_ns, cred->fsgid));
	sprintf(arg[5], "%d", key_serial(umh.ring));
	sprintf(arg[6], "%d", key_serial(cred->process_keyring));
	sprintf(arg[7], "%d", key_serial(cred->session_keyring));
	/* pgpk_umh_init() runs before the exec this waits for: @umh lives */
	info = ret ? NULL : call_usermodehelper_setup(argv[0], argv, envp,
						      GFP_KERNEL, pgpk_umh_init,
						      NULL, &umh);
	if (info)
		ret = call_usermodehelper_exec(info, UMH_WAIT_EXEC);
	else if (!ret)
		ret = -ENOMEM;
	ret = ret ?: wait_on_bit_timeout(&key->flags, KEY_FLAG_USER_CONSTRUCT,
					 TASK_KILLABLE, secs * HZ);
	if (ret == -EAGAIN)
		ret = pgpk_refuse(-ETIMEDOUT, "key %x: no answer from pgpk-helper in %u s",
				  key_serial(key), secs);
	if (ret && umh.pid)
		kill_pid(umh.pid, SIGKILL, 1);
	put_pid(umh.pid);
	if (ret)
		key_reject_and_link(key, 0, -ret, NULL, authkey);
	return ret;
}

/*
 * A request in flight holds 4 KiB of its requester's key quota
 * (key_alloc() charges def_datalen until the answer, which is charged
 * nothing): with the default 20,000-octet quota (keys/maxbytes), a user
 * has at most 4 in flight, and one more is refused, EDQUOT, before
 * anything is started (trust rule 7).
 */
static struct key_type pgpk_key_type_upcall = {
	.name		= "pgpk",
	.def_datalen	= 4096,
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

	snprintf(desc, sizeof(desc), "key:%016llx%016llx", get_random_u64(),
		 get_random_u64());
	cred = prepare_creds();
	if (!cred)
		return ERR_PTR(-ENOMEM);
	ring = keyring_alloc(".pgpk_request", cred->fsuid, cred->fsgid, cred,
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
	const struct pgpk_sig *sig[2] = { &k->certification, &k->self_signature };
	const char *what = k->subkey ? "primary key (a subkey was answered)" :
			   NULL;
	size_t n, body, i;
	u8 *buf;

	buf = pgpk_key_packet(&k->material, &n, &body);
	if (!buf)
		return -ENOMEM;
	if (!what && !pgpk_packet_at(data, len, k->packet_offset,
				     PGPK_TAG_PUBLIC_KEY, buf + body, n - body))
		what = "key packet";
	else if (!what && k->user_id.data &&
		 !pgpk_packet_at(data, len, k->user_id_offset, PGPK_TAG_USER_ID,
				 k->user_id.data, k->user_id.len))
		what = "user ID packet";
	for (i = 0; !what && i < 2; i++)
		if (sig[i]->present &&
		    !pgpk_bytes_at(data, len, sig[i]->rsa_s_offset,
				   sig[i]->rsa_s.data, sig[i]->rsa_s.len))
			what = "signature value";
	kfree(buf);
	return what ? pgpk_refuse(-EKEYREJECTED, "binding: %s not where the helper said",
				  what) : 0;
}

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
		if (!IS_ERR(info))
			public_key_signature_free(&info->pks);
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
	u32 min = max(READ_ONCE(pgpk_min_rsa_bits), 2048u), fpr_len;
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
	pk = ret || IS_ERR(auth) ? NULL : kzalloc(sizeof(*pk), GFP_KERNEL);
	ret = ret ?: PTR_ERR_OR_ZERO(auth) ?: !pk ? -ENOMEM :
	      pgpk_self_sigs(k, pk, &expires, &named);
	if (!ret && expires && expires <= ktime_get_real_seconds())
		ret = pgpk_refuse(-EKEYEXPIRED, "key %*phN expired at %llu",
				  PGPK_KEYID_LEN, keyid, expires);
	if (!ret && !try_module_get(THIS_MODULE))
		ret = -ENODEV;	/* the key's subtype is our code */
	if (ret) {
		kfree(pk);
		if (!IS_ERR_OR_NULL(auth))
			public_key_signature_free(&auth->pks);
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
	kids = kzalloc(sizeof(*kids), GFP_KERNEL);
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

	switch (pgpk_canon_form(data, prep->datalen)) {
	case PGPK_FORM_CANONICAL:
		ans = pgpk_decode(data, prep->datalen, "canonical key");
		break;
	case PGPK_FORM_OPENPGP:
		ans = pgpk_upcall(data, prep->datalen);
		break;
	default:
		return -EBADMSG;	/* another parser's format */
	}
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
MODULE_LICENSE("GPL");
