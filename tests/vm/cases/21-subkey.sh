#!/bin/sh
# A description of 16, 40 or 64 hex digits selects a key: OpenPGP input
# loads the selected subkey (by fingerprint or key ID); a canonical key
# loads only if it is the one selected (else ENOKEY); without a user ID a
# subkey is described as "PGP subkey <key ID>"; OpenPGP-format packet
# headers bind as legacy ones do.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data rsa2048.pgp rsa2048.fpr rsa2048-sub.fpr rsa2048-sub.keyid \
	k/rsa2048-sub.pgpk k/newfmt.pgp k/newfmt5.pgp
pgpk_load

sub=$(cat "$PGPK_DATA/rsa2048-sub.fpr")
subid=$(cat "$PGPK_DATA/rsa2048-sub.keyid")
prim=$(cat "$PGPK_DATA/rsa2048.fpr")

expect_ok keyctl padd asymmetric "$sub" @s <"$PGPK_DATA/rsa2048.pgp"
id=$PGPK_OUT
assert_eq "$sub" "$(pgpk_key_desc_of "$id")" "description"
expect_ok keyctl search @s asymmetric "id:$sub"
assert_eq "$id" "$PGPK_OUT" "subkey found by fingerprint"
expect_fail ENOKEY keyctl search @s asymmetric "id:$prim"
expect_ok keyctl pkey_query "$id" 0 enc=pkcs1 hash=sha256
assert_contains "$PGPK_OUT" "key_size=2048" "pkey_query"

# By key ID, lower case: the same subkey.
lower=$(echo "$subid" | tr 'A-F' 'a-f')
expect_ok keyctl padd asymmetric "$lower" @s <"$PGPK_DATA/rsa2048.pgp"
expect_ok keyctl search @s asymmetric "id:$subid"

# Canonical subkey: with a matching selection, without one, mismatched.
expect_ok keyctl padd asymmetric "$sub" @s <"$K/rsa2048-sub.pgpk"
expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048-sub.pgpk"
want="PGP subkey $(echo "$subid" | tr 'A-F' 'a-f')"
assert_eq "$want" "$(pgpk_key_desc_of "$PGPK_OUT")" "subkey description"
expect_fail ENOKEY keyctl padd asymmetric "$prim" @s <"$K/rsa2048-sub.pgpk"

# The same certificate with OpenPGP-format packet headers (RFC 9580
# 4.2.1): the binding check finds the other header forms too.
for f in newfmt newfmt5; do
	expect_ok keyctl padd asymmetric "" @s <"$K/$f.pgp"
	expect_ok keyctl search @s asymmetric "id:$prim"
	expect_ok keyctl padd asymmetric "$sub" @s <"$K/$f.pgp"
	expect_ok keyctl search @s asymmetric "id:$sub"
done
exit 0
