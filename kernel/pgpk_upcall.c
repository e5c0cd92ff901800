// SPDX-License-Identifier: GPL-2.0
/*
 * Key type "pgpk": the upcall that asks pgpk-helper to convert OpenPGP
 * bytes to the canonical encoding, and the module's cache of answers.
 *
 * request_key_with_auxdata() searches the caller's keyrings and links
 * what it constructs into the caller's default keyring.  The request is
 * therefore made with credentials whose thread keyring is the module's
 * cache keyring: the cache is searched first, every answer (positive, or
 * negative with the helper's timeout) is linked there, and one upcall
 * serves every caller whatever its session, until the answer times out.
 * The cache is also searched directly first, for negative answers.
 *
 * Only a verdict about the bytes (pgpk_upcall_is_verdict()) is shared.
 * A rejection for anything else -- the requester's key quota, a killed
 * or late parser, memory -- is the requester's own: a negative key with
 * such an error matches no search (pgpk_upcall_cmp()), so it is never
 * served, neither by the direct lookup nor by request_key(), and the
 * next requester's upcall replaces it in the cache.  A requester told
 * such a rejection, which may come from someone else's upcall that his
 * request joined, asks once more in a keyring of his own that no other
 * request can join (pgpk_request()), for himself.  This holds
 * whatever timeout the helper gave: a buggy or subverted helper cannot
 * make one user's circumstance everyone's verdict.
 *
 * Like dns_resolver, the kernel re-validates what its own helper said:
 * the payload is strictly decoded here and again by its reader.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/ctype.h>
#include <linux/cred.h>
#include <linux/key-type.h>
#include <linux/keyctl.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <crypto/sha2.h>
#include "pgpk.h"

#define PGPK_HASH_HEX	(SHA256_DIGEST_SIZE * 2)
#define PGPK_PREFIX_LEN	4	/* "key:" or "sig:" */

static unsigned int pgpk_cache_ttl = 600;
module_param_named(cache_ttl, pgpk_cache_ttl, uint, 0644);
MODULE_PARM_DESC(cache_ttl,
		 "Seconds a positive upcall answer stays cached (default 600)");

static struct key *pgpk_cache;

/*
 * The rejections that say something about the submitted bytes, the same
 * for every requester (helper/pgpk_broker.h keeps the same list): EBADMSG
 * malformed, ENOPKG unsupported, EKEYREJECTED bad signature or policy,
 * EKEYEXPIRED expired, EMSGSIZE too big.  Not ENOKEY, although the helper
 * says it for a selected key the bytes lack: request_key() itself makes
 * a key ENOKEY when the helper could not run at all (no memory, no pids),
 * a circumstance a user can bring about.
 */
static bool pgpk_upcall_is_verdict(int error)
{
	switch (error) {
	case -EBADMSG:
	case -ENOPKG:
	case -EKEYREJECTED:
	case -EKEYEXPIRED:
	case -EMSGSIZE:
		return true;
	}
	return false;
}

struct pgpk_payload {
	size_t len;
	u8 data[];
};

/* The upcall contract: "key:<sha256>[:<select>]" or "sig:<sha256>". */
static int pgpk_upcall_vet_description(const char *desc)
{
	const char *sel = desc + PGPK_PREFIX_LEN + PGPK_HASH_HEX;
	char norm[PGPK_FPR_MAX * 2 + 1];
	bool key = !strncmp(desc, "key:", PGPK_PREFIX_LEN);
	size_t i;

	if (!key && strncmp(desc, "sig:", PGPK_PREFIX_LEN))
		return -EINVAL;
	for (i = PGPK_PREFIX_LEN; i < PGPK_PREFIX_LEN + PGPK_HASH_HEX; i++)
		if (!isdigit(desc[i]) && (desc[i] < 'a' || desc[i] > 'f'))
			return -EINVAL;
	if (!*sel)
		return 0;
	if (!key || *sel++ != ':' ||
	    pgpk_select_parse(sel, norm, sizeof(norm)) != strlen(sel) ||
	    strcmp(sel, norm))
		return -EINVAL;
	return 0;
}

/* Never cache what the kernel would refuse to read. */
static int pgpk_upcall_preparse(struct key_preparsed_payload *prep)
{
	struct pgpk_canon_error err;
	struct pgpk_payload *p;
	struct pgpk_canon c;
	int ret;

	if (!prep->data || !prep->datalen || prep->datalen > PGPK_MAX_BLOB)
		return -EINVAL;
	ret = pgpk_canon_decode(prep->data, prep->datalen, &c, &err);
	if (ret) {
		pr_warn_ratelimited("helper answer refused: %s at offset %u, field %u\n",
				    pgpk_canon_reason_str(err.reason), err.offset,
				    err.field);
		return ret;
	}
	p = kvmalloc(sizeof(*p) + prep->datalen, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->len = prep->datalen;
	memcpy(p->data, prep->data, prep->datalen);
	prep->payload.data[0] = p;
	prep->quotalen = prep->datalen;
	return 0;
}

static void pgpk_upcall_free_preparse(struct key_preparsed_payload *prep)
{
	kvfree(prep->payload.data[0]);
}

/* Only the helper answers, through request_key(); add_key() may not. */
static int pgpk_upcall_instantiate(struct key *key,
				   struct key_preparsed_payload *prep)
{
	if (!test_bit(KEY_FLAG_USER_CONSTRUCT, &key->flags))
		return -EPERM;
	return generic_key_instantiate(key, prep);
}

static void pgpk_upcall_destroy(struct key *key)
{
	kvfree(key->payload.data[0]);
}

static void pgpk_upcall_describe(const struct key *key, struct seq_file *m)
{
	const struct pgpk_payload *p = key->payload.data[0];

	seq_puts(m, key->description);
	if (key_is_positive(key))
		seq_printf(m, ": %zu", p->len);
}

static long pgpk_upcall_read(const struct key *key, char *buffer,
			     size_t buflen)
{
	const struct pgpk_payload *p = key->payload.data[0];

	if (!p)
		return -ENOKEY;
	if (buffer && buflen)
		memcpy(buffer, p->data, min(buflen, p->len));
	return p->len;
}

/*
 * A negative key that is not a verdict matches no search: not the direct
 * lookup, not request_key()'s (which then asks the helper again and links
 * the new key in its place), not keyctl search.
 */
static bool pgpk_upcall_cmp(const struct key *key,
			    const struct key_match_data *match_data)
{
	short state = key_read_state(key);

	if (state < 0 && !pgpk_upcall_is_verdict(state))
		return false;
	return strcmp(key->description, match_data->raw_data) == 0;
}

static int pgpk_upcall_match_preparse(struct key_match_data *match_data)
{
	match_data->cmp = pgpk_upcall_cmp;
	match_data->lookup_type = KEYRING_SEARCH_LOOKUP_DIRECT;
	return 0;
}

/* Expired answers (and the 2 s rejections) leave at the next gc run. */
static struct key_type pgpk_key_type_upcall = {
	.name			= "pgpk",
	.flags			= KEY_TYPE_INSTANT_REAP,
	.vet_description	= pgpk_upcall_vet_description,
	.match_preparse		= pgpk_upcall_match_preparse,
	.preparse		= pgpk_upcall_preparse,
	.free_preparse		= pgpk_upcall_free_preparse,
	.instantiate		= pgpk_upcall_instantiate,
	.destroy		= pgpk_upcall_destroy,
	.describe		= pgpk_upcall_describe,
	.read			= pgpk_upcall_read,
};

/*
 * The cache first, directly: request_key() would ignore a negative answer
 * with an error other than ENOKEY when a later keyring of the caller has
 * no match, and ask the helper again.  -EAGAIN: not cached; *joined is
 * then true if another caller's upcall this one waited for ended in a
 * rejection that is not a verdict (that caller's circumstance).
 */
static struct key *pgpk_cache_lookup(const char *desc, bool *joined)
{
	struct key *key;
	key_ref_t ref;
	short state;
	int ret;

	*joined = false;
	ref = keyring_search(make_key_ref(pgpk_cache, true),
			     &pgpk_key_type_upcall, desc, false);
	if (IS_ERR(ref)) {
		ret = PTR_ERR(ref);
		if (ret == -EKEYEXPIRED || ret == -EKEYREVOKED)
			ret = -EAGAIN;
		return ERR_PTR(ret);
	}
	key = key_ref_to_ptr(ref);
	/* Another caller's upcall may still be running. */
	ret = wait_for_key_construction(key, false);
	if (!ret)
		return key;
	state = key_read_state(key);
	key_put(key);
	if (state < 0 && pgpk_upcall_is_verdict(state))
		return ERR_PTR(state);
	/* A rejection that is no verdict, or an answer that just expired. */
	*joined = state < 0;
	return ERR_PTR(-EAGAIN);
}

/*
 * request_key() with @keyring as the thread keyring (see the top): the
 * cache, or a keyring of this request's own.
 */
static struct key *pgpk_request_in(struct key *keyring, const char *desc,
				   const struct pgpk_input *in)
{
	const struct cred *saved;
	struct cred *cred;
	struct key *key;

	cred = prepare_creds();
	if (!cred)
		return ERR_PTR(-ENOMEM);
	key_put(cred->thread_keyring);
	cred->thread_keyring = key_get(keyring);
	cred->jit_keyring = KEY_REQKEY_DEFL_THREAD_KEYRING;
	saved = override_creds(cred);
	key = request_key_with_auxdata(&pgpk_key_type_upcall, desc, NULL,
				       in->raw, in->raw_len, NULL);
	revert_creds(saved);
	put_cred(cred);
	return key;
}

/*
 * An upcall of our own, which no other request can join (the key is made
 * in a keyring only this request searches).  Its answer is not linked
 * into the cache: request_key() also searches the requester's own
 * keyrings, so it may be a key he holds and controls (his timeout, his
 * revocation), which must not serve others.
 */
static struct key *pgpk_request_own(const char *desc,
				    const struct pgpk_input *in)
{
	struct key *own, *key;

	own = keyring_alloc(".pgpk_request", GLOBAL_ROOT_UID, GLOBAL_ROOT_GID,
			    current_cred(), KEY_POS_ALL & ~KEY_POS_SETATTR,
			    KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	if (IS_ERR(own))
		return own;
	key = pgpk_request_in(own, desc, in);
	key_put(own);
	return key;
}

/*
 * The cache, then an upcall through the cache.  A rejection that is no
 * verdict may be another caller's whose upcall this one joined (his key
 * quota, his loop of doomed requests): then once more on our own, so that
 * what we are told is about us.  A requester whose own circumstance it
 * was pays a second upcall; an interrupted one does not retry.
 */
static struct key *pgpk_request(const char *desc, const struct pgpk_input *in)
{
	struct key *key;
	bool joined;
	int ret;

	key = pgpk_cache_lookup(desc, &joined);
	if (key != ERR_PTR(-EAGAIN))
		return key;
	if (!joined) {
		key = pgpk_request_in(pgpk_cache, desc, in);
		if (!IS_ERR(key))
			return key;
		ret = PTR_ERR(key);
		if (pgpk_upcall_is_verdict(ret) || ret == -ERESTARTSYS ||
		    ret == -EINTR)
			return key;
	}
	return pgpk_request_own(desc, in);
}

/**
 * pgpk_upcall - get the canonical form of OpenPGP bytes from the helper
 * @kind: "key" or "sig"
 * @in: the bytes as submitted (the callout data)
 * @select: for "key": the subkey to select (upper-case hex), or NULL
 * @ans: the strictly decoded answer; release with pgpk_answer_put()
 *
 * Return: 0, the helper's rejection errno, or -EBADMSG for an answer that
 * is not canonical.
 */
int pgpk_upcall(const char *kind, const struct pgpk_input *in,
		const char *select, struct pgpk_answer *ans)
{
	struct pgpk_canon_error err;
	u8 hash[SHA256_DIGEST_SIZE];
	const struct pgpk_payload *p;
	struct key *key;
	time64_t expiry;
	char *desc;
	int ret;

	sha256(in->raw, in->raw_len, hash);
	desc = kasprintf(GFP_KERNEL, "%s:%*phN%s%s", kind,
			 SHA256_DIGEST_SIZE, hash, select ? ":" : "",
			 select ?: "");
	if (!desc)
		return -ENOMEM;
	key = pgpk_request(desc, in);
	if (IS_ERR(key)) {
		ret = PTR_ERR(key);
		pr_info_ratelimited("upcall %s refused: %d\n", desc, ret);
		goto error_free_desc;
	}
	/* No timeout: TIME64_MAX (key_alloc()), 0 in older kernels. */
	expiry = READ_ONCE(key->expiry);
	if ((!expiry || expiry == TIME64_MAX) && pgpk_cache_ttl)
		key_set_timeout(key, pgpk_cache_ttl);

	p = key->payload.data[0];
	ret = pgpk_canon_decode(p->data, p->len, &ans->canon, &err);
	if (ret) {
		pr_warn_ratelimited("upcall %s: answer refused: %s at offset %u\n", desc,
				    pgpk_canon_reason_str(err.reason), err.offset);
		key_put(key);
		goto error_free_desc;
	}
	ans->key = key;
error_free_desc:
	kfree(desc);
	return ret;
}

void pgpk_answer_put(struct pgpk_answer *ans)
{
	key_put(ans->key);
	ans->key = NULL;
}

int pgpk_upcall_init(void)
{
	int ret;

	ret = register_key_type(&pgpk_key_type_upcall);
	if (ret)
		return ret;
	pgpk_cache = keyring_alloc(".pgpk_cache", GLOBAL_ROOT_UID,
				   GLOBAL_ROOT_GID, current_cred(),
				   (KEY_POS_ALL & ~KEY_POS_SETATTR) |
				   KEY_USR_VIEW | KEY_USR_READ | KEY_USR_WRITE,
				   KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	if (IS_ERR(pgpk_cache)) {
		unregister_key_type(&pgpk_key_type_upcall);
		return PTR_ERR(pgpk_cache);
	}
	return 0;
}

void pgpk_upcall_exit(void)
{
	key_revoke(pgpk_cache);
	key_put(pgpk_cache);
	unregister_key_type(&pgpk_key_type_upcall);
}
