/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The allowlist compiled by libseccomp (pgpk_seccomp_compile.c): for the
 * build, which writes the program every child loads
 * (pgpk_seccomp_prebuilt()), and for the tests that compare with it.
 */
#ifndef PGPK_SECCOMP_COMPILE_H
#define PGPK_SECCOMP_COMPILE_H

#include <stdbool.h>

#include "sandbox/pgpk_sandbox.h"

/* Compile the allowlist (and the sanitizer rules if asked); returns a
 * scmp_filter_ctx or NULL with msg set. */
void *pgpk_seccomp_build(bool sanitizer_extras, char *msg, size_t msg_len);
void pgpk_seccomp_free(void *filter);
/*
 * Compile it to a BPF program (malloc()ed, *len instructions).  Returns 0
 * or a negative errno with msg set.
 */
int pgpk_seccomp_bpf(bool sanitizer_extras, struct sock_filter **prog,
		     unsigned short *len, char *msg, size_t msg_len);

#endif /* PGPK_SECCOMP_COMPILE_H */
