// SPDX-License-Identifier: GPL-2.0
/*
 * The library's one sort: a bottom-up merge sort of pointers.
 *
 * Not qsort(): glibc's qsort() of 128 elements or more asks the kernel how
 * much memory the machine has (sysconf(_SC_PHYS_PAGES), i.e. sysinfo())
 * before choosing between merge sort and quicksort, and the sandbox's
 * seccomp filter kills the parser for that system call (security issue 9:
 * a key with 127 junk self-signatures became unaddable).  This one makes
 * no system call but malloc()'s, is O(n log n) whatever the input, and is
 * stable.
 */
#include <stdlib.h>
#include <string.h>

#include "helper/openpgp/internal.h"

static void pgpk_merge(const void **dst, const void *const *src, size_t lo,
		       size_t mid, size_t hi, pgpk_cmp_fn cmp)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = cmp(src[j], src[i]) < 0 ? src[j++] : src[i++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

int pgpk_sort_ptrs(const void **v, size_t n, pgpk_cmp_fn cmp)
{
	const void **scratch, **src = v, **dst, **t;
	size_t width, lo;

	if (n < 2)
		return 0;
	scratch = pgpk_calloc_array(n, sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	dst = scratch;
	for (width = 1; width < n; width *= 2) {
		for (lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = mid + width < n ? mid + width : n;

			pgpk_merge(dst, src, lo, mid, hi, cmp);
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(scratch);
	return 0;
}
