// SPDX-License-Identifier: GPL-2.0
/*
 * verify_openpgp_signature(): OpenPGP signatures over system data, as
 * verify_pkcs7_signature() verifies PKCS#7 ones.
 *
 * The signature comes in canonical form (include/uapi/linux/pgpk.h),
 * converted from OpenPGP in user space; what decides whether it verifies
 * is pgpk_sigs_check(), the rule the "pgpk_test" key type applies: each
 * signature's issuer found in the keyring by fingerprint or key ID, its
 * digest computed here over the data and a trailer rebuilt here, and the
 * issuing key's subtype (pgpk_subtype_verify(), which restrict.c and
 * keyctl pkey_verify reach too) deciding on time, use and RSA.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/verification.h>
#include <keys/system_keyring.h>
#include "pgpk.h"

/**
 * verify_openpgp_signature - Verify an OpenPGP signature on system data
 * @data: The data signed.
 * @len: Size of @data.
 * @raw_sig: The signature, a canonical OpenPGP signature without content
 *	     (Documentation/crypto/pgpk.rst); it may hold several.
 * @sig_len: Size of @raw_sig.
 * @trusted_keys: Trusted keys to use (NULL for builtin trusted keys only,
 *		  VERIFY_USE_SECONDARY_KEYRING for builtin and secondary
 *		  trusted keys, VERIFY_USE_PLATFORM_KEYRING for the platform
 *		  keyring, else a keyring), as verify_pkcs7_signature().
 * @usage: The use to which the key is being put: a document's
 *	   (VERIFYING_KEY_SIGNATURE and VERIFYING_KEY_SELF_SIGNATURE are
 *	   for certifications, which a restricted keyring verifies).
 *
 * Several signatures are judged as gpgv and apt verify them: one whose
 * issuer is not in the keyring is skipped, any other failure refuses the
 * data, and one at least must verify.  Only an OpenPGP key (of the pgpk
 * subtype) whose flags allow signing issues one.
 *
 * Return: 0 if the data verifies; -ENOKEY if no signature is by a key of
 * the keyring (or the platform keyring is not available); -EKEYREJECTED,
 * -EKEYEXPIRED if one was refused; -EBADMSG if @raw_sig is not a canonical
 * signature without content; -ENOPKG for an algorithm this kernel lacks;
 * -EINVAL for a certification's @usage; -ENOMEM.
 */
int verify_openpgp_signature(const void *data, size_t len,
			     const void *raw_sig, size_t sig_len,
			     struct key *trusted_keys,
			     enum key_being_used_for usage)
{
	const struct pgpk_canon *c;
	struct pgpk_answer *ans;
	void *blob;
	int ret;

	if (usage == VERIFYING_KEY_SIGNATURE ||
	    usage == VERIFYING_KEY_SELF_SIGNATURE ||
	    usage >= NR__KEY_BEING_USED_FOR)
		return -EINVAL;
	trusted_keys = system_trusted_keyring(trusted_keys);
	if (IS_ERR(trusted_keys))
		return PTR_ERR(trusted_keys);
	/*
	 * The decoded signature points into its blob, which is read more than
	 * once (checked, then hashed): a copy no one else can change, as a
	 * BPF program's map memory can be.
	 */
	if (sig_len > PGPK_MAX_BLOB)
		return pgpk_refuse(-EBADMSG, "%s() takes at most %d octets of signature",
				   __func__, PGPK_MAX_BLOB);
	blob = kmemdup(raw_sig, sig_len, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;
	ans = pgpk_decode(blob, sig_len, "canonical signature");
	if (IS_ERR(ans)) {
		kfree(blob);
		return PTR_ERR(ans);
	}
	c = &ans->canon;
	if (!PGPK_HAS(c, PGPK_CANON_SIGNATURE) || PGPK_HAS(c, PGPK_CANON_CONTENT))
		ret = pgpk_refuse(-EBADMSG, "%s() takes a signature without content",
				  __func__);
	else
		ret = pgpk_sigs_check(c, data, len, trusted_keys);
	kfree(ans);
	kfree(blob);
	return ret;
}
EXPORT_SYMBOL_GPL(verify_openpgp_signature);
