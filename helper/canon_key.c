// SPDX-License-Identifier: GPL-2.0
/* Fingerprints and descriptions of decoded canonical keys (pgpk_canon_key.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/pgpk_canon_key.h"
#include "helper/pgpk_digest.h"

size_t pgpk_canon_key_ids(const struct pgpk_key_material *m, u8 *fpr, u8 *keyid)
{
	size_t len = pgpk_rebuild_key(m, NULL), plen, n = 0;
	u8 prefix[PGPK_PREFIX_MAX], *body = malloc(len);
	struct pgpk_digest d;

	/* pgpk_digest, not EVP: no fetch in the broker (pgpk_digest.h). */
	if (body && !pgpk_digest_init(&d, m->version == 6 ? PGPK_HASH_SHA256 :
							    PGPK_HASH_SHA1)) {
		pgpk_rebuild_key(m, body);
		plen = pgpk_rebuild_key_prefix(m, prefix);
		if (pgpk_digest_update(&d, prefix, plen) ||
		    pgpk_digest_update(&d, body, len))
			pgpk_digest_release(&d);
		else if (pgpk_digest_final(&d, fpr, &n))
			n = 0;
	}
	if (n)
		memcpy(keyid,
		       m->version == 6 ? fpr : fpr + n - PGPK_CANON_KEYID_LEN,
		       PGPK_CANON_KEYID_LEN);
	free(body);
	return n;
}

void pgpk_canon_key_description(const struct pgpk_key *k, const u8 *keyid,
				char *buf)
{
	const struct pgpk_sig *self = PGPK_HAS(k, PGPK_KEY_SELF_SIGNATURE) ?
					      &k->self_signature :
				      k->subkey ? NULL :
						  &k->certification;
	bool named = self && self->present && k->user_id.data &&
		     self->type >= 0x10 && self->type <= 0x13;

	pgpk_name(named ? &k->user_id : NULL, k->subkey, keyid, buf);
}
