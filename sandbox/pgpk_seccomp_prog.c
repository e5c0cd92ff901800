// SPDX-License-Identifier: GPL-2.0
/*
 * The program the children load: the allowlist (pgpk_seccomp.c) compiled
 * by libseccomp when pgpk was built (//sandbox:seccomp_prebuilt runs
 * seccomp-gen), so that no process compiles it again (0.17 M
 * instructions per sandboxed child) and no pgpk program links libseccomp.
 * //tests/sandbox:filter_sim_test compiles it again and compares.
 */
#include "sandbox/pgpk_sandbox.h"
#include "sandbox/pgpk_seccomp_prebuilt.h"

/* A sanitizer build (ASan or UBSan) loads the program with
 * pgpk_seccomp_sanitizer_rules() too. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define PGPK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PGPK_SANITIZED 1
#endif
#endif

void pgpk_seccomp_prebuilt(const struct sock_filter **prog, unsigned short *len)
{
#ifdef PGPK_SANITIZED
	*prog = pgpk_seccomp_prog_sanitized;
	*len = sizeof(pgpk_seccomp_prog_sanitized) /
	       sizeof(pgpk_seccomp_prog_sanitized[0]);
#else
	*prog = pgpk_seccomp_prog;
	*len = sizeof(pgpk_seccomp_prog) / sizeof(pgpk_seccomp_prog[0]);
#endif
}
