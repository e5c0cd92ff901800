#!/bin/sh
# A lying helper offers A's subkey S as the subkey of another primary
# key B, with B's genuine binding of S (its RSA value is in the submitted
# bytes, appended to A's certificate) but B's key packet nowhere in them.
# Without the primary key binding, a keyring restricted to B admitted S
# as B's subkey.  An upcall answer is a certificate's primary key now: any
# subkey answer is refused, EKEYREJECTED with a "binding:" line (subkeys
# come as canonical blobs, the submitter's word).
#
# Issue 26's reproduction: S re-wrapped as a public-key packet (tag 6),
# so that the packet binding holds, B's binding of S carrying the IMA
# mark: before, this made a PGP-IMA key from an OpenPGP add_key (which an
# honest upcall never makes).  Refused: the answer is a subkey.  And an
# answer naming a primary key, B, that is nowhere in the submitted bytes,
# without saying it is a subkey: the decoder refuses it (a primary key
# is for a subkey, and only).
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/b.pgpk f/lying-primary.pgp f/lying-primary.select \
	f/lying-rewrapped.pgp f/lying-names-b.pgp k/fake-helper.sh
pgpk_load

pgpk_fake_helper "$F/liar"

expect_ok keyctl padd asymmetric "" @s <"$F/b.pgpk"
b=$PGPK_OUT
expect_ok keyctl newring restricted @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$b"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric \
	"$(cat "$F/lying-primary.select")" "$ring" <"$F/lying-primary.pgp"
assert_contains "$(pgpk_kmsg_since)" \
	"binding: primary key (a subkey was answered) not where the helper said" \
	"kernel log"
for ring_to in "$ring" @s; do
	pgpk_kmsg_mark
	expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring_to" \
		<"$F/lying-rewrapped.pgp"
	assert_contains "$(pgpk_kmsg_since)" \
		"binding: primary key (a subkey was answered)" "kernel log"
done
assert_not_contains "$(cat /proc/keys)" "PGP-IMA" "/proc/keys"
pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$F/lying-names-b.pgp"
assert_contains "$(pgpk_kmsg_since)" "a primary key is for a subkey, and only" \
	"kernel log"
assert_eq "" "$(keyctl rlist "$ring")" "keys in the restricted keyring"
exit 0
