// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper debug: the upcall's whole pipeline (fork, sandbox, convert,
 * re-validate, policy) on a file instead of a kernel key, printing what
 * would have been instantiated.  Exit status 0 if it would have been, 1
 * if it would have been rejected (the errno's name and the reason on
 * stderr), 2 on a usage error or a file that cannot be read: as every
 * command (helper/cli/commands.h), never an errno.
 *
 * pgpk-helper sandbox-policy: print the parser's seccomp allowlist.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/broker/pgpk_anchors.h"
#include "helper/cli/commands.h"
#include "helper/pgpk_text.h"
#include "helper/broker/pgpk_broker.h"
#include "helper/parser/pgpk_child.h"
#include "helper/upcall/pgpk_runtime.h"
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
	char t[PGPK_TIME_LEN];

	printf("%s: v%u RSA (algorithm %u) %u bits, created %s, e %u octets\n",
	       label, m->version, m->algorithm, pgpk_be_bits(&m->rsa_n),
	       pgpk_time_str(m->created, t), m->rsa_e.len);
}

static void pgpk_print_sig(const char *label, const struct pgpk_sig *s)
{
	const char *hash = pgpk_hash_name(s->hash_algorithm);
	char t[PGPK_TIME_LEN];
	struct pgpk_hashed h;

	printf("%s: v%u type 0x%02x pk %u hash %s (%u) created %s "
	       "quick-check %04X, %u-bit value, hashed area %u octets\n",
	       label, s->version, s->type, s->pubkey_algorithm,
	       hash ? hash : "?", s->hash_algorithm,
	       pgpk_time_str(s->created, t), s->quick_check,
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
	char label[48], t[PGPK_TIME_LEN];
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
			printf("  signs before %s (soft revocation)\n",
			       pgpk_time_str(k->soft_revoked, t));
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

static const struct pgpk_usage pgpk_debug_usage = {
	.prog = "pgpk-helper",
	.cmd = "debug",
	.args = "[--select HEX] [--hex] [--anchors DIR] [POLICY] key|sig FILE",
	.about =
		"The upcall's whole pipeline (sandboxed parser, the kernel's decoder,\n"
		"binding checks, policy) on FILE instead of a kernel key: what would\n"
		"be instantiated, or the errno and reason it would be rejected with.\n",
	.options = "  --select HEX   a key or subkey by fingerprint or key ID\n"
		   "  --hex          the canonical blob in hex too\n"
		   "  --anchors DIR  trust anchors [" PGPK_ANCHORS_DIR "]\n",
	.policy = pgpk_cli_policy,
	.status =
		"  0 it would be instantiated, 1 rejected (the errno named on\n"
		"  stderr), 2 a usage error or a file that cannot be read\n",
};

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
	struct pgpk_file in;
	const uint8_t *data;
	char note[320];
	size_t len = 0;
	int i, r;

	pgpk_cli_begin(&pgpk_debug_usage);
	pgpk_policy_default(&policy);
	for (i = 1; i < argc;) {
		if (pgpk_cli_is_help(argv[i]))
			return pgpk_cli_help();
		r = pgpk_cli_policy_option(&policy, argc, argv, &i);
		if (!r)
			r = pgpk_cli_anchors_option(argc, argv, &i, &dir);
		if (r < 0)
			return 2;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "--hex") == 0)
			dbg.hex = true;
		else if (strcmp(argv[i], "--select") == 0 && i + 1 < argc)
			select = argv[++i];
		else if (argv[i][0] == '-')
			return pgpk_cli_usage_err("unknown option '%s'",
						  argv[i]);
		else if (!kind)
			kind = argv[i];
		else if (!path)
			path = argv[i];
		else
			return pgpk_cli_usage_err(
				"one FILE only, '%s' is a second", argv[i]);
		i++;
	}
	if (!kind)
		return pgpk_cli_usage_err("missing key or sig, and FILE");
	if (strcmp(kind, "key") != 0 && strcmp(kind, "sig") != 0)
		return pgpk_cli_usage_err("'%s': key or sig", kind);
	if (!path)
		return pgpk_cli_usage_err("missing FILE");
	if (select && strlen(select) >= sizeof(req.select))
		return pgpk_cli_usage_err(
			"--select %.16s...: longer than a fingerprint", select);
	if (pgpk_cli_read(path, policy.max_input, &in))
		return 2;
	data = in.data;
	len = in.len;
	req.want = kind[0] == 'k' ? PGPK_WANT_KEY : PGPK_WANT_SIG;
	if (select)
		strcpy(req.select, select);
	if (pgpk_anchors_read(dir, &anchors, note, sizeof(note)) ||
	    anchors.skipped)
		pgpk_cli_err("%s (%zu skipped)", note, anchors.skipped);
	broker.anchors = anchors.files;
	broker.nanchors = anchors.n;
	printf("request: %s%s%s, %zu octets, %zu anchor file%s\n", kind,
	       select ? " " : "", select ? select : "", len, anchors.n,
	       anchors.n == 1 ? "" : "s");
	pgpk_broker_run(&broker, &req, data, len, &res);
	pgpk_anchors_release(&anchors);
	pgpk_cli_release(&in);
	fflush(stdout);
	if (res.error) {
		pgpk_cli_err("REJECTED %s: %s (%llu us)",
			     pgpk_errno_name(res.error), res.reason,
			     (unsigned long long)res.elapsed_us);
		return 1;
	}
	printf("OK: %s (%llu us)\n", res.reason,
	       (unsigned long long)res.elapsed_us);
	return 0;
}

static const struct pgpk_usage pgpk_sandbox_policy_usage = {
	.prog = "pgpk-helper",
	.cmd = "sandbox-policy",
	.args = "",
	.about =
		"Print the parser's seccomp allowlist: one system call a line, its\n"
		"argument rule and why the parser needs it.  Every sandboxed parser\n"
		"runs under it: the upcall's and each pgpk command's.\n",
	.status = "  0 printed, 2 a usage error\n",
};

int pgpk_cmd_sandbox_policy(int argc, char **argv)
{
	pgpk_cli_begin(&pgpk_sandbox_policy_usage);
	if (argc > 1 && pgpk_cli_is_help(argv[1]))
		return pgpk_cli_help();
	if (argc > 1)
		return pgpk_cli_usage_err("takes no argument, '%s' is one",
					  argv[1]);
	pgpk_sandbox_print_policy(stdout);
	return fflush(stdout) ? 2 : 0;
}
