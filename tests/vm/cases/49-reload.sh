#!/bin/sh
# After all other cases: a pgpk key holds a reference on the module (its
# subtype, whose verify_signature is the module's code), so rmmod is
# refused while one lives and works once they are gone; the module loads
# again cleanly and works after the reload.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/rsa2048.pgpk k/certified-by-rsa2048.pgpk
pgpk_load

expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048.pgpk"
id=$PGPK_OUT
expect_ok cat /sys/module/pgpk/refcnt
[ "$PGPK_OUT" -ge 1 ] || pgpk_fail "the key holds no module reference"
expect_fail EAGAIN rmmod pgpk
pgpk_loaded || pgpk_fail "rmmod took the module from under a key"
expect_ok keyctl pkey_query "$id" 0 enc=pkcs1 hash=sha256
expect_ok keyctl unlink "$id" @s
pgpk_kmsg_mark
pgpk_unload
pgpk_load
pgpk_unload
pgpk_load
log=$(pgpk_kmsg_since)
echo "$log"
assert_not_contains "$log" "WARNING" "kernel log"
assert_not_contains "$log" "BUG" "kernel log"
expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048.pgpk"
id=$PGPK_OUT
expect_ok keyctl newring restricted @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$id"
expect_ok keyctl padd asymmetric "" "$ring" <"$K/certified-by-rsa2048.pgpk"
exit 0
