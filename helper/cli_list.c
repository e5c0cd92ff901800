// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper list [--json] FILE|-
 *
 * Every primary key and subkey.  The JSON form (one object per line) lists
 * what `gpg --show-keys` would keep: certificates with a valid self-
 * signature, subkeys with a valid binding or revocation, user IDs whose
 * newest self-signature verifies.  User IDs that are not UTF-8 show their
 * other octets as \u00XX.  The text form shows everything, marked, with
 * the key description (helper/openpgp/openpgp.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helper/commands.h"
#include "helper/openpgp/openpgp.h"
#include "kernel/pgpk_canon.h"

static void pgpk_hex(FILE *out, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789ABCDEF";
	char buf[2 * PGPK_FPR_MAX];
	size_t i;

	/* Not fprintf("%02X") per octet: 80,000 calls were a fifth of
	 * list's time after its threads joined. */
	for (i = 0; i < n && i < PGPK_FPR_MAX; i++) {
		buf[2 * i] = digits[p[i] >> 4];
		buf[2 * i + 1] = digits[p[i] & 15];
	}
	fwrite(buf, 1, 2 * i, out);
}

/* JSON string: valid UTF-8 passes, other octets become \u00XX. */
static void pgpk_json_str(FILE *out, const uint8_t *p, size_t n)
{
	size_t i = 0, k, seq;

	fputc('"', out);
	while (i < n) {
		uint8_t c = p[i];

		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
			i++;
			continue;
		}
		if (c < 0x80) {
			fputc(c, out);
			i++;
			continue;
		}
		seq = (c & 0xE0) == 0xC0 ? 2 :
		      (c & 0xF0) == 0xE0 ? 3 :
		      (c & 0xF8) == 0xF0 ? 4 :
					   0;
		if (seq && c >= 0xC2 && c <= 0xF4 && i + seq <= n) {
			for (k = 1; k < seq; k++)
				if ((p[i + k] & 0xC0) != 0x80)
					break;
			if (k == seq) {
				fwrite(p + i, 1, seq, out);
				i += seq;
				continue;
			}
		}
		fprintf(out, "\\u%04x", c);
		i++;
	}
	fputc('"', out);
}

static bool pgpk_uid_listed(const struct pgpk_userid *uid)
{
	return !uid->attribute && (uid->selfsig || uid->revoked);
}

/* GnuPG keeps a subkey with a valid binding or a valid revocation. */
static bool pgpk_subkey_listed(const struct pgpk_pubkey *sub)
{
	size_t i;

	if (sub->binding)
		return true;
	for (i = 0; i < sub->nsigs; i++)
		if (sub->sigs[i].type == PGPK_SIG_SUBKEY_REVOCATION &&
		    sub->sigs[i].verified > 0)
			return true;
	return false;
}

static void pgpk_json_key(FILE *out, const struct pgpk_cert *cert,
			  const struct pgpk_pubkey *key)
{
	struct pgpk_error err = { 0 };
	size_t i;
	bool first = true;

	fprintf(out, "{\"fpr\":\"");
	pgpk_hex(out, key->fpr, key->fpr_len);
	fprintf(out, "\",\"keyid\":\"");
	pgpk_hex(out, key->keyid, PGPK_KEYID_LEN);
	fprintf(out,
		"\",\"version\":%u,\"algo\":%u,\"bits\":%u,\"created\":%" PRIu32
		",\"expires\":%" PRId64
		",\"revoked\":%s,\"primary\":%s,\"can_sign\":%s",
		key->version, key->algo, key->bits, key->created, key->expires,
		key->revoked ? "true" : "false", key->subkey ? "false" : "true",
		key->can_sign ? "true" : "false");
	/* The one rule (valid.c), default policy: what key/upcall decide. */
	if (pgpk_key_usable(cert, key, 0, &err)) {
		fprintf(out, ",\"usable\":false,\"why\":");
		pgpk_json_str(out, (const uint8_t *)err.msg, strlen(err.msg));
	} else {
		fprintf(out, ",\"usable\":true");
	}
	if (!key->subkey) {
		fprintf(out, ",\"uids\":[");
		for (i = 0; i < cert->nuids; i++) {
			if (!pgpk_uid_listed(&cert->uids[i]))
				continue;
			if (!first)
				fputc(',', out);
			first = false;
			pgpk_json_str(out, cert->uids[i].data,
				      cert->uids[i].len);
		}
		fputc(']', out);
	} else {
		fprintf(out, ",\"primary_fpr\":\"");
		pgpk_hex(out, cert->primary.fpr, cert->primary.fpr_len);
		fputc('"', out);
	}
	fprintf(out, "}\n");
}

static void pgpk_date(char *buf, size_t size, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm))
		strftime(buf, size, "%Y-%m-%d", &tm);
	else
		snprintf(buf, size, "%" PRId64, t);
}

static void pgpk_text_key(FILE *out, const struct pgpk_cert *cert,
			  const struct pgpk_pubkey *key)
{
	char created[32], expires[32], desc[PGPK_NAME_SIZE];

	pgpk_date(created, sizeof(created), key->created);
	fprintf(out, "%s   %s%u/", key->subkey ? "sub" : "pub",
		key->curve ? key->curve : key->algo_name, key->bits);
	pgpk_hex(out, key->keyid, PGPK_KEYID_LEN);
	fprintf(out, " %s [%s%s%s%s]", created,
		key->usage & PGPK_KF_SIGN ? "S" : "",
		key->usage & PGPK_KF_CERTIFY ? "C" : "",
		key->usage & (PGPK_KF_ENCRYPT_COMMS | PGPK_KF_ENCRYPT_STORAGE) ?
			"E" :
			"",
		key->usage & PGPK_KF_AUTH ? "A" : "");
	if (key->expires) {
		pgpk_date(expires, sizeof(expires), key->expires);
		fprintf(out, " [%s: %s]", key->expired ? "expired" : "expires",
			expires);
	}
	if (key->revoked)
		fprintf(out, " [revoked]");
	if (!key->valid)
		fprintf(out, " [invalid]");
	if (key->can_sign)
		fprintf(out, " [can sign]");
	fprintf(out, " v%u\n      ", key->version);
	pgpk_hex(out, key->fpr, key->fpr_len);
	fputc('\n', out);
	pgpk_key_description(cert, key, desc, sizeof(desc));
	fprintf(out, "      desc: %s\n", desc);
}

int pgpk_cmd_list(int argc, char **argv)
{
	struct pgpk_parse_opts opts = {
		.now = (int64_t)time(NULL),
		.no_bound_at = true, /* not listed */
		.backsig_if_decisive = true, /* list asks without ALLOW_* */
	};
	struct pgpk_keyring *ring;
	struct pgpk_error err = { 0 };
	bool json = false;
	const char *path = NULL;
	const uint8_t *data;
	bool mapped;
	size_t len, i, j;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int ret, a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--json"))
			json = true;
		else if (!path)
			path = argv[a];
		else
			goto usage;
	}
	if (!path)
		goto usage;
	opts.threads = ncpu > 1 ? (unsigned int)(ncpu > 8 ? 8 : ncpu) : 1;
	ret = pgpk_cli_map_file(path, &data, &len, &mapped);
	if (ret)
		return 2;
	opts.borrow_input = true;
	ret = pgpk_keyring_parse(data, len, &opts, &ring, &err);
	if (ret) {
		pgpk_cli_unmap_file(data, len, mapped);
		fprintf(stderr, "pgpk-helper: list: %s: %s (offset %zu)\n",
			path, err.msg, err.offset);
		return 2;
	}
	for (i = 0; i < ring->ncerts; i++) {
		const struct pgpk_cert *cert = &ring->certs[i];

		if (json) {
			if (!cert->primary.valid)
				continue;
			pgpk_json_key(stdout, cert, &cert->primary);
			for (j = 0; j < cert->nsubkeys; j++)
				if (pgpk_subkey_listed(&cert->subkeys[j]))
					pgpk_json_key(stdout, cert,
						      &cert->subkeys[j]);
			continue;
		}
		pgpk_text_key(stdout, cert, &cert->primary);
		for (j = 0; j < cert->nuids; j++) {
			const struct pgpk_userid *uid = &cert->uids[j];

			if (uid->attribute)
				continue;
			fprintf(stdout, "uid   %s%.*s%s\n",
				uid->revoked  ? "[revoked] " :
				!uid->selfsig ? "[invalid] " :
				!uid->valid   ? "[expired] " :
						"",
				(int)uid->len, (const char *)uid->data,
				(long)j == cert->primary_uid ? " [primary]" :
							       "");
		}
		for (j = 0; j < cert->nsubkeys; j++)
			pgpk_text_key(stdout, cert, &cert->subkeys[j]);
		fputc('\n', stdout);
	}
	if (!json)
		fprintf(stderr, "%zu certificates, %zu signatures verified\n",
			ring->ncerts, ring->nsigs_verified);
	pgpk_keyring_free(ring);
	pgpk_cli_unmap_file(data, len, mapped);
	if (fflush(stdout))
		return 2;
	return 0;

usage:
	fprintf(stderr, "usage: pgpk-helper list [--json] FILE|-\n");
	return 2;
}
