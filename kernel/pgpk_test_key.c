// SPDX-License-Identifier: GPL-2.0
/*
 * Key type "pgpk_test", for testing signature verification the way
 * pkcs7_test tests PKCS#7 and the 2022 pgp_test tested PGP: the payload
 * is a signed message (inline or cleartext signed, or a canonical
 * signature with content); .preparse verifies it against the module's
 * trusted keyring, then the caller's session keyring; the key's payload
 * is the signed content (at most 32767 octets, user_preparse()).  A bad
 * signature fails the add; of several signatures (pgpk_sigs_check()),
 * those whose key is in the keyring searched must all verify.
 *
 *	gpg --compress-algo=none -s content.txt
 *	keyctl padd pgpk_test t @s <content.txt.gpg
 */
#define pr_fmt(fmt) "pgpk_test: " fmt

#include <linux/cred.h>
#include <linux/key-type.h>
#include <keys/user-type.h>
#include "pgpk.h"

/* Make the verified content the payload, as pkcs7_key_type.c does. */
static int pgpk_test_view_content(void *ctx, const void *data, size_t len,
				  size_t asn1hdrlen)
{
	struct key_preparsed_payload *prep = ctx;
	const void *saved_data = prep->data;
	size_t saved_datalen = prep->datalen;
	int ret;

	prep->data = data;
	prep->datalen = len;
	ret = user_preparse(prep);
	prep->data = saved_data;
	prep->datalen = saved_datalen;
	return ret;
}

static int pgpk_test_preparse(struct key_preparsed_payload *prep)
{
	const struct cred *cred = current_cred();
	int ret;

	ret = pgpk_verify_signature(NULL, 0, prep->data, prep->datalen, NULL,
				    VERIFYING_UNSPECIFIED_SIGNATURE,
				    pgpk_test_view_content, prep);
	if (ret != -ENOKEY || !cred->session_keyring)
		return ret;
	ret = pgpk_verify_signature(NULL, 0, prep->data, prep->datalen,
				    cred->session_keyring,
				    VERIFYING_UNSPECIFIED_SIGNATURE,
				    pgpk_test_view_content, prep);
	if (!ret)
		pr_info_ratelimited("message verified by a session key, not a trusted one\n");
	return ret;
}

static struct key_type pgpk_key_type_test = {
	.name			= "pgpk_test",
	.preparse		= pgpk_test_preparse,
	.free_preparse		= user_free_preparse,
	.instantiate		= generic_key_instantiate,
	.revoke			= user_revoke,
	.destroy		= user_destroy,
	.describe		= user_describe,
	.read			= user_read,
};

int pgpk_test_key_init(void)
{
	return register_key_type(&pgpk_key_type_test);
}

void pgpk_test_key_exit(void)
{
	unregister_key_type(&pgpk_key_type_test);
}
