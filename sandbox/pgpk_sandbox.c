// SPDX-License-Identifier: GPL-2.0
/*
 * The sandbox entry sequence (see pgpk_sandbox.h for the order and why it
 * is fixed).  Every step verifies its own effect where the kernel lets us
 * read it back, and the first failure stops the sequence: the caller exits
 * without reading its input.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "sandbox/pgpk_sandbox.h"

#if defined(__SANITIZE_ADDRESS__)
#define PGPK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PGPK_SANITIZED 1
#endif
#endif

static const char *const pgpk_step_names[PGPK_SANDBOX_NR_STEPS] = {
	[PGPK_SANDBOX_OK] = "ok",
	[PGPK_SANDBOX_STEP_FDS] = "closing descriptors",
	[PGPK_SANDBOX_STEP_RLIMITS] = "resource limits",
	[PGPK_SANDBOX_STEP_USER] = "dropping to the unprivileged user",
	[PGPK_SANDBOX_STEP_CAPS] = "dropping capabilities",
	[PGPK_SANDBOX_STEP_NO_NEW_PRIVS] = "no_new_privs",
	[PGPK_SANDBOX_STEP_FILTER] = "loading the seccomp filter",
	[PGPK_SANDBOX_STEP_PARENT] = "dying with the parent",
	[PGPK_SANDBOX_STEP_THREADS] = "starting the worker threads",
};

const char *pgpk_sandbox_step_str(enum pgpk_sandbox_step step)
{
	if ((unsigned int)step >= PGPK_SANDBOX_NR_STEPS)
		return "unknown step";
	return pgpk_step_names[step];
}

/*
 * "name" or a numeric uid.  An unknown "nobody" falls back to 65534 so the
 * helper works in an initramfs without /etc/passwd; any other unknown
 * name is an error (fail closed).
 */
static int pgpk_resolve_user(const char *user, uid_t *uid, gid_t *gid,
			     char *msg, size_t msg_len)
{
	struct passwd pw, *found = NULL;
	char buf[1024], *end;
	unsigned long id;

	errno = 0;
	id = strtoul(user, &end, 10);
	if (user[0] && !*end && !errno && id > 0 && id < 0xffffffffUL) {
		*uid = (uid_t)id;
		*gid = (gid_t)id;
		return 0;
	}
	if (getpwnam_r(user, &pw, buf, sizeof(buf), &found) == 0 && found) {
		if (found->pw_uid == 0 || found->pw_gid == 0) {
			snprintf(msg, msg_len,
				 "sandbox user %s is root: refused", user);
			return -EPERM;
		}
		*uid = found->pw_uid;
		*gid = found->pw_gid;
		return 0;
	}
	if (strcmp(user, PGPK_SANDBOX_NOBODY) == 0) {
		*uid = PGPK_SANDBOX_FALLBACK_ID;
		*gid = PGPK_SANDBOX_FALLBACK_ID;
		return 0;
	}
	snprintf(msg, msg_len, "sandbox user %s: no such user", user);
	return -ENOENT;
}

/* The default: an identity no other process has (pgpk_sandbox.h). */
static int pgpk_own_id(uid_t *uid, gid_t *gid, char *msg, size_t msg_len)
{
	pid_t pid = getpid();

	if (pid <= 0 || (unsigned long)pid >= PGPK_SANDBOX_ID_RANGE) {
		snprintf(msg, msg_len,
			 "pid %ld outside the sandbox id range (pid_max "
			 "above 2^22?): use --sandbox-user",
			 (long)pid);
		return -ERANGE;
	}
	*uid = (uid_t)(PGPK_SANDBOX_ID_BASE + (unsigned int)pid);
	*gid = (gid_t)*uid;
	return 0;
}

int pgpk_sandbox_prepare(struct pgpk_sandbox *sb,
			 const struct pgpk_sandbox_conf *conf, char *msg,
			 size_t msg_len)
{
	const char *user = conf ? conf->user : NULL;
	int ret;

	memset(sb, 0, sizeof(*sb));
	sb->address_space = conf && conf->address_space ?
				    conf->address_space :
				    PGPK_SANDBOX_DEFAULT_AS;
	sb->cpu_seconds = conf && conf->cpu_seconds ? conf->cpu_seconds :
						      PGPK_SANDBOX_DEFAULT_CPU;
	sb->drop_user = geteuid() == 0 || getuid() == 0;
	sb->parent = getpid();
	if (sb->drop_user) {
		ret = user ? pgpk_resolve_user(user, &sb->uid, &sb->gid, msg,
					       msg_len) :
			     pgpk_own_id(&sb->uid, &sb->gid, msg, msg_len);
		if (ret)
			return ret;
	}
	if (!(conf && conf->lazy_crypto) && pgpk_sandbox_preload_crypto()) {
		snprintf(msg, msg_len, "OpenSSL warm-up failed");
		return -ENOPKG;
	}
	pgpk_seccomp_prebuilt(&sb->bpf, &sb->bpf_len);
	return 0;
}

void pgpk_sandbox_release(struct pgpk_sandbox *sb)
{
	sb->bpf = NULL;
	sb->bpf_len = 0;
}

/* Step 1: the input pipe becomes fd 0, the output pipe fd 1, nothing else. */
static int pgpk_keep_pipes(int in_fd, int out_fd)
{
	int in2, out2, fd;
	long max;

	/* Move both above 2 first so that neither clobbers the other. */
	in2 = fcntl(in_fd, F_DUPFD, 3);
	out2 = fcntl(out_fd, F_DUPFD, 3);
	if (in2 < 0 || out2 < 0)
		return -1;
	if (dup2(in2, PGPK_SANDBOX_IN_FD) != PGPK_SANDBOX_IN_FD ||
	    dup2(out2, PGPK_SANDBOX_OUT_FD) != PGPK_SANDBOX_OUT_FD)
		return -1;
	if (syscall(SYS_close_range, 2U, ~0U, 0U) == 0)
		return 0;
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 1 << 20)
		max = 1 << 20;
	for (fd = 2; fd < max; fd++)
		close(fd);
	return 0;
}

static int pgpk_setrlimit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { .rlim_cur = soft, .rlim_max = hard };

	return setrlimit(resource, &rl);
}

/*
 * Step 2: no memory beyond the bound, no CPU hog, no new fds or files, no
 * core dumps.  No new tasks is step 6's (pgpk_no_tasks()): the threads a
 * caller starts before the filter are tasks.
 */
static int pgpk_limit(const struct pgpk_sandbox *sb)
{
#ifndef PGPK_SANITIZED
	/* (ASan reserves terabytes of shadow: no address-space bound there.) */
	if (pgpk_setrlimit(RLIMIT_AS, sb->address_space, sb->address_space))
		return -1;
#endif
	/* SIGXCPU at the soft limit, SIGKILL a second later. */
	if (pgpk_setrlimit(RLIMIT_CPU, sb->cpu_seconds, sb->cpu_seconds + 1) ||
	    pgpk_setrlimit(RLIMIT_NOFILE, 0, 0) ||
	    pgpk_setrlimit(RLIMIT_FSIZE, 0, 0) ||
	    pgpk_setrlimit(RLIMIT_CORE, 0, 0) ||
	    pgpk_setrlimit(RLIMIT_MEMLOCK, 0, 0))
		return -1;
	return 0;
}

/*
 * Step 3: as root, empty the bounding set while CAP_SETPCAP is still ours,
 * then leave root for good (real, effective and saved ids).
 */
static int pgpk_drop_user(const struct pgpk_sandbox *sb)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	int cap;

	/* Ambient set: EINVAL only on kernels without it (< 4.3). */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) &&
	    errno != EINVAL)
		return -1;
	if (!sb->drop_user)
		return 0;
	for (cap = 0; cap < 64; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
			continue;
		if (errno == EINVAL) /* past the last capability */
			break;
		return -1;
	}
	if (setgroups(0, NULL) || setresgid(sb->gid, sb->gid, sb->gid) ||
	    setresuid(sb->uid, sb->uid, sb->uid))
		return -1;
	if (getresuid(&ru, &eu, &su) || getresgid(&rg, &eg, &sg) ||
	    ru != sb->uid || eu != sb->uid || su != sb->uid || rg != sb->gid ||
	    eg != sb->gid || sg != sb->gid)
		return -1;
	/* The way back must be closed. */
	if (setresuid(0, 0, 0) == 0 || setresgid(0, 0, 0) == 0)
		return -1;
	return 0;
}

/* Step 4: permitted, effective and inheritable sets all empty. */
static int pgpk_drop_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int i;

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	memset(data, 0xff, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective || data[i].permitted ||
		    data[i].inheritable)
			return -1;
	return 0;
}

/*
 * Step 4b: SIGKILL when the parent dies.  After step 3: a change of
 * effective or filesystem ids clears the setting.  A parent already gone
 * (the child reparented) fails it.
 */
static int pgpk_die_with_parent(const struct pgpk_sandbox *sb)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		return -1;
	return getppid() == sb->parent ? 0 : -1;
}

/* Step 5: nothing can ever grant privileges again; no ptrace by peers. */
static int pgpk_no_new_privs(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return -1;
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return -1;
	return 0;
}

/* Step 6, first: no new processes (or threads) from here on. */
static int pgpk_no_tasks(void)
{
	return pgpk_setrlimit(RLIMIT_NPROC, 0, 0);
}

/*
 * Step 6: the allowlist, compiled when pgpk was built; loading it is one
 * syscall.  Fails unless no_new_privs is set (step 5).  TSYNC: on every
 * thread of the process, those a caller started before it included
 * (pgpk_sandbox_enter_with()), or not at all.
 */
static int pgpk_load_filter(const struct pgpk_sandbox *sb)
{
	struct sock_fprog prog = {
		.len = sb->bpf_len,
		.filter = (struct sock_filter *)(uintptr_t)sb->bpf,
	};

	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		       SECCOMP_FILTER_FLAG_TSYNC, &prog) ?
		       -1 :
		       0;
}

enum pgpk_sandbox_step pgpk_sandbox_enter_with(const struct pgpk_sandbox *sb,
					       int in_fd, int out_fd,
					       int (*before_filter)(void *arg),
					       void *arg)
{
	if (!sb->bpf || !sb->bpf_len)
		return PGPK_SANDBOX_STEP_FILTER;
	if (pgpk_keep_pipes(in_fd, out_fd))
		return PGPK_SANDBOX_STEP_FDS;
	if (pgpk_limit(sb))
		return PGPK_SANDBOX_STEP_RLIMITS;
	if (pgpk_drop_user(sb))
		return PGPK_SANDBOX_STEP_USER;
	if (pgpk_drop_caps())
		return PGPK_SANDBOX_STEP_CAPS;
	if (pgpk_die_with_parent(sb))
		return PGPK_SANDBOX_STEP_PARENT;
	if (pgpk_no_new_privs())
		return PGPK_SANDBOX_STEP_NO_NEW_PRIVS;
	if (before_filter && before_filter(arg))
		return PGPK_SANDBOX_STEP_THREADS;
	if (pgpk_no_tasks())
		return PGPK_SANDBOX_STEP_RLIMITS;
	if (pgpk_load_filter(sb))
		return PGPK_SANDBOX_STEP_FILTER;
	return PGPK_SANDBOX_OK;
}

enum pgpk_sandbox_step pgpk_sandbox_enter(const struct pgpk_sandbox *sb,
					  int in_fd, int out_fd)
{
	return pgpk_sandbox_enter_with(sb, in_fd, out_fd, NULL, NULL);
}

uint64_t pgpk_monotonic_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

void pgpk_watchdog_start(struct pgpk_watchdog *w, pid_t pid,
			 unsigned int budget_ms, unsigned int wall_ms)
{
	*w = (struct pgpk_watchdog){
		.start_us = pgpk_monotonic_us(),
		.budget_us = (uint64_t)budget_ms * 1000,
	};
	w->have_clock = !clock_getcpuclockid(pid, &w->clock);
	w->wall_us = w->have_clock ? w->budget_us * PGPK_WATCHDOG_WALL_FACTOR :
				     w->budget_us;
	if (wall_ms && (uint64_t)wall_ms * 1000 < w->wall_us)
		w->wall_us = (uint64_t)wall_ms * 1000;
}

/*
 * A child's CPU time grows at most as fast as the wall clock per thread:
 * the budget left is the longest sleep for one thread; a child of N
 * threads may overshoot by N - 1 times that, hence the cap.
 */
#define PGPK_WATCHDOG_MAX_WAIT_MS 100

enum pgpk_watchdog_state pgpk_watchdog_check(struct pgpk_watchdog *w,
					     int *wait_ms)
{
	struct timespec ts;
	uint64_t now, left;

	*wait_ms = -1;
	if (!w->budget_us)
		return PGPK_WATCHDOG_RUNNING;
	/* A reaped child has no clock: what was last read stands. */
	if (w->have_clock && !clock_gettime(w->clock, &ts))
		w->cpu_us = (uint64_t)ts.tv_sec * 1000000 +
			    (uint64_t)ts.tv_nsec / 1000;
	now = pgpk_monotonic_us() - w->start_us; /* since the start */
	if (w->cpu_us >= w->budget_us)
		return PGPK_WATCHDOG_CPU;
	if (now >= w->wall_us)
		return PGPK_WATCHDOG_STALLED;
	left = w->budget_us - w->cpu_us;
	if (left > w->wall_us - now)
		left = w->wall_us - now;
	left = (left + 999) / 1000;
	*wait_ms = left < PGPK_WATCHDOG_MAX_WAIT_MS ? (int)left :
						      PGPK_WATCHDOG_MAX_WAIT_MS;
	return PGPK_WATCHDOG_RUNNING;
}
