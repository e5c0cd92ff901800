// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for pgpk_hashed_walk() (kernel/pgpk_frame.c): a
 * signature's hashed area, walked by its subpacket framing, for its one
 * creation time, its expiry and key expiry, key flags, issuer
 * fingerprint, the IMA mark, and critical subpackets.
 *
 * Input: a prefix the corpus was made with (1 octet: 255, or a length
 * and that many octets), skipped, then the hashed area.
 *
 * Invariants, against the second implementation of tests/kernel/
 * pgpk_frame_ref.h: the same verdict, and for an area accepted the same
 * values, fingerprint inside the area; nothing read outside the area
 * (its own allocation, for ASan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "tests/fuzz/pgpk_fuzz.h"
#include "tests/kernel/pgpk_frame_ref.h"

static void pgpk_fuzz_fail(const char *what)
{
	fprintf(stderr, "frame_hashed fuzz: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgpk_ref_hashed r;
	struct pgpk_hashed h;
	size_t skip, len;
	uint8_t *area;
	bool ok;

	if (size < 1)
		return 0;
	skip = data[0] == 255 ? 1 : 1 + (size_t)data[0];
	if (size < skip)
		return 0;
	data += skip;
	size -= skip;
	len = size > 65535 ? 65535 : size;
	area = malloc(len ? len : 1);
	if (!area)
		abort();
	memcpy(area, data, len);
	ok = pgpk_hashed_walk(area, (u32)len, &h);
	r = pgpk_ref_hashed_walk(area, len);
	if (ok != r.ok)
		pgpk_fuzz_fail("verdict differs from the reference");
	if (ok &&
	    (h.created != r.created || h.marked != r.marked ||
	     h.expires != r.expires || h.key_expires != r.key_expires ||
	     h.key_flags != (r.key_flags < 0 ? 0xff : r.key_flags) ||
	     h.fpr_len != r.fpr_len || (h.fpr_len && h.fpr != area + r.fpr_at)))
		pgpk_fuzz_fail("what the area says differs from the reference");
	if (ok && h.fpr_len && h.fpr + h.fpr_len > area + len)
		pgpk_fuzz_fail("fingerprint outside the area");
	free(area);
	return 0;
}
