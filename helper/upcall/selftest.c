// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk-helper --selftest: one line per check, PASS/FAIL/SKIP name: detail,
 * exit status 1 if anything failed.
 *
 *   known answers  the whole upcall pipeline (fork, sandbox, convert,
 *                  re-validate, policy) on an embedded key and signature
 *                  must produce canonical blobs equal, octet for octet, to
 *                  those computed independently by
 *                  tests/broker/gen_selftest_vectors.py; the signature
 *                  must verify against the key over the embedded message
 *                  (digest and RSA recomputed here from canonical fields),
 *                  and must not verify over a changed message; a SHA-1
 *                  signature and a truncated key must be refused.
 *   sandbox        a parser that makes a forbidden syscall dies of SIGSYS;
 *                  one that spins is killed by the watchdog.
 *   environment    module loaded, request-key configuration installed,
 *                  /sbin/request-key present, keyring syscalls permitted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <keyutils.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "helper/broker/pgpk_broker.h"
#include "helper/parser/pgpk_child.h"
#include "helper/upcall/pgpk_runtime.h"
#include "helper/upcall/selftest_vectors.h"

#define PGPK_ST_WATCHDOG_MS 300

enum pgpk_st_result { PGPK_ST_PASS, PGPK_ST_FAIL, PGPK_ST_SKIP };

struct pgpk_st {
	unsigned int counts[3];
};

static void __attribute__((format(printf, 4, 5)))
pgpk_st_report(struct pgpk_st *st, enum pgpk_st_result r, const char *name,
	       const char *fmt, ...)
{
	static const char *const words[] = { "PASS", "FAIL", "SKIP" };
	va_list ap;

	st->counts[r]++;
	printf("%s %s: ", words[r], name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Run one request through the pipeline; returns the errno, 0 = ok. */
static int pgpk_st_run(const struct pgpk_sandbox *sb,
		       const struct pgpk_policy *policy, pgpk_child_fn child,
		       enum pgpk_want want, const uint8_t *data, size_t len,
		       struct pgpk_broker_capture *cap,
		       struct pgpk_broker_result *res)
{
	struct pgpk_broker broker = {
		.policy = policy,
		.ops = &pgpk_broker_capture_ops,
		.ops_ctx = cap,
		.child = child,
		.sandbox = sb,
	};
	struct pgpk_request req = { .want = want };

	return pgpk_broker_run(&broker, &req, data, len, res);
}

static void pgpk_st_kat(struct pgpk_st *st, const struct pgpk_sandbox *sb,
			const struct pgpk_policy *policy, const char *name,
			enum pgpk_want want, const uint8_t *in, size_t in_len,
			const uint8_t *expect, size_t expect_len,
			struct pgpk_broker_capture *cap)
{
	struct pgpk_broker_result res;
	size_t i;
	int ret;

	ret = pgpk_st_run(sb, policy, pgpk_child_convert, want, in, in_len, cap,
			  &res);
	if (ret) {
		pgpk_st_report(st, PGPK_ST_FAIL, name, "%s: %s",
			       pgpk_errno_name(ret), res.reason);
		return;
	}
	for (i = 0; i < cap->len && i < expect_len; i++)
		if (cap->blob[i] != expect[i])
			break;
	if (cap->len != expect_len || i != expect_len)
		pgpk_st_report(st, PGPK_ST_FAIL, name,
			       "canonical blob of %zu "
			       "octets differs from the expected %zu at octet "
			       "%zu",
			       cap->len, expect_len, i);
	else
		pgpk_st_report(st, PGPK_ST_PASS, name,
			       "%s, exact %zu octets "
			       "(%llu us)",
			       res.reason, expect_len,
			       (unsigned long long)res.elapsed_us);
}

/* RSA PKCS#1 v1.5 verification of a digest; 1 good, 0 bad, <0 error. */
static int pgpk_st_rsa_verify(const struct pgpk_key_material *m,
			      const struct pgpk_bytes *s, const char *md_name,
			      const uint8_t *digest, size_t digest_len)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	BIGNUM *n, *e;
	uint8_t sig[1024];
	EVP_MD *md = NULL;
	int ret = -ENOPKG;

	n = BN_bin2bn(m->rsa_n.data, (int)m->rsa_n.len, NULL);
	e = BN_bin2bn(m->rsa_e.data, (int)m->rsa_e.len, NULL);
	if (!bld || !n || !e || s->len > m->rsa_n.len ||
	    m->rsa_n.len > sizeof(sig) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
		goto error_free_bn;
	params = OSSL_PARAM_BLD_to_param(bld);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto error_free_ctx;
	EVP_PKEY_CTX_free(ctx);
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	md = EVP_MD_fetch(NULL, md_name, NULL);
	if (!ctx || !md || EVP_PKEY_verify_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(ctx, md) <= 0)
		goto error_free_ctx;
	/* RFC 9580 5.2.3.1: s is an MPI; RSA wants it modulus-sized. */
	memset(sig, 0, m->rsa_n.len - s->len);
	memcpy(sig + m->rsa_n.len - s->len, s->data, s->len);
	ret = EVP_PKEY_verify(ctx, sig, m->rsa_n.len, digest, digest_len) == 1;

error_free_ctx:
	EVP_MD_free(md);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	OSSL_PARAM_free(params);
error_free_bn:
	BN_free(n);
	BN_free(e);
	OSSL_PARAM_BLD_free(bld);
	return ret;
}

/*
 * RFC 9580 5.2.4: a v4 signature hashes the data, then the trailer the
 * kernel rebuilds from canonical fields (kernel/pgpk_rebuild.c).  Returns
 * 1 if both the 16-bit quick check and the RSA value match, 0 if not.
 */
static int pgpk_st_verify(const struct pgpk_key_material *key,
			  const struct pgpk_sig *sig, const uint8_t *data,
			  size_t len)
{
	const char *md_name = pgpk_hash_name(sig->hash_algorithm);
	uint8_t digest[EVP_MAX_MD_SIZE], *trailer;
	unsigned int digest_len = 0;
	size_t trailer_len;
	EVP_MD_CTX *ctx;
	EVP_MD *md;
	int ok;

	if (!md_name || sig->version != 4)
		return -ENOPKG;
	trailer_len = pgpk_rebuild_trailer(sig, NULL);
	trailer = malloc(trailer_len);
	md = EVP_MD_fetch(NULL, md_name, NULL);
	ctx = EVP_MD_CTX_new();
	ok = trailer && md && ctx &&
	     pgpk_rebuild_trailer(sig, trailer) == trailer_len &&
	     EVP_DigestInit_ex(ctx, md, NULL) &&
	     EVP_DigestUpdate(ctx, data, len) &&
	     EVP_DigestUpdate(ctx, trailer, trailer_len) &&
	     EVP_DigestFinal_ex(ctx, digest, &digest_len);
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
	free(trailer);
	if (!ok)
		return -ENOPKG;
	if ((digest[0] << 8 | digest[1]) != (int)sig->quick_check)
		return 0;
	return pgpk_st_rsa_verify(key, &sig->rsa_s, md_name, digest,
				  digest_len);
}

static void pgpk_st_signatures(struct pgpk_st *st,
			       const struct pgpk_broker_capture *key_cap,
			       const struct pgpk_broker_capture *sig_cap)
{
	struct pgpk_canon *key = malloc(sizeof(*key));
	struct pgpk_canon *sig = malloc(sizeof(*sig));
	struct pgpk_canon_error err;
	uint8_t msg[sizeof(pgpk_st_msg)];
	int ret;

	if (!key || !sig || !key_cap->blob || !sig_cap->blob ||
	    pgpk_canon_decode(key_cap->blob, key_cap->len, key, &err) ||
	    pgpk_canon_decode(sig_cap->blob, sig_cap->len, sig, &err)) {
		pgpk_st_report(st, PGPK_ST_FAIL, "signature-good",
			       "no canonical key and signature to check");
		pgpk_st_report(st, PGPK_ST_FAIL, "signature-bad",
			       "no canonical key and signature to check");
		goto out_free;
	}
	ret = pgpk_st_verify(&key->key.material, &sig->sigs[0], pgpk_st_msg,
			     sizeof(pgpk_st_msg));
	pgpk_st_report(st, ret == 1 ? PGPK_ST_PASS : PGPK_ST_FAIL,
		       "signature-good", "%s over the %zu-octet message",
		       ret == 1 ? "verifies" : "does NOT verify",
		       sizeof(pgpk_st_msg));
	memcpy(msg, pgpk_st_msg, sizeof(msg));
	msg[0] ^= 0x20;
	ret = pgpk_st_verify(&key->key.material, &sig->sigs[0], msg,
			     sizeof(msg));
	pgpk_st_report(st, ret == 0 ? PGPK_ST_PASS : PGPK_ST_FAIL,
		       "signature-bad", "%s over a changed message",
		       ret == 0 ? "refused" : "NOT refused");
out_free:
	free(key);
	free(sig);
}

static void pgpk_st_expect(struct pgpk_st *st, const struct pgpk_sandbox *sb,
			   const struct pgpk_policy *policy, const char *name,
			   pgpk_child_fn child, enum pgpk_want want,
			   const uint8_t *in, size_t len, int want_error)
{
	struct pgpk_broker_capture cap = { 0 };
	struct pgpk_broker_result res;
	int ret;

	ret = pgpk_st_run(sb, policy, child, want, in, len, &cap, &res);
	pgpk_st_report(st, ret == want_error ? PGPK_ST_PASS : PGPK_ST_FAIL,
		       name, "%s (want %s): %s (%llu us)", pgpk_errno_name(ret),
		       pgpk_errno_name(want_error), res.reason,
		       (unsigned long long)res.elapsed_us);
	free(cap.blob);
}

static int pgpk_st_child_forbidden(const struct pgpk_child_ctx *ctx,
				   const uint8_t *in, size_t len, int out)
{
	syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY);
	return 0;
}

static int pgpk_st_child_spin(const struct pgpk_child_ctx *ctx,
			      const uint8_t *in, size_t len, int out)
{
	volatile unsigned long spin = 0;

	for (;;)
		spin++;
	return 0;
}

static void pgpk_st_sandbox(struct pgpk_st *st, const struct pgpk_sandbox *sb,
			    const struct pgpk_policy *defaults)
{
	struct pgpk_policy policy = *defaults;
	struct pgpk_broker_capture cap = { 0 };
	struct pgpk_broker_result res;
	char want[64];
	int ret;

	ret = pgpk_st_run(sb, &policy, pgpk_st_child_forbidden, PGPK_WANT_KEY,
			  pgpk_st_key, sizeof(pgpk_st_key), &cap, &res);
	snprintf(want, sizeof(want), "signal %d", SIGSYS);
	pgpk_st_report(st,
		       ret == ECHILD && strstr(res.reason, want) ?
			       PGPK_ST_PASS :
			       PGPK_ST_FAIL,
		       "sandbox-syscall", "openat() in the parser: %s: %s",
		       pgpk_errno_name(ret), res.reason);
	policy.timeout_ms = PGPK_ST_WATCHDOG_MS;
	ret = pgpk_st_run(sb, &policy, pgpk_st_child_spin, PGPK_WANT_KEY,
			  pgpk_st_key, sizeof(pgpk_st_key), &cap, &res);
	pgpk_st_report(
		st,
		ret == ETIMEDOUT &&
				strstr(res.reason,
				       "of CPU time (--timeout-ms)") &&
				res.elapsed_us <
					(PGPK_ST_WATCHDOG_MS *
						 PGPK_WATCHDOG_WALL_FACTOR +
					 500) * 1000ULL ?
			PGPK_ST_PASS :
			PGPK_ST_FAIL,
		"sandbox-watchdog",
		"spinning parser: %s after %llu us: %s (watchdog %u ms of CPU time)",
		pgpk_errno_name(ret), (unsigned long long)res.elapsed_us,
		res.reason, PGPK_ST_WATCHDOG_MS);
	free(cap.blob);
}

static void pgpk_st_environment(struct pgpk_st *st)
{
	static const char conf[] = "/etc/request-key.d/pgpk.conf";
	bool modules = access("/proc/modules", F_OK) == 0;
	struct stat sb;
	key_serial_t id;

	if (!modules)
		pgpk_st_report(st, PGPK_ST_SKIP, "module-loaded",
			       "this kernel has no module support (/proc/"
			       "modules absent): not a pgpk system");
	else if (access("/sys/module/pgpk", F_OK) == 0)
		pgpk_st_report(st, PGPK_ST_PASS, "module-loaded",
			       "/sys/module/pgpk");
	else
		pgpk_st_report(st, PGPK_ST_FAIL, "module-loaded",
			       "/sys/module/pgpk absent: modprobe pgpk");
	if (stat(conf, &sb) == 0 && S_ISREG(sb.st_mode))
		pgpk_st_report(st, PGPK_ST_PASS, "request-key-conf", "%s",
			       conf);
	else if (!modules)
		pgpk_st_report(st, PGPK_ST_SKIP, "request-key-conf",
			       "%s absent; no module support here", conf);
	else
		pgpk_st_report(st, PGPK_ST_FAIL, "request-key-conf",
			       "%s: %s (install policy/request-key.d/pgpk."
			       "conf)",
			       conf, strerror(errno));
	if (access("/sbin/request-key", X_OK) == 0)
		pgpk_st_report(st, PGPK_ST_PASS, "request-key-program",
			       "/sbin/request-key");
	else
		pgpk_st_report(st, PGPK_ST_FAIL, "request-key-program",
			       "/sbin/request-key: %s (install keyutils)",
			       strerror(errno));
	id = keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0);
	if (id >= 0)
		pgpk_st_report(st, PGPK_ST_PASS, "keyring-syscalls",
			       "session keyring %d", id);
	else
		pgpk_st_report(st, PGPK_ST_FAIL, "keyring-syscalls",
			       "keyctl(GET_KEYRING_ID): %s", strerror(errno));
}

int pgpk_cmd_selftest(int argc, char **argv)
{
	struct pgpk_broker_capture key_cap = { 0 }, sig_cap = { 0 },
				   cap = { 0 };
	struct pgpk_st st = { { 0 } };
	struct pgpk_policy policy;
	struct pgpk_sandbox sb;
	char msg[256];

	pgpk_policy_default(&policy);
	if (pgpk_sandbox_prepare(&sb, NULL, msg, sizeof(msg))) {
		pgpk_st_report(&st, PGPK_ST_FAIL, "sandbox-prepare", "%s", msg);
		goto environment;
	}
	if (sb.drop_user)
		snprintf(msg, sizeof(msg), "uid %u gid %u",
			 (unsigned int)sb.uid, (unsigned int)sb.gid);
	else
		snprintf(msg, sizeof(msg), "the caller (not root)");
	pgpk_st_report(&st, PGPK_ST_PASS, "sandbox-prepare",
		       "parser runs as "
		       "%s; OpenSSL warmed up; filter built in",
		       msg);
	pgpk_st_kat(&st, &sb, &policy, "kat-key", PGPK_WANT_KEY, pgpk_st_key,
		    sizeof(pgpk_st_key), pgpk_st_key_canon,
		    sizeof(pgpk_st_key_canon), &key_cap);
	pgpk_st_kat(&st, &sb, &policy, "kat-sig", PGPK_WANT_SIG, pgpk_st_sig,
		    sizeof(pgpk_st_sig), pgpk_st_sig_canon,
		    sizeof(pgpk_st_sig_canon), &sig_cap);
	pgpk_st_signatures(&st, &key_cap, &sig_cap);
	pgpk_st_expect(&st, &sb, &policy, "policy-sha1", pgpk_child_convert,
		       PGPK_WANT_SIG, pgpk_st_sig_sha1,
		       sizeof(pgpk_st_sig_sha1), EKEYREJECTED);
	pgpk_st_expect(&st, &sb, &policy, "malformed", pgpk_child_convert,
		       PGPK_WANT_KEY, pgpk_st_key, 100, EBADMSG);
	pgpk_st_sandbox(&st, &sb, &policy);
	pgpk_sandbox_release(&sb);
environment:
	pgpk_st_environment(&st);
	free(key_cap.blob);
	free(sig_cap.blob);
	free(cap.blob);
	printf("selftest: %u passed, %u failed, %u skipped\n",
	       st.counts[PGPK_ST_PASS], st.counts[PGPK_ST_FAIL],
	       st.counts[PGPK_ST_SKIP]);
	return st.counts[PGPK_ST_FAIL] ? 1 : 0;
}
