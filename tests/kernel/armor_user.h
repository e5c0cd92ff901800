/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-ins for the kernel helpers kernel/pgpk_armor.c calls,
 * given to the compiler with -include (see BUILD).  pgpk_base64_decode() keeps
 * the contract of the kernel's lib/base64.c: RFC 4648 alphabet, '='
 * padding, the decoded length or -1.
 */
#ifndef PGPK_ARMOR_USER_H
#define PGPK_ARMOR_USER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GFP_KERNEL 0
#define kvmalloc(size, gfp) malloc(size)
#define kvfree(p) free(p)
#define pr_warn(fmt, ...) fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited pr_warn

static inline void put_unaligned_be16(uint16_t v, uint8_t *p)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void put_unaligned_be32(uint32_t v, uint8_t *p)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline int pgpk_base64_decode(const char *src, int len, uint8_t *dst)
{
	static const char table[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t acc = 0;
	int bits = 0, i, n = 0;
	const char *p;

	for (i = 0; i < len; i++) {
		if (src[i] == '=') {
			acc <<= 6;
			bits += 6;
			if (bits >= 8)
				bits -= 8;
			continue;
		}
		p = src[i] ? strchr(table, src[i]) : NULL;
		if (!p)
			return -1;
		acc = acc << 6 | (uint32_t)(p - table);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			dst[n++] = acc >> bits;
		}
	}
	if (acc & ((1u << bits) - 1))
		return -1;
	return n;
}

#endif /* PGPK_ARMOR_USER_H */
