// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper debug: the upcall's whole pipeline (fork, sandbox, convert,
 * re-validate, policy) on a file instead of a kernel key, printing what
 * would have been instantiated.  Exit status 0, or the errno the key would
 * have been rejected with (EBADMSG = 74, ...), its name on stderr.
 *
 * pgpk-helper sandbox-policy: print the parser's seccomp allowlist.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/pgpk_anchors.h"
#include "helper/pgpk_broker.h"
#include "helper/pgpk_child.h"
#include "helper/pgpk_runtime.h"
#include "proto/pgpk_fields.h"

struct pgpk_debug {
	bool hex;
};

static void pgpk_print_hex(const char *label, const struct pgpk_bytes *b)
{
	u32 i;

	printf("%s", label);
	for (i = 0; i < b->len; i++)
		printf("%02X", b->data[i]);
	printf("\n");
}

static void pgpk_print_material(const char *label,
				const struct pgpk_key_material *m)
{
	printf("%s: v%u RSA (algorithm %u) %u bits, created %u, e %u octets\n",
	       label, m->version, m->algorithm, pgpk_be_bits(&m->rsa_n),
	       m->created, m->rsa_e.len);
}

static void pgpk_print_sig(const char *label, const struct pgpk_sig *s)
{
	const char *hash = pgpk_hash_name(s->hash_algorithm);

	struct pgpk_hashed h;

	printf("%s: v%u type 0x%02x pk %u hash %s (%u) created %u "
	       "quick-check %04X, %u-bit value, hashed area %u octets\n",
	       label, s->version, s->type, s->pubkey_algorithm,
	       hash ? hash : "?", s->hash_algorithm, s->created, s->quick_check,
	       pgpk_be_bits(&s->rsa_s), s->hashed_area.len);
	if (!pgpk_hashed_walk(s->hashed_area.data, s->hashed_area.len, &h))
		printf("  hashed area refused by the kernel's walk\n");
	else if (h.expires || h.key_expires || h.key_flags != 0xff)
		printf("  expires %u s after it, key expires %u s after the key, key flags 0x%02x%s\n",
		       h.expires, h.key_expires, h.key_flags,
		       h.key_flags == 0xff ? " (none said)" : "");
	if (PGPK_HAS(s, PGPK_SIG_ISSUER_FINGERPRINT))
		pgpk_print_hex("  issuer fingerprint: ",
			       &s->issuer_fingerprint);
	else if (PGPK_HAS(s, PGPK_SIG_ISSUER_KEY_ID))
		pgpk_print_hex("  issuer key ID: ", &s->issuer_key_id);
	if (PGPK_HAS(s, PGPK_SIG_RSA_S_OFFSET))
		printf("  value at octet %u\n", s->rsa_s_offset);
}

/* A readable summary of a blob the strict decoder accepted. */
static void pgpk_print_canon(const struct pgpk_canon *c)
{
	const struct pgpk_key *k = &c->key;
	char label[48];
	u32 i;

	if (PGPK_HAS(c, PGPK_CANON_KEY)) {
		pgpk_print_material(k->subkey ? "subkey" : "key", &k->material);
		if (PGPK_HAS(k, PGPK_KEY_PACKET_OFFSET))
			printf("  packet body at octet %u\n", k->packet_offset);
		if (PGPK_HAS(k, PGPK_KEY_USER_ID))
			printf("  user ID \"%.*s\" at octet %u\n",
			       (int)k->user_id.len,
			       (const char *)k->user_id.data,
			       k->user_id_offset);
		if (PGPK_HAS(k, PGPK_KEY_SOFT_REVOKED))
			printf("  signs before %u (soft revocation)\n",
			       k->soft_revoked);
		if (PGPK_HAS(k, PGPK_KEY_PRIMARY))
			pgpk_print_material("  primary", &k->primary);
		if (PGPK_HAS(k, PGPK_KEY_CERTIFICATION))
			pgpk_print_sig("  certification", &k->certification);
		if (PGPK_HAS(k, PGPK_KEY_SELF_SIGNATURE))
			pgpk_print_sig("  self-signature", &k->self_signature);
		if (PGPK_HAS(k, PGPK_KEY_FIRST_BINDING))
			pgpk_print_sig("  first binding", &k->first_binding);
	}
	if (PGPK_HAS(c, PGPK_CANON_SIGNATURE))
		pgpk_print_sig("signature", &c->sigs[0]);
	if (PGPK_HAS(c, PGPK_CANON_CONTENT))
		printf("content: %u octets\n", c->content.len);
	for (i = 1; i <= c->nr_more; i++) {
		snprintf(label, sizeof(label), "more_signatures[%u]", i - 1);
		pgpk_print_sig(label, &c->sigs[i]);
	}
}

static int pgpk_debug_instantiate(void *ctx, const uint8_t *blob, size_t len)
{
	const struct pgpk_debug *dbg = ctx;
	struct pgpk_canon_error err;
	struct pgpk_canon *canon = malloc(sizeof(*canon));
	size_t i;

	printf("canonical blob: %zu octets\n", len);
	if (canon && pgpk_canon_decode(blob, len, canon, &err) == 0)
		pgpk_print_canon(canon);
	free(canon);
	if (dbg->hex) {
		for (i = 0; i < len; i++)
			printf("%02x%s", blob[i],
			       (i % 32 == 31 || i + 1 == len) ? "\n" : "");
	}
	return 0;
}

static int pgpk_debug_reject(void *ctx, unsigned int timeout, int error)
{
	return 0;
}

static const struct pgpk_broker_ops pgpk_debug_ops = {
	.instantiate = pgpk_debug_instantiate,
	.reject = pgpk_debug_reject,
};

static uint8_t *pgpk_read_file(const char *path, size_t max, size_t *len)
{
	uint8_t *buf;
	FILE *f;

	f = fopen(path, "rb");
	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (buf)
		*len = fread(buf, 1, max + 1, f);
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void pgpk_debug_usage(void)
{
	fprintf(stderr, "usage: pgpk-helper debug [--select HEX] [--hex] "
			"[--anchors DIR] [options] key|sig FILE\n");
	pgpk_policy_usage(stderr);
}

int pgpk_cmd_debug(int argc, char **argv)
{
	struct pgpk_debug dbg = { .hex = false };
	struct pgpk_anchor_set anchors = { 0 };
	struct pgpk_policy policy;
	struct pgpk_broker broker = {
		.policy = &policy,
		.ops = &pgpk_debug_ops,
		.ops_ctx = &dbg,
		.child = pgpk_child_convert,
	};
	struct pgpk_broker_result res;
	struct pgpk_request req = { .want = PGPK_WANT_KEY };
	const char *kind = NULL, *path = NULL, *select = NULL, *dir = NULL;
	char note[320];
	uint8_t *data;
	size_t len = 0;
	int i, r;

	pgpk_policy_default(&policy);
	for (i = 1; i < argc;) {
		r = pgpk_policy_option(&policy, argc, argv, &i, stderr);
		if (!r)
			r = pgpk_anchors_option(argc, argv, &i, &dir);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "--hex") == 0)
			dbg.hex = true;
		else if (strcmp(argv[i], "--select") == 0 && i + 1 < argc)
			select = argv[++i];
		else if (argv[i][0] != '-' && !kind)
			kind = argv[i];
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			goto usage;
		i++;
	}
	if (!kind || !path ||
	    (strcmp(kind, "key") != 0 && strcmp(kind, "sig") != 0) ||
	    (select && strlen(select) >= sizeof(req.select)))
		goto usage;
	data = pgpk_read_file(path, policy.max_input, &len);
	if (!data) {
		fprintf(stderr, "debug: %s: %s\n", path, strerror(errno));
		return 2;
	}
	req.want = kind[0] == 'k' ? PGPK_WANT_KEY : PGPK_WANT_SIG;
	if (select)
		strcpy(req.select, select);
	if (pgpk_anchors_read(dir, &anchors, note, sizeof(note)) ||
	    anchors.skipped)
		fprintf(stderr, "debug: %s (%zu skipped)\n", note,
			anchors.skipped);
	broker.anchors = anchors.files;
	broker.nanchors = anchors.n;
	printf("request: %s%s%s, %zu octets, %zu anchor file%s\n", kind,
	       select ? " " : "", select ? select : "", len, anchors.n,
	       anchors.n == 1 ? "" : "s");
	pgpk_broker_run(&broker, &req, data, len, &res);
	pgpk_anchors_release(&anchors);
	free(data);
	fflush(stdout);
	if (res.error) {
		fprintf(stderr, "REJECTED %s: %s (%llu us)\n",
			pgpk_errno_name(res.error), res.reason,
			(unsigned long long)res.elapsed_us);
		return res.error;
	}
	printf("OK: %s (%llu us)\n", res.reason,
	       (unsigned long long)res.elapsed_us);
	return 0;

usage:
	pgpk_debug_usage();
	return 2;
}

int pgpk_cmd_sandbox_policy(int argc, char **argv)
{
	pgpk_sandbox_print_policy(stdout);
	return 0;
}
