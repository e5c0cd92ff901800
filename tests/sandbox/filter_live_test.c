// SPDX-License-Identifier: GPL-2.0
/*
 * The sandbox, probed live.  Each probe runs in a freshly forked child
 * that has entered the sandbox:
 *   - allowed syscalls with bad pointers or bad arguments fail with the
 *     errno the kernel gives (EFAULT, ...): the filter let them through;
 *   - forbidden syscalls kill the child with SIGSYS, whatever the
 *     arguments.
 * Then the state of a sandboxed child is read from /proc while it waits
 * on its input (uid, capabilities, no_new_privs, seccomp mode, fds), and
 * OpenSSL digests and RSA verification must still work inside the filter,
 * warmed up before it or (lazy_crypto, pgpk's user commands) not; and
 * threads started before the filter (pgpk_sandbox_enter_with()) are
 * under it too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pthread.h>

#include <openssl/crypto.h>

#include "sandbox/pgpk_sandbox.h"

#define BAD_PTR ((long)8) /* never mapped */
#define PGPK_OK (-1) /* the call is allowed and succeeds */

struct pgpk_probe {
	const char *what;
	long nr;
	long args[6];
	int want_errno; /* 0: must die of SIGSYS; PGPK_OK: must succeed */
};

static char pgpk_stack_page[4096] __attribute__((aligned(4096)));

static const struct pgpk_probe pgpk_probes[] = {
	/* allowed: the filter passes them, the kernel refuses the args */
	{ "read(0, bad)", SYS_read, { 0, BAD_PTR, 1 }, EFAULT },
	{ "write(1, bad)", SYS_write, { 1, BAD_PTR, 1 }, EFAULT },
	{ "clock_gettime(bad)",
	  SYS_clock_gettime,
	  { CLOCK_MONOTONIC, BAD_PTR },
	  EFAULT },
	{ "futex(bad)", SYS_futex, { BAD_PTR, FUTEX_WAKE, 1 }, EFAULT },
	{ "munmap(unaligned)", SYS_munmap, { 4097, 4096 }, EINVAL },
	{ "madvise(unaligned)",
	  SYS_madvise,
	  { 4097, 4096, MADV_DONTNEED },
	  EINVAL },
	{ "mprotect(unaligned, rw)",
	  SYS_mprotect,
	  { 4097, 4096, PROT_READ | PROT_WRITE },
	  EINVAL },
	{ "mmap(rw, length 0)",
	  SYS_mmap,
	  { 0, 0, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 },
	  EINVAL },
	{ "mremap(unaligned)", SYS_mremap, { 4097, 4096, 8192, 0 }, EINVAL },
	{ "getrandom(bad, 0)", SYS_getrandom, { BAD_PTR, 16, 0 }, EFAULT },
	{ "getpid", SYS_getpid, { 0 }, PGPK_OK },
	/* forbidden: killed before the kernel looks at the arguments */
	{ "open", SYS_open, { BAD_PTR, O_RDONLY }, 0 },
	{ "openat", SYS_openat, { AT_FDCWD, BAD_PTR, O_RDONLY }, 0 },
	{ "socket", SYS_socket, { 1 /* AF_UNIX */, 1, 0 }, 0 },
	{ "execve", SYS_execve, { BAD_PTR, 0, 0 }, 0 },
	{ "ptrace", SYS_ptrace, { 0 /* PTRACE_TRACEME */ }, 0 },
	{ "keyctl", SYS_keyctl, { 0 /* GET_KEYRING_ID */, -3, 0 }, 0 },
	{ "mprotect(exec)",
	  SYS_mprotect,
	  { (long)pgpk_stack_page, 4096, PROT_READ | PROT_EXEC },
	  0 },
	{ "mmap(exec)",
	  SYS_mmap,
	  { 0, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
	    0 },
	  0 },
	{ "fork", SYS_fork, { 0 }, 0 },
	{ "clone", SYS_clone, { SIGCHLD, 0, 0, 0, 0 }, 0 },
	{ "getrandom(GRND_RANDOM)", SYS_getrandom, { BAD_PTR, 16, 2 }, 0 },
	{ "kill", SYS_kill, { 1, 0 }, 0 },
	{ "read(2)", SYS_read, { 2, BAD_PTR, 1 }, 0 },
	{ "write(0)", SYS_write, { 0, BAD_PTR, 1 }, 0 },
	{ "getppid", SYS_getppid, { 0 }, 0 },
};

static int pgpk_failures;

/* Fork a sandboxed child that runs fn(arg); returns its wait status. */
static int pgpk_run_sandboxed(const struct pgpk_sandbox *sb,
			      int (*fn)(const void *), const void *arg,
			      const char *input)
{
	int in[2], out[2], status = 0;
	pid_t pid;

	if (pipe(in) || pipe(out))
		return -1;
	if (input && write(in[1], input, strlen(input)) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (pgpk_sandbox_enter(sb, in[0], out[1]) != PGPK_SANDBOX_OK)
			_exit(120);
		_exit(fn(arg));
	}
	close(in[0]);
	close(in[1]);
	close(out[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(out[0]); /* only now: a write to it must not see EPIPE */
	return status;
}

static int pgpk_probe_fn(const void *arg)
{
	const struct pgpk_probe *p = arg;
	long r;

	r = syscall(p->nr, p->args[0], p->args[1], p->args[2], p->args[3],
		    p->args[4], p->args[5]);
	if (p->want_errno == PGPK_OK)
		return r >= 0 ? 0 : 102;
	if (r >= 0)
		return 100; /* should have failed */
	return errno == p->want_errno ? 0 : 101;
}

static void pgpk_probe_all(const struct pgpk_sandbox *sb)
{
	size_t i;

	for (i = 0; i < sizeof(pgpk_probes) / sizeof(pgpk_probes[0]); i++) {
		const struct pgpk_probe *p = &pgpk_probes[i];
		int st = pgpk_run_sandboxed(sb, pgpk_probe_fn, p, "x");
		int ok;

		if (p->want_errno)
			ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		else
			ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS;
		if (!ok)
			pgpk_failures++;
		printf("%s %-24s want %-8s got %s %d\n", ok ? "ok  " : "FAIL",
		       p->what,
		       p->want_errno == PGPK_OK ? "success" :
		       p->want_errno		? strerror(p->want_errno) :
						  "SIGSYS",
		       WIFSIGNALED(st) ? "signal" : "exit",
		       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
}

static int pgpk_crypto_fn(const void *arg)
{
	return pgpk_sandbox_crypto_check() ? 1 : 0;
}

/* Malloc big and small inside the filter: glibc must stay within it. */
static int pgpk_malloc_fn(const void *arg)
{
	size_t sizes[] = { 16, 4000, 200000, 3 << 20, 64 };
	void *p[5];
	size_t i;

	for (i = 0; i < 5; i++) {
		p[i] = malloc(sizes[i]);
		if (!p[i])
			return 1;
		memset(p[i], 0xa5, sizes[i]);
	}
	p[1] = realloc(p[1], 1 << 20);
	for (i = 0; i < 5; i++)
		free(p[i]);
#if defined(__SANITIZE_ADDRESS__)
	/* ASan builds have no address-space limit (see pgpk_sandbox.c). */
	return 0;
#else
	/* Over the address-space limit: fails, does not kill. */
	return malloc(1UL << 30) == NULL ? 0 : 2;
#endif
}

static int pgpk_wait_fn(const void *arg)
{
	char c;

	return read(PGPK_SANDBOX_IN_FD, &c, 1) == 1 ? 0 : 1;
}

static int pgpk_status_has(const char *status, const char *line)
{
	return strstr(status, line) != NULL;
}

/* Look at a sandboxed child from outside while it blocks on its input. */
static void pgpk_inspect(const struct pgpk_sandbox *sb)
{
	char path[64], status[8192];
	int in[2], out[2], fd, st, nfds = 0;
	struct dirent *d;
	DIR *dir;
	ssize_t n;
	pid_t pid;

	if (pipe(in) || pipe(out))
		return;
	pid = fork();
	if (pid == 0) {
		if (pgpk_sandbox_enter(sb, in[0], out[1]) != PGPK_SANDBOX_OK)
			_exit(120);
		_exit(pgpk_wait_fn(NULL));
	}
	close(in[0]);
	close(out[1]);
	/* The child is sandboxed once its end of the output pipe is the
	 * only one left: wait for Seccomp: 2 to show up. */
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	for (st = 0; st < 2000; st++) {
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, status, sizeof(status) - 1);
		if (fd >= 0)
			close(fd);
		status[n > 0 ? n : 0] = '\0';
		if (pgpk_status_has(status, "\nSeccomp:\t2"))
			break;
		usleep(1000);
	}
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir)))
		if (d->d_name[0] != '.')
			nfds++;
	if (dir)
		closedir(dir);
#define EXPECT(cond, what)                                             \
	do {                                                           \
		int ok_ = (cond);                                      \
		pgpk_failures += !ok_;                                 \
		printf("%s state: %s\n", ok_ ? "ok  " : "FAIL", what); \
	} while (0)
	EXPECT(pgpk_status_has(status, "\nSeccomp:\t2"), "seccomp filter mode");
	EXPECT(pgpk_status_has(status, "\nNoNewPrivs:\t1"), "no_new_privs");
	EXPECT(pgpk_status_has(status, "\nCapEff:\t0000000000000000") &&
		       pgpk_status_has(status, "\nCapPrm:\t0000000000000000") &&
		       pgpk_status_has(status, "\nCapInh:\t0000000000000000") &&
		       pgpk_status_has(status, "\nCapAmb:\t0000000000000000"),
	       "no capabilities");
	EXPECT(nfds == 2 || !dir, "only fds 0 and 1 open");
	if (sb->drop_user) {
		char want[64];

		snprintf(want, sizeof(want), "\nUid:\t%u\t%u\t%u", sb->uid,
			 sb->uid, sb->uid);
		EXPECT(pgpk_status_has(status, want), "unprivileged uid");
		EXPECT(pgpk_status_has(status, "\nCapBnd:\t0000000000000000"),
		       "empty bounding set");
		EXPECT(pgpk_status_has(status, "\nGroups:\t\n") ||
			       pgpk_status_has(status, "\nGroups:\t \n"),
		       "no supplementary groups");
	} else {
		printf("skip state: not root, uid stays\n");
	}
	if (write(in[1], "go", 2) != 2)
		pgpk_failures++;
	close(in[1]);
	waitpid(pid, &st, 0);
	close(out[0]);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child read its input");
}

/* Wait (2 s at most) for @pid's /proc status to show the seccomp filter. */
static bool pgpk_wait_sandboxed(pid_t pid)
{
	char path[64], status[8192];
	int fd, i;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	for (i = 0; i < 2000; i++) {
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, status, sizeof(status) - 1);
		if (fd >= 0)
			close(fd);
		status[n > 0 ? n : 0] = '\0';
		if (pgpk_status_has(status, "\nSeccomp:\t2"))
			return true;
		usleep(1000);
	}
	return false;
}

/*
 * A parser must not outlive its broker (the kernel SIGKILLs an upcall it
 * gives up on).  This process becomes a subreaper; a middle process M
 * forks a sandboxed child C blocked on an input pipe this process keeps
 * open, then dies: C must die at once (PR_SET_PDEATHSIG), which closes
 * its output pipe.  And a child whose parent is not the process that
 * prepared the sandbox (reparented already) fails to enter it.
 */
static void pgpk_orphan(const struct pgpk_sandbox *sb)
{
	int in[2], out[2], cpid[2], st = 0;
	struct pgpk_sandbox own;
	struct pollfd pfd;
	pid_t m, c = 0;
	char msg[256];
	bool died;
	ssize_t n;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || pipe(in) || pipe(out) ||
	    pipe(cpid)) {
		pgpk_failures++;
		return;
	}
	m = fork();
	if (m == 0) {
		if (pgpk_sandbox_prepare(&own, NULL, msg, sizeof(msg)))
			_exit(3);
		c = fork();
		if (c == 0) {
			if (pgpk_sandbox_enter(&own, in[0], out[1]) !=
			    PGPK_SANDBOX_OK)
				_exit(120);
			_exit(pgpk_wait_fn(NULL));
		}
		if (write(cpid[1], &c, sizeof(c)) != sizeof(c) ||
		    !pgpk_wait_sandboxed(c))
			_exit(4);
		_exit(0); /* C must die with us */
	}
	close(out[1]);
	close(cpid[1]);
	waitpid(m, &st, 0);
	n = read(cpid[0], &c, sizeof(c));
	close(cpid[0]);
	pfd = (struct pollfd){ .fd = out[0], .events = POLLIN };
	died = WIFEXITED(st) && WEXITSTATUS(st) == 0 && n == sizeof(c) &&
	       poll(&pfd, 1, 2000) == 1 && read(out[0], msg, 1) == 0;
	EXPECT(died, "a sandboxed child dies with its parent");
	if (n == sizeof(c) && c > 0) {
		if (!died)
			kill(c, SIGKILL); /* not left behind */
		/* ours to reap: we are the subreaper */
		EXPECT(waitpid(c, &st, 0) == c &&
			       (!died ||
				(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)),
		       "by SIGKILL, the parent-death signal");
	}
	close(out[0]);
	/* A child of another process than the sandbox's preparer. */
	m = fork();
	if (m == 0) {
		c = fork();
		if (c == 0)
			_exit(pgpk_sandbox_enter(sb, in[0], in[1]) ==
					      PGPK_SANDBOX_STEP_PARENT ?
				      0 :
				      1);
		waitpid(c, &st, 0);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
	}
	waitpid(m, &st, 0);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a child not of the sandbox's preparer refuses to enter it");
	close(in[0]);
	close(in[1]);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/*
 * pgpk's user commands: no warm-up (lazy_crypto), OpenSSL initialised
 * behind the filter on first use.  In a process of its own, forked
 * before anything here touched OpenSSL beyond what pgpk's main does.
 */
static void pgpk_lazy(void)
{
	struct pgpk_sandbox_conf conf = { .lazy_crypto = true };
	struct pgpk_sandbox sb;
	char msg[256];
	int st = 0;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (!OPENSSL_init_crypto(PGPK_OPENSSL_INIT, NULL) ||
		    pgpk_sandbox_prepare(&sb, &conf, msg, sizeof(msg)))
			_exit(3);
		st = pgpk_run_sandboxed(&sb, pgpk_crypto_fn, NULL, NULL);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 4);
	}
	waitpid(pid, &st, 0);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "without the warm-up too (lazy_crypto: OpenSSL initialised behind the filter)");
}

/*
 * Threads started before the filter: they wait here, then verify, then
 * wait again, for good: a thread that ends calls rt_sigprocmask() (glibc
 * blocks signals around its exit), which the filter kills, so the parser's
 * workers never end: the child's _exit() ends them (openpgp/workers.c).
 */
struct pgpk_threads {
	pthread_t t[2];
	pthread_mutex_t m;
	pthread_cond_t go;
	bool started;
	int ready;
	int done;
	int failed;
};

static void *pgpk_thread_fn(void *arg)
{
	struct pgpk_threads *th = arg;
	int bad;

	pthread_mutex_lock(&th->m);
	th->ready++;
	pthread_cond_broadcast(&th->go);
	while (!th->started)
		pthread_cond_wait(&th->go, &th->m);
	pthread_mutex_unlock(&th->m);
	bad = pgpk_sandbox_crypto_check();
	pthread_mutex_lock(&th->m);
	th->failed += bad != 0;
	th->done++;
	pthread_cond_broadcast(&th->go);
	for (;;)
		pthread_cond_wait(&th->go, &th->m);
	return NULL;
}

static int pgpk_threads_start(void *arg)
{
	struct pgpk_threads *th = arg;
	int i;

	for (i = 0; i < 2; i++)
		if (pthread_create(&th->t[i], NULL, pgpk_thread_fn, th))
			return -1;
	/* Only once they run their own code: glibc's start of a thread
	 * makes system calls (rseq, set_robust_list, rt_sigprocmask) that
	 * the filter would kill. */
	pthread_mutex_lock(&th->m);
	while (th->ready < 2)
		pthread_cond_wait(&th->go, &th->m);
	pthread_mutex_unlock(&th->m);
	return 0;
}

/* Count /proc/PID/task/ * whose status has all of @want's lines. */
static int pgpk_tasks_with(pid_t pid, const char *const *want, size_t nwant,
			   int *ntasks)
{
	char path[96], status[8192];
	struct dirent *d;
	int good = 0, fd;
	size_t i;
	ssize_t n;
	DIR *dir;

	*ntasks = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		++*ntasks;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/status",
			 (int)pid, d->d_name);
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, status, sizeof(status) - 1);
		if (fd >= 0)
			close(fd);
		status[n > 0 ? n : 0] = '\0';
		for (i = 0; i < nwant && pgpk_status_has(status, want[i]); i++)
			;
		good += i == nwant;
	}
	if (dir)
		closedir(dir);
	return good;
}

static void pgpk_threads(const struct pgpk_sandbox *sb)
{
	static const char *const want[] = {
		"\nSeccomp:\t2",
		"\nNoNewPrivs:\t1",
		"\nCapEff:\t0000000000000000",
		"\nCapPrm:\t0000000000000000",
	};
	struct pgpk_threads th = { .m = PTHREAD_MUTEX_INITIALIZER,
				   .go = PTHREAD_COND_INITIALIZER };
	int in[2], out[2], st = 0, ntasks = 0, good = 0, i;
	char c;
	pid_t pid;

	if (pipe(in) || pipe(out)) {
		pgpk_failures++;
		return;
	}
	pid = fork();
	if (pid == 0) {
		if (pgpk_sandbox_enter_with(sb, in[0], out[1],
					    pgpk_threads_start,
					    &th) != PGPK_SANDBOX_OK)
			_exit(120);
		if (read(PGPK_SANDBOX_IN_FD, &c, 1) != 1)
			_exit(121);
		pthread_mutex_lock(&th.m);
		th.started = true;
		pthread_cond_broadcast(&th.go);
		while (th.done < 2)
			pthread_cond_wait(&th.go, &th.m);
		_exit(th.failed ? 122 : 0);
	}
	close(in[0]);
	close(out[1]);
	pgpk_wait_sandboxed(pid);
	for (i = 0; i < 10000 && (good < 3 || ntasks != 3); i++) {
		good = pgpk_tasks_with(pid, want, sizeof(want) / sizeof(*want),
				       &ntasks);
		if (good < 3)
			usleep(1000);
	}
	EXPECT(ntasks == 3 && good == 3,
	       "threads started before the filter: all 3 tasks filtered, no_new_privs, no capabilities");
	if (ntasks != 3 || good != 3)
		printf("     (%d tasks, %d of them so)\n", ntasks, good);
	signal(SIGPIPE, SIG_IGN); /* a child that died early */
	if (write(in[1], "go", 1) != 1)
		pgpk_failures++;
	close(in[1]);
	waitpid(pid, &st, 0);
	close(out[0]);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "and they verify signatures under it");
}

/* Fail closed: an unknown or root sandbox user refuses to prepare. */
static void pgpk_prepare_refusals(void)
{
	struct pgpk_sandbox sb;
	struct pgpk_sandbox_conf bad = { .user = "pgpk-no-such-user" };
	struct pgpk_sandbox_conf root = { .user = "root" };
	char msg[256];

	if (geteuid() != 0) {
		printf("skip prepare refusals: not root\n");
		return;
	}
	EXPECT(pgpk_sandbox_prepare(&sb, &bad, msg, sizeof(msg)) == -ENOENT,
	       "unknown sandbox user refused");
	pgpk_sandbox_release(&sb);
	EXPECT(pgpk_sandbox_prepare(&sb, &root, msg, sizeof(msg)) == -EPERM,
	       "root as sandbox user refused");
	pgpk_sandbox_release(&sb);
}

int main(void)
{
	struct pgpk_sandbox sb;
	char msg[256];
	int st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pgpk_lazy();
	if (pgpk_sandbox_prepare(&sb, NULL, msg, sizeof(msg))) {
		printf("FAIL prepare: %s\n", msg);
		return 1;
	}
	pgpk_probe_all(&sb);
	st = pgpk_run_sandboxed(&sb, pgpk_crypto_fn, NULL, NULL);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "every digest and a good and a bad RSA, ECDSA, DSA, Ed25519 and Ed448 signature inside the filter");
	st = pgpk_run_sandboxed(&sb, pgpk_malloc_fn, NULL, NULL);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "malloc/realloc/free inside the filter, 1 GiB refused");
	pgpk_inspect(&sb);
	pgpk_orphan(&sb);
	pgpk_threads(&sb);
	pgpk_prepare_refusals();
	pgpk_sandbox_release(&sb);
	printf("%s: %d failure(s)\n", pgpk_failures ? "FAIL" : "PASS",
	       pgpk_failures);
	return pgpk_failures ? 1 : 0;
}
