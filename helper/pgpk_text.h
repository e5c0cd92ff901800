/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How pgpk writes octets and times for people: fingerprints and key IDs
 * in upper-case hex, times in ISO 8601 (UTC).  One definition for every
 * program and library of the helper.
 */
#ifndef PGPK_TEXT_H
#define PGPK_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Upper-case hex of p[0..n) in out (2 n + 1 octets), NUL-terminated. */
char *pgpk_hex(const uint8_t *p, size_t n, char *out);

/* "2026-12-04T13:19:05Z" and its NUL, with room for any year. */
#define PGPK_TIME_LEN 48
/*
 * A Unix time as ISO 8601 (RFC 3339) in UTC: what every message and
 * listing shows.
 * Returns out.
 */
const char *pgpk_time_str(int64_t t, char out[PGPK_TIME_LEN]);
/* The date alone, "2026-12-04" (list's columns, as gpg shows them). */
const char *pgpk_date_str(int64_t t, char out[PGPK_TIME_LEN]);

#endif /* PGPK_TEXT_H */
