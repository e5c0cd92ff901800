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
 * Everything else is refused with -EKEYREJECTED and a log line.
 *
 * The one deliberate exception: a subkey dedicated to IMA (its binding
 * signature carries the mark of pgpk_ima.h, confirmed by pgpk_key.c in a
 * signature it verified itself) verifies the other protocol instead: raw
 * PKCS#1 over a SHA-256/384/512 digest, naming no certificate issuer (an
 * IMA/EVM v2 signature, or keyctl pkey_verify), and nothing pgpk framed.
 * Such a key is told by its public_key's id_type, pgpk_ima_id_type.
 *
 * Keys of this subtype hold a reference on the module, as any subtype's
 * do.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <keys/asymmetric-subtype.h>
#include "pgpk.h"

/* Compared by address: only this module can point a signature at it. */
static const char pgpk_sig_encoding[] = "openpgp";

/* Compared by address too; /proc/keys shows it ("PGP-IMA.rsa"). */
static const char pgpk_ima_id_type[] = "PGP-IMA";

struct asymmetric_key_subtype pgpk_key_subtype;

/* @pks hashes octets pgpk framed (pgpk_digest_end()). */
void pgpk_sig_mark(struct public_key_signature *pks)
{
	pks->pkey_algo = "rsa";
	pks->encoding = pgpk_sig_encoding;
}

void pgpk_key_mark_ima(struct public_key *pub)
{
	pub->id_type = pgpk_ima_id_type;
}

static bool pgpk_key_is_ima(const struct key *key)
{
	const struct public_key *pub = key->payload.data[asym_crypto];

	return pub->id_type == pgpk_ima_id_type;
}

/*
 * What a key dedicated to IMA refuses: everything pgpk framed (it signs
 * no OpenPGP document and certifies no key), anything but PKCS#1, any
 * signature naming its issuer's certificate (X.509 and PKCS#7 do, IMA
 * does not), and hashes other than SHA-256/384/512.
 */
static const char *pgpk_ima_refuses(const struct public_key_signature *sig)
{
	if (sig->encoding == pgpk_sig_encoding)
		return "an OpenPGP signature by a key dedicated to IMA";
	if (!sig->encoding || strcmp(sig->encoding, "pkcs1"))
		return "a signature that is not PKCS#1 (IMA key)";
	if (sig->auth_ids[0] || sig->auth_ids[1] || sig->auth_ids[2])
		return "a certificate's signature (IMA key)";
	if (!sig->hash_algo || (strcmp(sig->hash_algo, "sha256") &&
				strcmp(sig->hash_algo, "sha384") &&
				strcmp(sig->hash_algo, "sha512")))
		return "a hash other than SHA-256/384/512 (IMA key)";
	return NULL;
}

/*
 * @sig verified with @pub, whose modulus is @size octets.  The RSA value
 * is stored without leading zero octets (RFC 9580 5.2.3.1); the kernel's
 * RSA wants it exactly as long as the modulus: pad a copy.
 */
int pgpk_rsa_verify(const struct public_key *pub,
		    const struct public_key_signature *sig, u32 size)
{
	struct public_key_signature pks = *sig;
	u8 *s = NULL;
	int ret;

	if (sig->s_size > size)
		return -EKEYREJECTED;
	if (sig->s_size < size) {
		s = kzalloc(size, GFP_KERNEL);
		if (!s)
			return -ENOMEM;
		memcpy(s + size - sig->s_size, sig->s, sig->s_size);
		pks.s = s;
		pks.s_size = size;
	}
	pks.encoding = "pkcs1";
	ret = public_key_verify_signature(pub, &pks);
	kfree(s);
	/* pkcs1pad reports a bad RSA value as malformed padding */
	if (ret == -EBADMSG || ret == -EINVAL)
		ret = -EKEYREJECTED;
	return ret;
}

static int pgpk_subtype_verify(const struct key *key,
			       const struct public_key_signature *sig)
{
	struct kernel_pkey_params params = {
		.key		= (struct key *)key,
		.encoding	= "pkcs1",
		.hash_algo	= sig->hash_algo,
	};
	struct kernel_pkey_query info;
	int ret;

	if (pgpk_key_is_ima(key)) {
		const char *why = pgpk_ima_refuses(sig);

		if (why) {
			pr_warn_ratelimited("key %x: refused %s\n",
					    key_serial(key), why);
			return -EKEYREJECTED;
		}
	} else if (sig->encoding != pgpk_sig_encoding) {
		pr_warn_ratelimited("key %x: refused a signature pgpk did not frame (encoding %s)\n",
				    key_serial(key), sig->encoding ?: "none");
		return -EKEYREJECTED;
	}
	ret = public_key_subtype.query(&params, &info);
	if (ret)
		return ret;
	return pgpk_rsa_verify(key->payload.data[asym_crypto], sig,
			       info.max_sig_size);
}

/*
 * What public_key says, but that a pgpk key verifies for nobody else (a
 * key dedicated to IMA verifies raw PKCS#1 signatures: pgpk_ima_refuses()).
 */
static int pgpk_subtype_query(const struct kernel_pkey_params *params,
			      struct kernel_pkey_query *info)
{
	int ret = public_key_subtype.query(params, info);

	if (!pgpk_key_is_ima(params->key))
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
