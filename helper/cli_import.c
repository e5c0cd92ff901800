// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper import [--keyring KEYRING] [--anchors DIR] FILE...
 *
 * Whole certificates and keyrings into the kernel: for every certificate
 * of the files (binary or armored; one certificate or a keyring such as
 * /usr/share/keyrings/debian-archive-keyring.gpg), its primary key and
 * each of its signing subkeys, every one with add_key("asymmetric"), so
 * that the kernel checks each as usual (kernel/pgpk_key.c):
 *
 *   primary key  through the upcall: the certificate's own OpenPGP
 *                packets, binary (armor is removed here: the kernel takes
 *                none), cut from the file; a certificate over the 64 KiB
 *                that add_key("asymmetric") takes (the X.509 parser
 *                refuses more, EMSGSIZE) as its canonical Key instead (no
 *                upcall), certified by a trust anchor if one verifies
 *                (--anchors, default /etc/pgpk/anchors/)
 *   subkeys      as canonical Keys, as `pgpk-helper key --select` makes
 *                them: the kernel asks no upcall for subkeys
 *   description  the kernel's: none is given, so the kernel names the
 *                key as the 2022 patch set did (the user ID its primary
 *                key's self-signature certifies, without its comment, a
 *                space, the last 8 hex digits of the key ID:
 *                kernel/pgpk_frame.c pgpk_name()); printed as the same
 *                code computes it here (pgpk_canon_key_description())
 *
 * This process only splits the files into certificates (packet framing,
 * pgpk_cert_starts()).  Each certificate is parsed and converted by a
 * sandboxed parser of its own (pgpk_child_import()), so a hostile
 * certificate in a keyring can lie about its own keys only; each answer
 * is decoded with the kernel's decoder and checked against that
 * certificate's octets as the kernel checks an upcall's (pgpk_key_bound())
 * before it is added.
 *
 * Which keys: the one validity rule, pgpk_key_usable()
 * (helper/openpgp/valid.c, at the time of the run), as for every other
 * command: the primary key if usable (a certify-only one too: it may
 * vouch for keys), each subkey if usable for signing (binding and
 * back-signature valid, not revoked, not expired, its primary's expiry
 * included, signing flag).  Only RSA converts; other keys, and
 * encryption-only subkeys, are reported with the reason and skipped.  One
 * line per key on stdout: key ID, kind, then the kernel's serial or its
 * errno, how it went (OpenPGP or canonical, octets) and the description;
 * or why it was skipped or refused here.
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

#include "helper/commands.h"
#include "helper/openpgp/openpgp.h"
#include "helper/pgpk_anchors.h"
#include "helper/pgpk_broker.h"
#include "helper/pgpk_canon_key.h"
#include "helper/pgpk_child.h"
#include "proto/pgpk_fields.h"

/* add_key("asymmetric") payloads the X.509 parser lets through. */
#define PGPK_IMPORT_MAX_PAYLOAD 65535
/*
 * The largest certificate a parser is given: more than any an upcall
 * takes (--max-input, 1 MiB), as a flooded one goes canonical here.
 */
#define PGPK_IMPORT_MAX_CERT (16u * 1024 * 1024)

struct pgpk_import {
	key_serial_t keyring;
	struct pgpk_policy policy;
	struct pgpk_broker broker;
	struct pgpk_sandbox sb;
	size_t added, skipped, failed;
	/* the certificate being imported */
	const uint8_t *cert;
	size_t cert_len;
	struct pgpk_canon canon;
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

/*
 * keyctl's keyring names; 0 with a message if there is no such one (the
 * special ones are negative: @t is KEY_SPEC_THREAD_KEYRING, -1).
 */
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
		return id < 0 ? 0 : id;
	}
	errno = 0;
	n = strtoul(spec, &end, 10);
	if (!*spec || *end || errno || !n || n > INT32_MAX) {
		fprintf(stderr,
			"pgpk-helper import: keyring '%s': want @s, @u, @us, @p, @t, @g, %%keyring:NAME or a serial\n",
			spec);
		return 0;
	}
	return (key_serial_t)n;
}

/*
 * A key the certificate's parser answered: decoded by the kernel's
 * decoder, bound to the certificate's octets, within the policy; then
 * added: the primary key as the certificate (the kernel asks the helper
 * again), unless the certificate is too large, and subkeys canonical.
 */
static void pgpk_import_add(struct pgpk_import *im, const uint8_t *blob,
			    size_t len)
{
	u8 fpr[PGPK_CANON_FPR_MAX], keyid[PGPK_CANON_KEYID_LEN];
	const struct pgpk_key *k = &im->canon.key;
	char desc[PGPK_CANON_DESC_MAX], why[384], hex[17];
	const uint8_t *payload = blob;
	const char *how = "canonical";
	struct pgpk_canon_error cerr;
	key_serial_t id;
	size_t i;
	int ret;

	ret = pgpk_canon_decode(blob, len, &im->canon, &cerr);
	if (ret || !PGPK_HAS(&im->canon, PGPK_CANON_KEY) ||
	    !pgpk_canon_key_ids(&k->material, fpr, keyid)) {
		printf("(parser) key: EBADMSG: not a canonical key: %s at octet %u\n",
		       ret ? cerr.why : "a signature", ret ? cerr.offset : 0);
		im->failed++;
		return;
	}
	for (i = 0; i < sizeof(keyid); i++)
		snprintf(hex + 2 * i, 3, "%02X", keyid[i]);
	ret = pgpk_key_bound(k, im->cert, im->cert_len, why, sizeof(why));
	if (!ret)
		ret = pgpk_policy_check(&im->policy, &im->canon, PGPK_WANT_KEY,
					(int64_t)time(NULL), why, sizeof(why));
	if (ret) {
		printf("%s %s RSA: %s: %s\n", hex, k->subkey ? "subkey" : "key",
		       pgpk_errno_name(-ret), why);
		im->failed++;
		return;
	}
	if (!k->subkey && im->cert_len <= PGPK_IMPORT_MAX_PAYLOAD) {
		payload = im->cert;
		len = im->cert_len;
		how = "OpenPGP";
	}
	pgpk_canon_key_description(k, keyid, desc);
	id = add_key("asymmetric", "", payload, len, im->keyring);
	if (id < 0) {
		printf("%s %s RSA: %s (%s) (%s, %zu octets) \"%s\"\n", hex,
		       k->subkey ? "subkey" : "key", strerror(errno),
		       pgpk_errno_name(errno), how, len, desc);
		im->failed++;
		return;
	}
	printf("%s %s RSA: %d (%s, %zu octets) \"%s\"\n", hex,
	       k->subkey ? "subkey" : "key", id, how, len, desc);
	im->added++;
}

/* One frame of a certificate's parser: a key, or why one is not. */
static void pgpk_import_frame(void *ctx, int status, const uint8_t *payload,
			      size_t n)
{
	struct pgpk_import *im = ctx;
	char text[PGPK_ANSWER_MAX_MSG + 1];

	if (!status) {
		pgpk_import_add(im, payload, n);
		return;
	}
	pgpk_copy_text(text, sizeof(text), payload, n);
	if (status == ENOKEY) {
		printf("%s\n", text);
		im->skipped++;
	} else {
		printf("%s: %s\n", pgpk_errno_name(status), text);
		im->failed++;
	}
}

static void pgpk_import_cert(struct pgpk_import *im, const char *path,
			     const uint8_t *cert, size_t len, size_t at)
{
	struct pgpk_request req = { .want = PGPK_WANT_KEY };
	struct pgpk_broker_result res;

	im->cert = cert;
	im->cert_len = len;
	if (pgpk_broker_frames(&im->broker, &req, cert, len, pgpk_import_frame,
			       im, &res)) {
		printf("%s: certificate at offset %zu: %s: %s\n", path, at,
		       pgpk_errno_name(res.error), res.reason);
		im->failed++;
	}
}

static int pgpk_import_file(struct pgpk_import *im, const char *path)
{
	struct pgpk_error err = { 0 };
	struct pgpk_input in;
	size_t *starts = NULL, n, c, end;
	uint8_t *data;
	size_t len;
	int ret;

	if (pgpk_cli_read_file(path, &data, &len))
		return -EIO;
	/* ASCII armor removed here: the kernel takes binary OpenPGP only. */
	ret = pgpk_input_decode(data, len, &in, &err);
	free(data);
	if (!ret && in.kind == PGPK_INPUT_CLEARTEXT)
		ret = -EBADMSG, snprintf(err.msg, sizeof(err.msg),
					 "a cleartext-signed message");
	if (!ret)
		ret = pgpk_cert_starts(in.packets, in.packets_len, &starts, &n,
				       &err);
	if (!ret && !n)
		ret = -ENOKEY,
		snprintf(err.msg, sizeof(err.msg), "no public key packet");
	if (ret) {
		fprintf(stderr, "pgpk-helper import: %s: %s (offset %zu)\n",
			path, err.msg, err.offset);
		pgpk_input_release(&in);
		return ret;
	}
	for (c = 0; c < n; c++) {
		end = c + 1 < n ? starts[c + 1] : in.packets_len;
		pgpk_import_cert(im, path, in.packets + starts[c],
				 end - starts[c], starts[c]);
	}
	free(starts);
	pgpk_input_release(&in);
	return 0;
}

static void pgpk_import_usage(void)
{
	fprintf(stderr,
		"usage: pgpk-helper import [--keyring KEYRING] [--anchors DIR] FILE...\n"
		"  KEYRING: @s, @u (default), @us, @p, @t, @g, %%keyring:NAME or a serial\n"
		"  DIR: trust anchors [" PGPK_ANCHORS_DIR "]\n");
}

int pgpk_cmd_import(int argc, char **argv)
{
	struct pgpk_import *im = calloc(1, sizeof(*im));
	const char **files = calloc((size_t)argc, sizeof(*files));
	struct pgpk_anchor_set anchors = { 0 };
	int a, r, nfiles = 0, errors = 0, ret = 2;
	const char *dir = NULL;
	char msg[320];

	if (!im || !files) {
		fprintf(stderr, "pgpk-helper import: out of memory\n");
		goto out_free;
	}
	im->keyring = KEY_SPEC_USER_KEYRING;
	for (a = 1; a < argc;) {
		r = pgpk_anchors_option(argc, argv, &a, &dir);
		if (r < 0)
			goto usage;
		if (r > 0)
			continue;
		if (!strcmp(argv[a], "--keyring") && a + 1 < argc) {
			im->keyring = pgpk_import_keyring(argv[++a]);
			if (!im->keyring)
				goto out_free;
		} else if (argv[a][0] == '-' && argv[a][1]) {
			goto usage;
		} else {
			files[nfiles++] = argv[a];
		}
		a++;
	}
	if (!nfiles)
		goto usage;
	pgpk_policy_default(&im->policy);
	if (pgpk_sandbox_prepare(&im->sb, NULL, msg, sizeof(msg))) {
		fprintf(stderr, "pgpk-helper import: sandbox: %s\n", msg);
		goto out_free;
	}
	if (pgpk_anchors_read(dir, &anchors, msg, sizeof(msg)) ||
	    anchors.skipped)
		fprintf(stderr, "pgpk-helper import: %s (%zu skipped)\n", msg,
			anchors.skipped);
	im->broker = (struct pgpk_broker){
		.policy = &im->policy,
		.child = pgpk_child_import,
		.sandbox = &im->sb,
		.anchors = anchors.files,
		.nanchors = anchors.n,
	};
	im->policy.max_input = PGPK_IMPORT_MAX_CERT;
	for (a = 0; a < nfiles; a++)
		if (pgpk_import_file(im, files[a]))
			errors++;
	pgpk_sandbox_release(&im->sb);
	pgpk_anchors_release(&anchors);
	fflush(stdout); /* the key lines before the count */
	fprintf(stderr,
		"pgpk-helper import: %zu added, %zu failed, %zu skipped\n",
		im->added, im->failed, im->skipped);
	ret = errors ? 2 : im->added ? 0 : 1;
	goto out_free;

usage:
	pgpk_import_usage();
out_free:
	free(files);
	free(im);
	return ret;
}
