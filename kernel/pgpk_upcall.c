// SPDX-License-Identifier: GPL-2.0
/*
 * The upcall of the asymmetric key parser "pgpk" (pgpk_key.c): OpenPGP
 * octets given to add_key() are converted to the canonical form by
 * pgpk-helper, which /sbin/request-key runs, and the answer is bound to
 * them.  Built with CONFIG_OPENPGP_KEY_UPCALL; without it only the
 * canonical form is taken (pgpk-helper import, in user space).
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
 *    answer, not the program, at most
 *    CONFIG_OPENPGP_KEY_UPCALL_TIMEOUT seconds, killably.
 *
 * Binding (trust rule 2): an answer describes the submitted bytes.  It is
 * the certificate's primary key, whose packet (and user ID) the kernel
 * rebuilds must be a whole top-level packet at the offset the helper
 * named; the certification's RSA value must be at its own offset.
 * Subkeys come as canonical blobs (pgpk-helper import, pgpk-helper key).
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/pid.h>
#include <linux/random.h>
#include <linux/umh.h>
#include <linux/wait_bit.h>
#include <keys/request_key_auth-type.h>
#include "pgpk.h"

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
 * waited for, then at most CONFIG_OPENPGP_KEY_UPCALL_TIMEOUT seconds for
 * the answer.  A program still running when the request fails (no answer
 * in time, the requester killed) is killed: nothing of a request outlives
 * it.
 */
static int pgpk_upcall_actor(struct key *authkey, void *aux)
{
	char arg[10][36] = { "/sbin/request-key", "create", [8] = "HOME=/",
			     "PATH=/sbin:/bin:/usr/sbin:/usr/bin" };
	unsigned int secs = CONFIG_OPENPGP_KEY_UPCALL_TIMEOUT;
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
struct key_type pgpk_key_type_upcall = {
	.name		= "pgpk",
	.def_datalen	= 4096,
	.flags		= KEY_TYPE_INSTANT_REAP,
	.preparse	= pgpk_upcall_preparse,
	.free_preparse	= user_free_preparse,
	.instantiate	= pgpk_upcall_instantiate,
	.destroy	= user_destroy,
	.request_key	= pgpk_upcall_actor,
};

/* An answer's key is in @data where the helper said (trust rule 2). */
int pgpk_bind(const u8 *data, size_t len, const struct pgpk_key *k)
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
 * The helper's canonical form of OpenPGP bytes @data (the callout data):
 * the decoded answer (@ans->key holds its octets; pgpk_bind() then checks
 * it), or the helper's rejection errno, -ETIMEDOUT, -EBADMSG for an
 * answer that is not canonical.
 */
struct pgpk_answer *pgpk_upcall(const u8 *data, size_t len)
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
		ans->key = key;	/* ans->canon points into its payload */
	return ans;
}
