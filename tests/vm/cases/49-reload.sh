#!/bin/sh
# After all other cases: keys the module made outlive it (their payload
# holds no pointer into the module), it unloads and loads again cleanly,
# and works after the reload.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/rsa2048.pgpk k/certified.pgpk
pgpk_load

expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048.pgpk"
id=$PGPK_OUT
expect_ok keyctl newring restricted @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$id"
pgpk_unload
# The key, its /proc/keys line and its crypto still work without us.
expect_ok keyctl pkey_query "$id" 0 enc=pkcs1 hash=sha256
expect_ok cat /proc/keys
expect_ok keyctl describe "$id"
pgpk_kmsg_mark
pgpk_load
pgpk_unload
pgpk_load
log=$(pgpk_kmsg_since)
echo "$log"
assert_not_contains "$log" "WARNING" "kernel log"
assert_not_contains "$log" "BUG" "kernel log"
expect_ok keyctl padd asymmetric "" "$ring" <"$K/certified.pgpk"
exit 0
