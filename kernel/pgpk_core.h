/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How pgpk marks the signatures it frames (enum public_key_sig_protocol),
 * where their digest goes, a key's usage (key_eflags), and what a key
 * dedicated to IMA verifies.
 *
 * Out of tree, kernel/Kbuild force-includes pgpk_compat.h, which defines
 * the same names for kernels without the preparatory patches (6.1, 6.12,
 * 7.3 as released), with what else they lack (public_key_describe(),
 * _query(), _eds_op(), the Kconfig settings), and this file's guard, so
 * that this file is skipped.
 */
#ifndef _PGPK_CORE_H
#define _PGPK_CORE_H

/* An RSA signature whose octets pgpk framed (RFC 9580 5.2.4) */
#define PGPK_SIG_OPENPGP(hash, d, n) ((struct public_key_signature){ \
	.pkey_algo = "rsa", .hash_algo = (hash), .encoding = "pkcs1", \
	.protocol = PKS_PROTOCOL_OPENPGP, .m = (d), .m_size = (n) })
#define pgpk_sig_is_openpgp(sig) ((sig)->protocol == PKS_PROTOCOL_OPENPGP)

/* A key's X.509 usage, which restrict_link_by_ca() and _by_digsig() read */
#define pgpk_set_eflags(pub, e)	((pub)->key_eflags = (e))

/* What a key dedicated to IMA verifies: IMA, EVM, or keyctl pkey_verify */
#define pgpk_sig_for_ima(sig) (BIT((sig)->protocol) & \
	(BIT(PKS_PROTOCOL_INTEGRITY) | BIT(PKS_PROTOCOL_UNSPECIFIED)))

#endif /* _PGPK_CORE_H */
