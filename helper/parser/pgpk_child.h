/* SPDX-License-Identifier: GPL-2.0 */
/* The sandboxed child's real work (pgpk_child_fn). */
#ifndef PGPK_CHILD_H
#define PGPK_CHILD_H

#include "helper/broker/pgpk_broker.h"

/* pgpk_convert() of the input: one frame, the answer or its errno. */
int pgpk_child_convert(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		       size_t len, int out_fd);

/*
 * pgpk import: the input is one certificate; one frame per key,
 * primary first: its canonical Key (offsets included), or ENOKEY with
 * "KEYID key|subkey ALGO: skipped: why" for a key not to be added
 * (not RSA, unusable, a subkey that does not sign), or the errno of a
 * conversion that failed with "KEYID key|subkey ALGO: why".
 */
int pgpk_child_import(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		      size_t len, int out_fd);

#endif /* PGPK_CHILD_H */
