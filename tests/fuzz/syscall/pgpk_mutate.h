/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutators for the syscall fuzzer (pgpk-sysfuzz.c): structure-aware ones
 * for canonical blobs, which keep the protobuf wire encoding valid while
 * changing values, and plain byte-level ones.  The schema is
 * proto/pgpk.proto's, written out again here (as tests/lib/pgpk_wire.py
 * does) so that the fuzzer does not share the code under test.
 */
#ifndef PGPK_MUTATE_H
#define PGPK_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#define PGPK_MAGIC "\x7fPGK\x01"
#define PGPK_MAGIC_LEN 5

/* xorshift64*: fast, seeded, the same sequence for the same seed. */
uint64_t pgpk_rand(void);
void pgpk_rand_seed(uint64_t seed);
/* pgpk_below(n): uniform in [0, n); n > 0. */
uint64_t pgpk_below(uint64_t n);

/* A blob: owned bytes. */
struct pgpk_blob {
	uint8_t *data;
	size_t len;
};

/*
 * pgpk_mutate_canonical: a structure-aware mutation of the canonical blob
 * @in (magic + Canonical), spliced with parts of @donor (may be NULL),
 * into @out (malloc'ed, to free).  Returns the number of mutations made,
 * 0 if @in does not parse as wire format (then @out is a plain copy).
 * The result is always well-formed wire format after the magic, unless
 * one of the mutations was a deliberate encoding error (a tag as a
 * non-minimal varint): then the number is negative.
 */
int pgpk_mutate_canonical(const struct pgpk_blob *in,
			  const struct pgpk_blob *donor, struct pgpk_blob *out);

/*
 * pgpk_mutate_bytes: 1 to 8 byte-level mutations of @in (bit flips,
 * interesting octets, insertions, deletions, truncation, duplication)
 * into @out, at most @max octets long.
 */
void pgpk_mutate_bytes(const struct pgpk_blob *in, struct pgpk_blob *out,
		       size_t max);

/*
 * pgpk_canonical_clean: remove from the canonical blob @b, in place, every
 * field proto/pgpk.proto does not list (at every level the mutator
 * parses: a seed made for an older contract, e.g. with the reserved
 * Key fields 9 and 11, becomes one the decoder may take).  Returns the
 * number of fields removed; 0 leaves @b as it was.
 */
int pgpk_canonical_clean(struct pgpk_blob *b);

/*
 * pgpk_wire_check: @data[0..len) is a sequence of well-formed protobuf
 * fields (tags and varints minimal, lengths within bounds, nothing
 * left over); 1 if so, 0 if not.  For the mutator self-check: the
 * mutator writes every level the same way, so the top level stands for
 * the others.
 */
int pgpk_wire_check(const uint8_t *data, size_t len);

#endif /* PGPK_MUTATE_H */
