/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything that differs between the kernels pgpk supports (README.md:
 * 6.1, 6.12, 7.3), in one place.  Interfaces are detected rather than
 * versions: Kbuild looks for them in the kernel's own headers and sets
 * PGPK_HAVE_*; it also refuses kernels older than 6.1.
 */
#ifndef _PGPK_COMPAT_H
#define _PGPK_COMPAT_H

#include <linux/slab.h>
#include <crypto/public_key.h>

/*
 * Give @pks a digest buffer of @size octets that it owns.  7.3 (upstream
 * 7.0): public_key_signature's digest and digest_size are m and m_size,
 * and public_key_signature_free() frees m only if m_free.
 */
static inline u8 *pgpk_sig_alloc_digest(struct public_key_signature *pks,
					u32 size)
{
	u8 *digest = kmalloc(size, GFP_KERNEL);

#ifdef PGPK_HAVE_SIG_M
	pks->m = digest;
	pks->m_size = size;
	pks->m_free = true;
#else
	pks->digest = digest;
	pks->digest_size = size;
#endif
	return digest;
}

#endif /* _PGPK_COMPAT_H */
