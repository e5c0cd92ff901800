// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk import [--keyring KEYRING] [--anchors DIR] FILE...
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
 *   subkeys      as canonical Keys, as `pgpk key --select` makes
 *                them: the kernel asks no upcall for subkeys
 *   description  the kernel's: none is given, so the kernel names the
 *                key as the 2022 patch set did (the user ID its primary
 *                key's self-signature certifies, without its comment, a
 *                space, the last 8 hex digits of the key ID:
 *                kernel/pgpk_frame.c pgpk_name()); printed as the same
 *                code computes it here (pgpk_canon_key_description())
 *
 * This process parses nothing: a sandboxed child splits each file into
 * its certificates (helper/parser/split.c: armor, packet framing), and
 * each certificate is parsed and converted by a sandboxed parser of its
 * own (pgpk_child_import()), so a hostile
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
 * was, 2 on a usage or input error.  A key the kernel refuses because
 * no module parses it (EBADMSG from the X.509 parser, and no pgpk in
 * /sys/module) says that pgpk is not loaded.
 */
#include <errno.h>
#include <inttypes.h>
#include <keyutils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helper/broker/pgpk_anchors.h"
#include "helper/broker/pgpk_broker.h"
#include "helper/broker/pgpk_canon_key.h"
#include "helper/cli/commands.h"
#include "helper/parser/pgpk_child.h"
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
	bool no_module; /* an add_key() refused for want of pgpk */
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
			pgpk_cli_err("keyring %s: %s", spec, strerror(errno));
		return id < 0 ? 0 : id;
	}
	errno = 0;
	n = strtoul(spec, &end, 10);
	if (!*spec || *end || errno || !n || n > INT32_MAX) {
		pgpk_cli_usage_err(
			"keyring '%s': want @s, @u, @us, @p, @t, @g, %%keyring:NAME or a serial",
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
		ret = errno;
		/* The X.509 parser's answer when no other parser takes it. */
		if (ret == EBADMSG && access("/sys/module/pgpk", F_OK)) {
			im->no_module = true;
			printf("%s %s RSA: the pgpk module is not loaded (EBADMSG from the kernel: no parser took the key) (%s, %zu octets) \"%s\"\n",
			       hex, k->subkey ? "subkey" : "key", how, len,
			       desc);
		} else {
			printf("%s %s RSA: %s (%s) (%s, %zu octets) \"%s\"\n",
			       hex, k->subkey ? "subkey" : "key", strerror(ret),
			       pgpk_errno_name(ret), how, len, desc);
		}
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

/* The split child's certificates, each imported as it arrives. */
struct pgpk_import_split {
	struct pgpk_import *im;
	const char *path;
};

static int pgpk_import_split_work(struct pgpk_reply *r, void *arg)
{
	return pgpk_parse_split(r, arg);
}

static int pgpk_import_split_cert(void *ctx, const uint8_t *blob, size_t len)
{
	struct pgpk_import_split *sp = ctx;
	uint64_t at = 0;
	int i;

	if (len < 8) {
		pgpk_cli_err(
			"%s: the splitting parser sent a frame of %zu octets",
			sp->path, len);
		return 2;
	}
	for (i = 0; i < 8; i++)
		at = at << 8 | blob[i];
	pgpk_import_cert(sp->im, sp->path, blob + 8, len - 8, (size_t)at);
	return 0;
}

static int pgpk_import_file(struct pgpk_import *im, const char *path)
{
	struct pgpk_import_split sp = { im, path };
	struct pgpk_file f;
	struct pgpk_cli_child c = {
		.work = pgpk_import_split_work,
		.arg = &f,
		.blob = pgpk_import_split_cert,
		.blob_ctx = &sp,
	};
	int ret;

	if (pgpk_cli_read(path, PGPK_CLI_MAX_INPUT, &f))
		return -EIO;
	ret = pgpk_cli_sandboxed(&c);
	pgpk_cli_release(&f);
	return ret ? -EBADMSG : 0;
}

static const struct pgpk_usage pgpk_import_usage = {
	.prog = "pgpk",
	.cmd = "import",
	.args = "[--keyring KEYRING] [--anchors DIR] FILE...",
	.about =
		"Add every usable RSA key of the certificates or keyrings in FILE\n"
		"(binary or armored) to a kernel keyring: each primary key as its\n"
		"certificate (the kernel asks pgpk-helper), each signing subkey as a\n"
		"canonical key.  One line per key: key ID, kind, then the kernel's\n"
		"serial or why not; a count on stderr.\n",
	.options =
		"  --keyring KEYRING  @s, @u (default), @us, @p, @t, @g,\n"
		"                     %keyring:NAME or a serial, as keyctl names them\n"
		"  --anchors DIR      trust anchors [" PGPK_ANCHORS_DIR "]\n",
	.status =
		"  0 a key was added, 1 none was (refused, skipped, the module not\n"
		"  loaded), 2 a usage or input error\n",
};

int pgpk_cmd_import(int argc, char **argv)
{
	struct pgpk_import *im = calloc(1, sizeof(*im));
	const char **files = calloc((size_t)argc, sizeof(*files));
	struct pgpk_anchor_set anchors = { 0 };
	int a, r, nfiles = 0, errors = 0, ret = 2;
	const char *dir = NULL;
	char msg[320];

	pgpk_cli_begin(&pgpk_import_usage);
	if (!im || !files) {
		pgpk_cli_err("out of memory");
		goto out_free;
	}
	im->keyring = KEY_SPEC_USER_KEYRING;
	for (a = 1; a < argc;) {
		if (pgpk_cli_is_help(argv[a])) {
			ret = pgpk_cli_help();
			goto out_free;
		}
		r = pgpk_cli_anchors_option(argc, argv, &a, &dir);
		if (r < 0) {
			ret = 2;
			goto out_free;
		}
		if (r > 0)
			continue;
		if (!strcmp(argv[a], "--keyring") && a + 1 < argc) {
			im->keyring = pgpk_import_keyring(argv[++a]);
			if (!im->keyring)
				goto out_free;
		} else if (!strcmp(argv[a], "--keyring")) {
			ret = pgpk_cli_usage_err("--keyring wants a keyring");
			goto out_free;
		} else if (argv[a][0] == '-' && argv[a][1]) {
			ret = pgpk_cli_usage_err("unknown option '%s'",
						 argv[a]);
			goto out_free;
		} else {
			files[nfiles++] = argv[a];
		}
		a++;
	}
	if (!nfiles) {
		ret = pgpk_cli_usage_err(
			"missing FILE (certificates or a keyring)");
		goto out_free;
	}
	pgpk_policy_default(&im->policy);
	if (pgpk_sandbox_prepare(&im->sb, NULL, msg, sizeof(msg))) {
		pgpk_cli_err("sandbox: %s", msg);
		goto out_free;
	}
	if (pgpk_anchors_read(dir, &anchors, msg, sizeof(msg)) ||
	    anchors.skipped)
		pgpk_cli_err("%s (%zu skipped)", msg, anchors.skipped);
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
	pgpk_cli_err("%zu added, %zu failed, %zu skipped%s", im->added,
		     im->failed, im->skipped,
		     im->no_module ?
			     "; the pgpk module is not loaded (modprobe pgpk)" :
			     "");
	ret = errors ? 2 : im->added ? 0 : 1;

out_free:
	free(files);
	free(im);
	return ret;
}
