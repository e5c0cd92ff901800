// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper verify: the user-space reference of the kernel's signature
 * check (kernel/pgpk_verify.c, kernel/pgpk_hash.c).
 *
 *   pgpk-helper verify [POLICY] [--now T] [--signatures N]
 *                      --keyring FILE [--keyring FILE] SIG [DATA]
 *
 * SIG: a detached signature (binary or armored; DATA is the signed file,
 * canonicalised for a text signature as gpg hashes it), an inline signed
 * or cleartext-signed message (no DATA), or a canonical signature blob
 * (`pgpk-helper convert`), which, as in the kernel, is decoded directly
 * and hashes its content, or DATA, as given.  KEYRING: binary or armored
 * keys.  POLICY: the broker's policy options
 * (policy/request-key.d/pgpk.conf), default policy otherwise.  --now T
 * judges expiry at Unix time T instead of the clock.
 *
 * Nothing OpenPGP is trusted past the conversion: the signature becomes a
 * canonical blob (pgpk_sig_canonical(), the code behind pgpk_convert()
 * WANT_SIG), decoded with the kernel's strict decoder; candidate keys
 * become canonical Keys, decoded the same way; the key packet body is
 * rebuilt with the kernel's pgpk_rebuild_key() and must be a whole packet
 * of the keyring at the offset the Key names (the kernel's
 * pgpk_packet_at()); fingerprint and key ID are computed from the rebuilt
 * body; the digest is hash([salt] || data || rebuilt trailer); the quick
 * check and the RSA PKCS#1 v1.5 value are checked with OpenSSL's digests
 * and Montgomery arithmetic (the same check as the keyring's
 * self-signatures, pgpk_key_rsa_verify_digest(): no EVP_PKEY, whose
 * provider machinery costs more than the arithmetic).  The keyring parser
 * is used only to enumerate candidate keys and to know which are revoked
 * (the canonical Key carries no revocation: a revoked key is never
 * converted for the kernel).
 *
 * Several signatures (an InRelease file signed with two RSA keys and an
 * Ed25519 key, say), as gpgv and apt judge them: every signature is
 * checked and gets one line (its key, then "Good signature", "BAD
 * signature" or the reason it was skipped).  A signature is bad only when
 * its key is in the keyrings, usable, and the value is wrong for the data;
 * one that cannot be checked (no key, unsupported algorithm, expired or
 * revoked key, hash refused by the policy, malformed) is skipped.  The
 * kernel applies the same rule to the signatures of an upcall answer
 * (kernel/pgpk_verify.c pgpk_sigs_check()).
 *
 * Exit status (helper/commands.h): 0 at least N (--signatures, default 1)
 * good signatures and no bad one, 1 a signature is bad (the data or
 * signature was changed), 2 fewer than N good ones and none bad (nothing
 * checkable), with a last line counting them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helper/commands.h"
#include "helper/openpgp/openpgp.h"
#include "helper/pgpk_policy.h"
#include "helper/pgpk_canon_key.h"
#include "kernel/pgpk_canon.h"
#include "proto/pgpk_fields.h"

/* Verdict of one signature; the document's is in pgpk_cmd_verify(). */
enum pgpk_verdict {
	PGPK_VERDICT_GOOD = 0,
	PGPK_VERDICT_BAD = 1, /* checked: it does not match */
	PGPK_VERDICT_SKIPPED = 2, /* could not check it (see the message) */
};

#define PGPK_VERIFY_MAX_KEYRINGS 16
#define PGPK_VERIFY_MAX_NEED 65536 /* --signatures */

/* RFC 9580 5.2.1: signature types over a document. */
#define PGPK_VERIFY_DOC_LAST 0x01

/*
 * The keys the signatures name, so that only their certificates, and of
 * those only the primary key and the named subkeys, are validated
 * (pgpk_parse_opts.want, want_subkey): a keyring's other certificates and
 * subkeys cost their parse, not their RSA verifications.  Without a name
 * for every signature, or with more signatures than this, every
 * certificate and subkey is.
 */
#define PGPK_VERIFY_MAX_NAMED 64

struct pgpk_verify_issuer {
	const uint8_t *fpr; /* NULL: by key ID */
	size_t fpr_len;
	const uint8_t *keyid;
};

struct pgpk_verify_issuers {
	struct pgpk_verify_issuer v[PGPK_VERIFY_MAX_NAMED];
	size_t n;
	bool all; /* validate every certificate */
};

struct pgpk_verify_ctx {
	struct pgpk_verify_issuers issuers;
	struct pgpk_keyring *rings[PGPK_VERIFY_MAX_KEYRINGS];
	const char *ring_names[PGPK_VERIFY_MAX_KEYRINGS];
	size_t nrings;
	struct pgpk_policy policy;
	int64_t now;
	const uint8_t *data; /* detached data, or NULL */
	size_t data_len;
	/* The same canonicalised for a text signature (RFC 9580 5.2.1.2),
	 * as pgpk-helper convert --data puts it in a canonical blob; NULL
	 * when SIG is canonical (the kernel hashes its data as given). */
	const uint8_t *text;
	size_t text_len;
	/*
	 * The digest of the signed data, for the next v4 signature over the
	 * same octets with the same hash (an InRelease's signatures: each
	 * hashes the data before its own trailer, RFC 9580 5.2.4).  Only
	 * data that outlives every signature is kept: the DATA file and its
	 * text form, a message's content, a canonical blob's; and only when
	 * there are several signatures (share_data).
	 */
	bool share_data;
	struct pgpk_verify_data_md {
		bool ready;
		const uint8_t *data;
		size_t len;
		uint32_t hash;
		struct pgpk_digest d;
	} data_md;
};

/* A key found for a signature, with its canonical form decoded. */
struct pgpk_verify_key {
	const struct pgpk_keyring *ring;
	const struct pgpk_cert *cert;
	const struct pgpk_pubkey *pub;
	uint8_t *blob; /* canonical Key; key points into it */
	size_t blob_len;
	struct pgpk_canon *canon;
	uint8_t fpr[PGPK_FPR_MAX]; /* computed from the rebuilt body */
	size_t fpr_len;
	uint8_t keyid[PGPK_KEYID_LEN];
};

static void pgpk_hex(const uint8_t *p, size_t len, char *out)
{
	static const char digits[] = "0123456789ABCDEF";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

/*
 * RFC 9580 9.5: the hashes the kernel can check (kernel/pgpk_hash.c
 * pgpk_hash_algo()); anything else is "unsupported", before policy.
 */
static bool pgpk_verify_md(uint32_t id, const char **name)
{
	switch (id) {
	case 2: /* PGPK_HASH_SHA1 */
		*name = "SHA1";
		return true;
	case 8: /* PGPK_HASH_SHA256 */
		*name = "SHA256";
		return true;
	case 9: /* PGPK_HASH_SHA384 */
		*name = "SHA384";
		return true;
	case 10: /* PGPK_HASH_SHA512 */
		*name = "SHA512";
		return true;
	case 11: /* PGPK_HASH_SHA224 */
		*name = "SHA224";
		return true;
	}
	*name = id == PGPK_HASH_MD5 ? "MD5" : "unknown";
	return false;
}

/*
 * Rebuild the key packet body from the canonical material (the kernel's
 * pgpk_rebuild_key()), check that it is a whole packet of the keyring at
 * the offset the Key names (the kernel's binding walk), and compute
 * fingerprint and key ID from it (RFC 9580 5.5.4: v4 SHA-1, key ID = last
 * 8 octets; v6 SHA-256, key ID = first 8 octets).
 */
static int pgpk_verify_identify(struct pgpk_verify_key *vk, char *why,
				size_t why_len)
{
	const struct pgpk_key *key = &vk->canon->key;
	const struct pgpk_key_material *m = &key->material;
	const struct pgpk_input *in = &vk->ring->input;
	size_t len = pgpk_rebuild_key(m, NULL);
	uint8_t *body;
	bool bound;

	body = malloc(len);
	if (!body) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	pgpk_rebuild_key(m, body);
	bound = pgpk_packet_at(in->packets, in->packets_len, key->packet_offset,
			       key->subkey ? PGPK_TAG_PUBLIC_SUBKEY :
					     PGPK_TAG_PUBLIC_KEY,
			       body, len);
	free(body);
	if (!PGPK_HAS(key, PGPK_KEY_PACKET_OFFSET) || !bound) {
		snprintf(
			why, why_len,
			"rebuilt key packet is not the keyring's packet at offset %" PRIu32,
			key->packet_offset);
		return -EKEYREJECTED;
	}
	vk->fpr_len = pgpk_canon_key_ids(m, vk->fpr, vk->keyid);
	if (!vk->fpr_len) {
		snprintf(why, why_len, "fingerprint hash failed");
		return -ENOMEM;
	}
	return 0;
}

/* Does the library's view of @pub name the issuer of @sig? (prefilter) */
static bool pgpk_verify_names(const struct pgpk_pubkey *pub,
			      const struct pgpk_sig *sig)
{
	if (PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT))
		return sig->issuer_fingerprint.len == pub->fpr_len &&
		       !memcmp(sig->issuer_fingerprint.data, pub->fpr,
			       pub->fpr_len);
	if (PGPK_HAS(sig, PGPK_SIG_ISSUER_KEY_ID))
		return sig->issuer_key_id.len == PGPK_KEYID_LEN &&
		       !memcmp(sig->issuer_key_id.data, pub->keyid,
			       PGPK_KEYID_LEN);
	return false;
}

/* The same test on the IDs computed from the rebuilt key (authoritative). */
static bool pgpk_verify_matches(const struct pgpk_verify_key *vk,
				const struct pgpk_sig *sig)
{
	if (PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT))
		return sig->issuer_fingerprint.len == vk->fpr_len &&
		       !memcmp(sig->issuer_fingerprint.data, vk->fpr,
			       vk->fpr_len);
	return sig->issuer_key_id.len == PGPK_KEYID_LEN &&
	       !memcmp(sig->issuer_key_id.data, vk->keyid, PGPK_KEYID_LEN);
}

static const char *pgpk_verify_uid(const struct pgpk_cert *cert, char *buf,
				   size_t size)
{
	const struct pgpk_userid *uid = pgpk_cert_primary_uid(cert);
	size_t n;

	if (!uid) {
		snprintf(buf, size, "(no user ID)");
		return buf;
	}
	n = uid->len < size - 1 ? uid->len : size - 1;
	memcpy(buf, uid->data, n);
	buf[n] = '\0';
	return buf;
}

/*
 * Find the issuer of @sig in the keyrings and convert it to a canonical
 * Key.  Status problems of the key (revoked, expired, not for signing,
 * unsupported algorithm) are reported here with their names.
 */
static int pgpk_verify_find(const struct pgpk_verify_ctx *vc,
			    const struct pgpk_sig *sig,
			    struct pgpk_verify_key *vk, char *why,
			    size_t why_len)
{
	const struct pgpk_pubkey *pub = NULL;
	const struct pgpk_cert *cert = NULL;
	struct pgpk_canon_error cerr;
	struct pgpk_error err;
	size_t r, c, k;
	char uid[128], rule[256];
	int ret;

	for (r = 0; r < vc->nrings && !pub; r++) {
		const struct pgpk_keyring *ring = vc->rings[r];

		for (c = 0; c < ring->ncerts && !pub; c++) {
			const struct pgpk_cert *ce = &ring->certs[c];

			if (pgpk_verify_names(&ce->primary, sig)) {
				pub = &ce->primary;
			} else {
				for (k = 0; k < ce->nsubkeys; k++)
					if (pgpk_verify_names(&ce->subkeys[k],
							      sig)) {
						pub = &ce->subkeys[k];
						break;
					}
			}
			if (pub) {
				cert = ce;
				vk->ring = ring;
			}
		}
	}
	if (!pub) {
		snprintf(why, why_len, "no key: issuer not in the keyrings");
		return -ENOKEY;
	}
	vk->cert = cert;
	vk->pub = pub;
	pgpk_verify_uid(cert, uid, sizeof(uid));

	/* The one validity rule (helper/openpgp/valid.c), as the upcall
	 * applies it, and whether the key can have signed at that time
	 * (the kernel's pgpk_sig_key_check()). */
	ret = pgpk_key_usable(
		cert, pub,
		PGPK_USE_SIGN |
			(vc->policy.allow_revoked ? PGPK_USE_ALLOW_REVOKED :
						    0) |
			(vc->policy.allow_expired ? PGPK_USE_ALLOW_EXPIRED : 0),
		&err);
	if (!ret)
		ret = pgpk_key_signed_at(pub, sig->created, &err);
	if (ret) {
		snprintf(why, why_len, "%s: key of %s: %s",
			 ret == -EKEYEXPIRED ? "expired key" : "key refused",
			 uid, err.msg);
		return ret;
	}
	if (pub->algo != PGPK_PK_RSA && pub->algo != PGPK_PK_RSA_S) {
		snprintf(
			why, why_len,
			"unsupported algorithm: key of %s is %s (%u), only RSA is supported",
			uid, pgpk_pk_algo_name(pub->algo), pub->algo);
		return -ENOPKG;
	}
	ret = pgpk_key_canonical(vk->ring, cert, pub, NULL, 0, &vk->blob,
				 &vk->blob_len, &err);
	if (ret) {
		snprintf(why, why_len, "%s: key of %s: %s (offset %zu)",
			 ret == -ENOPKG	      ? "unsupported algorithm" :
			 ret == -EKEYEXPIRED  ? "expired key" :
			 ret == -EKEYREJECTED ? "key refused" :
						"key conversion failed",
			 uid, err.msg, err.offset);
		return ret;
	}
	vk->canon = malloc(sizeof(*vk->canon));
	if (!vk->canon) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	ret = pgpk_canon_decode(vk->blob, vk->blob_len, vk->canon, &cerr);
	if (!ret && !PGPK_HAS(vk->canon, PGPK_CANON_KEY))
		cerr.why = "not a key", cerr.offset = 0, ret = -EBADMSG;
	if (ret) {
		snprintf(
			why, why_len,
			"malformed: canonical key refused by the strict decoder: %s at offset %" PRIu32,
			cerr.why, cerr.offset);
		return -EBADMSG;
	}
	ret = pgpk_verify_identify(vk, why, why_len);
	if (ret)
		return ret;
	if (!pgpk_verify_matches(vk, sig)) {
		snprintf(
			why, why_len,
			"no key: the rebuilt key's fingerprint does not match the issuer");
		return -ENOKEY;
	}
	/* RFC 9580 5.2.3.13 expiry, and the default key policy. */
	ret = pgpk_policy_check(&vc->policy, vk->canon, PGPK_WANT_KEY, vc->now,
				rule, sizeof(rule));
	if (ret) {
		snprintf(why, why_len, "%s: key of %s: %s",
			 ret == -EKEYEXPIRED ? "expired key" : "key refused",
			 uid, rule);
		return ret;
	}
	return 0;
}

/*
 * Start *md with [salt ||] data for @sig, the data as given (the kernel's
 * pgpk_sig_digest() hashes its content or data unchanged; a detached text
 * signature's DATA was canonicalised beforehand, vc->text); 0 or -ENOPKG
 * / -ENOMEM.  A v4 signature's data digest is shared through vc->data_md
 * when @keep says the data stays where it is for the whole command.
 */
static int pgpk_verify_data_digest(struct pgpk_verify_ctx *vc,
				   const struct pgpk_sig *sig,
				   const uint8_t *data, size_t len, bool keep,
				   struct pgpk_digest *md)
{
	struct pgpk_verify_data_md *c = &vc->data_md;
	int ret;

	if (sig->version == 6 || !keep || !vc->share_data) {
		ret = pgpk_digest_init(md, sig->hash_algorithm);
		if (ret)
			return ret;
		if ((sig->version == 6 &&
		     pgpk_digest_update(md, sig->salt.data, sig->salt.len)) ||
		    pgpk_digest_update(md, data, len)) {
			pgpk_digest_release(md);
			return -ENOMEM;
		}
		return 0;
	}
	if (!c->ready || c->data != data || c->len != len ||
	    c->hash != sig->hash_algorithm) {
		if (c->ready)
			pgpk_digest_release(&c->d);
		c->ready = false;
		ret = pgpk_digest_init(&c->d, sig->hash_algorithm);
		if (ret)
			return ret;
		if (pgpk_digest_update(&c->d, data, len)) {
			pgpk_digest_release(&c->d);
			return -ENOMEM;
		}
		c->ready = true;
		c->data = data;
		c->len = len;
		c->hash = sig->hash_algorithm;
	}
	return pgpk_digest_copy(md, &c->d);
}

/* The issuer a signature names, in hex: fingerprint, else key ID. */
static void pgpk_verify_issuer(const uint8_t *fpr, size_t fpr_len,
			       const uint8_t *keyid, char *out)
{
	if (fpr_len)
		pgpk_hex(fpr, fpr_len, out);
	else if (keyid)
		pgpk_hex(keyid, PGPK_KEYID_LEN, out);
	else
		strcpy(out, "(no issuer)");
}

static void pgpk_verify_canon_issuer(const struct pgpk_sig *sig, char *out)
{
	pgpk_verify_issuer(PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT) ?
				   sig->issuer_fingerprint.data :
				   NULL,
			   PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT) ?
				   sig->issuer_fingerprint.len :
				   0,
			   PGPK_HAS(sig, PGPK_SIG_ISSUER_KEY_ID) ?
				   sig->issuer_key_id.data :
				   NULL,
			   out);
}

/* The line of a signature that is not good: its key, then why. */
static void pgpk_verify_report(size_t idx, const char *issuer, const char *why)
{
	fprintf(stderr, "pgpk-helper verify: signature %zu (key %s): %s\n",
		idx + 1, issuer, why);
}

/*
 * Verify signature number @idx, @sig (decoded from its canonical form),
 * over @content when the signature carries it, else the DATA file;
 * @content_kept: @content stays for the whole command.  Prints its line,
 * returns its verdict.
 */
static enum pgpk_verdict pgpk_verify_one(struct pgpk_verify_ctx *vc, size_t idx,
					 const struct pgpk_sig *sig,
					 const struct pgpk_bytes *content,
					 bool content_kept)
{
	struct pgpk_verify_key vk = { 0 };
	uint8_t digest[PGPK_DIGEST_MAX];
	const uint8_t *data = vc->data;
	size_t data_len = vc->data_len, tlen, dlen = 0;
	enum pgpk_verdict verdict = PGPK_VERDICT_SKIPPED;
	struct pgpk_mpi rsa_n, rsa_e, rsa_s;
	struct pgpk_hashed hashed;
	struct pgpk_digest md;
	const char *hash_name;
	char why[512] = "", rule[256], fpr[2 * PGPK_FPR_MAX + 1], uid[256];
	char issuer[2 * PGPK_FPR_MAX + 1];
	uint8_t *trailer = NULL;
	bool md_ok, keep = true;
	int ret;

	pgpk_verify_canon_issuer(sig, issuer);
	if (content) {
		if (data) {
			snprintf(
				why, sizeof(why),
				"the signature carries its signed text: give no DATA file");
			goto report;
		}
		data = content->data;
		data_len = content->len;
		keep = content_kept;
	} else if (data && vc->text && sig->type == PGPK_SIG_TEXT) {
		data = vc->text;
		data_len = vc->text_len;
	} else if (!data) {
		snprintf(why, sizeof(why),
			 "detached signature: the signed DATA file is missing");
		goto report;
	}

	/* What the kernel refuses before hashing (kernel/pgpk_verify.c). */
	if (sig->type > PGPK_VERIFY_DOC_LAST) {
		snprintf(why, sizeof(why),
			 "signature type 0x%02" PRIx32
			 " does not sign a document",
			 sig->type);
		goto report;
	}
	if (sig->pubkey_algorithm != PGPK_PK_RSA &&
	    sig->pubkey_algorithm != PGPK_PK_RSA_S) {
		snprintf(
			why, sizeof(why),
			"unsupported algorithm: signature made with %s (%" PRIu32
			"), only RSA is supported",
			pgpk_pk_algo_name(sig->pubkey_algorithm),
			sig->pubkey_algorithm);
		goto report;
	}
	md_ok = pgpk_verify_md(sig->hash_algorithm, &hash_name);
	if (sig->hash_algorithm == PGPK_HASH_MD5) {
		/* RFC 9580 9.5: MD5 must not be used for signatures. */
		snprintf(why, sizeof(why),
			 "weak hash MD5 refused (never allowed)");
		goto report;
	}
	if (!md_ok) {
		snprintf(why, sizeof(why),
			 "unsupported algorithm: hash %s (%" PRIu32 ")",
			 hash_name, sig->hash_algorithm);
		goto report;
	}
	/* Default policy: SHA-1 and MD5 are never allowed for data. */
	ret = pgpk_policy_check_sig(&vc->policy, sig, vc->now, rule,
				    sizeof(rule));
	if (ret) {
		if (!pgpk_policy_hash_allowed(&vc->policy, sig->hash_algorithm))
			snprintf(why, sizeof(why), "%s %s refused (%s)",
				 sig->hash_algorithm == PGPK_HASH_SHA1 ?
					 "weak hash" :
					 "hash",
				 hash_name, rule);
		else
			snprintf(why, sizeof(why), "%s (%s)",
				 ret == -EKEYEXPIRED ? "expired signature" :
						       "signature refused",
				 rule);
		goto report;
	}

	/* The kernel's pgpk_sig_digest(): the hashed area's framing holds
	 * exactly one creation time, the signature's, and no critical
	 * subpacket pgpk does not understand; RFC 9580 9.5: a v6 salt is as
	 * long as its hash says. */
	if (!pgpk_hashed_walk(sig->hashed_area.data, sig->hashed_area.len,
			      &hashed) ||
	    hashed.created != sig->created) {
		snprintf(
			why, sizeof(why),
			"malformed: signature of %" PRIu32
			": its hashed area is not framed as the kernel takes it (one creation time, this one; no critical subpacket pgpk does not understand)",
			sig->created);
		goto report;
	}
	if (sig->version == 6 &&
	    sig->salt.len != pgpk_rebuild_salt_len(sig->hash_algorithm)) {
		snprintf(why, sizeof(why),
			 "malformed: v6 salt of %" PRIu32
			 " octets, hash %" PRIu32 " wants %" PRIu32,
			 sig->salt.len, sig->hash_algorithm,
			 pgpk_rebuild_salt_len(sig->hash_algorithm));
		goto report;
	}
	if (pgpk_verify_find(vc, sig, &vk, why, sizeof(why)))
		goto report;
	/* The kernel's pgpk_sig_refused(): the key the hashed area names. */
	if (hashed.fpr_len && (hashed.fpr_len != vk.fpr_len ||
			       memcmp(hashed.fpr, vk.fpr, vk.fpr_len))) {
		snprintf(
			why, sizeof(why),
			"key refused: the hashed issuer fingerprint names another key");
		goto report;
	}

	/* RFC 9580 5.2.4: hash([salt] || data || trailer). */
	tlen = pgpk_rebuild_trailer(sig, NULL);
	trailer = malloc(tlen);
	if (!trailer) {
		snprintf(why, sizeof(why), "out of memory");
		goto report;
	}
	pgpk_rebuild_trailer(sig, trailer);
	if (pgpk_verify_data_digest(vc, sig, data, data_len, keep, &md)) {
		snprintf(why, sizeof(why), "hashing with %s failed", hash_name);
		goto report;
	}
	ret = pgpk_digest_update(&md, trailer, tlen);
	if (pgpk_digest_final(&md, digest, &dlen) || ret) {
		snprintf(why, sizeof(why), "hashing with %s failed", hash_name);
		goto report;
	}
	pgpk_verify_uid(vk.cert, uid, sizeof(uid));
	pgpk_hex(vk.fpr, vk.fpr_len, fpr);
	/* RFC 9580 5.2.3: the left 16 bits of the hash, as a quick check. */
	if (((uint32_t)digest[0] << 8 | digest[1]) != sig->quick_check) {
		snprintf(
			why, sizeof(why),
			"BAD signature from %s (key %s): quick check %04" PRIx32
			", computed %02x%02x",
			uid, fpr, sig->quick_check, digest[0], digest[1]);
		verdict = PGPK_VERDICT_BAD;
		goto report;
	}
	/* RFC 9580 5.2.3.1: RSA PKCS#1 v1.5; a value longer than the
	 * modulus is refused, as the kernel's pgpk_sig_fit() does. */
	rsa_n = (struct pgpk_mpi){ vk.canon->key.material.rsa_n.data,
				   vk.canon->key.material.rsa_n.len };
	rsa_e = (struct pgpk_mpi){ vk.canon->key.material.rsa_e.data,
				   vk.canon->key.material.rsa_e.len };
	rsa_s = (struct pgpk_mpi){ sig->rsa_s.data, sig->rsa_s.len };
	ret = pgpk_key_rsa_verify_digest(vk.pub, &rsa_n, &rsa_e,
					 sig->hash_algorithm, digest, dlen,
					 &rsa_s);
	if (ret == -EKEYREJECTED) {
		snprintf(why, sizeof(why),
			 "BAD signature from %s (key %s): RSA check failed",
			 uid, fpr);
		verdict = PGPK_VERDICT_BAD;
		goto report;
	}
	if (ret) {
		snprintf(
			why, sizeof(why),
			"malformed: RSA key of %s unusable (modulus or exponent)",
			uid);
		goto report;
	}
	printf("Good signature from %s (key %s)\n", uid, fpr);
	fflush(stdout); /* in order with the other signatures' stderr */
	verdict = PGPK_VERDICT_GOOD;

report:
	if (verdict != PGPK_VERDICT_GOOD)
		pgpk_verify_report(idx, issuer, why);
	free(trailer);
	free(vk.canon);
	free(vk.blob);
	return verdict;
}

/* Signature @idx of an OpenPGP input, through its canonical form. */
static enum pgpk_verdict pgpk_verify_converted(struct pgpk_verify_ctx *vc,
					       const struct pgpk_sigset *set,
					       size_t idx)
{
	const struct pgpk_signature *ps = &set->sigs[idx];
	struct pgpk_canon_error cerr = { 0 };
	char why[512], issuer[2 * PGPK_FPR_MAX + 1];
	enum pgpk_verdict v = PGPK_VERDICT_SKIPPED;
	struct pgpk_canon *canon = NULL;
	struct pgpk_error err;
	uint8_t *blob = NULL;
	size_t blob_len;
	int ret;

	/* The signature as the kernel receives it from the helper. */
	ret = pgpk_sig_canonical(set, idx, &blob, &blob_len, &err);
	if (ret) {
		pgpk_verify_issuer(
			ps->issuer_fpr, ps->issuer_fpr_len,
			ps->has_issuer_keyid ? ps->issuer_keyid : NULL, issuer);
		snprintf(why, sizeof(why), "%s: %s (offset %zu)",
			 ret == -ENOPKG	      ? "unsupported algorithm" :
			 ret == -EKEYREJECTED ? "signature refused" :
						"malformed",
			 err.msg, err.offset);
		pgpk_verify_report(idx, issuer, why);
		return v;
	}
	canon = malloc(sizeof(*canon));
	if (!canon) {
		pgpk_verify_report(idx, "(unknown)", "out of memory");
	} else if (pgpk_canon_decode(blob, blob_len, canon, &cerr) ||
		   !PGPK_HAS(canon, PGPK_CANON_SIGNATURE)) {
		snprintf(
			why, sizeof(why),
			"malformed: canonical signature refused by the strict decoder: %s at offset %" PRIu32,
			cerr.why ? cerr.why : "not a signature", cerr.offset);
		pgpk_verify_report(idx, "(unknown)", why);
	} else if (!PGPK_HAS(canon, PGPK_CANON_CONTENT)) {
		v = pgpk_verify_one(vc, idx, &canon->sigs[0], NULL, false);
	} else {
		/* The blob's copy of the message, or (the same octets,
		 * compared) the message itself, which outlives the blob. */
		struct pgpk_bytes msg = { .data = set->content,
					  .len = (u32)set->content_len };
		bool same = set->has_content &&
			    set->content_len == canon->content.len &&
			    !memcmp(set->content, canon->content.data,
				    canon->content.len);

		v = pgpk_verify_one(vc, idx, &canon->sigs[0],
				    same ? &msg : &canon->content, same);
	}
	free(canon);
	free(blob);
	return v;
}

/*
 * A canonical signature blob, decoded directly as the kernel does
 * (kernel/pgpk_sig.c pgpk_test_preparse()): Canonical.signature, then
 * each of Canonical.more_signatures.  @canon: the blob decoded, or NULL
 * if the strict decoder refused it (@cerr).
 */
static void pgpk_verify_canonical(struct pgpk_verify_ctx *vc,
				  const struct pgpk_canon *canon,
				  const struct pgpk_canon_error *cerr,
				  size_t count[3])
{
	const struct pgpk_bytes *content;
	char why[256];
	u32 i;

	if (!canon) {
		snprintf(
			why, sizeof(why),
			"malformed: canonical signature refused by the strict decoder: %s at offset %" PRIu32,
			cerr->why ? cerr->why : "not a signature",
			cerr->offset);
		pgpk_verify_report(0, "(unknown)", why);
		count[PGPK_VERDICT_SKIPPED]++;
		return;
	}
	content = PGPK_HAS(canon, PGPK_CANON_CONTENT) ? &canon->content : NULL;
	for (i = 0; i <= canon->nr_more; i++)
		count[pgpk_verify_one(vc, i, &canon->sigs[i], content, true)]++;
}

static void pgpk_verify_usage(void)
{
	fprintf(stderr,
		"usage: pgpk-helper verify [POLICY] [--now SECONDS] [--signatures N] --keyring FILE [--keyring FILE ...] SIG [DATA]\n"
		"  every signature is checked and reported; exit 0: N (default 1) good\n"
		"  and none bad, 1: a bad signature, 2: fewer than N good, none bad\n");
	pgpk_policy_usage(stderr);
}

/* Read and parse one keyring (binary or armored) at vc->now. */
static void pgpk_verify_name(struct pgpk_verify_issuers *is, const uint8_t *fpr,
			     size_t fpr_len, const uint8_t *keyid)
{
	if (is->n == PGPK_VERIFY_MAX_NAMED || (!fpr && !keyid)) {
		is->all = true;
		return;
	}
	is->v[is->n++] = (struct pgpk_verify_issuer){ fpr, fpr_len, keyid };
}

static void pgpk_verify_name_canonical(struct pgpk_verify_issuers *is,
				       const struct pgpk_sig *sig)
{
	pgpk_verify_name(is,
			 PGPK_HAS(sig, PGPK_SIG_ISSUER_FINGERPRINT) ?
				 sig->issuer_fingerprint.data :
				 NULL,
			 sig->issuer_fingerprint.len,
			 PGPK_HAS(sig, PGPK_SIG_ISSUER_KEY_ID) ?
				 sig->issuer_key_id.data :
				 NULL);
}

/* The issuers of a canonical blob's signatures; a bad blob: all. */
static void pgpk_verify_name_blob(struct pgpk_verify_issuers *is,
				  const struct pgpk_canon *canon)
{
	u32 i;

	if (!canon) {
		is->all = true;
		return;
	}
	for (i = 0; i <= canon->nr_more; i++)
		pgpk_verify_name_canonical(is, &canon->sigs[i]);
}

static bool pgpk_verify_named_key(const struct pgpk_verify_issuers *is,
				  const struct pgpk_pubkey *key)
{
	size_t i;

	for (i = 0; i < is->n; i++) {
		const struct pgpk_verify_issuer *v = &is->v[i];

		if (v->fpr ? v->fpr_len == key->fpr_len &&
				     !memcmp(v->fpr, key->fpr, key->fpr_len) :
			     !memcmp(v->keyid, key->keyid, PGPK_KEYID_LEN))
			return true;
	}
	return false;
}

/* pgpk_parse_opts.want_subkey: is it a named key? */
static bool pgpk_verify_wanted_subkey(const struct pgpk_pubkey *sub, void *arg)
{
	return pgpk_verify_named_key(arg, sub);
}

/* pgpk_parse_opts.want: does the certificate hold a named key? */
static bool pgpk_verify_wanted(const struct pgpk_cert *cert, void *arg)
{
	const struct pgpk_verify_issuers *is = arg;
	size_t i;

	if (pgpk_verify_named_key(is, &cert->primary))
		return true;
	for (i = 0; i < cert->nsubkeys; i++)
		if (pgpk_verify_named_key(is, &cert->subkeys[i]))
			return true;
	return false;
}

static int pgpk_verify_add_keyring(struct pgpk_verify_ctx *vc, const char *path)
{
	struct pgpk_parse_opts opts = { .now = vc->now, .threads = 2 };
	struct pgpk_error err;
	uint8_t *buf;
	size_t len;
	int ret;

	if (vc->nrings == PGPK_VERIFY_MAX_KEYRINGS) {
		fprintf(stderr, "pgpk-helper verify: more than %d keyrings\n",
			PGPK_VERIFY_MAX_KEYRINGS);
		return -E2BIG;
	}
	if (!vc->issuers.all) {
		opts.want = pgpk_verify_wanted;
		opts.want_subkey = pgpk_verify_wanted_subkey;
		opts.want_arg = &vc->issuers;
	}
	ret = pgpk_cli_read_file(path, &buf, &len);
	if (ret)
		return ret;
	ret = pgpk_keyring_parse(buf, len, &opts, &vc->rings[vc->nrings], &err);
	free(buf);
	if (ret) {
		fprintf(stderr,
			"pgpk-helper verify: keyring %s: %s at offset %zu\n",
			path, err.msg, err.offset);
		return ret;
	}
	vc->ring_names[vc->nrings++] = path;
	return 0;
}

int pgpk_cmd_verify(int argc, char **argv)
{
	struct pgpk_verify_ctx vc = { .now = time(NULL) };
	size_t need = 1, count[3] = { 0 };
	const char *keyrings[PGPK_VERIFY_MAX_KEYRINGS];
	const char *sig_path = NULL, *data_path = NULL;
	size_t nkeyrings = 0, i, sig_len = 0, data_len = 0;
	bool canonical;
	uint8_t *sig_buf = NULL, *data_buf = NULL, *text_buf = NULL;
	struct pgpk_canon_error cerr = { 0 };
	struct pgpk_canon *canon = NULL;
	struct pgpk_sigset *set = NULL;
	struct pgpk_error err;
	int ret = 2, a, r;

	pgpk_policy_default(&vc.policy);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--keyring") && a + 1 < argc) {
			if (nkeyrings == PGPK_VERIFY_MAX_KEYRINGS) {
				fprintf(stderr,
					"pgpk-helper verify: more than %d keyrings\n",
					PGPK_VERIFY_MAX_KEYRINGS);
				return 2;
			}
			keyrings[nkeyrings++] = argv[++a];
		} else if (!strcmp(argv[a], "--signatures") && a + 1 < argc) {
			char *end;

			need = strtoul(argv[++a], &end, 10);
			if (*end || end == argv[a] || argv[a][0] == '-' ||
			    !need || need > PGPK_VERIFY_MAX_NEED) {
				fprintf(stderr,
					"pgpk-helper verify: --signatures wants 1..%d, got '%s'\n",
					PGPK_VERIFY_MAX_NEED, argv[a]);
				return 2;
			}
		} else if (!strcmp(argv[a], "--now") && a + 1 < argc) {
			char *end;

			vc.now = strtoll(argv[++a], &end, 10);
			if (*end || end == argv[a]) {
				fprintf(stderr,
					"pgpk-helper verify: bad --now '%s'\n",
					argv[a]);
				return 2;
			}
		} else if (argv[a][0] == '-' && argv[a][1] == '-') {
			r = pgpk_policy_option(&vc.policy, argc, argv, &a,
					       stderr);
			if (r < 0)
				return 2;
			if (r == 0) {
				fprintf(stderr,
					"pgpk-helper verify: unknown option '%s'\n",
					argv[a]);
				pgpk_verify_usage();
				return 2;
			}
			a--; /* pgpk_policy_option() advanced past it */
		} else if (!sig_path) {
			sig_path = argv[a];
		} else if (!data_path) {
			data_path = argv[a];
		} else {
			pgpk_verify_usage();
			return 2;
		}
	}
	if (!nkeyrings || !sig_path) {
		pgpk_verify_usage();
		return 2;
	}

	if (pgpk_cli_read_file(sig_path, &sig_buf, &sig_len))
		goto cleanup;
	if (data_path) {
		if (pgpk_cli_read_file(data_path, &data_buf, &data_len))
			goto cleanup;
		vc.data = data_buf;
		vc.data_len = data_len;
	}
	/* A canonical signature goes straight to the strict decoder, as in
	 * the kernel (kernel/pgpk_verify.c pgpk_sig_obtain()). */
	canonical = pgpk_canon_is_canonical(sig_buf, sig_len);
	if (canonical) {
		canon = malloc(sizeof(*canon));
		if (!canon) {
			fprintf(stderr, "pgpk-helper verify: out of memory\n");
			goto cleanup;
		}
		if (pgpk_canon_decode(sig_buf, sig_len, canon, &cerr) ||
		    !PGPK_HAS(canon, PGPK_CANON_SIGNATURE)) {
			free(canon);
			canon = NULL;
		}
	} else {
		r = pgpk_sigset_parse(sig_buf, sig_len, &set, &err);
		if (r) {
			fprintf(stderr,
				"pgpk-helper verify: %s: %s: %s at offset %zu\n",
				sig_path,
				r == -ENOPKG ? "unsupported" :
					       "malformed signature",
				err.msg, err.offset);
			goto cleanup;
		}
		if (!set->nsigs) {
			fprintf(stderr,
				"pgpk-helper verify: %s: no signature\n",
				sig_path);
			goto cleanup;
		}
	}
	/* A detached text signature's data as convert --data embeds it. */
	if (!canonical && data_buf) {
		if (pgpk_text_canonicalize_detached(data_buf, data_len,
						    &text_buf, &vc.text_len)) {
			fprintf(stderr, "pgpk-helper verify: out of memory\n");
			goto cleanup;
		}
		vc.text = text_buf;
	}
	if (canonical) {
		pgpk_verify_name_blob(&vc.issuers, canon);
	} else {
		for (i = 0; i < set->nsigs; i++)
			pgpk_verify_name(&vc.issuers,
					 set->sigs[i].issuer_fpr_len ?
						 set->sigs[i].issuer_fpr :
						 NULL,
					 set->sigs[i].issuer_fpr_len,
					 set->sigs[i].has_issuer_keyid ?
						 set->sigs[i].issuer_keyid :
						 NULL);
	}
	for (i = 0; i < nkeyrings; i++)
		if (pgpk_verify_add_keyring(&vc, keyrings[i]))
			goto cleanup;

	/* Every signature, then the document's verdict (apt's rule). */
	vc.share_data =
		canonical ? canon && canon->nr_more > 0 : set->nsigs > 1;
	if (canonical)
		pgpk_verify_canonical(&vc, canon, &cerr, count);
	else
		for (i = 0; i < set->nsigs; i++)
			count[pgpk_verify_converted(&vc, set, i)]++;
	fprintf(stderr,
		"pgpk-helper verify: %zu good, %zu bad, %zu skipped signature%s (%zu good required)\n",
		count[PGPK_VERDICT_GOOD], count[PGPK_VERDICT_BAD],
		count[PGPK_VERDICT_SKIPPED],
		count[PGPK_VERDICT_SKIPPED] == 1 ? "" : "s", need);
	if (count[PGPK_VERDICT_BAD])
		ret = 1;
	else
		ret = count[PGPK_VERDICT_GOOD] >= need ? 0 : 2;

cleanup:
	if (vc.data_md.ready)
		pgpk_digest_release(&vc.data_md.d);
	for (i = 0; i < vc.nrings; i++)
		pgpk_keyring_free(vc.rings[i]);
	pgpk_sigset_free(set);
	free(canon);
	free(text_buf);
	free(data_buf);
	free(sig_buf);
	return ret;
}
