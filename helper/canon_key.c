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
				char *buf, size_t size)
{
	const char *uid = (const char *)k->user_id.data, *paren;
	size_t len = uid ? strnlen(uid, k->user_id.len) : 0, i;
	int n;

	paren = len ? memchr(uid, '(', len) : NULL;
	if (paren)
		len = (size_t)(paren - uid);
	while (len && uid[len - 1] == ' ')
		len--;
	if (!len) {
		n = snprintf(buf, size, "PGP %s ",
			     k->subkey ? "subkey" : "key");
		for (i = 0;
		     i < PGPK_CANON_KEYID_LEN && n > 0 && (size_t)n + 3 <= size;
		     i++)
			n += snprintf(buf + n, size - (size_t)n, "%02x",
				      keyid[i]);
		return;
	}
	if (len > PGPK_CANON_DESC_MAX - 1 - 9)
		len = PGPK_CANON_DESC_MAX - 1 - 9;
	snprintf(buf, size, "%.*s %02x%02x%02x%02x", (int)len, uid, keyid[4],
		 keyid[5], keyid[6], keyid[7]);
	/* /proc/keys prints one key per line: no ASCII control characters */
	for (i = 0; i < len && i < size; i++)
		if ((u8)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
}
