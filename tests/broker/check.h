/* SPDX-License-Identifier: GPL-2.0 */
/* The broker tests' assertion: CHECK(cond, fmt, ...) counts and says. */
#ifndef PGPK_TESTS_BROKER_CHECK_H
#define PGPK_TESTS_BROKER_CHECK_H

#include <stdio.h>

static int pgpk_failures;

#define CHECK(cond, ...)                                            \
	do {                                                        \
		if (!(cond)) {                                      \
			pgpk_failures++;                            \
			printf("FAIL %s:%d: ", __func__, __LINE__); \
			printf(__VA_ARGS__);                        \
			printf("\n");                               \
		}                                                   \
	} while (0)

#endif
