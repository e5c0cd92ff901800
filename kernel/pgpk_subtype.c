// SPDX-License-Identifier: GPL-2.0
/*
 * The asymmetric key subtype of pgpk keys: public_key_subtype's RSA key
 * with one rule of its own, trust rule 6 (one key, one protocol).
 *
 * An RSA signature means nothing without the protocol that framed the
 * octets it hashes.  An OpenPGP v4 signature of a document D is PKCS#1
 * over H(D || trailer): the same value is an X.509 certificate signature
 * when D || trailer is a TBSCertificate, an IMA signature of the file
 * D || trailer, a PKCS#7 signature...  Generic code (restrict.c,
 * pkcs7_trust.c, IMA, keyctl pkey_verify) hands every signature it checks
 * to the key's subtype, so the subtype is where this is decided, once:
 *
 *  - a pgpk key verifies only signatures whose hashed octets pgpk itself
 *    framed (document signatures through pgpk_verify_signature(),
 *    certifications of pgpk keys offered to restricted keyrings), marked
 *    by pgpk_sig_mark(): their encoding points at pgpk_sig_encoding;
 *  - pgpk_sig_encoding is no encoding public_key.c knows, so no other key
 *    (an X.509 key whose subject key ID equals an OpenPGP key ID, say)
 *    verifies what pgpk framed.
 *
 * Everything else is refused with -EKEYREJECTED and a log line.  Keys of
 * this subtype hold a reference on the module, as any subtype's do.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <keys/asymmetric-subtype.h>
#include "pgpk.h"

/* Compared by address: only this module can point a signature at it. */
static const char pgpk_sig_encoding[] = "openpgp";

struct asymmetric_key_subtype pgpk_key_subtype;

/* @pks hashes octets pgpk framed (pgpk_digest_end()). */
void pgpk_sig_mark(struct public_key_signature *pks)
{
	pks->pkey_algo = "rsa";
	pks->encoding = pgpk_sig_encoding;
}

/*
 * The RSA value is stored without leading zero octets (RFC 9580 5.2.3.1);
 * the kernel's RSA wants it exactly as long as the modulus: pad a copy.
 */
static int pgpk_subtype_verify(const struct key *key,
			       const struct public_key_signature *sig)
{
	struct kernel_pkey_params params = {
		.key		= (struct key *)key,
		.encoding	= "pkcs1",
		.hash_algo	= sig->hash_algo,
	};
	struct public_key_signature pks = *sig;
	struct kernel_pkey_query info;
	u8 *s = NULL;
	int ret;

	if (sig->encoding != pgpk_sig_encoding) {
		pr_warn_ratelimited("key %x: refused a signature pgpk did not frame (encoding %s)\n",
				    key_serial(key), sig->encoding ?: "none");
		return -EKEYREJECTED;
	}
	ret = public_key_subtype.query(&params, &info);
	if (ret)
		return ret;
	if (sig->s_size > info.max_sig_size)
		return -EKEYREJECTED;
	if (sig->s_size < info.max_sig_size) {
		s = kzalloc(info.max_sig_size, GFP_KERNEL);
		if (!s)
			return -ENOMEM;
		memcpy(s + info.max_sig_size - sig->s_size, sig->s,
		       sig->s_size);
		pks.s = s;
		pks.s_size = info.max_sig_size;
	}
	pks.encoding = "pkcs1";
	ret = public_key_verify_signature(key->payload.data[asym_crypto],
					  &pks);
	kfree(s);
	/* pkcs1pad reports a bad RSA value as malformed padding */
	if (ret == -EBADMSG || ret == -EINVAL)
		ret = -EKEYREJECTED;
	return ret;
}

/* What public_key says, but that a pgpk key verifies for nobody else. */
static int pgpk_subtype_query(const struct kernel_pkey_params *params,
			      struct kernel_pkey_query *info)
{
	int ret = public_key_subtype.query(params, info);

	info->supported_ops &= ~KEYCTL_SUPPORTS_VERIFY;
	return ret;
}

void pgpk_subtype_init(void)
{
	pgpk_key_subtype = public_key_subtype;
	pgpk_key_subtype.owner = THIS_MODULE;
	pgpk_key_subtype.name = "pgpk";
	pgpk_key_subtype.name_len = sizeof("pgpk") - 1;
	pgpk_key_subtype.query = pgpk_subtype_query;
	pgpk_key_subtype.verify_signature = pgpk_subtype_verify;
}
