// SPDX-License-Identifier: GPL-2.0
/*
 * The price of isolation: one upcall conversion (fork + sandbox + parse +
 * answer + re-validation + policy) of a 4096-bit RSA key, against a plain
 * in-process pgpk_convert() of the same key, in the same run.
 *
 *   bazel run -c opt //tests/bench:upcall_bench [-- FILE [RUNS]]
 *
 * Prints the median (and min/max) of RUNS runs in microseconds for:
 *   in-process     pgpk_convert() alone
 *   sandboxed      pgpk_broker_run() with a prepared sandbox: fork, enter
 *                  the sandbox, pipe the bytes in, convert, answer,
 *                  reap, strict decode, policy
 *   + prepare      the same plus pgpk_sandbox_prepare() (user lookup,
 *                  OpenSSL warm-up, filter compilation) as every upcall
 *                  process pays it once (exec of the helper not included)
 * and the ratios to in-process.  Not a test: nothing is asserted beyond
 * the conversions succeeding.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helper/broker/pgpk_broker.h"
#include "helper/parser/pgpk_child.h"

#define PGPK_BENCH_DEFAULT_RUNS 101
#define PGPK_BENCH_DEFAULT_FILE "tests/bench/rsa4096.pgp"

static uint64_t pgpk_bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static int pgpk_bench_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct pgpk_bench_stats {
	double median, min, max; /* microseconds */
};

static struct pgpk_bench_stats pgpk_bench_stats(uint64_t *ns, size_t n)
{
	struct pgpk_bench_stats s;

	qsort(ns, n, sizeof(*ns), pgpk_bench_cmp);
	s.median =
		(n % 2 ? ns[n / 2] : (ns[n / 2 - 1] + ns[n / 2]) / 2) / 1000.0;
	s.min = ns[0] / 1000.0;
	s.max = ns[n - 1] / 1000.0;
	return s;
}

static int pgpk_bench_nop_instantiate(void *ctx, const uint8_t *blob,
				      size_t len)
{
	*(size_t *)ctx = len;
	return 0;
}

static int pgpk_bench_nop_reject(void *ctx, unsigned int timeout, int error)
{
	return 0;
}

static const struct pgpk_broker_ops pgpk_bench_ops = {
	.instantiate = pgpk_bench_nop_instantiate,
	.reject = pgpk_bench_nop_reject,
};

static uint8_t *pgpk_bench_read(const char *path, size_t *len)
{
	uint8_t *buf = malloc(1 << 20);
	FILE *f = fopen(path, "rb");

	if (!f || !buf) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(2);
	}
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : PGPK_BENCH_DEFAULT_FILE;
	size_t runs =
		argc > 2 ? strtoul(argv[2], NULL, 10) : PGPK_BENCH_DEFAULT_RUNS;
	struct pgpk_convert_opts opts = { .select = NULL, .now = 0 };
	struct pgpk_policy policy;
	struct pgpk_sandbox sb;
	struct pgpk_request req = { .want = PGPK_WANT_KEY };
	size_t len, answer_len = 0, i, blob_len = 0;
	struct pgpk_broker broker = {
		.policy = &policy,
		.ops = &pgpk_bench_ops,
		.ops_ctx = &answer_len,
		.child = pgpk_child_convert,
	};
	struct pgpk_bench_stats plain, sandboxed, full;
	uint64_t *t_plain, *t_sb, *t_full;
	struct pgpk_broker_result res;
	struct pgpk_error err;
	char msg[256];
	uint8_t *data, *blob;

	if (!runs)
		runs = PGPK_BENCH_DEFAULT_RUNS;
	data = pgpk_bench_read(path, &len);
	t_plain = calloc(runs, sizeof(*t_plain));
	t_sb = calloc(runs, sizeof(*t_sb));
	t_full = calloc(runs, sizeof(*t_full));
	opts.now = (int64_t)time(NULL);
	pgpk_policy_default(&policy);
	if (pgpk_sandbox_prepare(&sb, NULL, msg, sizeof(msg))) {
		fprintf(stderr, "sandbox: %s\n", msg);
		return 1;
	}
	for (i = 0; i < runs; i++) {
		uint64_t t0 = pgpk_bench_now_ns();

		if (pgpk_convert(data, len, PGPK_WANT_KEY, &opts, &blob,
				 &blob_len, &err)) {
			fprintf(stderr, "pgpk_convert: %s\n", err.msg);
			return 1;
		}
		t_plain[i] = pgpk_bench_now_ns() - t0;
		free(blob);

		broker.sandbox = &sb;
		t0 = pgpk_bench_now_ns();
		if (pgpk_broker_run(&broker, &req, data, len, &res)) {
			fprintf(stderr, "broker: %s\n", res.reason);
			return 1;
		}
		t_sb[i] = pgpk_bench_now_ns() - t0;

		broker.sandbox = NULL; /* prepare inside, as an upcall */
		t0 = pgpk_bench_now_ns();
		if (pgpk_broker_run(&broker, &req, data, len, &res)) {
			fprintf(stderr, "broker: %s\n", res.reason);
			return 1;
		}
		t_full[i] = pgpk_bench_now_ns() - t0;
	}
	plain = pgpk_bench_stats(t_plain, runs);
	sandboxed = pgpk_bench_stats(t_sb, runs);
	full = pgpk_bench_stats(t_full, runs);
	printf("key: %s, %zu octets -> canonical %zu octets (%s)\n", path, len,
	       answer_len, res.reason);
	printf("runs: %zu; microseconds: median (min..max)\n", runs);
	printf("in-process pgpk_convert   %9.1f (%.1f..%.1f)\n", plain.median,
	       plain.min, plain.max);
	printf("sandboxed upcall          %9.1f (%.1f..%.1f)  x%.2f\n",
	       sandboxed.median, sandboxed.min, sandboxed.max,
	       sandboxed.median / plain.median);
	printf("sandboxed + prepare       %9.1f (%.1f..%.1f)  x%.2f\n",
	       full.median, full.min, full.max, full.median / plain.median);
	pgpk_sandbox_release(&sb);
	free(t_plain);
	free(t_sb);
	free(t_full);
	free(data);
	return 0;
}
