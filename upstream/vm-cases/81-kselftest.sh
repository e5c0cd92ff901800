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
