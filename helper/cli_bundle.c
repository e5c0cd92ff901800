// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper bundle FILE|- > bundle
 *
 * The preload bundle (notes/common.md): for every valid, unrevoked,
 * unexpired RSA primary key and RSA signing subkey (with a valid back-
 * signature) of the keyring, a 4-octet big-endian length and the stand-
 * alone canonical Key blob (no offsets: the OpenPGP bytes are not there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "helper/commands.h"
#include "helper/openpgp/openpgp.h"

static int pgpk_bundle_put(const struct pgpk_keyring *ring,
			   const struct pgpk_cert *cert,
			   const struct pgpk_pubkey *key, size_t *count)
{
	struct pgpk_error err = { 0 };
	uint8_t *blob, hdr[4];
	size_t len;
	int ret;

	ret = pgpk_key_canonical(ring, cert, key, PGPK_CANON_STANDALONE, &blob,
				 &len, &err);
	if (ret) {
		fprintf(stderr, "pgpk-helper: bundle: skipped: %s\n", err.msg);
		return 0;
	}
	hdr[0] = (uint8_t)(len >> 24);
	hdr[1] = (uint8_t)(len >> 16);
	hdr[2] = (uint8_t)(len >> 8);
	hdr[3] = (uint8_t)len;
	ret = pgpk_cli_write_stdout(hdr, 4);
	if (!ret)
		ret = pgpk_cli_write_stdout(blob, len);
	free(blob);
	if (!ret)
		(*count)++;
	return ret;
}

/* The one validity rule (valid.c), with the default policy: a primary
 * key as the upcall converts it, a subkey only if it signs. */
static bool pgpk_bundle_usable(const struct pgpk_cert *cert,
			       const struct pgpk_pubkey *key)
{
	return !pgpk_key_usable(cert, key, key->subkey ? PGPK_USE_SIGN : 0,
				NULL) &&
	       (key->algo == PGPK_PK_RSA || key->algo == PGPK_PK_RSA_S);
}

int pgpk_cmd_bundle(int argc, char **argv)
{
	struct pgpk_parse_opts opts = { .now = (int64_t)time(NULL) };
	struct pgpk_error err = { 0 };
	struct pgpk_keyring *ring;
	uint8_t *data;
	size_t len, i, j, count = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int ret = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: pgpk-helper bundle FILE|- > bundle\n");
		return 2;
	}
	opts.threads = ncpu > 1 ? (unsigned int)(ncpu > 8 ? 8 : ncpu) : 1;
	if (pgpk_cli_read_file(argv[1], &data, &len))
		return 2;
	opts.borrow_input = true;
	ret = pgpk_keyring_parse(data, len, &opts, &ring, &err);
	if (ret) {
		free(data);
		fprintf(stderr, "pgpk-helper: bundle: %s: %s (offset %zu)\n",
			argv[1], err.msg, err.offset);
		return 2;
	}
	for (i = 0; i < ring->ncerts && !ret; i++) {
		const struct pgpk_cert *cert = &ring->certs[i];

		if (!pgpk_bundle_usable(cert, &cert->primary))
			continue;
		ret = pgpk_bundle_put(ring, cert, &cert->primary, &count);
		for (j = 0; j < cert->nsubkeys && !ret; j++) {
			const struct pgpk_pubkey *sub = &cert->subkeys[j];

			if (pgpk_bundle_usable(cert, sub))
				ret = pgpk_bundle_put(ring, cert, sub, &count);
		}
	}
	pgpk_keyring_free(ring);
	free(data);
	if (ret)
		return 2;
	fprintf(stderr, "pgpk-helper: bundle: %zu keys\n", count);
	return 0;
}
