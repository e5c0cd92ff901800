// SPDX-License-Identifier: GPL-2.0
/*
 * Every valid RSA key and subkey of Debian's keyrings, converted to its
 * canonical Key blob and checked the way the kernel checks an upcall's
 * answer: strict decode; the key packet rebuilt from the canonical
 * material a whole top-level packet of the submitted octets at
 * packet_offset (the user ID at user_id_offset: pgpk_packet_at()), the certification's value at
 * rsa_s_offset (pgpk_bytes_at()); each self-certification verified over
 * data built only by kernel/pgpk_rebuild.c.  The keyrings come with the debian-keyring and
 * debian-archive-keyring packages (tests/deps.sh).
 */
#include <errno.h>
#include <time.h>

#include <openssl/evp.h>

#include "helper/openpgp/internal.h"
#include "kernel/pgpk_canon.h"
#include "proto/pgpk_fields.h"
#include "tests/openpgp/test_util.h"

static uint8_t *read_abs(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		fprintf(stderr, "cannot open %s (install debian-keyring)\n",
			path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void hash_material(EVP_MD_CTX *md, const struct pgpk_key_material *m)
{
	size_t len = pgpk_rebuild_key(m, NULL);
	uint8_t *body = malloc(len), prefix[PGPK_PREFIX_MAX];
	size_t plen = pgpk_rebuild_key_prefix(m, prefix);

	pgpk_rebuild_key(m, body);
	EVP_DigestUpdate(md, prefix, plen);
	EVP_DigestUpdate(md, body, len);
	free(body);
}

/* The kernel's binding: a whole top-level packet of @tag at @offset. */
static bool packet_bound(const struct pgpk_input *in,
			 const struct pgpk_key_material *m, uint32_t offset,
			 uint8_t tag)
{
	size_t len = pgpk_rebuild_key(m, NULL);
	uint8_t *body = malloc(len);
	bool ok;

	pgpk_rebuild_key(m, body);
	ok = pgpk_packet_at(in->packets, in->packets_len, offset, tag, body,
			    len);
	free(body);
	return ok;
}

/*
 * The kernel's view of a self-signature s of k (its certification, its
 * self_signature or first_binding): 0 if it verifies with the primary
 * key over the primary key and the subkey (binding) or the user ID.
 */
static int check_selfsig(const struct pgpk_key *k, const struct pgpk_sig *s,
			 bool binding)
{
	const struct pgpk_key_material *signer =
		k->subkey ? &k->primary : &k->material;
	uint8_t digest[EVP_MAX_MD_SIZE], *trailer;
	unsigned int dlen = 0;
	size_t tlen = pgpk_rebuild_trailer(s, NULL);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	struct pgpk_mpi n = { signer->rsa_n.data, signer->rsa_n.len };
	struct pgpk_mpi e = { signer->rsa_e.data, signer->rsa_e.len };
	struct pgpk_mpi sv = { s->rsa_s.data, s->rsa_s.len };
	int ret;

	EVP_DigestInit_ex(md,
			  EVP_get_digestbyname(pgpk_md_name(s->hash_algorithm)),
			  NULL);
	/* RFC 9580 5.2.4, 9.5: a v6 signature's salt, of its hash's size */
	if (s->version == 6) {
		if (s->salt.len != pgpk_rebuild_salt_len(s->hash_algorithm))
			return -EBADMSG;
		EVP_DigestUpdate(md, s->salt.data, s->salt.len);
	}
	if (binding) {
		hash_material(md, &k->primary);
		hash_material(md, &k->material);
	} else if (s->type != 0x1F) {
		uint8_t prefix[PGPK_PREFIX_MAX];
		size_t plen = pgpk_rebuild_uid_prefix(k->user_id.len, prefix);

		hash_material(md, signer);
		EVP_DigestUpdate(md, prefix, plen);
		EVP_DigestUpdate(md, k->user_id.data, k->user_id.len);
	} else {
		hash_material(md, signer);
	}
	trailer = malloc(tlen);
	pgpk_rebuild_trailer(s, trailer);
	EVP_DigestUpdate(md, trailer, tlen);
	EVP_DigestFinal_ex(md, digest, &dlen);
	free(trailer);
	EVP_MD_CTX_free(md);
	if ((digest[0] << 8 | digest[1]) != (int)s->quick_check)
		return -EKEYREJECTED;
	ret = pgpk_rsa_verify_digest(&n, &e, s->hash_algorithm, digest, dlen,
				     &sv);
	return ret;
}

static void check_keyring(const char *path, size_t min_blobs)
{
	struct pgpk_parse_opts opts = { .now = (int64_t)time(NULL),
					.threads = 2 };
	struct pgpk_keyring *ring;
	struct pgpk_error err;
	size_t len, i, j, blobs = 0, self = 0, third = 0, unsupported = 0;
	size_t uncertified = 0, weak = 0, selfsigs = 0;
	uint8_t *in = read_abs(path, &len);

	CHECK_EQ(pgpk_keyring_parse(in, len, &opts, &ring, &err), 0);
	free(in);
	if (!ring)
		return;
	for (i = 0; i < ring->ncerts; i++) {
		const struct pgpk_cert *c = &ring->certs[i];

		for (j = 0; j <= c->nsubkeys; j++) {
			const struct pgpk_pubkey *k =
				j ? &c->subkeys[j - 1] : &c->primary;
			static struct pgpk_canon canon;
			struct pgpk_canon_error cerr;
			const struct pgpk_key *ck = &canon.key;
			const struct pgpk_input *input = &ring->input;
			uint8_t *blob;
			size_t blen;
			int ret;

			if (!k->valid)
				continue;
			ret = pgpk_key_canonical(ring, c, k, NULL, 0, &blob,
						 &blen, &err);
			if (ret == -ENOPKG) {
				unsupported++;
				continue;
			}
			/* A key whose deciding self-signature (a subkey's
			 * binding, or its primary's) the kernel does not
			 * check (SHA-1: the policy floor) is refused. */
			if (ret == -EKEYREJECTED &&
			    (!pgpk_sig_kernel_checkable(c->primary.binding,
							NULL) ||
			     (j &&
			      !pgpk_sig_kernel_checkable(k->binding, NULL)))) {
				weak++;
				continue;
			}
			CHECK_EQ(ret, 0);
			if (ret) {
				fprintf(stderr, "  %s\n", err.msg);
				continue;
			}
			blobs++;
			CHECK_EQ(pgpk_canon_decode(blob, blen, &canon, &cerr),
				 0);
			CHECK(packet_bound(input, &ck->material,
					   ck->packet_offset,
					   ck->subkey ? 14 : 6));
			if (PGPK_HAS(ck, PGPK_KEY_USER_ID))
				CHECK(pgpk_packet_at(
					input->packets, input->packets_len,
					ck->user_id_offset, 13,
					ck->user_id.data, ck->user_id.len));
			/* A v3 certification, or one with a weak hash (the
			 * policy floor: the kernel would refuse the key), is
			 * left out (no authority). */
			if (!PGPK_HAS(ck, PGPK_KEY_CERTIFICATION)) {
				uncertified++;
				CHECK(k->binding &&
				      ((k->binding->version != 4 &&
					k->binding->version != 6) ||
				       k->binding->hash_algo < 8));
			}
			if (PGPK_HAS(ck, PGPK_KEY_CERTIFICATION)) {
				const struct pgpk_sig *s = &ck->certification;
				bool is_self =
					PGPK_HAS(s,
						 PGPK_SIG_ISSUER_FINGERPRINT) ?
						!memcmp(s->issuer_fingerprint
								.data,
							c->primary.fpr, 20) :
						!memcmp(s->issuer_key_id.data,
							c->primary.keyid, 8);

				CHECK(PGPK_HAS(s, PGPK_SIG_RSA_S_OFFSET) &&
				      pgpk_bytes_at(input->packets,
						    input->packets_len,
						    s->rsa_s_offset,
						    s->rsa_s.data,
						    s->rsa_s.len));
				if (is_self) {
					self++;
					CHECK_EQ(check_selfsig(ck, s,
							       ck->subkey),
						 0);
				} else {
					third++;
				}
			}
			/* What the kernel reads a key's use and life from:
			 * the primary key's self-signature (Key.self_signature,
			 * or a primary key's own certification), a first
			 * binding; each verifies. */
			CHECK(PGPK_HAS(ck, PGPK_KEY_SELF_SIGNATURE) ||
			      (!ck->subkey &&
			       PGPK_HAS(ck, PGPK_KEY_CERTIFICATION)));
			if (PGPK_HAS(ck, PGPK_KEY_SELF_SIGNATURE)) {
				selfsigs++;
				CHECK_EQ(check_selfsig(ck, &ck->self_signature,
						       false),
					 0);
			}
			if (PGPK_HAS(ck, PGPK_KEY_FIRST_BINDING)) {
				selfsigs++;
				CHECK(ck->subkey &&
				      ck->first_binding.created <
					      ck->certification.created);
				CHECK_EQ(check_selfsig(ck, &ck->first_binding,
						       true),
					 0);
			}
			free(blob);
		}
	}
	printf("%s: %zu certificates, %zu canonical keys (%zu self-"
	       "certifications verified, %zu third-party, %zu left out: v3 or weak hash; "
	       "%zu more self-signatures verified), %zu non-RSA, "
	       "%zu refused: a self-signature below the policy floor\n",
	       path, ring->ncerts, blobs, self, third, uncertified, selfsigs,
	       unsupported, weak);
	CHECK(blobs >= min_blobs);
	pgpk_keyring_free(ring);
}

int main(void)
{
	check_keyring("/usr/share/keyrings/debian-archive-keyring.gpg", 10);
	check_keyring("/usr/share/keyrings/debian-keyring.gpg", 2000);
	return pgpk_test_done("keyring_canon_test");
}
