#!/bin/sh
# Subkeys come as canonical blobs (pgpk-helper key --select, or import):
# loaded with their primary's policy, named by their primary key's user
# ID and their own key ID (seed 007), found
# by fingerprint and key ID.  An add_key description is the key's name
# only, never a selection: OpenPGP input always loads the primary.
# OpenPGP-format packet headers (RFC 9580 4.2.1, shortest and 5-octet
# lengths) bind as legacy ones do.
#
# Abuse tried: a description naming the subkey on OpenPGP input (the old
# selection form) must not load the subkey nor make the primary findable
# under the subkey's fingerprint.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/rsa2048-sub.name rsa2048.pgp rsa2048.fpr rsa2048-sub.fpr \
	rsa2048-sub.keyid \
	k/rsa2048-sub.pgpk k/newfmt.pgp k/newfmt5.pgp
pgpk_load

sub=$(cat "$PGPK_DATA/rsa2048-sub.fpr")
subid=$(cat "$PGPK_DATA/rsa2048-sub.keyid")
prim=$(cat "$PGPK_DATA/rsa2048.fpr")

# Canonical subkey: found by fingerprint and key ID, its own name.
expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048-sub.pgpk"
id=$PGPK_OUT
# its primary key's user ID, its own key ID (seed 007)
want=$(cat "$K/rsa2048-sub.name")
assert_contains "$want" " $(echo "$subid" | cut -c 9-16 | tr 'A-F' 'a-f')" \
	"the subkey's key ID in its name"
assert_eq "$want" "$(pgpk_key_desc_of "$id")" "subkey description"
expect_ok keyctl search @s asymmetric "id:$sub"
assert_eq "$id" "$PGPK_OUT" "subkey found by fingerprint"
expect_ok keyctl search @s asymmetric "id:$subid"
assert_eq "$id" "$PGPK_OUT" "subkey found by key ID"
expect_fail ENOKEY keyctl search @s asymmetric "id:$prim"
expect_ok keyctl pkey_query "$id" 0 enc=pkcs1 hash=sha256
assert_contains "$PGPK_OUT" "key_size=2048" "pkey_query"
expect_ok keyctl unlink "$id" @s

# A description is a name: OpenPGP input gives the primary, whatever it
# says.
expect_ok keyctl padd asymmetric "$sub" @s <"$PGPK_DATA/rsa2048.pgp"
id=$PGPK_OUT
assert_eq "$sub" "$(pgpk_key_desc_of "$id")" "description (a name)"
expect_ok keyctl search @s asymmetric "id:$prim"
assert_eq "$id" "$PGPK_OUT" "the primary, found by its fingerprint"
expect_fail ENOKEY keyctl search @s asymmetric "id:$sub"
expect_ok keyctl unlink "$id" @s

# The same certificate with OpenPGP-format packet headers.
for f in newfmt newfmt5; do
	expect_ok keyctl padd asymmetric "" @s <"$K/$f.pgp"
	id=$PGPK_OUT
	expect_ok keyctl search @s asymmetric "id:$prim"
	assert_eq "$id" "$PGPK_OUT" "$f: the primary"
	expect_ok keyctl unlink "$id" @s
done
exit 0
