#!/bin/sh
# The series' KUnit suites (pgpk_canon, pgpk_frame, pgpk_rebuild,
# pgpk_key, pgpk_verify), built into the in-tree pgpk.ko of the 7.3-pgpk-debug kernel:
# they run when it loads.  PASS only if every suite reports, with no failed case.
# pgpk-timeout: 120
. /pgpk/lib.sh

ko=$PGPK_CASE_DIR/pgpk-intree.ko
[ -f "$ko" ] || pgpk_fail "no $ko (upstream/vm-test.sh copies it)"
grep -q '^pgpk ' /proc/modules && pgpk_fail "a pgpk module is loaded already"
pgpk_kmsg_mark
expect_ok insmod "$ko"
pgpk_kmsg_since >/tmp/kunit.log
grep -E 'KTAP|^ *(not )?ok |# (Totals|pgpk)' /tmp/kunit.log | sed 's/^\[[^]]*\] //'
for s in pgpk_canon pgpk_frame pgpk_rebuild pgpk_key pgpk_verify; do
	grep -q -E "^(\[[^]]*\] )? *ok [0-9]+ $s\$" /tmp/kunit.log ||
		pgpk_fail "suite $s did not pass (see above)"
done
grep -q -E 'not ok' /tmp/kunit.log && pgpk_fail "a KUnit case failed"
# Does .builtin_trusted_keys hold an OpenPGP key (CONFIG_SYSTEM_OPENPGP_KEYS,
# 82-builtin-keys)?  Such keys pin the module, as any OpenPGP key does.
builtin_openpgp() {
	_b=$(awk '$9 == ".builtin_trusted_keys:" { print $1 }' /proc/keys)
	[ -n "$_b" ] || return 1
	for _k in $(keyctl rlist "$(printf '%d' "0x$_b")" 2>/dev/null); do
		awk -v id="$(printf '%08x' "$_k")" '$1 == id && / PGP[.]/ { f = 1 }
			END { exit !f }' /proc/keys && return 0
	done
	return 1
}
if builtin_openpgp; then
	pgpk_run rmmod pgpk && pgpk_fail "pgpk unloaded while .builtin_trusted_keys holds its keys"
else
	expect_ok rmmod pgpk
fi
exit 0
