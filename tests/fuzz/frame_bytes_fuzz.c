// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for pgpk_bytes_at() (kernel/pgpk_frame.c): are these
 * octets at this offset of the submitted ones?  The kernel's binding of
 * a certification's RSA value.
 *
 * Input: offset (4 octets, big-endian), length (2), flip (1), then the
 * submitted octets.  The octets looked for are a copy of those at the
 * offset when there are enough (flip < 255: one bit of them flipped), else
 * of the input's head.
 *
 * Invariant: the answer is exactly "offset + length inside the buffer and
 * the octets equal", nothing read outside either buffer (ASan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pgpk_canon.h"
#include "tests/fuzz/pgpk_fuzz.h"

static void pgpk_fuzz_fail(const char *what)
{
	fprintf(stderr, "frame_bytes fuzz: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, n;
	uint8_t *buf, *bytes, flip;
	uint32_t offset;
	bool inside, want;

	if (size < 7)
		return 0;
	offset = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 |
		 (uint32_t)data[2] << 8 | data[3];
	n = (size_t)data[4] << 8 | data[5];
	flip = data[6];
	len = size - 7;
	buf = malloc(len ? len : 1);
	bytes = malloc(n ? n : 1);
	if (!buf || !bytes)
		abort();
	memcpy(buf, data + 7, len);
	memset(bytes, 0, n);
	inside = offset <= len && n <= len - offset;
	if (inside)
		memcpy(bytes, buf + offset, n);
	else
		memcpy(bytes, buf, n < len ? n : len);
	if (flip != 255 && n)
		bytes[flip % n] ^= 1 << (flip % 8);
	want = inside && !memcmp(buf + offset, bytes, n);
	if (pgpk_bytes_at(buf, len, offset, bytes, n) != want)
		pgpk_fuzz_fail("disagrees with the definition");
	if (inside && !pgpk_bytes_at(buf, len, offset, buf + offset, n))
		pgpk_fuzz_fail("the octets at the offset not found there");
	free(bytes);
	free(buf);
	return 0;
}
