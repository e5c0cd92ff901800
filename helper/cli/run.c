// SPDX-License-Identifier: GPL-2.0
/*
 * A user command's sandboxed child (commands.h pgpk_cli_sandboxed()):
 *
 *   command (the user)                      child
 *   its files read or mapped
 *   pgpk_sandbox_prepare(): the filter
 *   (prebuilt), no OpenSSL warm-up
 *   fork() -------------------------------> pgpk_sandbox_enter_with():
 *                                            fds, rlimits, (root: a uid
 *                                            of its own, no capability),
 *                                            no_new_privs, the validation
 *                                            threads, the upcall's seccomp
 *                                            allowlist on every thread
 *                                           the work, on the octets it
 *                                            has from fork() (the files)
 *   frames <------------- fd 1 ------------ 'O' output, 'E' messages,
 *                                           'B' blobs, 'X' exit status
 *   output to stdout (its control
 *   characters as '?' on a terminal), each
 *   message line "pgpk COMMAND: " and its
 *   printable characters to stderr, each blob to
 *   its check; reaped; its exit status, or 2
 *   and why (killed, SIGSYS, crashed, out of
 *   time, broken frames)
 *
 * Nothing the child sends is trusted beyond being shown: a frame of an
 * unknown kind or over its bound, or a second exit status, ends the
 * exchange (the child is killed and the command exits 2).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "helper/broker/pgpk_broker.h"
#include "helper/cli/commands.h"
#include "sandbox/pgpk_sandbox.h"

/* The child's exit statuses of its own (its work's is in an 'X' frame). */
#define PGPK_RUN_EXIT_SANDBOX 64 /* + the failed pgpk_sandbox_step */
#define PGPK_RUN_EXIT_REPLY 90 /* its frames could not be set up */

/*
 * The child's CPU time and memory: a hostile input cannot hang it.  The
 * CPU bound is RLIMIT_CPU's when --timeout-ms gives the watchdog none,
 * or is longer.
 */
#define PGPK_RUN_CPU_SECONDS 60
#define PGPK_RUN_ADDRESS_SPACE (1024UL << 20)

#ifdef PGPK_TEST_HOOKS
/*
 * Tests only (//tests/cli:pgpk-test-hooks, never the installed program):
 * PGPK_TEST_PARSER=crash kills the parser with SIGSEGV, =syscall makes it
 * call open() (SIGSYS from the filter), =wait makes it wait for a byte on
 * its fd 0, the command's stdin, so that a test can look at it, =spin
 * makes it spin (the watchdog's CPU-time bound).
 */
static void pgpk_run_test_hook(const char *hook)
{
	volatile int *volatile nowhere = NULL;
	volatile unsigned long spins = 0;
	char c;

	if (!hook)
		return;
	if (!strcmp(hook, "crash"))
		*nowhere = 0; /* SIGSEGV: no system call (raise() is one) */
	if (!strcmp(hook, "syscall"))
		open("/etc/passwd", O_RDONLY);
	if (!strcmp(hook, "wait") && read(0, &c, 1) < 0)
		_exit(PGPK_RUN_EXIT_REPLY);
	while (!strcmp(hook, "spin"))
		spins++;
}
#endif

struct pgpk_run_start {
	unsigned int threads;
};

/* Between no_new_privs and the filter: the parser's threads. */
static int pgpk_run_threads(void *arg)
{
	const struct pgpk_run_start *s = arg;

	return pgpk_parser_threads(s->threads);
}

static void __attribute__((noreturn))
pgpk_run_child(const struct pgpk_cli_child *c, const struct pgpk_sandbox *sb,
	       int in_fd, int out_fd)
{
	struct pgpk_run_start start = { c->threads };
	enum pgpk_sandbox_step step;
	struct pgpk_reply r;
	int status;
#ifdef PGPK_TEST_HOOKS
	const char *hook = getenv("PGPK_TEST_PARSER");

	if (hook && !strcmp(hook, "wait"))
		in_fd = 0;
#endif

	step = pgpk_sandbox_enter_with(sb, in_fd, out_fd, pgpk_run_threads,
				       &start);
	if (step != PGPK_SANDBOX_OK)
		_exit(PGPK_RUN_EXIT_SANDBOX + step);
#ifdef PGPK_TEST_HOOKS
	pgpk_run_test_hook(hook);
#endif
	if (pgpk_reply_open(&r, PGPK_SANDBOX_OUT_FD))
		_exit(PGPK_RUN_EXIT_REPLY);
	status = c->work(&r, c->arg);
	_exit(pgpk_reply_end(&r, status) ? PGPK_RUN_EXIT_REPLY : 0);
}

/* What the command does with the child's frames. */
struct pgpk_run {
	const struct pgpk_cli_child *c;
	uint8_t hdr[PGPK_REPLY_HDR];
	size_t hdr_len;
	uint8_t *payload;
	size_t want, have;
	char kind;
	char line[1024]; /* a message line being assembled */
	size_t line_len;
	int status; /* from the 'X' frame, -1 before it */
	bool tty; /* stdout is a terminal */
	int refused; /* an exit status: the exchange is over */
	const char *why; /* why the child's answer is refused */
};

/* C0 control characters but newline and tab, and DEL, made '?'. */
static void pgpk_run_printable(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') ||
		    p[i] == 0x7f)
			p[i] = '?';
}

/* One message line: the command's prefix, printable characters only. */
static void pgpk_run_line(struct pgpk_run *run)
{
	size_t i;

	for (i = 0; i < run->line_len; i++)
		if ((uint8_t)run->line[i] < 0x20 || run->line[i] == 0x7f)
			run->line[i] = '?';
	pgpk_cli_err("%.*s", (int)run->line_len, run->line);
	run->line_len = 0;
}

static void pgpk_run_err_text(struct pgpk_run *run, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n') {
			pgpk_run_line(run);
			continue;
		}
		if (run->line_len == sizeof(run->line))
			pgpk_run_line(run);
		run->line[run->line_len++] = (char)p[i];
	}
}

static size_t pgpk_run_max(char kind)
{
	switch (kind) {
	case PGPK_REPLY_OUT:
		return PGPK_REPLY_MAX_OUT;
	case PGPK_REPLY_ERR:
		return PGPK_REPLY_MAX_ERR;
	case PGPK_REPLY_BLOB:
		return PGPK_REPLY_MAX_BLOB;
	case PGPK_REPLY_EXIT:
		return 1;
	}
	return 0;
}

/* A whole frame: act on it. */
static void pgpk_run_frame(struct pgpk_run *run)
{
	const struct pgpk_cli_child *c = run->c;
	int ret;

	if (run->status >= 0) {
		run->why = "a frame after its exit status";
		run->refused = 2;
		return;
	}
	switch (run->kind) {
	case PGPK_REPLY_OUT:
		/* No escape sequence reaches a terminal, whatever a
		 * parser taken over would write (the output is text). */
		if (run->tty)
			pgpk_run_printable(run->payload, run->have);
		fflush(stdout);
		if (pgpk_write_all(1, run->payload, run->have)) {
			pgpk_cli_err("standard output: %s", strerror(errno));
			run->refused = 2;
		}
		break;
	case PGPK_REPLY_ERR:
		pgpk_run_err_text(run, run->payload, run->have);
		break;
	case PGPK_REPLY_BLOB:
		if (!c->blob) {
			run->why = "a blob this command takes none of";
			run->refused = 2;
			break;
		}
		ret = c->blob(c->blob_ctx, run->payload, run->have);
		if (ret)
			run->refused = ret;
		break;
	case PGPK_REPLY_EXIT:
		if (run->have != 1 || run->payload[0] > 2) {
			run->why = "a bad exit status";
			run->refused = 2;
			break;
		}
		run->status = run->payload[0];
		break;
	}
}

/* Take n octets from the child; false once the exchange is over. */
static bool pgpk_run_take(struct pgpk_run *run, const uint8_t *p, size_t n)
{
	size_t k;

	while (n && !run->refused) {
		if (run->hdr_len < PGPK_REPLY_HDR) {
			k = PGPK_REPLY_HDR - run->hdr_len;
			k = k < n ? k : n;
			memcpy(run->hdr + run->hdr_len, p, k);
			run->hdr_len += k;
			p += k;
			n -= k;
			if (run->hdr_len < PGPK_REPLY_HDR)
				break;
			run->kind = (char)run->hdr[0];
			run->want = (size_t)run->hdr[1] << 24 |
				    (size_t)run->hdr[2] << 16 |
				    (size_t)run->hdr[3] << 8 | run->hdr[4];
			if (run->want > pgpk_run_max(run->kind)) {
				run->why = pgpk_run_max(run->kind) ?
						   "a frame over its bound" :
						   "a frame of an unknown kind";
				run->refused = 2;
				break;
			}
			run->have = 0;
			free(run->payload);
			run->payload = malloc(run->want ? run->want : 1);
			if (!run->payload) {
				run->why = "no memory for its frame";
				run->refused = 2;
				break;
			}
		}
		k = run->want - run->have;
		k = k < n ? k : n;
		memcpy(run->payload + run->have, p, k);
		run->have += k;
		p += k;
		n -= k;
		if (run->have == run->want) {
			pgpk_run_frame(run);
			run->hdr_len = 0;
		}
	}
	return !run->refused;
}

/*
 * Read the child's frames until EOF or a refusal; or until @dog says to
 * kill it (pgpk_watchdog_check()), which it returns.
 */
static enum pgpk_watchdog_state pgpk_run_relay(struct pgpk_run *run, int fd,
					       struct pgpk_watchdog *dog)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	enum pgpk_watchdog_state state;
	uint8_t buf[65536];
	ssize_t n;
	int wait;

	for (;;) {
		state = pgpk_watchdog_check(dog, &wait);
		if (state != PGPK_WATCHDOG_RUNNING)
			return state;
		n = poll(&pfd, 1, wait);
		/* (with no watchdog, a poll that fails falls back on read) */
		if (n == 0 || (n < 0 && (errno == EINTR || wait >= 0)))
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || !pgpk_run_take(run, buf, (size_t)n))
			return PGPK_WATCHDOG_RUNNING;
	}
}

/* How the child ended, said; its status if it ended well. */
static int pgpk_run_verdict(struct pgpk_run *run, int wstatus,
			    const struct pgpk_watchdog *dog,
			    enum pgpk_watchdog_state killed)
{
	int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;

	if (run->line_len)
		pgpk_run_line(run);
	if (killed == PGPK_WATCHDOG_CPU) {
		pgpk_cli_err(
			"the sandboxed parser used %llu ms of CPU time (--timeout-ms): killed",
			(unsigned long long)dog->cpu_us / 1000);
		return 2;
	}
	if (killed == PGPK_WATCHDOG_STALLED) {
		pgpk_cli_err(
			"the sandboxed parser did not finish within %llu ms, with %llu ms of CPU time: killed",
			(unsigned long long)dog->wall_us / 1000,
			(unsigned long long)dog->cpu_us / 1000);
		return 2;
	}
	if (run->why) {
		pgpk_cli_err("the sandboxed parser's answer is refused: %s",
			     run->why);
		return 2;
	}
	if (run->refused)
		return run->refused;
	if (WIFSIGNALED(wstatus)) {
		int sig = WTERMSIG(wstatus);

		pgpk_cli_err(
			"the sandboxed parser %s (signal %d, %s); nothing of its work is used",
			sig == SIGSYS ?
				"was killed by its seccomp filter: a system call outside its allowlist" :
			sig == SIGKILL || sig == SIGXCPU ?
				"was killed (its CPU time or memory bound?)" :
				"crashed",
			sig, strsignal(sig));
		return 2;
	}
	if (code > PGPK_RUN_EXIT_SANDBOX &&
	    code < PGPK_RUN_EXIT_SANDBOX + PGPK_SANDBOX_NR_STEPS) {
		pgpk_cli_err("the parser's sandbox could not be set up: %s",
			     pgpk_sandbox_step_str((enum pgpk_sandbox_step)(
				     code - PGPK_RUN_EXIT_SANDBOX)));
		return 2;
	}
	if (code != 0 || run->status < 0) {
		pgpk_cli_err(
			"the sandboxed parser ended without its exit status (exit %d)",
			code);
		return 2;
	}
	return run->status;
}

int pgpk_cli_sandboxed(const struct pgpk_cli_child *c)
{
	struct pgpk_sandbox_conf conf = {
		.user = c->sandbox_user,
		.address_space = PGPK_RUN_ADDRESS_SPACE,
		.cpu_seconds = c->timeout_ms / 1000 < PGPK_RUN_CPU_SECONDS ?
				       PGPK_RUN_CPU_SECONDS :
				       c->timeout_ms / 1000 + 1,
		.lazy_crypto = true,
	};
	struct pgpk_run run = { .c = c, .status = -1, .tty = isatty(1) };
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old_chld;
	struct pgpk_sandbox sb;
	int in[2], out[2], wstatus = 0, ret = 2;
	char msg[256];
	enum pgpk_watchdog_state killed;
	struct pgpk_watchdog dog;
	pid_t pid;

	if (pgpk_sandbox_prepare(&sb, &conf, msg, sizeof(msg))) {
		pgpk_cli_err("sandbox: %s", msg);
		return 2;
	}
	if (pipe2(in, O_CLOEXEC)) {
		pgpk_cli_err("pipe: %s", strerror(errno));
		goto out_sandbox;
	}
	if (pipe2(out, O_CLOEXEC)) {
		pgpk_cli_err("pipe: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		goto out_sandbox;
	}
	/*
	 * The child stays ours to reap, whatever SIGCHLD disposition we were
	 * started with: its pid (the watchdog's clock, the kill) is its own
	 * until waitpid().
	 */
	sigaction(SIGCHLD, &dfl, &old_chld);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		pgpk_run_child(c, &sb, in[0], out[1]);
	close(in[0]);
	close(in[1]); /* the child's fd 0: at its end already */
	close(out[1]);
	if (pid < 0) {
		pgpk_cli_err("fork: %s", strerror(errno));
		close(out[0]);
		goto out_sigchld;
	}
	pgpk_watchdog_start(&dog, pid, c->timeout_ms, 0);
	killed = pgpk_run_relay(&run, out[0], &dog);
	if (killed != PGPK_WATCHDOG_RUNNING || run.refused)
		kill(pid, SIGKILL);
	close(out[0]);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	ret = pgpk_run_verdict(&run, wstatus, &dog, killed);
	free(run.payload);
out_sigchld:
	sigaction(SIGCHLD, &old_chld, NULL);
out_sandbox:
	pgpk_sandbox_release(&sb);
	return ret;
}
