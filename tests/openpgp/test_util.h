/* SPDX-License-Identifier: GPL-2.0 */
/* Tiny assertion and file helpers shared by the OpenPGP unit tests. */
#ifndef PGPK_TEST_UTIL_H
#define PGPK_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pgpk_test_failures;
static int pgpk_test_checks;

#define CHECK(cond)                                                      \
	do {                                                             \
		pgpk_test_checks++;                                      \
		if (!(cond)) {                                           \
			pgpk_test_failures++;                            \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, \
				__LINE__, #cond);                        \
		}                                                        \
	} while (0)

#define CHECK_EQ(a, b)                                               \
	do {                                                         \
		long long _a = (long long)(a), _b = (long long)(b);  \
		pgpk_test_checks++;                                  \
		if (_a != _b) {                                      \
			pgpk_test_failures++;                        \
			fprintf(stderr,                              \
				"%s:%d: FAILED: %s == %s "           \
				"(%lld != %lld)\n",                  \
				__FILE__, __LINE__, #a, #b, _a, _b); \
		}                                                    \
	} while (0)

/* Test data lives next to the test in the runfiles tree. */
#define PGPK_TEST_DATA "tests/openpgp/data/"

static inline uint8_t *pgpk_test_read(const char *name, size_t *len)
{
	char path[512];
	uint8_t *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s%s", PGPK_TEST_DATA, name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static inline int pgpk_test_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, pgpk_test_checks,
	       pgpk_test_failures);
	return pgpk_test_failures ? 1 : 0;
}

#endif /* PGPK_TEST_UTIL_H */
