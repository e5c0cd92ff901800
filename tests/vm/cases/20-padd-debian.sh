#!/bin/sh
# keyctl padd of real RSA keys from debian-archive-keyring: one upcall per
# add_key, seed 007's description (the user ID its self-signature
# certifies, without its comment, and the last 8 hex digits of the key
# ID: k/debN.name, made on the host), "PGP.rsa" and the key ID in
# /proc/keys, pkey_query bits, lookup by fingerprint and by key ID; the
# same blob again, also from another session, is a new upcall (nothing is
# shared between requests); the canonical blob gives an identical key with
# no upcall; the armored key is refused, naming the remedy.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb.count k/deb1.pgp k/deb1.asc k/deb1.pgpk k/deb1.fpr \
	k/deb1.name
pgpk_load

# key_line ID: the /proc/keys line of key ID, without its ID, timeout
# and use count (which differ between two otherwise identical keys).
key_line() {
	grep "^$(printf %08x "$1") " /proc/keys | cut -c 10- |
		awk '{ $2 = ""; $3 = ""; $4 = ""; print }'
}

n=$(cat "$K/deb.count")
[ "$n" -ge 1 ] || pgpk_fail "no RSA key found in debian-archive-keyring"
i=1
while [ "$i" -le "$n" ]; do
	fpr=$(cat "$K/deb$i.fpr")
	keyid=$(echo "$fpr" | cut -c 25-40)
	short=$(echo "$fpr" | cut -c 33-40 | tr 'A-F' 'a-f')
	uid=$(cat "$K/deb$i.uid")
	want=$(cat "$K/deb$i.name")
	echo "=== deb$i: $fpr '$uid'"

	up=$(count_upcalls)
	expect_ok keyctl padd asymmetric "" @s <"$K/deb$i.pgp"
	id=$PGPK_OUT
	pgpk_wait_upcalls $((up + 1))
	assert_eq asymmetric "$(pgpk_key_type "$id")" "key type"
	assert_eq "$want" "$(pgpk_key_desc_of "$id")" "description"
	line=$(key_line "$id")
	echo "/proc/keys: $line"
	assert_contains "$line" "PGP.rsa $short" "/proc/keys"
	expect_ok keyctl pkey_query "$id" 0 enc=pkcs1 hash=sha256
	assert_contains "$PGPK_OUT" "key_size=$(cat "$K/deb$i.bits")" \
		"pkey_query"
	query=$PGPK_OUT
	expect_ok keyctl search @s asymmetric "id:$fpr"
	assert_eq "$id" "$PGPK_OUT" "key found by fingerprint"
	expect_ok keyctl search @s asymmetric "id:$keyid"
	assert_eq "$id" "$PGPK_OUT" "key found by key ID"

	# The same blob again, here and from another session: an upcall
	# each, nothing served from another request.
	expect_ok keyctl padd asymmetric "" @s <"$K/deb$i.pgp"
	expect_ok keyctl session - keyctl padd asymmetric "" @s \
		<"$K/deb$i.pgp"
	pgpk_wait_upcalls $((up + 3)) "upcalls after repeats"

	# The canonical blob: the same key, no upcall.
	expect_ok keyctl padd asymmetric "" @s <"$K/deb$i.pgpk"
	cid=$PGPK_OUT
	assert_eq "$want" "$(pgpk_key_desc_of "$cid")" "canonical description"
	assert_eq "$line" "$(key_line "$cid")" "canonical /proc/keys line"
	expect_ok keyctl pkey_query "$cid" 0 enc=pkcs1 hash=sha256
	assert_eq "$query" "$PGPK_OUT" "canonical pkey_query"
	expect_ok keyctl search @s asymmetric "id:$fpr"
	sleep 0.5
	assert_eq $((up + 3)) "$(count_upcalls)" "upcalls after canonical"

	# Armored: one upcall, refused by the helper with the remedy.
	expect_fail EBADMSG keyctl padd asymmetric "" @s <"$K/deb$i.asc"
	pgpk_wait_upcalls $((up + 4))
	assert_contains "$(grep pgpk-helper "$PGPK_SYSLOG" | tail -n 1)" \
		"gpg --dearmor" "the helper's refusal"
	i=$((i + 1))
done
exit 0
