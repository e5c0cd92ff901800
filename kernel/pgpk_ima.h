/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mark of a key dedicated to IMA, shared by the module (which looks
 * for it in the binding signature it verifies itself) and pgpk-helper
 * (ima-sign refuses unmarked keys, ima-sign --new-key makes the mark).
 *
 * A subkey is dedicated to IMA when its binding signature (0x18) carries,
 * in its hashed area, exactly this Notation Data subpacket (RFC 9580
 * 5.2.3.24): not critical, human-readable (flags 0x80 0 0 0), name
 * "ima@pgpk", value "file-signatures".  It is what
 * `gpg --cert-notation ima@pgpk=file-signatures --quick-add-key FPR
 * rsa3072 auth` writes.  The module walks the hashed area's subpacket
 * framing (lengths only, pgpk_rebuild_subpacket()) and compares each
 * subpacket of this length with these octets; it reads no values.
 */
#ifndef _PGPK_IMA_H
#define _PGPK_IMA_H

#define PGPK_IMA_NOTATION_NAME	"ima@pgpk"
#define PGPK_IMA_NOTATION_VALUE	"file-signatures"

/*
 * RFC 9580 5.2.3.7: subpacket length (type + data = 32), type 20;
 * 5.2.3.24: flags, name length, value length, name, value.
 */
#define PGPK_IMA_MARK_INIT {						\
	32, 20, 0x80, 0, 0, 0, 0, 8, 0, 15,				\
	'i', 'm', 'a', '@', 'p', 'g', 'p', 'k',				\
	'f', 'i', 'l', 'e', '-', 's', 'i', 'g', 'n', 'a', 't', 'u',	\
	'r', 'e', 's' }
#define PGPK_IMA_MARK_LEN	33

#endif /* _PGPK_IMA_H */
