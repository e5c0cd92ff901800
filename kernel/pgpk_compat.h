/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Out of tree only (force-included by Kbuild; upstream/make-series.sh
 * never copies it): pgpk_core.h's names for kernels without the
 * preparatory patches of upstream/core/.  The series carries pgpk_core.h
 * instead, which this file's definition of _PGPK_CORE_H skips.
 *
 *   preparatory patch (upstream/core/)   here, without it
 *   public_key_describe/query/eds_op     calls through public_key_subtype
 *   enum public_key_sig_protocol         the encoding's address marks
 *                                        pgpk's signatures; an IMA
 *                                        signature is told by what
 *                                        asymmetric_verify() leaves unset
 *   Kconfig OPENPGP_*                    module parameters (pgpk_compat.c)
 *
 * and the differences between the released kernels, found by Kbuild in
 * their headers: a signature's digest is m/m_size from 7.0 on (upstream),
 * digest/digest_size before; kzalloc_obj() is new in 7.0; key_eflags in
 * 6.4.
 */
#ifndef _PGPK_COMPAT_H
#define _PGPK_COMPAT_H
#define _PGPK_CORE_H

/*
 * Macros and declarations only (and <linux/types.h>, which uses no
 * pr_fmt): this is read before the file's own #includes and pr_fmt.
 */
#include <linux/types.h>

struct key;
struct seq_file;
struct kernel_pkey_params;
struct kernel_pkey_query;

/* Out of tree the test key type and the upcall are always built. */
#define CONFIG_OPENPGP_TEST_KEY 1
#define CONFIG_OPENPGP_KEY_UPCALL 1

/* public_key's subtype operations, exported by upstream/core/0002 */
#define public_key_describe	pgpk_pk_describe
#define public_key_query	pgpk_pk_query
#define public_key_eds_op	pgpk_pk_eds_op
void pgpk_pk_describe(const struct key *key, struct seq_file *m);
int pgpk_pk_query(const struct kernel_pkey_params *params,
		  struct kernel_pkey_query *info);
int pgpk_pk_eds_op(struct kernel_pkey_params *params, const void *in,
		   void *out);

/*
 * Kconfig settings in tree; module parameters here (pgpk_compat.c), also
 * on a kernel built with the series (7.3-pgpk-debug), whose autoconf.h
 * defines them first.
 */
extern unsigned int pgpk_param_min_rsa_bits, pgpk_param_upcall_timeout;
#undef CONFIG_OPENPGP_KEY_MIN_RSA_BITS
#undef CONFIG_OPENPGP_KEY_UPCALL_TIMEOUT
#define CONFIG_OPENPGP_KEY_MIN_RSA_BITS \
	max(READ_ONCE(pgpk_param_min_rsa_bits), 2048u)
#define CONFIG_OPENPGP_KEY_UPCALL_TIMEOUT \
	clamp_val(READ_ONCE(pgpk_param_upcall_timeout), 1, 60)

/*
 * Compared by address: only this module can point a signature at it, and
 * public_key's subtype refuses it (one key, one protocol).
 */
extern const char *const pgpk_compat_encoding;

#ifdef PGPK_HAVE_SIG_M	/* 7.0 and later */
#define PGPK_COMPAT_DIGEST(d, n) .m = (d), .m_size = (n)
#else
#define PGPK_COMPAT_DIGEST(d, n) .digest = (d), .digest_size = (n)
#endif
#define PGPK_SIG_OPENPGP(hash, d, n) ((struct public_key_signature){ \
	.pkey_algo = "rsa", .hash_algo = (hash), \
	.encoding = pgpk_compat_encoding, PGPK_COMPAT_DIGEST(d, n) })
#define pgpk_sig_is_openpgp(sig) ((sig)->encoding == pgpk_compat_encoding)

/* key_eflags is 6.4's; -DPGPK_HAVE_EFLAGS from Kbuild */
#ifdef PGPK_HAVE_EFLAGS
#define pgpk_set_eflags(pub, e)	((pub)->key_eflags = (e))
#else
#define pgpk_set_eflags(pub, e)	do { } while (0)
#endif

/* kzalloc_obj() is 7.0's; -DPGPK_HAVE_ALLOC_OBJ from Kbuild */
#ifndef PGPK_HAVE_ALLOC_OBJ
#define kzalloc_obj(p) kzalloc(sizeof(p), GFP_KERNEL)
#endif

/*
 * No OpenPGP keys are built into the builtin keyring out of tree (in
 * tree: CONFIG_SYSTEM_OPENPGP_KEYS, certs/system_keyring.c).  A kernel
 * with the series (Kbuild: PGPK_HAVE_SYSTEM_OPENPGP_KEYS) declares the
 * function where its parser may load them, and this module does not:
 * renamed; elsewhere its <keys/system_keyring.h> has the empty inline.
 */
#if !defined(PGPK_HAVE_SYSTEM_OPENPGP_KEYS) || \
	(defined(CONFIG_SYSTEM_TRUSTED_KEYRING) && IS_ENABLED(CONFIG_OPENPGP_KEY_PARSER))
#define load_system_openpgp_keys pgpk_compat_no_builtin_keys
static inline void pgpk_compat_no_builtin_keys(void)
{
}
#endif

/* IMA's asymmetric_verify() names no certificate issuer, X.509 does. */
struct public_key_signature;
bool pgpk_sig_for_ima(const struct public_key_signature *sig);

#endif /* _PGPK_COMPAT_H */
