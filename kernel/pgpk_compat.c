// SPDX-License-Identifier: GPL-2.0
/*
 * Out of tree only (kernel/Kbuild; never in the upstream series): the
 * module parameters that Kconfig settings replace in tree, and
 * public_key's subtype operations, which unpatched kernels do not export.
 */
#include <linux/module.h>
#include "pgpk.h"

unsigned int pgpk_param_min_rsa_bits = 2048;
module_param_named(min_rsa_bits, pgpk_param_min_rsa_bits, uint, 0644);
MODULE_PARM_DESC(min_rsa_bits, "Smallest RSA modulus in bits (2048 at least)");

unsigned int pgpk_param_upcall_timeout = 5;
module_param_named(upcall_timeout, pgpk_param_upcall_timeout, uint, 0644);
MODULE_PARM_DESC(upcall_timeout, "Seconds add_key waits for pgpk-helper (1-60)");

static const char pgpk_encoding[] = "openpgp";
const char *const pgpk_compat_encoding = pgpk_encoding;

bool pgpk_sig_for_ima(const struct public_key_signature *sig)
{
	return !sig->auth_ids[0] && !sig->auth_ids[1] && !sig->auth_ids[2];
}

void pgpk_pk_describe(const struct key *key, struct seq_file *m)
{
	public_key_subtype.describe(key, m);
}

int pgpk_pk_query(const struct kernel_pkey_params *params,
		  struct kernel_pkey_query *info)
{
	return public_key_subtype.query(params, info);
}

int pgpk_pk_eds_op(struct kernel_pkey_params *params, const void *in,
		   void *out)
{
	return public_key_subtype.eds_op(params, in, out);
}
