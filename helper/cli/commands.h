/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgpk's commands, and how every command of pgpk and pgpk-helper talks
 * (pgpk(1), EXIT STATUS):
 *  - exit 0 good, 1 bad or refused, 2 a usage or input error (gpgv's and
 *    sqv's statuses; never an errno);
 *  - every message on stderr begins "pgpk COMMAND: " (pgpk_cli_err()),
 *    or "pgpk-helper COMMAND: " for pgpk-helper's own commands;
 *  - --help (and -h) prints the command's usage on stdout and exits 0; a
 *    missing or wrong argument is named in one line, then the usage, on
 *    stderr, exit 2;
 *  - times in ISO 8601 (helper/pgpk_text.h);
 *  - a policy option is applied, or refused with a message naming it;
 *  - binary output never goes to a terminal unless asked for.
 *
 * Each command takes the arguments after the program name (argv[0] is
 * the command) and returns the exit status.  To add one: its function
 * here, its file in helper/cli/BUILD, a line in helper/pgpk.c's table.
 */
#ifndef PGPK_COMMANDS_H
#define PGPK_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "helper/broker/pgpk_policy.h"
#include "helper/parser/pgpk_parser.h"

#define PGPK_VERSION "0.1"

struct pgpk_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary; /* one line: what it does */
};

/* pgpk's commands (helper/cli/). */
int pgpk_cmd_list(int argc, char **argv);
int pgpk_cmd_convert(int argc, char **argv);
int pgpk_cmd_key(int argc, char **argv);
int pgpk_cmd_sig(int argc, char **argv);
int pgpk_cmd_dump(int argc, char **argv);
int pgpk_cmd_verify(int argc, char **argv);
int pgpk_cmd_import(int argc, char **argv);
int pgpk_cmd_ima_sign(int argc, char **argv);

extern const struct pgpk_command pgpk_commands[];
extern const size_t pgpk_ncommands;

/* What a command's --help says. */
struct pgpk_usage {
	const char *prog; /* "pgpk" or "pgpk-helper" */
	const char *cmd;
	const char *args; /* one line */
	const char *about; /* lines, each ending in \n */
	const char *options; /* lines "  --x  what\n", or NULL */
	const char *const *policy; /* the policy options it applies, or NULL */
	const char *status; /* its EXIT STATUS lines */
};

/* The command now running (names it in every message). */
void pgpk_cli_begin(const struct pgpk_usage *u);
const struct pgpk_usage *pgpk_cli_current(void);
/* "pgpk COMMAND: " and the message, one line on stderr. */
void pgpk_cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, then the usage on stderr; returns 2. */
int pgpk_cli_usage_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* --help or -h. */
bool pgpk_cli_is_help(const char *arg);
/* The whole help on stdout; returns 0. */
int pgpk_cli_help(void);

/*
 * The policy options the user commands apply (pgpk(1), POLICY), with
 * these defaults: the upcall's, but --max-input the commands' own cap
 * (PGPK_CLI_MAX_INPUT) and no --timeout-ms (none unless given).
 */
extern const char *const pgpk_cli_policy[];
void pgpk_cli_policy_default(struct pgpk_policy *p);
/*
 * argv[*a] as a policy option: 1 and *a past it if it is one this
 * command applies; -1 (said) if it is one it does not, or its value is
 * bad; 0 if it is no policy option.
 */
int pgpk_cli_policy_option(struct pgpk_policy *p, int argc, char **argv,
			   int *a);
/* argv[*a] as --anchors DIR: 1, -1 (said, a usage error) or 0, as above. */
int pgpk_cli_anchors_option(int argc, char **argv, int *a, const char **dir);

/*
 * The arguments "[--json] FILE" (list, dump): 0 with *json and *path
 * set; -1 when --help was answered (exit 0); or the exit status of a
 * usage error, said (naming missing when FILE is).
 */
int pgpk_cli_json_file(int argc, char **argv, bool *json, const char **path,
		       const char *missing);

/* Whole inputs: a file's octets ("-" = stdin). */
#define PGPK_CLI_MAX_INPUT (256u * 1024 * 1024)
/*
 * Read or map path (at most max octets); 0, or 2 said ("pgpk CMD: FILE:
 * why").  Release with pgpk_cli_release().
 */
int pgpk_cli_read(const char *path, size_t max, struct pgpk_file *f);
void pgpk_cli_release(struct pgpk_file *f);

/*
 * Binary output: to -o FILE, or to stdout unless it is a terminal.
 * pgpk_cli_binary_ok() before any work (0, or 2 said), then
 * pgpk_cli_write_binary() (0, or 2 said).
 */
int pgpk_cli_binary_ok(const char *out_path);
int pgpk_cli_write_binary(const char *out_path, const void *buf, size_t len);

/* The sandboxed child of a command (run.c): its work and what it gets. */
struct pgpk_cli_child {
	int (*work)(struct pgpk_reply *r, void *arg); /* runs in the child */
	void *arg;
	unsigned int
		threads; /* validation threads, started before the filter */
	unsigned int timeout_ms; /* 0: none (its CPU time is bounded) */
	const char *sandbox_user; /* --sandbox-user, when root */
	/* 'B' frames, each checked by the command; NULL: none allowed.
	 * Returns 0, or an exit status (the child's answer is refused). */
	int (*blob)(void *ctx, const uint8_t *blob, size_t len);
	void *blob_ctx;
};

/*
 * Fork the child, enter it into the sandbox (the upcall's seccomp
 * allowlist, sandbox/pgpk_sandbox.h), run its work there, relay its
 * output and messages; returns the exit status: the child's, or 2 (said)
 * if it died, broke its frames or ran out of time.
 */
int pgpk_cli_sandboxed(const struct pgpk_cli_child *c);

#endif /* PGPK_COMMANDS_H */
