// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper dump [--json] BLOB|-
 *
 * A readable view of a canonical blob, decoded with the kernel's own
 * strict decoder (//kernel:canon): what this prints is what the kernel
 * would see.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/commands.h"
#include "helper/pgpk_canon_key.h"
#include "proto/pgpk_fields.h"

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

/*
 * What the kernel's walk of the hashed area reads (pgpk_hashed_walk()):
 * expiry times relative to the signature's and the key's creation, key
 * flags (absent: none said), the IMA mark; or that it refuses the area.
 */
static void pgpk_dump_hashed(struct pgpk_dump *d, const struct pgpk_sig *s)
{
	struct pgpk_hashed h;

	pgpk_dump_open(d, "hashed");
	if (!pgpk_hashed_walk(s->hashed_area.data, s->hashed_area.len, &h)) {
		pgpk_dump_bool(d, "refused", true);
	} else {
		if (h.expires)
			pgpk_dump_u64(d, "expires_after", h.expires);
		if (h.key_expires)
			pgpk_dump_u64(d, "key_expires_after", h.key_expires);
		if (h.key_flags != 0xff)
			pgpk_dump_u64(d, "key_flags", h.key_flags);
		if (h.marked)
			pgpk_dump_bool(d, "ima_mark", true);
	}
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
	if (PGPK_HAS(s, PGPK_SIG_HASHED_AREA))
		pgpk_dump_hex(d, "hashed_area", &s->hashed_area);
	pgpk_dump_hashed(d, s);
	if (PGPK_HAS(s, PGPK_SIG_SALT))
		pgpk_dump_hex(d, "salt", &s->salt);
	pgpk_dump_u64(d, "quick_check", s->quick_check);
	pgpk_dump_hex(d, "rsa_s", &s->rsa_s);
	if (PGPK_HAS(s, PGPK_SIG_ISSUER_KEY_ID))
		pgpk_dump_hex(d, "issuer_key_id", &s->issuer_key_id);
	if (PGPK_HAS(s, PGPK_SIG_ISSUER_FINGERPRINT))
		pgpk_dump_hex(d, "issuer_fingerprint", &s->issuer_fingerprint);
	if (PGPK_HAS(s, PGPK_SIG_RSA_S_OFFSET))
		pgpk_dump_u64(d, "rsa_s_offset", s->rsa_s_offset);
	pgpk_dump_close(d);
}

/* Signatures of a document, in order, as the kernel reads them. */
static void pgpk_dump_sigs(struct pgpk_dump *d, const char *name,
			   const struct pgpk_sig *sigs, u32 n)
{
	u32 i;

	pgpk_dump_name(d, name);
	fputs(d->json ? "[" : "\n", d->out);
	d->depth++;
	d->first = true;
	for (i = 0; i < n; i++)
		pgpk_dump_sig(d, NULL, &sigs[i]);
	d->depth--;
	if (d->json)
		fputc(']', d->out);
	d->first = false;
}

/*
 * The fingerprint and key ID the kernel computes from the rebuilt key
 * packet, and the description it gives the key when add_key gives none.
 */
static void pgpk_dump_ids(struct pgpk_dump *d, const struct pgpk_key *k)
{
	u8 fpr[PGPK_CANON_FPR_MAX], keyid[PGPK_CANON_KEYID_LEN];
	struct pgpk_bytes b = { .data = fpr };
	char desc[PGPK_CANON_DESC_MAX];

	b.len = (u32)pgpk_canon_key_ids(&k->material, fpr, keyid);
	if (!b.len)
		return;
	pgpk_dump_hex(d, "fingerprint", &b);
	b.data = keyid;
	b.len = sizeof(keyid);
	pgpk_dump_hex(d, "key_id", &b);
	pgpk_canon_key_description(k, keyid, desc);
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
	if (PGPK_HAS(k, PGPK_KEY_PRIMARY))
		pgpk_dump_material(d, "primary", &k->primary);
	if (PGPK_HAS(k, PGPK_KEY_CERTIFICATION))
		pgpk_dump_sig(d, "certification", &k->certification);
	if (PGPK_HAS(k, PGPK_KEY_SOFT_REVOKED))
		pgpk_dump_u64(d, "soft_revoked", k->soft_revoked);
	if (PGPK_HAS(k, PGPK_KEY_SELF_SIGNATURE))
		pgpk_dump_sig(d, "self_signature", &k->self_signature);
	if (PGPK_HAS(k, PGPK_KEY_FIRST_BINDING))
		pgpk_dump_sig(d, "first_binding", &k->first_binding);
	pgpk_dump_close(d);
}

int pgpk_cmd_dump(int argc, char **argv)
{
	struct pgpk_dump d = { .out = stdout, .first = true };
	struct pgpk_canon_error cerr = { 0 };
	struct pgpk_canon *canon = NULL;
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
	canon = malloc(sizeof(*canon));
	ret = canon ? pgpk_canon_decode(data, len, canon, &cerr) : -ENOMEM;
	if (ret) {
		fprintf(stderr,
			"pgpk-helper: dump: %s: not a canonical blob: %s at offset %u\n",
			path, canon ? cerr.why : "out of memory", cerr.offset);
		free(canon);
		free(data);
		return 2;
	}
	if (d.json)
		fputc('{', d.out);
	if (PGPK_HAS(canon, PGPK_CANON_KEY))
		pgpk_dump_key(&d, &canon->key);
	if (PGPK_HAS(canon, PGPK_CANON_SIGNATURE))
		pgpk_dump_sig(&d, "signature", &canon->sigs[0]);
	if (PGPK_HAS(canon, PGPK_CANON_CONTENT)) {
		pgpk_dump_name(&d, "content_length");
		fprintf(d.out, d.json ? "%u" : "%u\n", canon->content.len);
	}
	if (PGPK_HAS(canon, PGPK_CANON_MORE_SIGNATURES))
		pgpk_dump_sigs(&d, "more_signatures", &canon->sigs[1],
			       canon->nr_more);
	if (d.json)
		fputs("}\n", d.out);
	free(canon);
	free(data);
	return fflush(stdout) ? 2 : 0;

usage:
	fprintf(stderr, "usage: pgpk-helper dump [--json] BLOB|-\n");
	return 2;
}
