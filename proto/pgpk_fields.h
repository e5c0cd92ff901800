/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For user-space code that reads what the kernel's strict decoder
 * (kernel/pgpk_canon.c) decoded: bit n of a decoded message's .present is
 * its field n, tested with PGPK_HAS().  The field numbers of
 * proto/pgpk.proto are the UAPI header's, kernel/uapi/linux/pgpk.h
 * (PGPK_MATERIAL_*, PGPK_SIG_*, PGPK_KEY_*, PGPK_CANON_*), which
 * kernel/pgpk_canon.h includes.
 */
#ifndef PGPK_FIELDS_H
#define PGPK_FIELDS_H

#include "kernel/pgpk_canon.h"

/* Whether a blob starts with the canonical magic (the decoder's first test). */
#define pgpk_canon_is_canonical(blob, len) \
	(pgpk_canon_form(blob, len) == PGPK_FORM_CANONICAL)

/* The IMA mark's notation (kernel/pgpk_canon.h: PGPK_IMA_MARK_INIT). */
#define PGPK_IMA_NOTATION_NAME "ima@pgpk"
#define PGPK_IMA_NOTATION_VALUE "file-signatures"

#endif /* PGPK_FIELDS_H */
