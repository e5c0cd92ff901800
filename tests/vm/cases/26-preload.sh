#!/bin/sh
# Preload: at init the module loads the firmware file its "bundle"
# parameter names (here pgpk/pubring.pgpk, a bundle of canonical keys) into its trusted keyring ".pgpk", one log
# line per key, skipping an invalid record; a message signed by a
# preloaded key verifies with nothing in the session keyring; user space
# cannot add keys to ".pgpk", root can clear it.
. /pgpk/lib.sh
D=$PGPK_DATA
K=$D/k
pgpk_need_module
pgpk_need_data k/pubring.pgpk k/certified.pgpk msg.rsa2048.gpg
pgpk_unload

mkdir -p /lib/firmware/pgpk
cp "$K/pubring.pgpk" /lib/firmware/pgpk/pubring.pgpk
pgpk_kmsg_mark
pgpk_load bundle=pgpk/pubring.pgpk
log=$(pgpk_kmsg_since)
echo "$log"
short=$(cut -c 33-40 "$D/rsa2048.fpr" | tr 'A-F' 'a-f')
assert_contains "$log" \
	"Loaded key 'pgpk test rsa2048 <rsa2048@pgpk.test> $short'" "kernel log"
assert_contains "$log" "bundle key 1: refused (-74), skipped" "kernel log"
assert_contains "$log" "Loaded key 'pgpk test rsa3072" "kernel log"

ring=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
[ -n "$ring" ] || pgpk_fail "no .pgpk keyring in /proc/keys"
expect_ok keyctl rlist $((0x$ring))
assert_eq 2 "$(echo "$PGPK_OUT" | wc -w)" "keys in .pgpk"

if [ -x "$PGPK_HELPER" ]; then
	pgpk_kmsg_mark
	expect_ok keyctl padd pgpk_test preloaded @s <"$D/msg.rsa2048.gpg"
	assert_not_contains "$(pgpk_kmsg_since)" "verified by a session key" \
		"kernel log"
fi
expect_fail EACCES keyctl padd asymmetric "" $((0x$ring)) \
	<"$K/certified.pgpk"

# Preloaded keys hold the module (their subtype is its code): root
# clears ".pgpk" (it may, not link into it) to unload.
expect_fail EACCES keyctl link "$(keyctl search @s pgpk_test preloaded)" \
	$((0x$ring))
expect_ok keyctl clear $((0x$ring))
rm -f /lib/firmware/pgpk/pubring.pgpk
pgpk_unload
pgpk_kmsg_mark
pgpk_load bundle=pgpk/pubring.pgpk
assert_contains "$(pgpk_kmsg_since)" "no key bundle pgpk/pubring.pgpk" \
	"kernel log"
pgpk_unload
pgpk_load
exit 0
