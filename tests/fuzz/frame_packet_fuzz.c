// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for pgpk_packet_at() (kernel/pgpk_frame.c): is there a
 * whole top-level packet of a tag, with a body, at an offset of the
 * submitted octets?  The kernel's binding of an upcall answer.
 *
 * Input: tag (1 octet), offset (4, big-endian), body length (2), mode (1),
 * then the submitted octets.  Mode bit 0: the body is a copy of the
 * octets at the offset (so that a match is possible), else of the input's
 * tail; bit 1: flip a bit of it.
 *
 * Invariants, against the second implementation of tests/kernel/
 * pgpk_frame_ref.h: the answer to the question asked; every packet of
 * the reference walk found at its own body; no octet read outside the
 * buffers (each its own allocation, for ASan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "tests/fuzz/pgpk_fuzz.h"
#include "tests/kernel/pgpk_frame_ref.h"

#define PGPK_FUZZ_MAX_PACKETS 4096

static void pgpk_fuzz_fail(const char *what)
{
	fprintf(stderr, "frame_packet fuzz: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pgpk_ref_packet refs[PGPK_FUZZ_MAX_PACKETS];
	uint8_t tag, mode, *buf, *body;
	size_t len, body_len, n, i;
	uint32_t offset;

	if (size < 8)
		return 0;
	tag = data[0];
	offset = (uint32_t)data[1] << 24 | (uint32_t)data[2] << 16 |
		 (uint32_t)data[3] << 8 | data[4];
	body_len = (size_t)data[5] << 8 | data[6];
	mode = data[7];
	len = size - 8;
	buf = malloc(len ? len : 1);
	body = malloc(body_len ? body_len : 1);
	if (!buf || !body)
		abort();
	memcpy(buf, data + 8, len);
	memset(body, 0, body_len);
	if ((mode & 1) && offset <= len && body_len <= len - offset)
		memcpy(body, buf + offset, body_len);
	else
		memcpy(body, data + 8, body_len < len ? body_len : len);
	if ((mode & 2) && body_len)
		body[mode % body_len] ^= 1 << (mode >> 5);
	n = pgpk_ref_packets(buf, len, refs, PGPK_FUZZ_MAX_PACKETS);
	if (pgpk_packet_at(buf, len, offset, tag, body, body_len) !=
	    pgpk_ref_packet_at(refs, n, buf, offset, tag, body, body_len))
		pgpk_fuzz_fail("disagrees with the reference");
	for (i = 0; i < n; i++) {
		if (!pgpk_packet_at(buf, len, refs[i].body, refs[i].tag,
				    buf + refs[i].body, refs[i].len))
			pgpk_fuzz_fail("a packet of the walk not found");
		if (pgpk_packet_at(buf, len, refs[i].body, refs[i].tag ^ 1,
				   buf + refs[i].body, refs[i].len) ||
		    pgpk_packet_at(buf, len, refs[i].body - 1, refs[i].tag,
				   buf + refs[i].body - 1, refs[i].len) ||
		    (refs[i].len &&
		     pgpk_packet_at(buf, len, refs[i].body, refs[i].tag,
				    buf + refs[i].body, refs[i].len - 1)))
			pgpk_fuzz_fail(
				"found with another tag, offset or length");
	}
	free(body);
	free(buf);
	return 0;
}
