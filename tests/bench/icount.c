// SPDX-License-Identifier: GPL-2.0
/*
 * icount: user-space instructions of a command and of every process it
 * forks, counted by single-stepping each one with ptrace(2).
 *
 *   icount COMMAND [ARGS...]
 *
 * callgrind counts the same thing but cannot run the upcall pipeline: its
 * parser child loads a seccomp filter, and valgrind neither emulates the
 * seccomp(2) call nor survives the filter.  ptrace does both: the filter
 * does not see the tracer, and the child's drop to its own uid keeps it
 * traced (the tracer is root, attached before the drop).  Counting starts
 * at the exec of COMMAND (ld.so's first instruction, as callgrind);
 * a REP-prefixed string instruction counts once per iteration (the CPU
 * traps after each, as valgrind counts them).  Prints, on stderr,
 *
 *   icount: TOTAL instructions, N processes (PID:COUNT ...)
 *
 * and exits with COMMAND's status.  About 1 s per 200,000 instructions:
 * a benchmark tool, not for large runs.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>

#define PGPK_ICOUNT_MAX_TASKS 64

struct pgpk_icount_task {
	pid_t pid;
	uint64_t steps;
	bool seen_stop; /* the initial SIGSTOP of a traced fork child */
};

static struct pgpk_icount_task pgpk_tasks[PGPK_ICOUNT_MAX_TASKS];
static size_t pgpk_ntasks;

static struct pgpk_icount_task *pgpk_icount_task(pid_t pid)
{
	size_t i;

	for (i = 0; i < pgpk_ntasks; i++)
		if (pgpk_tasks[i].pid == pid)
			return &pgpk_tasks[i];
	if (pgpk_ntasks == PGPK_ICOUNT_MAX_TASKS) {
		fprintf(stderr, "icount: more than %d tasks\n",
			PGPK_ICOUNT_MAX_TASKS);
		exit(2);
	}
	pgpk_tasks[pgpk_ntasks] = (struct pgpk_icount_task){ .pid = pid };
	return &pgpk_tasks[pgpk_ntasks++];
}

int main(int argc, char **argv)
{
	const long opts = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			  PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
			  PTRACE_O_EXITKILL;
	uint64_t total = 0;
	int status, exit_status = 2;
	pid_t root, pid;
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: icount COMMAND [ARGS...]\n");
		return 2;
	}
	root = fork();
	if (root < 0) {
		perror("icount: fork");
		return 2;
	}
	if (root == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(127);
		raise(SIGSTOP);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (waitpid(root, &status, 0) != root || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, root, NULL, (void *)opts)) {
		fprintf(stderr, "icount: cannot trace %s\n", argv[1]);
		return 2;
	}
	/* Run free up to the exec, then step. */
	if (ptrace(PTRACE_CONT, root, NULL, NULL) ||
	    waitpid(root, &status, 0) != root || !WIFSTOPPED(status) ||
	    status >> 8 != (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
		fprintf(stderr, "icount: %s did not exec\n", argv[1]);
		return 2;
	}
	pgpk_icount_task(root)->seen_stop = true;
	ptrace(PTRACE_SINGLESTEP, root, NULL, NULL);
	while ((pid = waitpid(-1, &status, __WALL)) > 0) {
		struct pgpk_icount_task *t = pgpk_icount_task(pid);
		int sig = 0;

		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (pid == root)
				exit_status = WIFEXITED(status) ?
						      WEXITSTATUS(status) :
						      128 + WTERMSIG(status);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (status >> 16) {
			/* fork/clone/exec event: no instruction of its own */
		} else if (WSTOPSIG(status) == SIGTRAP) {
			t->steps++;
		} else if (WSTOPSIG(status) == SIGSTOP && !t->seen_stop) {
			t->seen_stop = true;
		} else {
			sig = WSTOPSIG(status); /* deliver it */
		}
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)sig) &&
		    errno != ESRCH)
			perror("icount: PTRACE_SINGLESTEP");
	}
	for (i = 0; i < pgpk_ntasks; i++)
		total += pgpk_tasks[i].steps;
	fprintf(stderr, "icount: %llu instructions, %zu processes (",
		(unsigned long long)total, pgpk_ntasks);
	for (i = 0; i < pgpk_ntasks; i++)
		fprintf(stderr, "%s%d:%llu", i ? " " : "",
			(int)pgpk_tasks[i].pid,
			(unsigned long long)pgpk_tasks[i].steps);
	fprintf(stderr, ")\n");
	return exit_status;
}
