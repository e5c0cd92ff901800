#!/bin/sh
# The certification a helper offers as asym_auth must be in the submitted
# bytes, like every other part of its answer.  certified.pgp without
# rsa2048's certification, answered by a lying helper with the
# certification from the full certified.pgp: a keyring restricted to
# rsa2048 refused the stripped bytes from the real helper (self-signed
# only) but admitted them from the liar.  Now EKEYREJECTED with a
# "binding:" line (the value is not at its offset in the stripped bytes);
# the same answer for the full bytes passes.
. /pgpk/lib.sh
R=$PGPK_DATA/r
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/fake-helper.sh k/rsa2048.pgpk k/certified.pgp \
	r/cert-stripped.pgp
pgpk_load

pgpk_fake_helper "$R/liar"

expect_ok keyctl newring trusted @s
trusted=$PGPK_OUT
expect_ok keyctl padd asymmetric "" "$trusted" <"$K/rsa2048.pgpk"
expect_ok keyctl newring restricted @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric \
	"key_or_keyring:$trusted"

pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring" \
	<"$R/cert-stripped.pgp"
assert_contains "$(pgpk_kmsg_since)" \
	"binding: signature value not where the helper said" "kernel log"
assert_eq "" "$(keyctl rlist "$ring")" "keys in the restricted keyring"

expect_ok keyctl padd asymmetric "" "$ring" <"$K/certified.pgp"
exit 0
