#!/bin/sh
# Restricted keyrings: the key's asym_auth is its certification with a
# digest the kernel computed.  "key_or_keyring:<trusted>" accepts a key
# certified by a trusted key (third-party certification, subkey binding)
# and refuses one that is not (ENOKEY), or one offered with a revocation
# as its certification (EBADMSG).  Which certification a canonical key
# carries is its maker's choice; through the upcall, the helper's: the
# certification of a trust anchor (/etc/pgpk/anchors/), else the key's
# own.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/rsa2048.pgpk k/certified-by-rsa2048.pgpk k/rsa3072.pgpk \
	k/rsa2048-sub.pgpk k/certified.pgp k/cert-revocation.pgpk rsa2048.pgp
pgpk_load

expect_ok keyctl newring trusted @s
trusted=$PGPK_OUT
expect_ok keyctl padd asymmetric "" "$trusted" <"$K/rsa2048.pgpk"
signer=$PGPK_OUT
expect_ok keyctl newring restricted @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric \
	"key_or_keyring:$trusted"

# Certified by rsa2048 (gpg --quick-sign-key): accepted.
expect_ok keyctl padd asymmetric "" "$ring" <"$K/certified-by-rsa2048.pgpk"
# A revocation of that certification offered as the certification: it
# is made by the trusted key, but vouches for nothing (RFC 9580 5.2.1).
expect_fail EBADMSG keyctl padd asymmetric "" "$ring" \
	<"$K/cert-revocation.pgpk"
# Only self-certified: refused.
expect_fail ENOKEY keyctl padd asymmetric "" "$ring" <"$K/rsa3072.pgpk"
# rsa2048's subkey, bound by rsa2048: accepted.
expect_ok keyctl padd asymmetric "" "$ring" <"$K/rsa2048-sub.pgpk"

# Restricted to one key, by key: the same answers.
expect_ok keyctl newring bykey @s
ring2=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring2" asymmetric "key_or_keyring:$signer"
expect_ok keyctl padd asymmetric "" "$ring2" <"$K/certified-by-rsa2048.pgpk"
expect_fail ENOKEY keyctl padd asymmetric "" "$ring2" <"$K/rsa3072.pgpk"

# The OpenPGP form goes through the upcall: with rsa2048 a trust anchor
# of the helper, it gets rsa2048's certification; without, its own (and
# the restriction refuses it).
pgpk_need_helper
expect_ok keyctl newring viaupcall @s
ring3=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring3" asymmetric "key_or_keyring:$trusted"
expect_fail ENOKEY keyctl padd asymmetric "" "$ring3" <"$K/certified.pgp"
trap 'rm -rf /etc/pgpk/anchors' EXIT
mkdir -p /etc/pgpk/anchors
cp "$PGPK_DATA/rsa2048.pgp" /etc/pgpk/anchors/
expect_ok keyctl padd asymmetric "" "$ring3" <"$K/certified.pgp"
exit 0
