/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The OpenPGP -> canonical conversion: the one entry point the sandboxed
 * parser child calls.  Pure: bytes in, canonical blob (see
 * proto/pgpk.proto) or an error out; no I/O, no global state.
 */
#ifndef PGPK_CONVERT_H
#define PGPK_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pgpk_sig; /* kernel/pgpk_canon.h */
struct pgpk_error;

/* What the caller wants out of the OpenPGP bytes. */
enum pgpk_want {
	PGPK_WANT_KEY, /* a canonical Key (primary, or the selected subkey) */
	PGPK_WANT_SIG, /* canonical Signature(s) (+ content if inline/cleartext) */
};

/* The octets of one file, e.g. a trust anchor's certificate(s). */
struct pgpk_blob {
	const uint8_t *data;
	size_t len;
};

struct pgpk_convert_opts {
	/* Subkey or key to select, as fingerprint or key ID in hex; NULL
	 * selects the primary key of the first certificate. */
	const char *select;
	/* "Now", Unix seconds, for expiry decisions. */
	int64_t now;
	/* Convert a softly revoked key ("superseded", "retired": RFC 9580
	 * 5.2.3.31) instead of refusing it (-EKEYREJECTED); a hard
	 * revocation is refused whatever this says.  The kernel cannot see
	 * revocations, so this is the helper's policy. */
	bool allow_revoked;
	/* Convert an expired key instead of refusing it (-EKEYEXPIRED); the
	 * kernel refuses it all the same (it would vanish from its keyring). */
	bool allow_expired;
	/*
	 * PGPK_WANT_KEY, a primary key: the trust anchors, files of binary
	 * or armored certificates (pgpk-helper --anchors DIR, default
	 * /etc/pgpk/anchors/).  Key.certification, which vouches for the key
	 * in a restricted keyring, is the newest third-party certification
	 * of its primary user ID that verifies with an anchor's primary key
	 * (RSA, a strong hash, made while that key was valid, not revoked by
	 * it), else the key's own certification.  None: always its own.
	 */
	const struct pgpk_blob *anchors;
	size_t nanchors;
	/*
	 * PGPK_WANT_SIG: which signatures go into the answer (at most
	 * PGPK_MAX_SIGNATURES, in order).  Called with every RSA signature
	 * that converts, decoded from its canonical form as the kernel will
	 * see it; a negative errno leaves it out, with the reason in why.
	 * NULL keeps every one.  The parser child passes the broker's policy
	 * (pgpk_policy_check_sig()), so that what the kernel gets is what
	 * `pgpk-helper verify` would check.
	 */
	int (*sig_filter)(const void *arg, const struct pgpk_sig *sig,
			  char *why, size_t why_len);
	const void *sig_filter_arg;
	/*
	 * PGPK_WANT_SIG, detached signatures: the signed data, carried in
	 * the answer as Canonical.content (pgpk_test needs it there).
	 * For a text signature (0x01) it is canonicalised as GnuPG hashes
	 * it (pgpk_text_canonicalize_detached()); the kernel hashes the
	 * content as given.  NULL: no content for a detached signature.
	 */
	const struct pgpk_blob *data;
	/*
	 * PGPK_WANT_SIG: told of every signature left out of the answer
	 * (its index in the input and why), if not NULL.
	 */
	void (*left_out)(void *arg, size_t idx, const struct pgpk_error *why);
	void *left_out_arg;
};

/* Every failure names the problem and where it was found. */
struct pgpk_error {
	int code; /* negative errno: -EBADMSG, -ENOPKG, ... */
	size_t offset; /* byte offset in the (dearmored) input */
	char msg[256];
};

/*
 * Convert OpenPGP bytes (binary packets or ASCII armor, or a cleartext-
 * signed message) into a canonical blob, magic included.  On success
 * returns 0 and *out is a malloc()ed buffer of *out_len octets that the
 * caller frees.  On failure returns the negative errno also stored in
 * err->code, with err->msg naming the problem and err->offset where:
 *   -EBADMSG       malformed OpenPGP
 *   -ENOPKG        unsupported algorithm or version (not RSA, v3 key, ...)
 *   -ENOKEY        no key matches opts->select, or no key at all
 * For PGPK_WANT_SIG, the answer holds every signature that converts and
 * passes opts->sig_filter; if none does, the first one's reason.  A v3
 * signature never converts (RFC 9580 5.2.2: the kernel checks v4 and v6
 * only): -EKEYREJECTED, as a weak hash.
 *   -EKEYREJECTED  the data is well formed but refused (bad self-signature,
 *                  a v3 signature, a detached signature's data on a
 *                  message that carries its own)
 *   -ENOMEM        out of memory
 */
int pgpk_convert(const uint8_t *in, size_t len, enum pgpk_want want,
		 const struct pgpk_convert_opts *opts, uint8_t **out,
		 size_t *out_len, struct pgpk_error *err);

#endif /* PGPK_CONVERT_H */
