// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over every entry point of the OpenPGP library
 * (helper/openpgp/openpgp.h, helper/pgpk_convert.h): input decoding
 * (binary, armor, cleartext), keyrings (with and without signature
 * verification), signature sets, single signature packets, text
 * canonicalisation, CRC-24, key lookup and description, and the canonical
 * encoders.
 *
 * Besides "no crash, no leak, no undefined behaviour" it checks the
 * library's contract: every canonical blob it produces is accepted by the
 * kernel's strict decoder (kernel/pgpk_canon.c) and holds the kind asked
 * for; a key's, from binary input, is bound to it as the kernel binds an
 * upcall answer (its key, primary and user ID packets whole top-level
 * packets at their offsets, the certification's value at its own:
 * pgpk_packet_at(), pgpk_bytes_at()); and every error carries a negative
 * errno and a message.  The input's own certificates serve as trust
 * anchors, so that the choice of a certification runs too.
 *
 * Built with clang -fsanitize=fuzzer (tests/fuzz/build-fuzzers.sh) and,
 * with replay_main.c, as a plain test replaying the corpus.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/openpgp.h"
#include "helper/pgpk_convert.h"
#include "kernel/pgpk_canon.h"
#include "proto/pgpk_fields.h"
#include "tests/fuzz/pgpk_fuzz.h"

/* Fixed "now" (2026-01-01): the same input always takes the same path. */
#define PGPK_FUZZ_NOW 1767225600
/* Verify RSA signatures only on inputs up to this size (speed). */
#define PGPK_FUZZ_VERIFY_MAX (64 * 1024)

static void pgpk_fuzz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "pgpk fuzz: contract broken: %s: %s\n", what, detail);
	abort();
}

/* An error must have a negative errno and name the problem. */
static void pgpk_fuzz_check_error(const char *what, int ret,
				  const struct pgpk_error *err)
{
	if (ret >= 0)
		pgpk_fuzz_fail(what, "positive return value");
	if (err->code != ret)
		pgpk_fuzz_fail(what, "err->code differs from the return value");
	if (!memchr(err->msg, '\0', sizeof(err->msg)) || !err->msg[0])
		pgpk_fuzz_fail(what, "error without a message");
}

/*
 * A produced blob must pass the strict decoder and be of the right kind;
 * the decoded blob is left in *out (static: the caller's next call
 * overwrites it).
 */
static const struct pgpk_canon *pgpk_fuzz_check_blob(const char *what,
						     const uint8_t *blob,
						     size_t len, int kind)
{
	static struct pgpk_canon canon;
	struct pgpk_canon_error cerr;
	char detail[128];

	if (pgpk_canon_decode(blob, len, &canon, &cerr)) {
		snprintf(detail, sizeof(detail),
			 "strict decoder refuses it: %s at offset %" PRIu32,
			 cerr.why, cerr.offset);
		pgpk_fuzz_fail(what, detail);
	}
	if (!PGPK_HAS(&canon, kind))
		pgpk_fuzz_fail(what, "blob of the wrong kind");
	return &canon;
}

/* A whole top-level packet of @tag with the body rebuilt from @m? */
static bool pgpk_fuzz_packet(const uint8_t *data, size_t size, u32 offset,
			     u8 tag, const struct pgpk_key_material *m)
{
	size_t len = pgpk_rebuild_key(m, NULL);
	uint8_t *body = malloc(len);
	bool ok;

	if (!body)
		abort();
	pgpk_rebuild_key(m, body);
	ok = pgpk_packet_at(data, size, offset, tag, body, len);
	free(body);
	return ok;
}

/* The kernel's binding checks, on what a key's blob says of @data. */
static void pgpk_fuzz_check_bound(const struct pgpk_key *k, const uint8_t *data,
				  size_t size)
{
	const struct pgpk_sig *c = &k->certification;

	if (!pgpk_fuzz_packet(data, size, k->packet_offset,
			      k->subkey ? PGPK_TAG_PUBLIC_SUBKEY :
					  PGPK_TAG_PUBLIC_KEY,
			      &k->material))
		pgpk_fuzz_fail("pgpk_key_canonical", "key packet not bound");
	if (PGPK_HAS(k, PGPK_KEY_USER_ID) &&
	    !pgpk_packet_at(data, size, k->user_id_offset, PGPK_TAG_USER_ID,
			    k->user_id.data, k->user_id.len))
		pgpk_fuzz_fail("pgpk_key_canonical", "user ID not bound");
	if (PGPK_HAS(k, PGPK_KEY_CERTIFICATION) &&
	    (!PGPK_HAS(c, PGPK_SIG_RSA_S_OFFSET) ||
	     !pgpk_bytes_at(data, size, c->rsa_s_offset, c->rsa_s.data,
			    c->rsa_s.len)))
		pgpk_fuzz_fail("pgpk_key_canonical",
			       "certification value not bound");
}

static void pgpk_fuzz_hex(const uint8_t *p, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

static void pgpk_fuzz_key(const struct pgpk_keyring *ring,
			  const struct pgpk_cert *cert,
			  const struct pgpk_pubkey *key,
			  const struct pgpk_anchors *anchors)
{
	const struct pgpk_canon *canon;
	const struct pgpk_cert *found_cert = NULL;
	char hex[2 * PGPK_FPR_MAX + 1], desc[300];
	struct pgpk_error err;
	unsigned int flags;
	uint8_t *blob;
	size_t len;
	int ret;

	pgpk_key_description(cert, key, desc, sizeof(desc));
	pgpk_key_description(cert, key, desc, 8);
	(void)pgpk_pk_algo_name(key->algo);
	if (key->fpr_len && key->fpr_len <= PGPK_FPR_MAX) {
		pgpk_fuzz_hex(key->fpr, key->fpr_len, hex);
		if (!pgpk_keyring_find(ring, hex, &found_cert))
			pgpk_fuzz_fail(
				"pgpk_keyring_find",
				"a listed key is not found by fingerprint");
	}
	pgpk_fuzz_hex(key->keyid, PGPK_KEYID_LEN, hex);
	(void)pgpk_keyring_find(ring, hex, &found_cert);
	for (flags = 0; flags <= PGPK_CANON_STANDALONE; flags++) {
		memset(&err, 0, sizeof(err));
		ret = pgpk_key_canonical(ring, cert, key, anchors, flags, &blob,
					 &len, &err);
		if (ret) {
			pgpk_fuzz_check_error("pgpk_key_canonical", ret, &err);
			continue;
		}
		canon = pgpk_fuzz_check_blob("pgpk_key_canonical", blob, len,
					     PGPK_CANON_KEY);
		if (!flags && ring->input.kind == PGPK_INPUT_BINARY)
			pgpk_fuzz_check_bound(&canon->key, ring->input.packets,
					      ring->input.packets_len);
		free(blob);
	}
}

static void pgpk_fuzz_keyring(const uint8_t *data, size_t size, bool no_verify)
{
	struct pgpk_parse_opts opts = {
		.now = PGPK_FUZZ_NOW,
		.no_verify = no_verify,
	};
	struct pgpk_blob self = { data, size };
	struct pgpk_anchors anchors = { &self, 1, PGPK_FUZZ_NOW, 0 };
	struct pgpk_keyring *ring = NULL;
	struct pgpk_error err = { 0 };
	size_t c, k, *starts, n;
	int ret;

	ret = pgpk_keyring_parse(data, size, &opts, &ring, &err);
	if (ret) {
		pgpk_fuzz_check_error("pgpk_keyring_parse", ret, &err);
		return;
	}
	for (c = 0; c < ring->ncerts; c++) {
		const struct pgpk_cert *cert = &ring->certs[c];

		(void)pgpk_cert_primary_uid(cert);
		pgpk_fuzz_key(ring, cert, &cert->primary,
			      no_verify ? NULL : &anchors);
		for (k = 0; k < cert->nsubkeys; k++)
			pgpk_fuzz_key(ring, cert, &cert->subkeys[k], NULL);
	}
	/* Each certificate starts at one of its primary key packets. */
	if (!pgpk_cert_starts(ring->input.packets, ring->input.packets_len,
			      &starts, &n, &err)) {
		if (n < ring->ncerts)
			pgpk_fuzz_fail("pgpk_cert_starts",
				       "fewer starts than certificates");
		free(starts);
	} else {
		pgpk_fuzz_check_error("pgpk_cert_starts", err.code, &err);
	}
	(void)pgpk_keyring_find(ring, "0x0123456789ABCDEF", NULL);
	(void)pgpk_keyring_find(ring, "", NULL);
	pgpk_keyring_free(ring);
}

static void pgpk_fuzz_sigset(const uint8_t *data, size_t size)
{
	struct pgpk_sigset *set = NULL;
	struct pgpk_error err = { 0 };
	uint8_t *blob;
	size_t i, len;
	int ret;

	ret = pgpk_sigset_parse(data, size, &set, &err);
	if (ret) {
		pgpk_fuzz_check_error("pgpk_sigset_parse", ret, &err);
		return;
	}
	for (i = 0; i < set->nsigs; i++) {
		memset(&err, 0, sizeof(err));
		ret = pgpk_sig_canonical(set, i, &blob, &len, &err);
		if (ret) {
			pgpk_fuzz_check_error("pgpk_sig_canonical", ret, &err);
			continue;
		}
		pgpk_fuzz_check_blob("pgpk_sig_canonical", blob, len,
				     PGPK_CANON_SIGNATURE);
		free(blob);
	}
	pgpk_sigset_free(set);
}

static void pgpk_fuzz_convert(const uint8_t *data, size_t size,
			      enum pgpk_want want, const char *select,
			      bool with_data)
{
	struct pgpk_blob self = { data, size };
	struct pgpk_convert_opts opts = {
		.select = select,
		.now = PGPK_FUZZ_NOW,
		.anchors = &self,
		.nanchors = 1,
		.data = with_data ? &self : NULL,
	};
	struct pgpk_error err = { 0 };
	uint8_t *blob = NULL;
	size_t len = 0;
	int ret;

	ret = pgpk_convert(data, size, want, &opts, &blob, &len, &err);
	if (ret) {
		pgpk_fuzz_check_error("pgpk_convert", ret, &err);
		return;
	}
	pgpk_fuzz_check_blob("pgpk_convert", blob, len,
			     want == PGPK_WANT_KEY ? PGPK_CANON_KEY :
						     PGPK_CANON_SIGNATURE);
	free(blob);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgpk_signature sig;
	struct pgpk_input input;
	struct pgpk_error err = { 0 };
	uint8_t *text;
	size_t text_len;
	int ret;

	/* Armor / cleartext / binary recognition. */
	ret = pgpk_input_decode(data, size, &input, &err);
	if (ret) {
		pgpk_fuzz_check_error("pgpk_input_decode", ret, &err);
	} else {
		if (input.packets_len)
			(void)pgpk_crc24(input.packets, input.packets_len);
		pgpk_input_release(&input);
	}
	(void)pgpk_crc24(data, size);

	/* RFC 9580 5.2.1 / 7.2 canonical text, every flavour. */
	if (!pgpk_text_canonicalize(data, size, false, &text, &text_len))
		free(text);
	if (!pgpk_text_canonicalize(data, size, true, &text, &text_len))
		free(text);
	if (!pgpk_text_canonicalize_detached(data, size, &text, &text_len))
		free(text);

	/* The input as one signature packet body. */
	memset(&err, 0, sizeof(err));
	ret = pgpk_signature_parse(data, size, 0, &sig, &err);
	if (ret)
		pgpk_fuzz_check_error("pgpk_signature_parse", ret, &err);

	pgpk_fuzz_keyring(data, size, true);
	if (size <= PGPK_FUZZ_VERIFY_MAX)
		pgpk_fuzz_keyring(data, size, false);
	pgpk_fuzz_sigset(data, size);
	pgpk_fuzz_convert(data, size, PGPK_WANT_KEY, NULL, false);
	pgpk_fuzz_convert(data, size, PGPK_WANT_KEY, "0011223344556677", false);
	pgpk_fuzz_convert(data, size, PGPK_WANT_SIG, NULL, false);
	pgpk_fuzz_convert(data, size, PGPK_WANT_SIG, NULL, true);
	return 0;
}
