// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk_sort_ptrs() (helper/openpgp/sort.c), the merge sort that replaced
 * qsort() in the sandboxed parser: sorted, stable, a permutation of its
 * input, for every size up to 300 (glibc's qsort() changes algorithm,
 * and asks sysinfo(), from 128 pointers) and for large random and sorted
 * inputs; agrees with qsort() on a total order.
 */
#include <stdlib.h>

#include "helper/openpgp/internal.h"
#include "tests/openpgp/test_util.h"

struct item {
	unsigned int key;
	size_t pos; /* input position: stability */
	unsigned int seen;
};

static int pgpk_item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* qsort()'s view of the same order, ties broken by input position. */
static int pgpk_item_total(const void *a, const void *b)
{
	const struct item *x = *(const struct item *const *)a;
	const struct item *y = *(const struct item *const *)b;
	int r = pgpk_item_cmp(x, y);

	return r ? r : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

static unsigned int pgpk_rand_state = 9;

static unsigned int pgpk_rand(void)
{
	pgpk_rand_state = pgpk_rand_state * 1103515245u + 12345u;
	return pgpk_rand_state >> 8;
}

/* Sort n items whose keys come from `mode`: 0 random in [0, range),
 * 1 ascending, 2 descending, 3 all equal. */
static void pgpk_check_sort(size_t n, int mode, unsigned int range)
{
	struct item *items = calloc(n ? n : 1, sizeof(*items));
	const void **v = calloc(n ? n : 1, sizeof(*v));
	const struct item **ref = calloc(n ? n : 1, sizeof(*ref));
	bool ok = true;
	size_t i;

	if (!items || !v || !ref) {
		CHECK(!"out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		items[i].key = mode == 0 ? pgpk_rand() % range :
			       mode == 1 ? (unsigned int)i :
			       mode == 2 ? (unsigned int)(n - i) :
					   7;
		items[i].pos = i;
		v[i] = &items[i];
		ref[i] = &items[i];
	}
	CHECK_EQ(pgpk_sort_ptrs(v, n, pgpk_item_cmp), 0);
	qsort(ref, n, sizeof(*ref), pgpk_item_total);
	for (i = 0; i < n; i++) {
		const struct item *x = v[i];

		((struct item *)x)->seen++;
		if (x != ref[i])
			ok = false;
		if (i && pgpk_item_total(&v[i - 1], &v[i]) >= 0)
			ok = false; /* unsorted, or unstable */
	}
	for (i = 0; i < n; i++)
		if (items[i].seen != 1)
			ok = false; /* not a permutation */
	if (!ok)
		fprintf(stderr, "sort of %zu items (mode %d) is wrong\n", n,
			mode);
	CHECK(ok);
out:
	free(ref);
	free(v);
	free(items);
}

int main(void)
{
	size_t n;
	int mode;

	for (n = 0; n <= 300; n++)
		for (mode = 0; mode < 4; mode++)
			pgpk_check_sort(n, mode, n % 5 ? 1000 : 3);
	for (mode = 0; mode < 4; mode++)
		pgpk_check_sort(100000, mode, 50000);
	return pgpk_test_done("sort_test");
}
