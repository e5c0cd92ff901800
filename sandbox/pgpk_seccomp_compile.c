// SPDX-License-Identifier: GPL-2.0
/*
 * The allowlist (pgpk_seccomp.c) compiled to BPF by libseccomp.  Only the
 * build (seccomp_gen.c, which writes the program every process loads)
 * and the tests that compare with it link this: no pgpk program does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <seccomp.h>

#include "sandbox/pgpk_seccomp_compile.h"

static int pgpk_seccomp_add(scmp_filter_ctx ctx,
			    const struct pgpk_seccomp_rule *rule)
{
	switch (rule->args) {
	case PGPK_ARGS_ANY:
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, rule->nr, 0);
	case PGPK_ARG0_IN_FD:
		return seccomp_rule_add(
			ctx, SCMP_ACT_ALLOW, rule->nr, 1,
			SCMP_A0(SCMP_CMP_EQ, PGPK_SANDBOX_IN_FD));
	case PGPK_ARG0_OUT_FD:
		return seccomp_rule_add(
			ctx, SCMP_ACT_ALLOW, rule->nr, 1,
			SCMP_A0(SCMP_CMP_EQ, PGPK_SANDBOX_OUT_FD));
	case PGPK_ARG2_ZERO:
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, rule->nr, 1,
					SCMP_A2(SCMP_CMP_EQ, 0));
	case PGPK_ARG2_NO_EXEC:
		return seccomp_rule_add(
			ctx, SCMP_ACT_ALLOW, rule->nr, 1,
			SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	}
	return -EINVAL;
}

void *pgpk_seccomp_build(bool sanitizer_extras, char *msg, size_t msg_len)
{
	const struct pgpk_seccomp_rule *rules, *extras;
	size_t nrules, nextras, i;
	scmp_filter_ctx ctx;
	int ret;

	rules = pgpk_seccomp_rules(&nrules);
	extras = pgpk_seccomp_sanitizer_rules(&nextras);
	ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (!ctx) {
		snprintf(msg, msg_len, "seccomp_init failed");
		return NULL;
	}
	/* A syscall through a foreign ABI is as forbidden as any other. */
	ret = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			       SCMP_ACT_KILL_PROCESS);
	if (ret < 0) {
		snprintf(msg, msg_len, "seccomp bad-arch action: %s",
			 strerror(-ret));
		goto error_release;
	}
	for (i = 0; i < nrules; i++) {
		ret = pgpk_seccomp_add(ctx, &rules[i]);
		if (ret < 0) {
			snprintf(msg, msg_len, "seccomp rule for %s: %s",
				 rules[i].name, strerror(-ret));
			goto error_release;
		}
	}
	for (i = 0; sanitizer_extras && i < nextras; i++) {
		ret = pgpk_seccomp_add(ctx, &extras[i]);
		if (ret < 0) {
			snprintf(msg, msg_len, "seccomp rule for %s: %s",
				 extras[i].name, strerror(-ret));
			goto error_release;
		}
	}
	return ctx;

error_release:
	seccomp_release(ctx);
	return NULL;
}

void pgpk_seccomp_free(void *filter)
{
	if (filter)
		seccomp_release(filter);
}

int pgpk_seccomp_bpf(bool sanitizer_extras, struct sock_filter **prog,
		     unsigned short *len, char *msg, size_t msg_len)
{
	/* A filter has at most BPF_MAXINSNS instructions: a pipe holds it. */
	struct sock_filter *buf = NULL;
	void *filter;
	int p[2], ret = -ENOMEM;
	ssize_t n;

	*prog = NULL;
	*len = 0;
	filter = pgpk_seccomp_build(sanitizer_extras, msg, msg_len);
	if (!filter)
		return -ENOMEM;
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(msg, msg_len, "pipe: %s", strerror(errno));
		goto error_free_filter;
	}
	buf = malloc(BPF_MAXINSNS * sizeof(*buf));
	if (!buf || seccomp_export_bpf(filter, p[1])) {
		snprintf(msg, msg_len, "seccomp_export_bpf failed");
		goto error_close;
	}
	close(p[1]);
	p[1] = -1;
	n = read(p[0], buf, BPF_MAXINSNS * sizeof(*buf));
	if (n <= 0 || n % (ssize_t)sizeof(*buf)) {
		snprintf(msg, msg_len, "seccomp filter export: %zd octets", n);
		goto error_close;
	}
	*prog = buf;
	*len = (unsigned short)(n / (ssize_t)sizeof(*buf));
	buf = NULL;
	ret = 0;
error_close:
	close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	free(buf);
error_free_filter:
	pgpk_seccomp_free(filter);
	return ret;
}
