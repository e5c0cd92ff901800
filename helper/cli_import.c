// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper import [--keyring KEYRING] FILE...
 *
 * Whole certificates and keyrings into the kernel: for every certificate
 * of the files (binary or armored; one certificate or a keyring such as
 * /usr/share/keyrings/debian-archive-keyring.gpg), its primary key and
 * each of its signing subkeys, every one through add_key("asymmetric"),
 * so that the kernel checks each as usual (kernel/README.md, "Keys"):
 *
 *   payload      the certificate's own OpenPGP packets, cut from the file
 *                (so the upcall parses that certificate only, and the
 *                answer is cached per certificate); a certificate over
 *                the 64 KiB that add_key("asymmetric") takes (the X.509
 *                parser refuses more, EMSGSIZE) goes as its stand-alone
 *                canonical Key instead (no upcall; the kernel checks its
 *                self-signature or binding itself)
 *   description  the key's fingerprint: it selects that key (or subkey)
 *                and becomes its description, as with
 *                `keyctl padd asymmetric <fpr> KEYRING < cert`
 *
 * Which keys: the one validity rule, pgpk_key_usable()
 * (helper/openpgp/valid.c, at the time of the run), as for every other
 * command: the primary key if usable (a certify-only one too: it may
 * vouch for keys), each subkey if usable for signing (binding and
 * back-signature valid, not revoked, not expired, its primary's expiry
 * included, signing flag).  Only RSA converts; other keys, and
 * encryption-only subkeys, are reported with the reason and skipped.  One line per key on stdout: key ID, then the kernel's
 * serial or the errno and reason.
 *
 * KEYRING as keyctl names keyrings: @t @p @s @u @us @g, %keyring:NAME
 * (or %:NAME, found by find_key_by_type_and_desc), or a serial number;
 * default @u.  Exit status: 0 if at least one key was added, 1 if none
 * was, 2 on a usage or input error.
 */
#include <errno.h>
#include <inttypes.h>
#include <keyutils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helper/commands.h"
#include "helper/openpgp/openpgp.h"
#include "helper/pgpk_broker.h"

/* add_key("asymmetric") payloads the X.509 parser lets through. */
#define PGPK_IMPORT_MAX_PAYLOAD 65535

struct pgpk_import {
	key_serial_t keyring;
	size_t added, skipped, failed;
};

static const struct {
	const char *name;
	key_serial_t id;
} pgpk_import_specials[] = {
	{ "@t", KEY_SPEC_THREAD_KEYRING },
	{ "@p", KEY_SPEC_PROCESS_KEYRING },
	{ "@s", KEY_SPEC_SESSION_KEYRING },
	{ "@u", KEY_SPEC_USER_KEYRING },
	{ "@us", KEY_SPEC_USER_SESSION_KEYRING },
	{ "@g", KEY_SPEC_GROUP_KEYRING },
};

/* keyctl's keyring names; -1 with a message if there is no such one. */
static key_serial_t pgpk_import_keyring(const char *spec)
{
	const char *name = NULL;
	key_serial_t id;
	unsigned long n;
	char *end;
	size_t i;

	for (i = 0;
	     i < sizeof(pgpk_import_specials) / sizeof(pgpk_import_specials[0]);
	     i++)
		if (!strcmp(spec, pgpk_import_specials[i].name))
			return pgpk_import_specials[i].id;
	if (!strncmp(spec, "%keyring:", 9))
		name = spec + 9;
	else if (!strncmp(spec, "%:", 2))
		name = spec + 2;
	if (name) {
		id = find_key_by_type_and_desc("keyring", name, 0);
		if (id < 0)
			fprintf(stderr, "pgpk-helper import: keyring %s: %s\n",
				spec, strerror(errno));
		return id < 0 ? -1 : id;
	}
	errno = 0;
	n = strtoul(spec, &end, 10);
	if (!*spec || *end || errno || !n || n > INT32_MAX) {
		fprintf(stderr,
			"pgpk-helper import: keyring '%s': want @s, @u, @us, @p, @t, @g, %%keyring:NAME or a serial\n",
			spec);
		return -1;
	}
	return (key_serial_t)n;
}

/*
 * The certificate's packets in the dearmored input: from its primary key
 * packet's header to the next certificate's (or the end).  The header is
 * found back from the body offset: the one RFC 9580 4.2 form (old: tag 6
 * with a 1-, 2- or 4-octet length; new: 0xc6 with a 1-, 2- or 5-octet
 * length) that encodes exactly the body's length.
 */
static size_t pgpk_import_start(const struct pgpk_input *in,
				const struct pgpk_pubkey *pk)
{
	const uint8_t *p = in->packets;
	size_t off = pk->offset, len = pk->body_len;

	if (off >= 2 && p[off - 2] == 0x98 && len == p[off - 1])
		return off - 2;
	if (off >= 3 && p[off - 3] == 0x99 &&
	    len == ((size_t)p[off - 2] << 8 | p[off - 1]))
		return off - 3;
	if (off >= 5 && p[off - 5] == 0x9a &&
	    len == ((size_t)p[off - 4] << 24 | (size_t)p[off - 3] << 16 |
		    (size_t)p[off - 2] << 8 | p[off - 1]))
		return off - 5;
	if (off >= 2 && p[off - 2] == 0xc6 && p[off - 1] < 192 &&
	    len == p[off - 1])
		return off - 2;
	if (off >= 3 && p[off - 3] == 0xc6 && p[off - 2] >= 192 &&
	    p[off - 2] < 224 &&
	    len == (((size_t)p[off - 2] - 192) << 8) + p[off - 1] + 192)
		return off - 3;
	if (off >= 6 && p[off - 6] == 0xc6 && p[off - 5] == 255 &&
	    len == ((size_t)p[off - 4] << 24 | (size_t)p[off - 3] << 16 |
		    (size_t)p[off - 2] << 8 | p[off - 1]))
		return off - 6;
	return SIZE_MAX;
}

static void pgpk_import_hex(const uint8_t *p, size_t len, char *out)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02X", p[i]);
}

/* One key: add_key, one line. */
static void pgpk_import_key(struct pgpk_import *im,
			    const struct pgpk_keyring *ring,
			    const struct pgpk_cert *cert,
			    const struct pgpk_pubkey *key,
			    const uint8_t *cert_data, size_t cert_len)
{
	char fpr[2 * PGPK_FPR_MAX + 1], keyid[2 * PGPK_KEYID_LEN + 1];
	const char *skip = NULL, *how = "OpenPGP";
	struct pgpk_error err = { 0 };
	const uint8_t *payload = cert_data;
	size_t len = cert_len;
	uint8_t *blob = NULL;
	key_serial_t id;

	pgpk_import_hex(key->fpr, key->fpr_len, fpr);
	pgpk_import_hex(key->keyid, PGPK_KEYID_LEN, keyid);
	/* The one validity rule (helper/openpgp/valid.c); subkeys must sign. */
	if (key->algo != PGPK_PK_RSA && key->algo != PGPK_PK_RSA_S)
		skip = "not RSA";
	else if (pgpk_key_usable(cert, key, key->subkey ? PGPK_USE_SIGN : 0,
				 &err))
		skip = err.msg;
	if (skip) {
		printf("%s %s %s: skipped: %s\n", keyid,
		       key->subkey ? "subkey" : "key", key->algo_name, skip);
		im->skipped++;
		return;
	}
	if (!cert_data || cert_len > PGPK_IMPORT_MAX_PAYLOAD) {
		if (pgpk_key_canonical(ring, cert, key, PGPK_CANON_STANDALONE,
				       &blob, &len, &err)) {
			printf("%s %s %s: %s: %s\n", keyid,
			       key->subkey ? "subkey" : "key", key->algo_name,
			       err.code == -ENOPKG ? "ENOPKG" : "EBADMSG",
			       err.msg);
			im->failed++;
			return;
		}
		payload = blob;
		how = "canonical";
	}
	id = add_key("asymmetric", fpr, payload, len, im->keyring);
	if (id < 0)
		printf("%s %s %s: %s (%s)\n", keyid,
		       key->subkey ? "subkey" : "key", key->algo_name,
		       strerror(errno), pgpk_errno_name(errno));
	else
		printf("%s %s %s: %d (%s, %zu octets)\n", keyid,
		       key->subkey ? "subkey" : "key", key->algo_name, id, how,
		       len);
	if (id < 0)
		im->failed++;
	else
		im->added++;
	free(blob);
}

static int pgpk_import_file(struct pgpk_import *im, const char *path)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct pgpk_parse_opts opts = {
		.now = (int64_t)time(NULL),
		/* As list: a keyring's certificates on every CPU. */
		.threads = ncpu > 1 ? (unsigned int)(ncpu > 8 ? 8 : ncpu) : 1,
		.borrow_input = true,
	};
	struct pgpk_error err = { 0 };
	const struct pgpk_input *in;
	struct pgpk_keyring *ring;
	size_t c, k, start, end;
	const uint8_t *data;
	bool mapped;
	size_t len;
	int ret;

	if (pgpk_cli_map_file(path, &data, &len, &mapped))
		return -EIO;
	ret = pgpk_keyring_parse(data, len, &opts, &ring, &err);
	if (ret) {
		pgpk_cli_unmap_file(data, len, mapped);
		fprintf(stderr, "pgpk-helper import: %s: %s (offset %zu)\n",
			path, err.msg, err.offset);
		return ret;
	}
	in = &ring->input;
	for (c = 0; c < ring->ncerts; c++) {
		const struct pgpk_cert *cert = &ring->certs[c];

		start = pgpk_import_start(in, &cert->primary);
		end = c + 1 < ring->ncerts ?
			      pgpk_import_start(in,
						&ring->certs[c + 1].primary) :
			      in->packets_len;
		if (start == SIZE_MAX || end == SIZE_MAX || end <= start)
			start = end = 0; /* canonical form only */
		pgpk_import_key(im, ring, cert, &cert->primary,
				end ? in->packets + start : NULL, end - start);
		for (k = 0; k < cert->nsubkeys; k++)
			pgpk_import_key(im, ring, cert, &cert->subkeys[k],
					end ? in->packets + start : NULL,
					end - start);
	}
	pgpk_keyring_free(ring);
	pgpk_cli_unmap_file(data, len, mapped);
	return 0;
}

int pgpk_cmd_import(int argc, char **argv)
{
	struct pgpk_import im = { .keyring = KEY_SPEC_USER_KEYRING };
	int a, nfiles = 0, errors = 0;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--keyring") && a + 1 < argc) {
			im.keyring = pgpk_import_keyring(argv[++a]);
			if (im.keyring == -1)
				return 2;
		} else if (argv[a][0] == '-' && argv[a][1]) {
			goto usage;
		}
	}
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--keyring")) {
			a++;
			continue;
		}
		nfiles++;
		if (pgpk_import_file(&im, argv[a]))
			errors++;
	}
	if (!nfiles)
		goto usage;
	fflush(stdout); /* the key lines before the count */
	fprintf(stderr,
		"pgpk-helper import: %zu added, %zu failed, %zu skipped\n",
		im.added, im.failed, im.skipped);
	if (errors)
		return 2;
	return im.added ? 0 : 1;

usage:
	fprintf(stderr,
		"usage: pgpk-helper import [--keyring KEYRING] FILE...\n"
		"  KEYRING: @s, @u (default), @us, @p, @t, @g, %%keyring:NAME or a serial\n");
	return 2;
}
