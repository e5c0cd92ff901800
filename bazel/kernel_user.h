/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-ins for the kernel definitions that kernel/pgpk_canon.c,
 * pgpk_frame.c and pgpk_rebuild.c use, so that the broker, the tests and
 * the fuzzers run the module's very code.  kernel/pgpk_canon.h includes
 * <linux/types.h>, which is bazel/shim/linux/types.h outside the kernel:
 * the system's header, then this one; the other <linux/...> headers those
 * files include exist in user space too (the UAPI ones), mostly empty.
 */
#ifndef PGPK_KERNEL_USER_H
#define PGPK_KERNEL_USER_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;

#ifndef U32_MAX
#define U32_MAX UINT32_MAX
#endif
#ifndef U64_MAX
#define U64_MAX UINT64_MAX
#endif

/* The kernel's min_t(): the smaller of x and y, both as type. */
#define min_t(type, x, y) ((type)(x) < (type)(y) ? (type)(x) : (type)(y))

/* The kernel's fls(): the position of the highest bit set, 1..32; 0 for 0. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

#endif /* PGPK_KERNEL_USER_H */
