/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's only contact with raw OpenPGP bytes (pgpk_armor.c): ASCII
 * armor removal and the binding checks.  Like the canonical decoder, it
 * compiles in user space too, where tests/kernel/ exercises it.
 */
#ifndef _PGPK_ARMOR_H
#define _PGPK_ARMOR_H

#include "pgpk_canon.h"	/* u8, u32, bool, size_t in both worlds */

/* RFC 9580 5: the packet tags the binding checks look for. */
#define PGPK_TAG_PUBLIC_KEY	6
#define PGPK_TAG_USER_ID	13
#define PGPK_TAG_PUBLIC_SUBKEY	14

/* OpenPGP bytes as submitted, and as binary packets after dearmoring. */
struct pgpk_input {
	const u8 *raw;
	size_t raw_len;
	const u8 *bin;
	size_t bin_len;
	u8 *buf;		/* owns bin when the input was armored */
};

bool pgpk_is_openpgp(const u8 *data, size_t len);
int pgpk_input_init(struct pgpk_input *in, const u8 *data, size_t len);
void pgpk_input_free(struct pgpk_input *in);
int pgpk_bind_packet(const struct pgpk_input *in, u32 offset, u8 tag,
		     const u8 *body, size_t len, const char *what);
bool pgpk_input_contains(const struct pgpk_input *in, const u8 *needle,
			 size_t len);

#endif /* _PGPK_ARMOR_H */
