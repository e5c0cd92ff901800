// SPDX-License-Identifier: GPL-2.0
/* pgpk's commands: the table pgpk (and, for one release, pgpk-helper)
 * dispatches on. */
#include "helper/cli/commands.h"

const struct pgpk_command pgpk_commands[] = {
	{ "list", pgpk_cmd_list, "every key and subkey of a keyring" },
	{ "key", pgpk_cmd_key, "a canonical key blob, for keyctl padd" },
	{ "sig", pgpk_cmd_sig,
	  "a canonical signature blob, for keyctl padd pgpk_test" },
	{ "convert", pgpk_cmd_convert, "key or sig, by the input" },
	{ "dump", pgpk_cmd_dump,
	  "a canonical blob as the kernel's decoder reads it" },
	{ "verify", pgpk_cmd_verify,
	  "check signatures as the kernel does (gpgv's job)" },
	{ "import", pgpk_cmd_import,
	  "add certificates' RSA keys to a kernel keyring" },
	{ "ima-sign", pgpk_cmd_ima_sign,
	  "sign files for IMA appraisal through gpg-agent" },
};

const size_t pgpk_ncommands = sizeof(pgpk_commands) / sizeof(pgpk_commands[0]);
