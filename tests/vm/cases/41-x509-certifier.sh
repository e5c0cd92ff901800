#!/bin/sh
# Issue 9, finding 2: only an OpenPGP key satisfies a pgpk key's
# asym_auth.  An X.509 key X whose subject key identifier is 8 octets
# signed (PKCS#1, SHA-256) a file that is exactly the v4 0x13
# certification data of key K (0x99 K, 0xB4 user ID, trailer); K's
# canonical blob offers that value as its certification with issuer key
# ID = X's SKID.  restrict.c found X by that ID and verified it; now the
# certification's encoding is one only pgpk keys accept: refused, for
# root and for nobody alike.
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/x509-certifier.der f/k-by-x509.pgpk
pgpk_load

expect_ok keyctl newring trusted @s
trusted=$PGPK_OUT
expect_ok keyctl padd asymmetric "" "$trusted" <"$F/x509-certifier.der"
x=$PGPK_OUT
for anchor in "$x" "$trusted"; do
	expect_ok keyctl newring "restricted-$anchor" @s
	ring=$PGPK_OUT
	expect_ok keyctl restrict_keyring "$ring" asymmetric \
		"key_or_keyring:$anchor"
	expect_fail EINVAL keyctl padd asymmetric "" "$ring" \
		<"$F/k-by-x509.pgpk"
	assert_eq "" "$(keyctl rlist "$ring")" "keys in the restricted keyring"
done
# The same as nobody, in a keyring of his own restricted to X.
chmod 0755 /
if pgpk_run su -s /bin/sh nobody -c "keyctl session - sh -c '
	ring=\$(keyctl newring mine @s) &&
	keyctl restrict_keyring \$ring asymmetric key_or_keyring:$x &&
	keyctl padd asymmetric \"\" \$ring <$F/k-by-x509.pgpk'"; then
	pgpk_fail "nobody's restricted keyring admitted K"
fi
assert_contains "$PGPK_OUT" "$(pgpk_errno_text EINVAL)" "nobody's add"
# K itself is a good key: it loads where nothing restricts it.
expect_ok keyctl padd asymmetric "" @s <"$F/k-by-x509.pgpk"
exit 0
