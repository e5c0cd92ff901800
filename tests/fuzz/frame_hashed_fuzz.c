// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for pgpk_hashed_walk() (kernel/pgpk_frame.c): a
 * signature's hashed area, walked by its subpacket framing, for its one
 * creation time, its issuer fingerprint and a whole-subpacket mark.
 *
 * Input: mark length (1 octet: 0 no mark, 255 the IMA mark), the mark's
 * octets, then the hashed area.
 *
 * Invariants, against the second implementation of tests/kernel/
 * pgpk_frame_ref.h: the same verdict, and for an area accepted the same
 * creation time, fingerprint (inside the area) and mark; nothing read
 * outside the area (its own allocation, for ASan).
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
	static const uint8_t ima[PGPK_IMA_MARK_LEN] = PGPK_IMA_MARK_INIT;
	const uint8_t *mark = NULL;
	struct pgpk_ref_hashed r;
	struct pgpk_hashed h;
	size_t mark_len = 0, len;
	uint8_t *area, *own_mark = NULL;
	bool ok;

	if (size < 1)
		return 0;
	if (data[0] == 255) {
		mark = ima;
		mark_len = sizeof(ima);
		data++, size--;
	} else {
		mark_len = data[0];
		if (size < 1 + mark_len)
			return 0;
		own_mark = malloc(mark_len ? mark_len : 1);
		if (!own_mark)
			abort();
		memcpy(own_mark, data + 1, mark_len);
		mark = mark_len ? own_mark : NULL;
		data += 1 + mark_len;
		size -= 1 + mark_len;
	}
	len = size > 65535 ? 65535 : size;
	area = malloc(len ? len : 1);
	if (!area)
		abort();
	memcpy(area, data, len);
	ok = pgpk_hashed_walk(area, len, mark, mark_len, &h);
	r = pgpk_ref_hashed_walk(area, len, mark, mark ? mark_len : 0);
	if (ok != r.ok)
		pgpk_fuzz_fail("verdict differs from the reference");
	if (ok && (h.created != r.created || h.marked != r.marked ||
		   h.expires != r.expires || h.fpr_len != r.fpr_len ||
		   (h.fpr_len && h.fpr != area + r.fpr_at)))
		pgpk_fuzz_fail("what the area says differs from the reference");
	if (ok && h.fpr_len && h.fpr + h.fpr_len > area + len)
		pgpk_fuzz_fail("fingerprint outside the area");
	free(area);
	free(own_mark);
	return 0;
}
