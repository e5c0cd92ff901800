// SPDX-License-Identifier: GPL-2.0
/*
 * The inputs the broker takes from outside the sandbox: the request
 * description the kernel sends, the policy options of the request-key.conf
 * line, and the trust anchors' directory.  Tables of good and bad
 * spellings.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "helper/pgpk_anchors.h"
#include "helper/pgpk_broker.h"

/* kernel/pgpk_key.c: "key:%*phN" of 16 random octets */
#define NONCE "0123456789abcdef0123456789abcdef"
#define SHA NONCE NONCE
#define FPR4 "063BD85E0ABA47D00CEE092C7DF4F6CEDFE00F04"

static int pgpk_failures;

static const struct {
	const char *desc;
	int ret;
} pgpk_desc_cases[] = {
	{ "key:" NONCE, 0 },
	{ "key:00000000000000000000000000000000", 0 },
	{ "key:ffffffffffffffffffffffffffffffff", 0 },
	/* what the kernel no longer sends */
	{ "key:" SHA, -EBADMSG }, /* the SHA-256 of the callout */
	{ "sig:" NONCE, -EBADMSG },
	{ "sig:" SHA, -EBADMSG },
	{ "key:" NONCE ":7DF4F6CEDFE00F04", -EBADMSG }, /* a selection */
	{ "key:" NONCE ":" FPR4, -EBADMSG },
	{ "key:" NONCE ":", -EBADMSG },
	/* not 32 lowercase hex digits */
	{ "key:0123456789ABCDEF0123456789abcdef", -EBADMSG },
	{ "key:0123456789abcdef0123456789abcde", -EBADMSG },
	{ "key:0123456789abcdef0123456789abcdef0", -EBADMSG },
	{ "key:0123456789abcdef0123456789abcdeg", -EBADMSG },
	{ "key: 123456789abcdef0123456789abcdef", -EBADMSG },
	{ "key:0x23456789abcdef0123456789abcdef", -EBADMSG },
	{ "key:" NONCE " ", -EBADMSG },
	{ "key:" NONCE "\n", -EBADMSG },
	{ "key:", -EBADMSG },
	{ "msg:" NONCE, -EBADMSG },
	{ "KEY:" NONCE, -EBADMSG },
	{ " key:" NONCE, -EBADMSG },
	{ "", -EBADMSG },
};

static void pgpk_test_descriptions(void)
{
	size_t i;

	for (i = 0; i < sizeof(pgpk_desc_cases) / sizeof(pgpk_desc_cases[0]);
	     i++) {
		struct pgpk_request req;
		char why[256] = "";
		int ret;
		int ok;

		memset(&req, 0xa5, sizeof(req));
		ret = pgpk_request_parse(pgpk_desc_cases[i].desc, &req, why,
					 sizeof(why));
		ok = ret == pgpk_desc_cases[i].ret;
		/* a key request is for the primary key: nothing selected */
		if (ok && !ret)
			ok = req.want == PGPK_WANT_KEY && !req.select[0];
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
	{ { "--timeout-ms=600001" }, -1 },
	/* obsolete, accepted and ignored (an edited pgpk.conf still works) */
	{ { "--negative-timeout=0" }, 1 },
	{ { "--negative-timeout", "60" }, 1 },
	{ { "--negative-timeout=86400" }, 1 },
	{ { "--negative-timeout=99999999" }, -1 },
	{ { "--negative-timeout=x" }, -1 },
	{ { "--sandbox-user=65534" }, 1 },
	{ { "--max-per-uid=1" }, 1 },
	{ { "--max-per-uid", "64" }, 1 },
	{ { "--max-per-uid=0" }, 1 }, /* no bound */
	{ { "--max-per-uid=65" }, -1 },
	{ { "--max-per-uid=-1" }, -1 },
	{ { "--max-per-uid=" }, -1 },
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
		    a6[] = "--max-input=4096", a7[] = "--max-per-uid=2";
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7 };
	struct pgpk_policy p, q;
	int i = 0, n = sizeof(argv) / sizeof(argv[0]);

	pgpk_policy_default(&p);
	if (p.min_rsa_bits != 2048 || p.timeout_ms != 2000 || p.allow_expired ||
	    p.max_answer != 32767 || p.max_per_uid != 4 ||
	    p.hash_mask != (1U << 8 | 1U << 9 | 1U << 10)) {
		pgpk_failures++;
		printf("FAIL defaults\n");
	}
	while (i < n)
		if (pgpk_policy_option(&p, n, argv, &i, stderr) != 1)
			break;
	if (i != n || p.hash_mask != 1U << 9 || p.min_rsa_bits != 3072 ||
	    !p.allow_expired || p.timeout_ms != 750 || p.max_input != 4096 ||
	    p.max_per_uid != 2) {
		pgpk_failures++;
		printf("FAIL values\n");
	} else {
		printf("ok   values\n");
	}
	/* --negative-timeout changes nothing */
	pgpk_policy_default(&p);
	pgpk_policy_default(&q);
	i = 5;
	if (pgpk_policy_option(&p, n, argv, &i, stderr) != 1 || i != 6 ||
	    memcmp(&p, &q, sizeof(p))) {
		pgpk_failures++;
		printf("FAIL --negative-timeout changed the policy\n");
	} else {
		printf("ok   --negative-timeout ignored\n");
	}
}

static const struct {
	const char *args[3];
	int ret; /* of pgpk_anchors_option() on args[0] */
	const char *dir;
} pgpk_anchors_cases[] = {
	{ { "--anchors", "/etc/x" }, 1, "/etc/x" },
	{ { "--anchors=/etc/y" }, 1, "/etc/y" },
	{ { "--anchors=" }, -1, NULL },
	{ { "--anchors" }, -1, NULL },
	{ { "--anchors", "" }, -1, NULL },
	{ { "--anchorsx=/etc/y" }, 0, NULL },
	{ { "--min-rsa-bits=3072" }, 0, NULL },
};

static void pgpk_test_anchors_option(void)
{
	size_t i;

	for (i = 0;
	     i < sizeof(pgpk_anchors_cases) / sizeof(pgpk_anchors_cases[0]);
	     i++) {
		const char *dir = NULL;
		char *argv[3];
		int argc = 0, k = 0, ret, ok;

		while (argc < 3 && pgpk_anchors_cases[i].args[argc]) {
			argv[argc] = (char *)(uintptr_t)pgpk_anchors_cases[i]
					     .args[argc];
			argc++;
		}
		ret = pgpk_anchors_option(argc, argv, &k, &dir);
		ok = ret == pgpk_anchors_cases[i].ret &&
		     (ret != 1 || (k == argc && dir &&
				   !strcmp(dir, pgpk_anchors_cases[i].dir)));
		pgpk_failures += !ok;
		printf("%s anchors %-22s -> %d (consumed %d)\n",
		       ok ? "ok  " : "FAIL", pgpk_anchors_cases[i].args[0], ret,
		       k);
	}
}

static void pgpk_write(const char *dir, const char *name, const char *data,
		       size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		printf("FAIL cannot write %s\n", path);
		exit(1);
	}
}

/* Which files of a directory are anchors, in which order, how bounded. */
static void pgpk_test_anchors_read(void)
{
	const char *tmp = getenv("TEST_TMPDIR");
	char dir[256], path[512], why[320];
	struct pgpk_anchor_set set;
	char *big;
	int ret, ok;

	snprintf(dir, sizeof(dir), "%s/pgpk-anchors-XXXXXX",
		 tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		printf("FAIL mkdtemp\n");
		pgpk_failures++;
		return;
	}
	pgpk_write(dir, "b.pgp",
		   "\x99"
		   "bbb",
		   4);
	pgpk_write(dir, "a.asc", "-----BEGIN PGP", 14);
	pgpk_write(dir, "c.gpg", "", 0);
	pgpk_write(dir, "d.txt", "not an anchor", 13);
	pgpk_write(dir, ".e.pgp", "hidden", 6);
	pgpk_write(dir, "f.pgp~", "backup", 6);
	snprintf(path, sizeof(path), "%s/g.pgp", dir);
	mkdir(path, 0700); /* not a regular file: skipped */
	big = calloc(1, PGPK_ANCHORS_MAX_FILE + 1);
	if (!big)
		abort();
	pgpk_write(dir, "h.gpg", big, PGPK_ANCHORS_MAX_FILE + 1);
	free(big);
	ret = pgpk_anchors_read(dir, &set, why, sizeof(why));
	ok = !ret && set.n == 3 && set.skipped == 2 && set.files[0].len == 14 &&
	     !memcmp(set.files[0].data, "-----", 5) && set.files[1].len == 4 &&
	     set.files[1].data[0] == 0x99 && set.files[2].len == 0 &&
	     strstr(why, "g.pgp");
	pgpk_failures += !ok;
	printf("%s anchors read: %d, %zu files, %zu skipped: %s\n",
	       ok ? "ok  " : "FAIL", ret, set.n, set.skipped, why);
	pgpk_anchors_release(&set);

	snprintf(path, sizeof(path), "%s/none", dir);
	ret = pgpk_anchors_read(path, &set, why, sizeof(why));
	ok = !ret && !set.n && !set.skipped;
	pgpk_failures += !ok;
	printf("%s anchors of a missing directory: %d, %zu files\n",
	       ok ? "ok  " : "FAIL", ret, set.n);
	pgpk_anchors_release(&set);
	snprintf(path, sizeof(path), "%s/b.pgp", dir);
	ret = pgpk_anchors_read(path, &set, why, sizeof(why));
	ok = ret == -ENOTDIR && !set.n && why[0];
	pgpk_failures += !ok;
	printf("%s anchors of a file: %d: %s\n", ok ? "ok  " : "FAIL", ret,
	       why);
	pgpk_anchors_release(&set);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		printf("note: temporary directory %s left\n", dir);
}

int main(void)
{
	pgpk_test_descriptions();
	pgpk_test_options();
	pgpk_test_values();
	pgpk_test_anchors_option();
	pgpk_test_anchors_read();
	printf("%s: %d failure(s)\n", pgpk_failures ? "FAIL" : "PASS",
	       pgpk_failures);
	return pgpk_failures ? 1 : 0;
}
