/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What user space computes from a decoded canonical Key, as the kernel
 * does: its fingerprint and key ID from the rebuilt key packet, and the
 * description the kernel gives it (seed 007's: kernel/pgpk_frame.c
 * pgpk_name()).
 */
#ifndef PGPK_CANON_KEY_H
#define PGPK_CANON_KEY_H

#include <stddef.h>

#include "kernel/pgpk_canon.h"

#define PGPK_CANON_FPR_MAX 32 /* v6: SHA-256 */
#define PGPK_CANON_KEYID_LEN 8
#define PGPK_CANON_DESC_MAX PGPK_NAME_SIZE /* with its NUL */

/*
 * RFC 9580 5.5.4: the fingerprint of the key packet rebuilt from m
 * (kernel/pgpk_rebuild.c), v4 SHA-1 (key ID: its last 8 octets), v6
 * SHA-256 (its first 8).  Returns the fingerprint's length, 0 on error.
 */
size_t pgpk_canon_key_ids(const struct pgpk_key_material *m, u8 *fpr,
			  u8 *keyid);

/*
 * The description the kernel gives key k with key ID keyid when add_key
 * is given none: pgpk_name() of the user ID if the primary key's
 * self-signature certifies it (Key.self_signature, else a primary key's
 * certification: kernel/pgpk_key.c pgpk_self_sigs()), else of none.
 * buf: PGPK_CANON_DESC_MAX octets.
 */
void pgpk_canon_key_description(const struct pgpk_key *k, const u8 *keyid,
				char *buf);

#endif /* PGPK_CANON_KEY_H */
