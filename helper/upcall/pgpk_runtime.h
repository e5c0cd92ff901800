/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pgpk-helper commands of the runtime: the request-key upcall, its
 * debug twin, the sandbox policy printer and the self-test.  Each takes
 * the arguments after the command name (argv[0] is the command) and
 * returns the process exit status.
 */
#ifndef PGPK_RUNTIME_H
#define PGPK_RUNTIME_H

int pgpk_cmd_upcall(int argc, char **argv);
int pgpk_cmd_debug(int argc, char **argv);
int pgpk_cmd_sandbox_policy(int argc, char **argv);
int pgpk_cmd_selftest(int argc, char **argv);

#endif /* PGPK_RUNTIME_H */
