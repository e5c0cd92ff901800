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
pgpk_unload_unless_builtin
exit 0
