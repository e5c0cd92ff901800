/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything that differs between the kernels pgpk supports (README.md:
 * 6.1, 6.12, 7.3), in one place.  Interfaces are detected rather than
 * versions: Kbuild looks for them in the kernel's own headers and sets
 * PGPK_HAVE_*; it also refuses kernels older than 6.1.
 */
#ifndef _PGPK_COMPAT_H
#define _PGPK_COMPAT_H

#include <linux/base64.h>
#include <linux/slab.h>
#include <crypto/public_key.h>

/* 6.12: <asm/unaligned.h> became <linux/unaligned.h> */
#ifdef PGPK_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* 7.3: <linux/kernel.h> no longer brings hex2bin() from <linux/hex.h> */
#ifdef PGPK_HAVE_LINUX_HEX_H
#include <linux/hex.h>
#endif

/* 7.3 (upstream 6.19): base64_decode() also takes padding and alphabet */
#ifdef PGPK_HAVE_BASE64_VARIANT
#define pgpk_base64_decode(src, len, dst) \
	base64_decode(src, len, dst, true, BASE64_STD)
#else
#define pgpk_base64_decode(src, len, dst) base64_decode(src, len, dst)
#endif

/*
 * 7.3 (upstream 7.0): public_key_signature's digest and digest_size are m
 * and m_size, and public_key_signature_free() frees m only if m_free.
 */
#ifdef PGPK_HAVE_SIG_M
#define pgpk_sig_digest(pks)	((pks)->m)
#else
#define pgpk_sig_digest(pks)	((pks)->digest)
#endif

/* Give @pks a digest buffer of @size octets that it owns. */
static inline u8 *pgpk_sig_alloc_digest(struct public_key_signature *pks,
					u32 size)
{
#ifdef PGPK_HAVE_SIG_M
	pks->m_size = size;
	pks->m_free = true;
#else
	pks->digest_size = size;
#endif
	pgpk_sig_digest(pks) = kmalloc(size, GFP_KERNEL);
	return pgpk_sig_digest(pks);
}

#endif /* _PGPK_COMPAT_H */
