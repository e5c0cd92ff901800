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

/*
 * Sanitizer builds only (bazel --config=asan; pgpk_seccomp_prog.c loads
 * the program compiled with these in such a build): what the ASan/UBSan runtime
 * does on its own in every process.  Not in the reviewed allowlist, never
 * in a release build's program.
 */
static const struct pgpk_seccomp_rule pgpk_sanitizer_extras[] = {
	PGPK_RULE(sigaltstack, PGPK_ARGS_ANY, "",
		  "ASan queries the signal stack around syscalls and at exit"),
};

const struct pgpk_seccomp_rule *pgpk_seccomp_rules(size_t *count)
{
	*count = sizeof(pgpk_allowlist) / sizeof(pgpk_allowlist[0]);
	return pgpk_allowlist;
}

const struct pgpk_seccomp_rule *pgpk_seccomp_sanitizer_rules(size_t *count)
{
	*count = sizeof(pgpk_sanitizer_extras) /
		 sizeof(pgpk_sanitizer_extras[0]);
	return pgpk_sanitizer_extras;
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
