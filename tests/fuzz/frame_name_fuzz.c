// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for pgpk_name() (kernel/pgpk_frame.c): seed 007's
 * description of a key, made from a user ID any user may submit.
 *
 * Input: one octet (bit 0: a subkey, bit 1: no user ID), the 8 octets of
 * a key ID, then the user ID (1..4096 octets, as the decoder takes).
 *
 * Invariants, against the second implementation of tests/kernel/
 * pgpk_frame_ref.h: the same name; at most PGPK_NAME_SIZE - 1 octets,
 * every one printable ASCII (one line in /proc/keys, nothing a terminal
 * acts on); nothing read outside the user ID (its own allocation, for
 * ASan) nor written past PGPK_NAME_SIZE (a guard after the buffer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "tests/fuzz/pgpk_fuzz.h"
#include "tests/kernel/pgpk_frame_ref.h"

static void pgpk_fuzz_fail(const char *what)
{
	fprintf(stderr, "frame_name fuzz: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char name[PGPK_NAME_SIZE + 16], ref[PGPK_NAME_SIZE];
	struct pgpk_bytes uid = { 0 };
	uint8_t keyid[8], *own = NULL;
	bool subkey, none;
	size_t i, len;

	if (size < 9)
		return 0;
	subkey = data[0] & 1;
	none = data[0] & 2;
	memcpy(keyid, data + 1, 8);
	len = size - 9 > PGPK_MAX_USER_ID ? PGPK_MAX_USER_ID : size - 9;
	if (!len)
		none = true;
	if (!none) {
		own = malloc(len);
		if (!own)
			abort();
		memcpy(own, data + 9, len);
		uid.data = own;
		uid.len = (u32)len;
	}
	memset(name, 0x5a, sizeof(name));
	pgpk_name(none ? NULL : &uid, subkey, keyid, name);
	pgpk_ref_name(own, len, subkey, keyid, ref);
	if (strcmp(name, ref))
		pgpk_fuzz_fail("the name differs from the reference");
	if (strlen(name) >= PGPK_NAME_SIZE)
		pgpk_fuzz_fail("the name is longer than PGPK_NAME_SIZE - 1");
	for (i = 0; name[i]; i++)
		if (name[i] < ' ' || name[i] > '~')
			pgpk_fuzz_fail("an octet outside printable ASCII");
	for (i = PGPK_NAME_SIZE; i < sizeof(name); i++)
		if (name[i] != 0x5a)
			pgpk_fuzz_fail("written past PGPK_NAME_SIZE");
	free(own);
	return 0;
}
