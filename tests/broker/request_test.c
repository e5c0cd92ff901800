// SPDX-License-Identifier: GPL-2.0
/*
 * The two inputs the broker takes from outside the sandbox: the request
 * description the kernel sends, and the policy options of the
 * request-key.conf line.  Tables of good and bad spellings.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helper/pgpk_broker.h"

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define FPR4 "063BD85E0ABA47D00CEE092C7DF4F6CEDFE00F04"

static int pgpk_failures;

static const struct {
	const char *desc;
	int ret;
	enum pgpk_want want;
	const char *select;
} pgpk_desc_cases[] = {
	{ "key:" SHA, 0, PGPK_WANT_KEY, "" },
	{ "sig:" SHA, 0, PGPK_WANT_SIG, "" },
	{ "key:" SHA ":7DF4F6CEDFE00F04", 0, PGPK_WANT_KEY,
	  "7DF4F6CEDFE00F04" },
	{ "key:" SHA ":" FPR4, 0, PGPK_WANT_KEY, FPR4 },
	{ "key:" SHA ":" SHA, -EBADMSG, 0, "" }, /* lowercase select */
	{ "key:" SHA ":7df4f6cedfe00f04", -EBADMSG, 0, "" },
	{ "key:" SHA ":7DF4F6CEDFE00F0", -EBADMSG, 0, "" },
	{ "key:" SHA ":7DF4F6CEDFE00F04X", -EBADMSG, 0, "" },
	{ "key:" SHA ":", -EBADMSG, 0, "" },
	{ "sig:" SHA ":7DF4F6CEDFE00F04", -EBADMSG, 0, "" },
	{ "key:" SHA "0", -EBADMSG, 0, "" },
	{ "key:0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
	  -EBADMSG, 0, "" },
	{ "key:0123456789abcdef", -EBADMSG, 0, "" },
	{ "key:", -EBADMSG, 0, "" },
	{ "msg:" SHA, -EBADMSG, 0, "" },
	{ "KEY:" SHA, -EBADMSG, 0, "" },
	{ "", -EBADMSG, 0, "" },
};

static void pgpk_test_descriptions(void)
{
	size_t i;

	for (i = 0; i < sizeof(pgpk_desc_cases) / sizeof(pgpk_desc_cases[0]);
	     i++) {
		struct pgpk_request req;
		char why[256] = "";
		int ret = pgpk_request_parse(pgpk_desc_cases[i].desc, &req, why,
					     sizeof(why));
		int ok = ret == pgpk_desc_cases[i].ret;

		if (ok && !ret)
			ok = req.want == pgpk_desc_cases[i].want &&
			     !strcmp(req.select, pgpk_desc_cases[i].select) &&
			     req.sha256[0] == 0x01 && req.sha256[31] == 0xef;
		if (ok && ret)
			ok = why[0] != '\0'; /* a refusal says why */
		pgpk_failures += !ok;
		printf("%s desc %.90s -> %d %s\n", ok ? "ok  " : "FAIL",
		       pgpk_desc_cases[i].desc, ret, why);
	}
}

static const struct {
	const char *args[3];
	int ret; /* of pgpk_policy_option() on args[0] */
} pgpk_opt_cases[] = {
	{ { "--min-rsa-bits=3072" }, 1 },
	{ { "--min-rsa-bits", "4096" }, 1 },
	{ { "--min-rsa-bits=1000" }, -1 },
	{ { "--min-rsa-bits=2048x" }, -1 },
	{ { "--min-rsa-bits=-2048" }, -1 },
	{ { "--min-rsa-bits" }, -1 },
	{ { "--hashes=sha256,SHA512" }, 1 },
	{ { "--hashes=sha224" }, 1 },
	{ { "--hashes=sha256,sha1" }, -1 },
	{ { "--hashes=md5" }, -1 },
	{ { "--hashes=ripemd160" }, -1 },
	{ { "--hashes=sha256,sha3-256" }, -1 },
	{ { "--min-rsa-bits=1024" }, -1 },
	{ { "--min-rsa-bits=2047" }, -1 },
	{ { "--hashes=whirlpool" }, -1 },
	{ { "--hashes=" }, -1 },
	{ { "--allow-expired" }, 1 },
	{ { "--allow-expired=yes" }, -1 },
	{ { "--allow-revoked" }, 1 },
	{ { "--allow-revoked=1" }, -1 },
	{ { "--max-input=65536" }, 1 },
	{ { "--max-input=0" }, -1 },
	{ { "--timeout-ms=500" }, 1 },
	{ { "--timeout-ms=5" }, -1 },
	{ { "--negative-timeout=0" }, 1 },
	{ { "--negative-timeout=99999999" }, -1 },
	{ { "--sandbox-user=65534" }, 1 },
	{ { "--sandbox-user=" }, -1 },
	{ { "--min-rsa-bitsx=1" }, 0 },
	{ { "--stderr" }, 0 },
	{ { "12345" }, 0 },
};

static void pgpk_test_options(void)
{
	FILE *devnull = fopen("/dev/null", "w");
	size_t i;

	for (i = 0; i < sizeof(pgpk_opt_cases) / sizeof(pgpk_opt_cases[0]);
	     i++) {
		char *argv[3];
		struct pgpk_policy p;
		int argc = 0, k = 0, ret;

		while (argc < 3 && pgpk_opt_cases[i].args[argc]) {
			argv[argc] =
				(char *)(uintptr_t)pgpk_opt_cases[i].args[argc];
			argc++;
		}
		pgpk_policy_default(&p);
		ret = pgpk_policy_option(&p, argc, argv, &k, devnull);
		pgpk_failures +=
			ret != pgpk_opt_cases[i].ret || (ret == 1 && k != argc);
		printf("%s option %-28s -> %d (consumed %d)\n",
		       ret == pgpk_opt_cases[i].ret ? "ok  " : "FAIL",
		       pgpk_opt_cases[i].args[0], ret, k);
	}
	fclose(devnull);
}

/* Values land where they should. */
static void pgpk_test_values(void)
{
	static char a0[] = "--hashes=sha384", a1[] = "--min-rsa-bits=3072",
		    a2[] = "--allow-expired", a3[] = "--timeout-ms",
		    a4[] = "750", a5[] = "--negative-timeout=5",
		    a6[] = "--max-input=4096";
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6 };
	struct pgpk_policy p;
	int i = 0, n = sizeof(argv) / sizeof(argv[0]);

	pgpk_policy_default(&p);
	if (p.min_rsa_bits != 2048 || p.timeout_ms != 2000 ||
	    p.negative_timeout != 60 || p.allow_expired ||
	    p.hash_mask != (1U << 8 | 1U << 9 | 1U << 10)) {
		pgpk_failures++;
		printf("FAIL defaults\n");
	}
	while (i < n)
		if (pgpk_policy_option(&p, n, argv, &i, stderr) != 1)
			break;
	if (i != n || p.hash_mask != 1U << 9 || p.min_rsa_bits != 3072 ||
	    !p.allow_expired || p.timeout_ms != 750 ||
	    p.negative_timeout != 5 || p.max_input != 4096) {
		pgpk_failures++;
		printf("FAIL values\n");
	} else {
		printf("ok   values\n");
	}
}

int main(void)
{
	pgpk_test_descriptions();
	pgpk_test_options();
	pgpk_test_values();
	printf("%s: %d failure(s)\n", pgpk_failures ? "FAIL" : "PASS",
	       pgpk_failures);
	return pgpk_failures ? 1 : 0;
}
