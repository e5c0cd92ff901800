/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pgpk-helper command table.  Every command is one function taking the
 * arguments after the program name (argv[0] is the command name itself)
 * and returning the process exit status: 0 ok, 1 "no" (e.g. bad
 * signature), 2 error (a message naming the problem on stderr).
 *
 * To add a command: declare its function here (or in its own header
 * included here), add one line to pgpk_commands[] in main.c and its source
 * file to //helper/cli in helper/cli/BUILD.
 */
#ifndef PGPK_COMMANDS_H
#define PGPK_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "helper/upcall/pgpk_runtime.h" /* upcall, debug, sandbox-policy, selftest */

struct pgpk_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage; /* one line: arguments, then a summary */
};

/* Parsing CLI (helper/cli/). */
int pgpk_cmd_list(int argc, char **argv);
int pgpk_cmd_convert(int argc, char **argv);
int pgpk_cmd_key(int argc, char **argv);
int pgpk_cmd_sig(int argc, char **argv);
int pgpk_cmd_dump(int argc, char **argv);

/*
 * Whole certificates into the kernel: each primary key through the
 * upcall, each signing subkey as a canonical key (helper/cli/import.c).
 */
int pgpk_cmd_import(int argc, char **argv);

/* User-space reference of the kernel's signature check (helper/cli/verify.c). */
int pgpk_cmd_verify(int argc, char **argv);

/* IMA signatures through gpg-agent (helper/cli/ima.c). */
int pgpk_cmd_ima_sign(int argc, char **argv);

/* Shared by the CLI commands (helper/cli/util.c). */
#define PGPK_CLI_MAX_INPUT (256u * 1024 * 1024)
/* Read a whole file ("-" = stdin) into a malloc()ed buffer; on error print
 * a message naming the file and return -errno. */
int pgpk_cli_read_file(const char *path, uint8_t **data, size_t *len);
/*
 * The same for a large input read once: a regular file is mapped
 * read-only instead (no copy, no page faults of fresh memory: 20 ms of
 * `list`'s 27 MB keyring, all of it before the threads start); other
 * inputs are read.  The file must not shrink while mapped (SIGBUS): dpkg
 * and gpg replace keyrings by renaming.  Release with
 * pgpk_cli_unmap_file().
 */
int pgpk_cli_map_file(const char *path, const uint8_t **data, size_t *len,
		      bool *mapped);
void pgpk_cli_unmap_file(const uint8_t *data, size_t len, bool mapped);
/* Write all of buf to stdout; -errno on error. */
int pgpk_cli_write_stdout(const void *buf, size_t len);

#endif /* PGPK_COMMANDS_H */
