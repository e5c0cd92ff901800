#!/bin/sh
# OpenPGP as it exists in the wild: RSA certificates of Debian developers
# (debian-keyring, with all their certifications, under 64 KiB) through
# the upcall.  A loaded key has gpg's fingerprint (lookup by it) and size
# (pkey_query); an expired certificate is refused with EKEYEXPIRED, an
# RSA size the kernel's RSA lacks (8192) with ENOPKG; nothing is
# "malformed" (EBADMSG) and no other error appears.
# pgpk-timeout: 180
. /pgpk/lib.sh
W=$PGPK_DATA/k/wild
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/wild/list.txt
pgpk_load

ok=0
refused=0
while read -r n fpr bits validity; do
	echo "=== $n: $fpr RSA $bits validity '$validity'"
	if pgpk_run keyctl padd asymmetric "" @s <"$W/$n.pgp"; then
		id=$PGPK_OUT
		expect_ok keyctl search @s asymmetric "id:$fpr"
		assert_eq "$id" "$PGPK_OUT" "key found by gpg's fingerprint"
		q=$(keyctl pkey_query "$id" 0 enc=pkcs1 hash=sha256)
		assert_contains "$q" "key_size=$bits" "pkey_query"
		[ "$validity" != e ] ||
			pgpk_fail "$n: expired certificate accepted"
		ok=$((ok + 1))
		continue
	fi
	refused=$((refused + 1))
	if [ "$validity" = e ]; then
		assert_contains "$PGPK_OUT" "$(pgpk_errno_text EKEYEXPIRED)" \
			"error for an expired certificate"
	elif [ "$bits" -gt 4096 ]; then
		assert_contains "$PGPK_OUT" "$(pgpk_errno_text ENOPKG)" \
			"error for RSA $bits"
	else
		case "$PGPK_OUT" in
		*"$(pgpk_errno_text EKEYREJECTED)"*) ;;
		*) pgpk_fail "$n: unexpected error: $PGPK_OUT" ;;
		esac
	fi
done <"$W/list.txt"
echo "wild keys: $ok loaded, $refused refused with the named errno"
[ "$ok" -ge 1 ] || pgpk_fail "no certificate from debian-keyring loaded"
exit 0
