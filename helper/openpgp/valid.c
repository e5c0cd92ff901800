// SPDX-License-Identifier: GPL-2.0
/*
 * The one validity rule: whether a key of a certificate may be used, and
 * whether it can have made a signature at a given time.  list (can_sign),
 * key, convert, debug and the upcall (pgpk_convert()), import and verify
 * all decide here, so they cannot disagree.
 *
 * The facts come from pgpk_keyring_parse() (cert.c): which self-signature
 * and binding verify, back-signatures, revocations and their hardness,
 * expiry at the parse's `now`.  This file only applies the rules, in one
 * order, so that every path names the same first reason.
 */
#include <inttypes.h>
#include <stdio.h>

#include "helper/openpgp/internal.h"

/* RFC 9580 5.2.3.31 reason codes, as refusals name them. */
static const char *pgpk_revocation_reason(int code)
{
	switch (code) {
	case -1:
		return "no reason given";
	case 0:
		return "no reason specified";
	case 1:
		return "superseded";
	case 2:
		return "compromised";
	case 3:
		return "retired";
	case 32:
		return "user ID no longer valid";
	default:
		return code >= 100 && code <= 110 ? "private reason" :
						    "unknown reason";
	}
}

int64_t pgpk_key_expires(const struct pgpk_cert *cert,
			 const struct pgpk_pubkey *key)
{
	int64_t own = key->expires, pri = cert->primary.expires;

	if (!key->subkey || !pri)
		return own;
	return own && own < pri ? own : pri;
}

int pgpk_key_usable(const struct pgpk_cert *cert, const struct pgpk_pubkey *key,
		    unsigned int use, struct pgpk_error *err)
{
	const char *what = key->subkey ? "subkey" : "key";
	const struct pgpk_pubkey *pri = &cert->primary;
	const struct pgpk_signature *self;

	if (!cert->primary.valid)
		return pgpk_fail(
			err, -EKEYREJECTED, cert->primary.offset,
			"key at offset %zu has no valid self-signature",
			cert->primary.offset);
	if (!key->valid)
		return pgpk_fail(
			err, -EKEYREJECTED, key->offset,
			"subkey at offset %zu has no valid binding signature",
			key->offset);
	if (key->revoked &&
	    (key->revoked_hard || !(use & PGPK_USE_ALLOW_REVOKED)))
		return pgpk_fail(err, -EKEYREJECTED, key->offset,
				 "%s revoked (%s): %s revocation%s",
				 key->revoked_primary ? "primary key" : what,
				 pgpk_revocation_reason(key->revoked_reason),
				 key->revoked_hard ? "hard" : "soft",
				 key->revoked_hard ?
					 "" :
					 ", refused without --allow-revoked");
	if (key->expired && !(use & PGPK_USE_ALLOW_EXPIRED))
		return pgpk_fail(err, -EKEYEXPIRED, key->offset,
				 "%s expired at %" PRId64,
				 key->subkey && cert->primary.expired ?
					 "primary key" :
					 what,
				 pgpk_key_expires(cert, key));
	/* The kernel reads the key's use and life from its primary key's
	 * self-signature, the one its version reads (a v4 key's primary user
	 * ID's, a v6 key's direct-key one), and a subkey's binding: it must
	 * check them (the policy floor), and they must say all OpenPGP does
	 * (no narrower direct-key signature).  A key the kernel takes none
	 * of, not RSA, is refused as such (ENOPKG). */
	if (!(use & PGPK_USE_OPENPGP) && pgpk_pk_algo_is_rsa(key->algo) &&
	    pgpk_pk_algo_is_rsa(pri->algo)) {
		if (!pri->binding)
			return pgpk_fail(
				err, -EKEYREJECTED, pri->offset,
				"%s's primary key has no %s", what,
				pri->version == 6 ?
					"direct-key self-signature (a v6 key's use and life)" :
					"self-signature of its primary user ID (a v4 key's use and life)");
		if (pri->self_narrowed)
			return pgpk_fail(
				err, -EKEYREJECTED, pri->offset,
				"%s's primary key: its direct-key signature says less (flags or expiry) than its primary user ID's self-signature, which the kernel reads: it cannot be given both",
				what);
		self = !pgpk_sig_kernel_checkable(pri->binding, NULL) ?
			       pri->binding :
		       key->subkey && !pgpk_sig_kernel_checkable(key->binding,
								 NULL) ?
			       key->binding :
			       NULL;
		if (self)
			return pgpk_fail(
				err, -EKEYREJECTED, self->offset,
				"%s's %s is one the kernel does not check (v%u, algorithm %u, %s, or a hashed area it refuses): policy floor",
				what,
				self == pri->binding ? "self-signature" :
						       "binding signature",
				self->version, self->pk_algo,
				pgpk_md_name(self->hash_algo) ?: "hash ?");
	}
	/* RFC 9580 5.2.3.34: a signing subkey proves, by its own
	 * signature, that it belongs to this primary key; the kernel never
	 * sees the back-signature. */
	if (key->subkey && (key->usage & PGPK_KF_SIGN) && !key->backsig)
		return pgpk_fail(
			err, -EKEYREJECTED, key->offset,
			"signing subkey at offset %zu has no valid primary key binding signature (0x19)",
			key->offset);
	if ((use & PGPK_USE_SIGN) && !(key->usage & PGPK_KF_SIGN))
		return pgpk_fail(
			err, -EKEYREJECTED, key->offset,
			"%s at offset %zu is not a signing key (key flags 0x%02x)",
			what, key->offset,
			key->has_key_flags ? key->key_flags : key->usage);
	return 0;
}

int pgpk_key_signed_at(const struct pgpk_pubkey *key, uint32_t t,
		       struct pgpk_error *err)
{
	uint32_t bound;

	if (t < key->created)
		return pgpk_fail(err, -EKEYREJECTED, key->offset,
				 "signature predates its key (signed %" PRIu32
				 ", key created %" PRIu32 ")",
				 t, key->created);
	if (key->subkey) {
		bound = key->bound_at;
		if (t < bound)
			return pgpk_fail(
				err, -EKEYREJECTED, key->offset,
				"subkey not yet bound when it signed (signed %" PRIu32
				", bound %" PRIu32 ")",
				t, bound);
	}
	if (key->revoked && !key->revoked_hard && t >= key->revoked_at)
		return pgpk_fail(
			err, -EKEYREJECTED, key->offset,
			"signature made after its key was revoked (%s, %" PRIu32
			"): soft revocation",
			pgpk_revocation_reason(key->revoked_reason),
			key->revoked_at);
	return 0;
}
