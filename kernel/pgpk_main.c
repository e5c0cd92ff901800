// SPDX-License-Identifier: GPL-2.0
/*
 * pgpk: OpenPGP keys and signatures for the kernel keyrings, without an
 * OpenPGP parser in the kernel.  Module glue: the trusted keyring ".pgpk",
 * the preloaded key bundle, init and exit.
 *
 * The bundle is a firmware file named by the "bundle" parameter (e.g.
 * "options pgpk bundle=pgpk/pubring.pgpk" in /etc/modprobe.d, the file in
 * /lib/firmware, made by "pgpk-helper bundle" from a pubring.gpg): a
 * sequence of records, each a 4-octet big-endian length and one canonical
 * key.  No default: the firmware loader logs an error for a missing file.  It is read at module
 * init, before user space can answer upcalls; OpenPGP is refused there.
 * One log line per key; invalid entries are skipped.
 */
#define pr_fmt(fmt) "pgpk: " fmt

#include <linux/cred.h>
#include <linux/firmware.h>
#include <linux/key.h>
#include <linux/module.h>
#include "pgpk.h"

static char *pgpk_bundle = "";
module_param_named(bundle, pgpk_bundle, charp, 0444);
MODULE_PARM_DESC(bundle, "Firmware file of canonical keys to trust");

struct key *pgpk_trusted_keys;

static void pgpk_preload_one(const u8 *blob, u32 len, unsigned int i)
{
	key_ref_t key;

	if (!pgpk_canon_is_canonical(blob, len)) {
		pr_err("bundle key %u: not canonical, skipped\n", i);
		return;
	}
	key = key_create_or_update(make_key_ref(pgpk_trusted_keys, 1),
				   "asymmetric", NULL, blob, len,
				   (KEY_POS_ALL & ~KEY_POS_SETATTR) |
				   KEY_USR_VIEW | KEY_USR_READ,
				   KEY_ALLOC_NOT_IN_QUOTA | KEY_ALLOC_BUILT_IN |
				   KEY_ALLOC_BYPASS_RESTRICTION);
	if (IS_ERR(key)) {
		pr_err("bundle key %u: refused (%ld), skipped\n", i,
		       PTR_ERR(key));
		return;
	}
	pr_notice("Loaded key '%s'\n", key_ref_to_ptr(key)->description);
	key_ref_put(key);
}

static void pgpk_preload(void)
{
	const struct firmware *fw;
	const u8 *p, *end;
	unsigned int i;
	u32 len;

	if (!*pgpk_bundle)
		return;
	if (firmware_request_nowarn(&fw, pgpk_bundle, NULL)) {
		pr_info("no key bundle %s\n", pgpk_bundle);
		return;
	}
	end = fw->data + fw->size;
	for (p = fw->data, i = 0; p < end; p += len, i++) {
		if (end - p < 4) {
			pr_err("bundle truncated at offset %zu\n",
			       (size_t)(p - fw->data));
			break;
		}
		len = get_unaligned_be32(p);
		p += 4;
		if (len > end - p) {
			pr_err("bundle key %u: %u octets run past the end\n",
			       i, len);
			break;
		}
		pgpk_preload_one(p, len, i);
	}
	release_firmware(fw);
}

static int __init pgpk_init(void)
{
	int ret;

	pgpk_subtype_init();
	ret = pgpk_upcall_init();
	if (ret)
		return ret;
	pgpk_trusted_keys = keyring_alloc(".pgpk", GLOBAL_ROOT_UID,
					  GLOBAL_ROOT_GID, current_cred(),
					  (KEY_POS_ALL & ~KEY_POS_SETATTR) |
					  KEY_USR_VIEW | KEY_USR_READ |
					  KEY_USR_SEARCH,
					  KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	if (IS_ERR(pgpk_trusted_keys)) {
		ret = PTR_ERR(pgpk_trusted_keys);
		goto error_upcall;
	}
	/* Its keys pin the module: root may clear it to unload. */
	set_bit(KEY_FLAG_ROOT_CAN_CLEAR, &pgpk_trusted_keys->flags);
	ret = pgpk_parser_init();
	if (ret)
		goto error_put_trusted;
	ret = pgpk_test_key_init();
	if (ret)
		goto error_parser;
	pgpk_preload();
	return 0;

error_parser:
	pgpk_parser_exit();
error_put_trusted:
	key_put(pgpk_trusted_keys);
error_upcall:
	pgpk_upcall_exit();
	return ret;
}

static void __exit pgpk_exit(void)
{
	pgpk_test_key_exit();
	pgpk_parser_exit();
	key_revoke(pgpk_trusted_keys);
	key_put(pgpk_trusted_keys);
	pgpk_upcall_exit();
}

module_init(pgpk_init);
module_exit(pgpk_exit);

MODULE_DESCRIPTION("OpenPGP keys and signatures, parsed in user space");
MODULE_AUTHOR("pgpk");
MODULE_LICENSE("GPL");
