/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgpk sandbox: turn a freshly forked child into a process with nothing to
 * lose before it reads a single hostile byte.
 *
 * Two halves, so that nothing that needs files, names or randomness runs in
 * the child:
 *
 *   parent, before fork():  pgpk_sandbox_prepare()
 *       picks the unprivileged uid/gid: by default one no other process
 *       has, PGPK_SANDBOX_ID_BASE + the preparing process's pid (see
 *       below), or the user named by --sandbox-user ("nobody" is 65534
 *       if the name is unknown, as in an initramfs without /etc/passwd),
 *       initialises OpenSSL and fills its method store with what the
 *       parser can use (pgpk_preload.c; not with conf->lazy_crypto), and
 *       takes the seccomp filter as libseccomp compiled it when pgpk was
 *       built (pgpk_seccomp_prebuilt(): the child only hands the program
 *       to the kernel).
 *
 *   child, after fork():    pgpk_sandbox_enter()
 *       in this fixed order, failing closed at the first error:
 *        1. keep only the input pipe (as fd 0) and the output pipe (fd 1);
 *        2. rlimits: address space, CPU seconds, no new fds, no file
 *           writes, no core dumps;
 *        3. drop to the unprivileged uid/gid when running as root
 *           (supplementary groups cleared, bounding and ambient
 *           capability sets emptied first, while we may);
 *        4. drop every capability (capset to zero, then verified);
 *        4b. die with the parent (PR_SET_PDEATHSIG SIGKILL, set after
 *           the uid change, which clears it; the parent must still be
 *           the one that prepared the sandbox): an upcall the kernel
 *           gives up on is SIGKILLed, and its parser must not outlive it;
 *        5. PR_SET_NO_NEW_PRIVS and not dumpable;
 *        (5b. pgpk_sandbox_enter_with() only: the caller's hook, which
 *           may start threads: they inherit all of the above;)
 *        6. no new processes or threads (RLIMIT_NPROC 0), then the
 *           seccomp allowlist on every thread (default action: kill
 *           process).
 *
 * The allowlist is the table in pgpk_seccomp.c; pgpk_sandbox_print_policy()
 * prints it and policy/seccomp-allowlist.txt keeps the reviewed copy.
 */
#ifndef PGPK_SANDBOX_H
#define PGPK_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/types.h>
#include <linux/filter.h>

/* In the sandboxed child the input pipe is always fd 0, the output fd 1. */
#define PGPK_SANDBOX_IN_FD 0
#define PGPK_SANDBOX_OUT_FD 1

/*
 * The parser's own identity: uid = gid = PGPK_SANDBOX_ID_BASE + the pid of
 * the broker that prepares the sandbox.  A broker runs one parser at a
 * time and reaps it before it exits, and live pids are distinct, so no
 * other process has that uid: nobody but root (CAP_KILL) may signal the
 * parser (kill(2): the sender's real or effective uid must equal the
 * target's real or saved uid).  Pids are below pid_max <= 2^22
 * (PID_MAX_LIMIT), hence the range size.  The base is in a block that
 * Debian's subordinate ids (SUB_UID_MAX 600100000) and systemd's
 * documented ranges (UIDS-GIDS.md: containers up to 1879048191, foreign
 * range from 2147352576) leave free, below 2^31: sandbox/README.md.
 */
#define PGPK_SANDBOX_ID_BASE 0x7f000000U /* 2130706432 */
#define PGPK_SANDBOX_ID_RANGE (1U << 22) /* 2130706432..2134900735 */
#define PGPK_SANDBOX_NOBODY "nobody"
#define PGPK_SANDBOX_FALLBACK_ID 65534 /* nobody/nogroup everywhere */
#define PGPK_SANDBOX_DEFAULT_AS (256UL << 20)
#define PGPK_SANDBOX_DEFAULT_CPU 2 /* seconds */

/* The steps of pgpk_sandbox_enter(), in order; reported on failure. */
enum pgpk_sandbox_step {
	PGPK_SANDBOX_OK = 0,
	PGPK_SANDBOX_STEP_FDS,
	PGPK_SANDBOX_STEP_RLIMITS,
	PGPK_SANDBOX_STEP_USER,
	PGPK_SANDBOX_STEP_CAPS,
	PGPK_SANDBOX_STEP_NO_NEW_PRIVS,
	PGPK_SANDBOX_STEP_FILTER,
	PGPK_SANDBOX_STEP_PARENT,
	PGPK_SANDBOX_STEP_THREADS,
	PGPK_SANDBOX_NR_STEPS
};

struct pgpk_sandbox_conf {
	/*
	 * Unprivileged user to become when root; NULL = an identity of the
	 * parser's own (PGPK_SANDBOX_ID_BASE + pid).  A user other processes
	 * share (nobody) lets them kill the parser.
	 */
	const char *user;
	/* RLIMIT_AS in octets; 0 = PGPK_SANDBOX_DEFAULT_AS. */
	unsigned long address_space;
	/* RLIMIT_CPU in seconds; 0 = PGPK_SANDBOX_DEFAULT_CPU. */
	unsigned long cpu_seconds;
	/*
	 * No OpenSSL warm-up (pgpk_sandbox_preload_crypto()): the child
	 * initialises what it uses on first use, behind the filter, which
	 * allows all that takes (futex, getrandom, getpid, memory; measured
	 * by //tests/sandbox:filter_live_test).  For pgpk's user commands,
	 * most of which use no EVP at all: the warm-up is 1.5 M instructions.
	 */
	bool lazy_crypto;
};

/* Everything the child needs, computed before fork(). */
struct pgpk_sandbox {
	uid_t uid;
	gid_t gid;
	bool drop_user; /* running as root: become uid/gid */
	pid_t parent; /* the process that prepared it: the children's parent */
	unsigned long address_space;
	unsigned long cpu_seconds;
	const struct sock_filter *bpf; /* pgpk_seccomp_prebuilt() */
	unsigned short bpf_len; /* instructions */
};

/*
 * Parent side.  Returns 0 or a negative errno; msg (msg_len octets) names
 * the failure.  pgpk_sandbox_release() undoes it (safe on a zeroed struct).
 */
int pgpk_sandbox_prepare(struct pgpk_sandbox *sb,
			 const struct pgpk_sandbox_conf *conf, char *msg,
			 size_t msg_len);
void pgpk_sandbox_release(struct pgpk_sandbox *sb);

/*
 * Child side.  Returns PGPK_SANDBOX_OK with the sandbox in force, or the
 * step that failed: the caller must then _exit() at once without touching
 * its input.  in_fd and out_fd become PGPK_SANDBOX_IN_FD/OUT_FD.
 */
enum pgpk_sandbox_step pgpk_sandbox_enter(const struct pgpk_sandbox *sb,
					  int in_fd, int out_fd);
/*
 * The same, with before_filter(arg) run between steps 5 and 6: threads
 * it starts (the parser's validation workers) inherit steps 1 to 5, and
 * the filter is loaded on every thread (SECCOMP_FILTER_FLAG_TSYNC).  A
 * non-zero return fails the entry at PGPK_SANDBOX_STEP_THREADS.
 */
enum pgpk_sandbox_step pgpk_sandbox_enter_with(const struct pgpk_sandbox *sb,
					       int in_fd, int out_fd,
					       int (*before_filter)(void *arg),
					       void *arg);
const char *pgpk_sandbox_step_str(enum pgpk_sandbox_step step);

/*
 * Parent side: the watchdog over a child, one rule for every caller (the
 * upcall's broker, the commands).  The child is killed once it has used
 * its budget of CPU time (summed over its threads): its own work, so
 * that other users' load does not count against it.  A child that never
 * ends without using that much (blocked on a futex, or starved of CPU) is
 * killed at the wall-clock bound: the caller's, or by default
 * PGPK_WATCHDOG_WALL_FACTOR times the budget; so is every child whose
 * CPU-time clock cannot be read.  The upcall's bound is shorter than the
 * kernel's upcall_timeout, so that the helper still says why.
 */
#define PGPK_WATCHDOG_WALL_FACTOR 4

enum pgpk_watchdog_state {
	PGPK_WATCHDOG_RUNNING,
	PGPK_WATCHDOG_CPU, /* it used its budget of CPU time */
	PGPK_WATCHDOG_STALLED, /* no end in the wall-clock bound */
};

struct pgpk_watchdog {
	clockid_t clock; /* the child's CPU-time clock */
	bool have_clock;
	uint64_t start_us; /* CLOCK_MONOTONIC, when it was started */
	uint64_t budget_us; /* of CPU time; 0: no watchdog */
	uint64_t wall_us; /* the wall-clock bound, from start_us */
	uint64_t cpu_us; /* the child's CPU time when last looked at */
};

/*
 * Watch child @pid from now on: @budget_ms of CPU time (0: no watchdog),
 * at most @wall_ms of wall-clock time (0: the default bound).
 */
void pgpk_watchdog_start(struct pgpk_watchdog *w, pid_t pid,
			 unsigned int budget_ms, unsigned int wall_ms);
/*
 * Look at the child: PGPK_WATCHDOG_RUNNING with *wait_ms the longest to
 * sleep before looking again (-1: no bound), or why to kill it.
 */
enum pgpk_watchdog_state pgpk_watchdog_check(struct pgpk_watchdog *w,
					     int *wait_ms);
/* Microseconds of CLOCK_MONOTONIC. */
uint64_t pgpk_monotonic_us(void);

/*
 * How every pgpk process initialises OpenSSL, before any other OpenSSL
 * call (helper/pgpk.c, helper/pgpk_helper.c; pgpk_sandbox_preload_crypto() for programs without
 * that main).  Use with <openssl/crypto.h>.
 *  - NO_LOAD_CONFIG: no openssl.cnf; nothing in it is pgpk's policy, and
 *    parsing it was a third of a verification's instructions.
 *  - NO_ADD_ALL_CIPHERS, NO_ADD_ALL_DIGESTS: the first fetch of a
 *    process no longer registers every legacy cipher and digest name and
 *    copies them into the name map (2.9 M of the 3.6 M instructions of a
 *    first EVP_MD_fetch()).  Fetching by the providers' own names ("SHA256",
 *    "EC", "ED25519") works without them; EVP_get_digestbyname() and
 *    EVP_get_cipherbyname() find nothing.
 *  - NO_LOAD_CRYPTO_STRINGS: a thread's first OpenSSL error (a refused
 *    signature) no longer loads every error string (0.9 M instructions);
 *    pgpk prints none, it reports its own reasons.
 *  - NO_ATEXIT: no OPENSSL_cleanup() at exit (0.8 M instructions with a
 *    filled method store); the kernel frees a process faster.
 */
#define PGPK_OPENSSL_INIT                                                \
	(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS | \
	 OPENSSL_INIT_NO_ADD_ALL_DIGESTS |                               \
	 OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS | OPENSSL_INIT_NO_ATEXIT)

/*
 * Initialise OpenSSL (PGPK_OPENSSL_INIT) and fill its method store with
 * what the parser can use, so that no call in the child initialises
 * anything (pgpk_preload.c says what and why).  Called by
 * pgpk_sandbox_prepare(); exported for tests.  Returns 0 or -ENOPKG.
 */
int pgpk_sandbox_preload_crypto(void);
/*
 * Every digest, and a good and a bad signature of every algorithm the
 * parser verifies (RSA, ECDSA, DSA, Ed25519, Ed448), with the calls it
 * makes; 0 if all behave.  The sandbox tests run it inside the filter.
 */
int pgpk_sandbox_crypto_check(void);

/* How the arguments of an allowed syscall are narrowed. */
enum pgpk_arg_rule {
	PGPK_ARGS_ANY,
	PGPK_ARG0_IN_FD, /* fd argument is the input pipe */
	PGPK_ARG0_OUT_FD, /* fd argument is the output pipe */
	PGPK_ARG2_NO_EXEC, /* prot argument has no PROT_EXEC */
	PGPK_ARG2_ZERO, /* third argument (flags) is 0 */
};

/* The seccomp allowlist, as built into the filter and as documented. */
struct pgpk_seccomp_rule {
	const char *name; /* syscall name */
	int nr; /* native syscall number */
	enum pgpk_arg_rule args;
	const char *constraint; /* argument rule in words, "" if none */
	const char *reason; /* why the parser needs it */
};

const struct pgpk_seccomp_rule *pgpk_seccomp_rules(size_t *count);
/* What sanitizer builds add to the allowlist (bazel --config=asan). */
const struct pgpk_seccomp_rule *pgpk_seccomp_sanitizer_rules(size_t *count);
/*
 * The allowlist as the BPF program every child loads, compiled by
 * libseccomp when pgpk was built (sandbox/seccomp_gen.c; with the
 * sanitizer rules in a sanitizer build).  Static: never freed.
 */
void pgpk_seccomp_prebuilt(const struct sock_filter **prog,
			   unsigned short *len);
/* Print the allowlist table, one syscall per line. */
void pgpk_sandbox_print_policy(FILE *out);

#endif /* PGPK_SANDBOX_H */
