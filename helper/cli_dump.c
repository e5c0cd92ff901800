// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper dump [--json] BLOB|-
 *
 * A readable view of a canonical blob, decoded with the kernel's own
 * strict decoder (//kernel:canon): what this prints is what the kernel
 * would see.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/commands.h"
#include "helper/pgpk_digest.h"
#include "kernel/pgpk_canon.h"
#include "kernel/pgpk_rebuild.h"

struct pgpk_dump {
	FILE *out;
	bool json;
	int depth;
	bool first; /* JSON: no comma before the next member */
};

/* A NULL name: an element of a list. */
static void pgpk_dump_name(struct pgpk_dump *d, const char *name)
{
	if (d->json) {
		fprintf(d->out, "%s", d->first ? "" : ",");
		if (name)
			fprintf(d->out, "\"%s\":", name);
		d->first = false;
	} else {
		fprintf(d->out, "%*s%s: ", d->depth * 2, "", name ? name : "-");
	}
}

static void pgpk_dump_u64(struct pgpk_dump *d, const char *name, uint64_t v)
{
	pgpk_dump_name(d, name);
	fprintf(d->out, d->json ? "%" PRIu64 : "%" PRIu64 "\n", v);
}

static void pgpk_dump_bool(struct pgpk_dump *d, const char *name, bool v)
{
	pgpk_dump_name(d, name);
	fprintf(d->out, d->json ? "%s" : "%s\n", v ? "true" : "false");
}

static void pgpk_dump_hex(struct pgpk_dump *d, const char *name,
			  const struct pgpk_bytes *b)
{
	u32 i;

	pgpk_dump_name(d, name);
	if (d->json)
		fputc('"', d->out);
	for (i = 0; i < b->len; i++)
		fprintf(d->out, "%02X", b->data[i]);
	fprintf(d->out, d->json ? "\"" : " (%u octets)\n", b->len);
}

static void pgpk_dump_text(struct pgpk_dump *d, const char *name,
			   const struct pgpk_bytes *b)
{
	u32 i;

	pgpk_dump_name(d, name);
	fputc('"', d->out);
	for (i = 0; i < b->len; i++) {
		u8 c = b->data[i];

		if (c == '"' || c == '\\')
			fprintf(d->out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(d->out, "\\u%04x", c);
		else
			fputc(c, d->out);
	}
	fprintf(d->out, d->json ? "\"" : "\"\n");
}

/* RFC 9580 5.5.4: v4 key ID = last 8 octets, v6 = first 8. */
static const u8 *pgpk_dump_keyid(const u8 *fpr, unsigned int n, u32 version)
{
	return version == 6 ? fpr : fpr + n - 8;
}

static void pgpk_dump_open(struct pgpk_dump *d, const char *name)
{
	pgpk_dump_name(d, name);
	fprintf(d->out, d->json ? "{" : "\n");
	d->depth++;
	d->first = true;
}

static void pgpk_dump_close(struct pgpk_dump *d)
{
	d->depth--;
	if (d->json)
		fputc('}', d->out);
	d->first = false;
}

static void pgpk_dump_material(struct pgpk_dump *d, const char *name,
			       const struct pgpk_key_material *m)
{
	pgpk_dump_open(d, name);
	pgpk_dump_u64(d, "version", m->version);
	pgpk_dump_u64(d, "created", m->created);
	pgpk_dump_u64(d, "algorithm", m->algorithm);
	pgpk_dump_hex(d, "rsa_n", &m->rsa_n);
	pgpk_dump_hex(d, "rsa_e", &m->rsa_e);
	pgpk_dump_close(d);
}

static void pgpk_dump_sig(struct pgpk_dump *d, const char *name,
			  const struct pgpk_sig *s)
{
	pgpk_dump_open(d, name);
	pgpk_dump_u64(d, "version", s->version);
	pgpk_dump_u64(d, "type", s->type);
	pgpk_dump_u64(d, "pubkey_algorithm", s->pubkey_algorithm);
	pgpk_dump_u64(d, "hash_algorithm", s->hash_algorithm);
	pgpk_dump_u64(d, "created", s->created);
	if (PGPK_HAS(s, PGPK_SIG_EXPIRES))
		pgpk_dump_u64(d, "expires", s->expires);
	if (PGPK_HAS(s, PGPK_SIG_HASHED_AREA))
		pgpk_dump_hex(d, "hashed_area", &s->hashed_area);
	if (PGPK_HAS(s, PGPK_SIG_SALT))
		pgpk_dump_hex(d, "salt", &s->salt);
	pgpk_dump_u64(d, "quick_check", s->quick_check);
	pgpk_dump_hex(d, "rsa_s", &s->rsa_s);
	if (PGPK_HAS(s, PGPK_SIG_ISSUER_KEY_ID))
		pgpk_dump_hex(d, "issuer_key_id", &s->issuer_key_id);
	if (PGPK_HAS(s, PGPK_SIG_ISSUER_FINGERPRINT))
		pgpk_dump_hex(d, "issuer_fingerprint", &s->issuer_fingerprint);
	pgpk_dump_close(d);
}

/*
 * Fingerprint of the rebuilt key packet (RFC 9580 5.5.4: v4 SHA-1, v6
 * SHA-256), as the kernel computes it.  Returns its length, 0 on error.
 */
/* A repeated Signature field, element by element as the kernel reads it. */
static void pgpk_dump_sigs(struct pgpk_dump *d, const char *name,
			   const struct pgpk_repeated *r)
{
	struct pgpk_sig s;
	u32 pos = 0;

	pgpk_dump_name(d, name);
	fputs(d->json ? "[" : "\n", d->out);
	d->depth++;
	d->first = true;
	while (!pgpk_canon_next(r, &pos, &s))
		pgpk_dump_sig(d, NULL, &s);
	d->depth--;
	if (d->json)
		fputc(']', d->out);
	d->first = false;
}

static unsigned int pgpk_dump_fpr(const struct pgpk_key_material *m, u8 *fpr)
{
	size_t blen = pgpk_rebuild_key_len(m);
	u8 prefix[PGPK_PREFIX_MAX], *body = malloc(blen ? blen : 1);
	struct pgpk_digest d;
	size_t plen, n = 0;

	if (!body || pgpk_digest_init(&d, m->version == 6 ? PGPK_HASH_SHA256 :
							    PGPK_HASH_SHA1))
		goto out_free;
	pgpk_rebuild_key(m, body);
	plen = pgpk_rebuild_key_prefix(m, blen, prefix);
	pgpk_digest_update(&d, prefix, plen);
	pgpk_digest_update(&d, body, blen);
	pgpk_digest_final(&d, fpr, &n);
out_free:
	free(body);
	return (unsigned int)n;
}

/* The fingerprint, key ID and (with a user ID) the key description the
 * 2022 patch set builds: user ID cut at '(' and trailing spaces, a space,
 * the last 8 hex digits of the key ID in lower case. */
static void pgpk_dump_ids(struct pgpk_dump *d, const struct pgpk_key *k)
{
	u8 fpr[PGPK_DIGEST_MAX];
	struct pgpk_bytes b = { .data = fpr };
	unsigned int n = pgpk_dump_fpr(&k->material, fpr);
	const u8 *kid;
	u32 ulen;
	char desc[300];

	if (!n)
		return;
	b.len = n;
	pgpk_dump_hex(d, "fingerprint", &b);
	kid = pgpk_dump_keyid(fpr, n, k->material.version);
	b.data = kid;
	b.len = 8;
	pgpk_dump_hex(d, "key_id", &b);
	if (!PGPK_HAS(k, PGPK_KEY_USER_ID))
		return;
	ulen = k->user_id.len;
	for (u32 i = 0; i < k->user_id.len; i++)
		if (k->user_id.data[i] == '(') {
			ulen = i;
			break;
		}
	while (ulen && k->user_id.data[ulen - 1] == ' ')
		ulen--;
	if (ulen > 255 - 9)
		ulen = 255 - 9;
	snprintf(desc, sizeof(desc), "%.*s %02x%02x%02x%02x", (int)ulen,
		 (const char *)k->user_id.data, kid[4], kid[5], kid[6], kid[7]);
	b.data = (const u8 *)desc;
	b.len = (u32)strlen(desc);
	pgpk_dump_text(d, "description", &b);
}

static void pgpk_dump_key(struct pgpk_dump *d, const struct pgpk_key *k)
{
	pgpk_dump_open(d, "key");
	pgpk_dump_ids(d, k);
	pgpk_dump_material(d, "material", &k->material);
	if (PGPK_HAS(k, PGPK_KEY_PACKET_OFFSET))
		pgpk_dump_u64(d, "packet_offset", k->packet_offset);
	if (PGPK_HAS(k, PGPK_KEY_SUBKEY))
		pgpk_dump_bool(d, "subkey", k->subkey);
	if (PGPK_HAS(k, PGPK_KEY_USER_ID))
		pgpk_dump_text(d, "user_id", &k->user_id);
	if (PGPK_HAS(k, PGPK_KEY_USER_ID_OFFSET))
		pgpk_dump_u64(d, "user_id_offset", k->user_id_offset);
	if (PGPK_HAS(k, PGPK_KEY_EXPIRES))
		pgpk_dump_u64(d, "expires", k->expires);
	if (PGPK_HAS(k, PGPK_KEY_KEY_FLAGS))
		pgpk_dump_u64(d, "key_flags", k->key_flags);
	if (PGPK_HAS(k, PGPK_KEY_PRIMARY))
		pgpk_dump_material(d, "primary", &k->primary);
	if (PGPK_HAS(k, PGPK_KEY_PRIMARY_OFFSET))
		pgpk_dump_u64(d, "primary_offset", k->primary_offset);
	if (PGPK_HAS(k, PGPK_KEY_CERTIFICATION))
		pgpk_dump_sig(d, "certification", &k->certification);
	if (PGPK_HAS(k, PGPK_KEY_THIRD_PARTY))
		pgpk_dump_sigs(d, "third_party", &k->third_party);
	if (PGPK_HAS(k, PGPK_KEY_BOUND))
		pgpk_dump_u64(d, "bound", k->bound);
	if (PGPK_HAS(k, PGPK_KEY_SOFT_REVOKED))
		pgpk_dump_u64(d, "soft_revoked", k->soft_revoked);
	pgpk_dump_close(d);
}

int pgpk_cmd_dump(int argc, char **argv)
{
	struct pgpk_dump d = { .out = stdout, .first = true };
	struct pgpk_canon_error cerr = { 0 };
	struct pgpk_canon canon;
	const char *path = NULL;
	uint8_t *data;
	size_t len;
	int a, ret;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--json"))
			d.json = true;
		else if (!path)
			path = argv[a];
		else
			goto usage;
	}
	if (!path)
		goto usage;
	if (pgpk_cli_read_file(path, &data, &len))
		return 2;
	ret = pgpk_canon_decode(data, len, &canon, &cerr);
	if (ret) {
		fprintf(stderr,
			"pgpk-helper: dump: %s: not a canonical blob: %s at offset %u (field %u)\n",
			path, pgpk_canon_reason_str(cerr.reason), cerr.offset,
			cerr.field);
		free(data);
		return 2;
	}
	if (d.json)
		fputc('{', d.out);
	if (PGPK_HAS(&canon, PGPK_CANON_KEY))
		pgpk_dump_key(&d, &canon.key);
	if (PGPK_HAS(&canon, PGPK_CANON_SIGNATURE))
		pgpk_dump_sig(&d, "signature", &canon.sig);
	if (PGPK_HAS(&canon, PGPK_CANON_CONTENT)) {
		pgpk_dump_name(&d, "content_length");
		fprintf(d.out, d.json ? "%u" : "%u\n", canon.content.len);
	}
	if (PGPK_HAS(&canon, PGPK_CANON_MORE_SIGNATURES))
		pgpk_dump_sigs(&d, "more_signatures", &canon.more_signatures);
	if (d.json)
		fputs("}\n", d.out);
	free(data);
	return fflush(stdout) ? 2 : 0;

usage:
	fprintf(stderr, "usage: pgpk-helper dump [--json] BLOB|-\n");
	return 2;
}
