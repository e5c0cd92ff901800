#!/bin/sh
# tools/testing/selftests/keys/keys_pgpk (built static by
# upstream/vm-test.sh) against the in-tree pgpk.ko of the 7.3-pgpk-debug
# kernel (or, on another kernel, the out-of-tree module), once as root
# and once as nobody.
# pgpk-timeout: 120
. /pgpk/lib.sh

ko=$PGPK_CASE_DIR/pgpk-intree.ko
sel=$PGPK_CASE_DIR/keys_pgpk
[ -x "$sel" ] || pgpk_fail "no $sel (upstream/vm-test.sh builds it)"
# The in-tree module on 7.3-pgpk-debug; elsewhere the out-of-tree one
# (which behaves the same: upstream/README.md, "The compat split").
if [ -f "$ko" ]; then
	grep -q '^pgpk ' /proc/modules || expect_ok insmod "$ko"
else
	pgpk_load
fi
expect_ok "$sel"
echo "$PGPK_OUT" | tail -n 12
# The initramfs root comes from mktemp -d (mode 0700): let nobody in.
chmod 0755 /
cp "$sel" /tmp/keys_pgpk && chmod 755 /tmp/keys_pgpk
expect_ok su -s /bin/sh nobody -c /tmp/keys_pgpk
echo "$PGPK_OUT" | tail -n 3
pgpk_unload_unless_builtin
exit 0
