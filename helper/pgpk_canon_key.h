/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What user space computes from a decoded canonical Key, as the kernel
 * does: its fingerprint and key ID from the rebuilt key packet, and the
 * description pgpk keys had before the kernel named them "PGP key <key
 * ID>" (pgpk-helper import gives it back).
 */
#ifndef PGPK_CANON_KEY_H
#define PGPK_CANON_KEY_H

#include <stddef.h>

#include "kernel/pgpk_canon.h"

#define PGPK_CANON_FPR_MAX 32 /* v6: SHA-256 */
#define PGPK_CANON_KEYID_LEN 8
#define PGPK_CANON_DESC_MAX 256 /* with its NUL */

/*
 * RFC 9580 5.5.4: the fingerprint of the key packet rebuilt from m
 * (kernel/pgpk_rebuild.c), v4 SHA-1 (key ID: its last 8 octets), v6
 * SHA-256 (its first 8).  Returns the fingerprint's length, 0 on error.
 */
size_t pgpk_canon_key_ids(const struct pgpk_key_material *m, u8 *fpr,
			  u8 *keyid);

/*
 * The 2022 patch set's description: the user ID up to a NUL, without its
 * comment (from the first '(', with the spaces before it), at most 246
 * octets, control characters as '?', a space, the last 8 hex digits of
 * the key ID in lower case; without a user ID (a subkey has none) "PGP
 * key <key ID>" or "PGP subkey <key ID>".  At most size - 1 octets.
 */
void pgpk_canon_key_description(const struct pgpk_key *k, const u8 *keyid,
				char *buf, size_t size);

#endif /* PGPK_CANON_KEY_H */
