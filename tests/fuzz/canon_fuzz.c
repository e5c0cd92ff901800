// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the strict canonical decoder (kernel/pgpk_canon.c),
 * the only decoder the kernel runs on what user space tells it.
 *
 * Invariants checked, against protobuf-c as the independent reference:
 *  - a refusal names a reason and an offset inside the blob;
 *  - a blob the strict decoder accepts is a valid protobuf message that
 *    protobuf-c unpacks with no field it does not know (11, reserved, is
 *    one), and packing it again gives the very same octets (the strict
 *    decoder accepts exactly one spelling per message);
 *  - the decoded fields equal protobuf-c's (more_signatures element by
 *    element in sigs[1..nr_more]), and every pgpk_bytes points inside
 *    the blob;
 *  - what the decoder accepts is within its stricter subset: v4 and v6
 *    keys and signatures, RSA that signs (not Encrypt-Only), a hashed
 *    area always, a salt with v6 only, RSA e of at most 8 octets, a
 *    subkey with its primary key and only then, at most 15 more
 *    signatures;
 *  - decoding is deterministic.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "proto/pgpk.pb-c.h"
#include "proto/pgpk_fields.h"
#include "tests/fuzz/pgpk_fuzz.h"

static void pgpk_fuzz_fail(const char *what)
{
	fprintf(stderr, "canon fuzz: invariant broken: %s\n", what);
	abort();
}

static void pgpk_fuzz_bytes(const struct pgpk_bytes *b, bool has,
			    const ProtobufCBinaryData *ref, bool ref_has,
			    const uint8_t *blob, size_t len, const char *what)
{
	if (has != ref_has)
		pgpk_fuzz_fail(what);
	if (!has)
		return;
	if (b->len != ref->len ||
	    (b->len && memcmp(b->data, ref->data, b->len)))
		pgpk_fuzz_fail(what);
	if (b->len && (b->data < blob || b->data + b->len > blob + len))
		pgpk_fuzz_fail("pgpk_bytes outside the blob");
}

static void pgpk_fuzz_material(const struct pgpk_key_material *m,
			       const Pgpk__KeyMaterial *r, const uint8_t *blob,
			       size_t len)
{
	if (!r)
		pgpk_fuzz_fail("material missing in protobuf-c");
	if (m->version != r->version || m->created != r->created ||
	    m->algorithm != r->algorithm || r->base.n_unknown_fields)
		pgpk_fuzz_fail("material numbers differ");
	/* RFC 9580 9.1: RSA (1) and RSA Sign-Only (3), never 2 */
	if ((m->version != 4 && m->version != 6) ||
	    (m->algorithm != 1 && m->algorithm != 3) ||
	    m->rsa_e.len > PGPK_MAX_EXPONENT)
		pgpk_fuzz_fail("material outside the decoder's subset");
	pgpk_fuzz_bytes(&m->rsa_n, true, &r->rsa_n, true, blob, len, "rsa_n");
	pgpk_fuzz_bytes(&m->rsa_e, true, &r->rsa_e, true, blob, len, "rsa_e");
}

static void pgpk_fuzz_sig(const struct pgpk_sig *s, const Pgpk__Signature *r,
			  const uint8_t *blob, size_t len)
{
	if (!r)
		pgpk_fuzz_fail("signature missing in protobuf-c");
	if (s->version != r->version || s->type != r->type ||
	    s->pubkey_algorithm != r->pubkey_algorithm ||
	    s->hash_algorithm != r->hash_algorithm ||
	    s->created != r->created || s->quick_check != r->quick_check ||
	    PGPK_HAS(s, PGPK_SIG_RSA_S_OFFSET) != !!r->has_rsa_s_offset ||
	    (r->has_rsa_s_offset && s->rsa_s_offset != r->rsa_s_offset) ||
	    r->base.n_unknown_fields)
		pgpk_fuzz_fail("signature numbers differ");
	if ((s->version != 4 && s->version != 6) ||
	    !PGPK_HAS(s, PGPK_SIG_HASHED_AREA) ||
	    PGPK_HAS(s, PGPK_SIG_SALT) != (s->version == 6))
		pgpk_fuzz_fail("signature outside the decoder's subset");
	pgpk_fuzz_bytes(&s->hashed_area, PGPK_HAS(s, PGPK_SIG_HASHED_AREA),
			&r->hashed_area, r->has_hashed_area, blob, len,
			"hashed_area");
	pgpk_fuzz_bytes(&s->salt, PGPK_HAS(s, PGPK_SIG_SALT), &r->salt,
			r->has_salt, blob, len, "salt");
	pgpk_fuzz_bytes(&s->rsa_s, true, &r->rsa_s, true, blob, len, "rsa_s");
	pgpk_fuzz_bytes(&s->issuer_key_id, PGPK_HAS(s, PGPK_SIG_ISSUER_KEY_ID),
			&r->issuer_key_id, r->has_issuer_key_id, blob, len,
			"issuer_key_id");
	pgpk_fuzz_bytes(&s->issuer_fingerprint,
			PGPK_HAS(s, PGPK_SIG_ISSUER_FINGERPRINT),
			&r->issuer_fingerprint, r->has_issuer_fingerprint, blob,
			len, "issuer_fingerprint");
}

static void pgpk_fuzz_key(const struct pgpk_key *k, const Pgpk__Key *r,
			  const uint8_t *blob, size_t len)
{
	if (!r)
		pgpk_fuzz_fail("key missing in protobuf-c");
	pgpk_fuzz_material(&k->material, r->material, blob, len);
	if (PGPK_HAS(k, PGPK_KEY_PACKET_OFFSET) != !!r->has_packet_offset ||
	    (r->has_packet_offset && k->packet_offset != r->packet_offset) ||
	    PGPK_HAS(k, PGPK_KEY_SUBKEY) != !!r->has_subkey ||
	    (r->has_subkey && k->subkey != !!r->subkey) ||
	    PGPK_HAS(k, PGPK_KEY_USER_ID_OFFSET) != !!r->has_user_id_offset ||
	    (r->has_user_id_offset && k->user_id_offset != r->user_id_offset) ||
	    PGPK_HAS(k, PGPK_KEY_SOFT_REVOKED) != !!r->has_soft_revoked ||
	    (r->has_soft_revoked && k->soft_revoked != r->soft_revoked) ||
	    r->base.n_unknown_fields)
		pgpk_fuzz_fail("key numbers differ");
	if (k->subkey != PGPK_HAS(k, PGPK_KEY_PRIMARY))
		pgpk_fuzz_fail("a subkey without its primary, or the reverse");
	pgpk_fuzz_bytes(&k->user_id, PGPK_HAS(k, PGPK_KEY_USER_ID), &r->user_id,
			r->has_user_id, blob, len, "user_id");
	if (PGPK_HAS(k, PGPK_KEY_PRIMARY) != !!r->primary)
		pgpk_fuzz_fail("primary presence differs");
	if (r->primary)
		pgpk_fuzz_material(&k->primary, r->primary, blob, len);
	if (PGPK_HAS(k, PGPK_KEY_CERTIFICATION) != !!r->certification)
		pgpk_fuzz_fail("certification presence differs");
	if (r->certification)
		pgpk_fuzz_sig(&k->certification, r->certification, blob, len);
	if (PGPK_HAS(k, PGPK_KEY_SELF_SIGNATURE) != !!r->self_signature ||
	    PGPK_HAS(k, PGPK_KEY_FIRST_BINDING) != !!r->first_binding)
		pgpk_fuzz_fail("self-signature presence differs");
	if (r->self_signature)
		pgpk_fuzz_sig(&k->self_signature, r->self_signature, blob, len);
	if (r->first_binding)
		pgpk_fuzz_sig(&k->first_binding, r->first_binding, blob, len);
}

/* The reference for pgpk_canon_form(), written from pgpk.proto and RFC. */
static int reference_form(const uint8_t *data, size_t size)
{
	static const char armor[] = "-----BEGIN PGP ";

	if (pgpk_canon_is_canonical(data, size))
		return PGPK_FORM_CANONICAL;
	if (size >= strlen(armor) && !memcmp(data, armor, strlen(armor)))
		return PGPK_FORM_OPENPGP; /* the helper names the remedy */
	if (size && (data[0] & 0x80))
		return PGPK_FORM_OPENPGP; /* a packet header's first octet */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pgpk_canon canon, canon2;
	struct pgpk_canon_error err, err2;
	Pgpk__Canonical *ref;
	const uint8_t *msg = data + PGPK_MAGIC_LEN;
	size_t msg_len, packed_len, i;
	uint8_t *packed;
	int ret, ret2, form;

	/* The payload's form is its first octets' and nothing else's. */
	form = pgpk_canon_form(data, size);
	if (form != reference_form(data, size))
		pgpk_fuzz_fail(
			"payload form differs from RFC 9580 4.2 and 6.2");

	memset(&err, 0xa5, sizeof(err));
	ret = pgpk_canon_decode(data, size, &canon, &err);
	ret2 = pgpk_canon_decode(data, size, &canon2, &err2);
	if (ret != ret2)
		pgpk_fuzz_fail("decoding is not deterministic");
	if (ret) {
		if (ret != -EBADMSG)
			pgpk_fuzz_fail("refusal is not -EBADMSG");
		if (!err.why || !*err.why)
			pgpk_fuzz_fail("refusal without a reason");
		if (err.offset > size)
			pgpk_fuzz_fail("refusal offset past the end");
		if (err.why != err2.why || err.offset != err2.offset)
			pgpk_fuzz_fail("refusal is not deterministic");
		return 0;
	}
	if (!pgpk_canon_is_canonical(data, size))
		pgpk_fuzz_fail("accepted without the magic");

	/* The reference: protobuf-c must agree, octet for octet. */
	msg_len = size - PGPK_MAGIC_LEN;
	ref = pgpk__canonical__unpack(NULL, msg_len, msg);
	if (!ref)
		pgpk_fuzz_fail("accepted, but protobuf-c cannot unpack it");
	if (ref->base.n_unknown_fields)
		pgpk_fuzz_fail("accepted a field the schema does not have");
	packed_len = pgpk__canonical__get_packed_size(ref);
	packed = malloc(packed_len ? packed_len : 1);
	if (!packed)
		abort();
	if (pgpk__canonical__pack(ref, packed) != packed_len ||
	    packed_len != msg_len || memcmp(packed, msg, msg_len))
		pgpk_fuzz_fail(
			"accepted a spelling protobuf-c does not produce");
	free(packed);

	if (PGPK_HAS(&canon, PGPK_CANON_KEY) ==
	    PGPK_HAS(&canon, PGPK_CANON_SIGNATURE))
		pgpk_fuzz_fail("not exactly one of key and signature");
	if (PGPK_HAS(&canon, PGPK_CANON_KEY) != !!ref->key ||
	    PGPK_HAS(&canon, PGPK_CANON_SIGNATURE) != !!ref->signature)
		pgpk_fuzz_fail("envelope differs from protobuf-c");
	if (ref->key)
		pgpk_fuzz_key(&canon.key, ref->key, data, size);
	if (ref->signature)
		pgpk_fuzz_sig(&canon.sigs[0], ref->signature, data, size);
	pgpk_fuzz_bytes(&canon.content, PGPK_HAS(&canon, PGPK_CANON_CONTENT),
			&ref->content, ref->has_content, data, size, "content");
	if (ref->n_more_signatures > PGPK_MAX_SIGNATURES - 1 ||
	    (ref->n_more_signatures && !ref->signature))
		pgpk_fuzz_fail("more_signatures beyond their rules");
	if (canon.nr_more != ref->n_more_signatures ||
	    PGPK_HAS(&canon, PGPK_CANON_MORE_SIGNATURES) !=
		    !!ref->n_more_signatures)
		pgpk_fuzz_fail("more_signatures count differs");
	for (i = 0; i < ref->n_more_signatures; i++)
		pgpk_fuzz_sig(&canon.sigs[i + 1], ref->more_signatures[i], data,
			      size);
	for (i = ref->n_more_signatures + 1; i < PGPK_MAX_SIGNATURES; i++)
		if (canon.sigs[i].present)
			pgpk_fuzz_fail("a signature beyond nr_more");
	pgpk__canonical__free_unpacked(ref, NULL);
	return 0;
}
