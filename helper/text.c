// SPDX-License-Identifier: GPL-2.0
/* Octets and times for people (pgpk_text.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "helper/pgpk_text.h"

char *pgpk_hex(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789ABCDEF";
	size_t i;

	/* Not snprintf("%02X") per octet: list writes 80,000 of them. */
	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
	return out;
}

/*
 * The civil date of a day count since 1970-01-01 (H. Hinnant's
 * days_from_civil, inverted).  By hand: glibc's gmtime_r() reads
 * /etc/localtime on its first use, and the sandboxed parser may open
 * nothing.
 */
static void pgpk_civil(int64_t days, int64_t *y, int *m, int *d)
{
	int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097; /* [0, 146096] */
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100); /* [0, 365] */
	int64_t mp = (5 * doy + 2) / 153; /* [0, 11], from March */

	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static const char *pgpk_time_fmt(int64_t t, bool date_only,
				 char out[PGPK_TIME_LEN])
{
	int64_t days = t / 86400, secs = t % 86400, y;
	int m, d;

	if (secs < 0) {
		secs += 86400;
		days--;
	}
	pgpk_civil(days, &y, &m, &d);
	if (date_only)
		snprintf(out, PGPK_TIME_LEN, "%04" PRId64 "-%02d-%02d", y, m,
			 d);
	else
		snprintf(out, PGPK_TIME_LEN,
			 "%04" PRId64 "-%02d-%02dT%02d:%02d:%02dZ", y, m, d,
			 (int)(secs / 3600), (int)(secs / 60 % 60),
			 (int)(secs % 60));
	return out;
}

const char *pgpk_time_str(int64_t t, char out[PGPK_TIME_LEN])
{
	return pgpk_time_fmt(t, false, out);
}

const char *pgpk_date_str(int64_t t, char out[PGPK_TIME_LEN])
{
	return pgpk_time_fmt(t, true, out);
}
