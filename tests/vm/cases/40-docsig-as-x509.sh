#!/bin/sh
# Issue 9, finding 1: an OpenPGP document signature is not an X.509
# certificate signature.  T, a trusted pgpk key, signs a document D an
# attacker supplied (an ordinary v4 binary signature: pgpk_test verifies
# it).  D is a TBSCertificate cut short so that D || v4 trailer is the
# whole TBSCertificate (the trailer ends a private extension's OCTET
# STRING), so T's RSA value is also a sha256WithRSAEncryption signature,
# AKID = T's key ID, of a certificate for the attacker's key.  A keyring
# restricted to T (as a key, or a keyring holding it) admitted it; now
# T's subtype refuses every signature pgpk did not frame itself.
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/t.pgpk f/docsig.pgpks f/x509-by-docsig.der
pgpk_load

expect_ok keyctl newring trusted @s
trusted=$PGPK_OUT
expect_ok keyctl padd asymmetric "" "$trusted" <"$F/t.pgpk"
t=$PGPK_OUT
expect_ok keyctl link "$t" @s
# T really made the document signature the certificate carries.
expect_ok keyctl padd pgpk_test docsig @s <"$F/docsig.pgpks"

for anchor in "$t" "$trusted"; do
	expect_ok keyctl newring "restricted-$anchor" @s
	ring=$PGPK_OUT
	expect_ok keyctl restrict_keyring "$ring" asymmetric \
		"key_or_keyring:$anchor"
	pgpk_kmsg_mark
	expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring" \
		<"$F/x509-by-docsig.der"
	assert_contains "$(pgpk_kmsg_since)" \
		"refused a signature pgpk did not frame (encoding pkcs1," \
		"kernel log"
	assert_eq "" "$(keyctl rlist "$ring")" "keys in the restricted keyring"
done
# The certificate itself is well-formed: an unrestricted keyring takes it.
expect_ok keyctl padd asymmetric "" @s <"$F/x509-by-docsig.der"
exit 0
