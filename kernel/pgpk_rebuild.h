/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rebuilding OpenPGP octets from canonical fields: the key packet body,
 * the prefixes hashed before keys and user IDs, and a signature's hashed
 * trailer.  The kernel hashes these itself instead of believing digests or
 * packets from the helper; user space (pgpk-helper verify, tests) uses the
 * same file so both sides compute exactly the same bytes.
 *
 * Nothing here allocates or fails: callers size the buffer with the _len
 * function (or PGPK_PREFIX_MAX) first.  The inputs come from the strict
 * decoder, whose bounds keep every length below 2^16 for v4 bodies.
 */
#ifndef _PGPK_REBUILD_H
#define _PGPK_REBUILD_H

#include "pgpk_canon.h"

/* Longest prefix pgpk_rebuild_key_prefix()/_uid_prefix() write. */
#define PGPK_PREFIX_MAX 5

size_t pgpk_rebuild_key_len(const struct pgpk_key_material *m);
size_t pgpk_rebuild_key(const struct pgpk_key_material *m, u8 *out);
size_t pgpk_rebuild_key_prefix(const struct pgpk_key_material *m, size_t len,
			       u8 *out);
size_t pgpk_rebuild_uid_prefix(u32 len, u8 *out);
size_t pgpk_rebuild_trailer_len(const struct pgpk_sig *s);
size_t pgpk_rebuild_trailer(const struct pgpk_sig *s, u8 *out);
bool pgpk_rebuild_subpacket(const u8 **p, const u8 *end, u32 *n);
bool pgpk_rebuild_hashed_ok(const struct pgpk_sig *s, struct pgpk_bytes *fpr);

#endif /* _PGPK_REBUILD_H */
