/* SPDX-License-Identifier: GPL-2.0 */
/* The sandboxed child's real work (a pgpk_child_fn): pgpk_convert(). */
#ifndef PGPK_CHILD_H
#define PGPK_CHILD_H

#include "helper/pgpk_broker.h"

int pgpk_child_convert(const struct pgpk_child_ctx *ctx, const uint8_t *in,
		       size_t len, int out_fd);

#endif /* PGPK_CHILD_H */
