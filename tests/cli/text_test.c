// SPDX-License-Identifier: GPL-2.0
/*
 * helper/text.c: pgpk_time_str() and pgpk_date_str() compute the civil
 * date by hand (gmtime_r() reads /etc/localtime, which the sandboxed
 * parser may not open): they must agree with gmtime_r() and strftime()
 * on every time, here every 6 hours and 13 s from 1900 to 2200 and the
 * edges; pgpk_hex() upper case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "helper/pgpk_text.h"

int main(void)
{
	static const int64_t edges[] = { 0,	     -1,	 59,
					 86399,	     86400,	 951782400,
					 951868799,  1796285745, 4102444800,
					 -2208988800 };
	char want[64], got[PGPK_TIME_LEN], date[PGPK_TIME_LEN], hex[9];
	static const uint8_t oct[] = { 0x01, 0xab, 0xcd, 0xef };
	int64_t t, step = 6 * 3600 + 13;
	long n = 0, bad = 0;
	struct tm tm;
	time_t tt;
	size_t i;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]) + 1; i++) {
		int64_t from = i < sizeof(edges) / sizeof(edges[0]) ?
				       edges[i] :
				       -2208988800LL;
		int64_t to = i < sizeof(edges) / sizeof(edges[0]) ?
				     edges[i] + 1 :
				     7258118400LL;

		for (t = from; t < to;
		     t += i < sizeof(edges) / sizeof(edges[0]) ? 1 : step) {
			tt = (time_t)t;
			gmtime_r(&tt, &tm);
			strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
			pgpk_time_str(t, got);
			pgpk_date_str(t, date);
			n++;
			if (strcmp(want, got) || strncmp(want, date, 10) ||
			    date[10]) {
				if (bad++ < 5)
					printf("FAIL %" PRId64
					       ": %s, date %s; gmtime says %s\n",
					       t, got, date, want);
			}
		}
	}
	pgpk_hex(oct, sizeof(oct), hex);
	if (strcmp(hex, "01ABCDEF")) {
		printf("FAIL pgpk_hex: %s\n", hex);
		bad++;
	}
	printf("%s: %ld times, %ld differ\n", bad ? "FAIL" : "PASS", n, bad);
	return bad ? 1 : 0;
}
