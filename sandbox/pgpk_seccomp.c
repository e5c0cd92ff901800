// SPDX-License-Identifier: GPL-2.0
/*
 * The parser child's seccomp allowlist: one syscall per line, with the
 * argument rule that narrows it and the reason it is needed.  Anything not
 * listed kills the whole process (SCMP_ACT_KILL_PROCESS); so does any
 * syscall made through another ABI (i386, x32).
 *
 * Deliberately absent: open/openat (no files), socket/connect (no network),
 * execve (no programs), fork/clone (no processes), ptrace, kill, keyctl,
 * add_key/request_key (no keyrings), and rt_sigaction/rt_sigreturn (the
 * child installs no signal handler).  OpenSSL is warmed up before the
 * filter (pgpk_preload.c).  What the child really calls, path by path,
 * and why each line below is here: sandbox/README.md (the audit of
 * security issue 9, measured by tests/host/sandbox-syscalls.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <seccomp.h>

#include "sandbox/pgpk_sandbox.h"

#define PGPK_RULE(call, rule, words, why)                        \
	{                                                        \
		.name = #call, .nr = SYS_##call, .args = (rule), \
		.constraint = (words), .reason = (why)           \
	}

static const struct pgpk_seccomp_rule pgpk_allowlist[] = {
	PGPK_RULE(read, PGPK_ARG0_IN_FD, "fd == 0 (input pipe)",
		  "the OpenPGP bytes arrive on the input pipe"),
	PGPK_RULE(write, PGPK_ARG0_OUT_FD, "fd == 1 (output pipe)",
		  "the answer leaves on the output pipe"),
	PGPK_RULE(brk, PGPK_ARGS_ANY, "", "glibc malloc grows the main heap"),
	PGPK_RULE(mmap, PGPK_ARG2_NO_EXEC, "prot without PROT_EXEC",
		  "glibc malloc: large blocks (there is no fd to map)"),
	PGPK_RULE(mprotect, PGPK_ARG2_NO_EXEC, "prot without PROT_EXEC",
		  "glibc malloc commits arena pages"),
	PGPK_RULE(munmap, PGPK_ARGS_ANY, "", "free() returns large blocks"),
	PGPK_RULE(mremap, PGPK_ARGS_ANY, "",
		  "realloc() of large blocks (keeps their protection)"),
	PGPK_RULE(madvise, PGPK_ARGS_ANY, "",
		  "free() trims arenas with MADV_DONTNEED"),
	PGPK_RULE(futex, PGPK_ARGS_ANY, "",
		  "libcrypto's locks when contended (private memory only)"),
	PGPK_RULE(getpid, PGPK_ARGS_ANY, "",
		  "OpenSSL's DRBG checks for fork() on every use"),
	PGPK_RULE(getrandom, PGPK_ARG2_ZERO, "flags == 0",
		  "OpenSSL reseeds its DRBG in the child (EC blinding)"),
	PGPK_RULE(clock_gettime, PGPK_ARGS_ANY, "",
		  "vDSO fallback when the clocksource has none (VMs)"),
	PGPK_RULE(exit_group, PGPK_ARGS_ANY, "", "the child ends"),
	PGPK_RULE(exit, PGPK_ARGS_ANY, "", "the child's only thread ends"),
};

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define PGPK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PGPK_SANITIZED 1
#endif
#endif

#ifdef PGPK_SANITIZED
/*
 * Sanitizer builds only (bazel --config=asan): what the ASan/UBSan runtime
 * does on its own in every process.  Not in the reviewed allowlist, never
 * in a release build.
 */
static const struct pgpk_seccomp_rule pgpk_sanitizer_extras[] = {
	PGPK_RULE(sigaltstack, PGPK_ARGS_ANY, "",
		  "ASan queries the signal stack around syscalls and at exit"),
};
#endif

const struct pgpk_seccomp_rule *pgpk_seccomp_rules(size_t *count)
{
	*count = sizeof(pgpk_allowlist) / sizeof(pgpk_allowlist[0]);
	return pgpk_allowlist;
}

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

void *pgpk_seccomp_build(char *msg, size_t msg_len)
{
	scmp_filter_ctx ctx;
	size_t i;
	int ret;

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
	for (i = 0; i < sizeof(pgpk_allowlist) / sizeof(pgpk_allowlist[0]);
	     i++) {
		ret = pgpk_seccomp_add(ctx, &pgpk_allowlist[i]);
		if (ret < 0) {
			snprintf(msg, msg_len, "seccomp rule for %s: %s",
				 pgpk_allowlist[i].name, strerror(-ret));
			goto error_release;
		}
	}
#ifdef PGPK_SANITIZED
	for (i = 0; i < sizeof(pgpk_sanitizer_extras) /
				sizeof(pgpk_sanitizer_extras[0]);
	     i++) {
		ret = pgpk_seccomp_add(ctx, &pgpk_sanitizer_extras[i]);
		if (ret < 0) {
			snprintf(msg, msg_len, "seccomp rule for %s: %s",
				 pgpk_sanitizer_extras[i].name, strerror(-ret));
			goto error_release;
		}
	}
#endif
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

int pgpk_seccomp_bpf(struct sock_filter **prog, unsigned short *len, char *msg,
		     size_t msg_len)
{
	/* A filter has at most BPF_MAXINSNS instructions: a pipe holds it. */
	struct sock_filter *buf = NULL;
	void *filter;
	int p[2], ret = -ENOMEM;
	ssize_t n;

	*prog = NULL;
	*len = 0;
	filter = pgpk_seccomp_build(msg, msg_len);
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

void pgpk_sandbox_print_policy(FILE *out)
{
	size_t i;

	fprintf(out,
		"# pgpk-helper parser sandbox: seccomp allowlist\n"
		"# default action: kill process (also for other ABIs)\n"
		"# %-13s %-24s %s\n",
		"syscall", "arguments", "reason");
	for (i = 0; i < sizeof(pgpk_allowlist) / sizeof(pgpk_allowlist[0]);
	     i++) {
		const struct pgpk_seccomp_rule *r = &pgpk_allowlist[i];

		fprintf(out, "%-15s %-24s %s\n", r->name,
			r->constraint[0] ? r->constraint : "any", r->reason);
	}
}
