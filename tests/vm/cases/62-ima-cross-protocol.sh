#!/bin/sh
# One key, one protocol, for IMA (SECURITY.md).  An OpenPGP document
# signature of D by an ordinary key is, bit for bit, an IMA signature of
# the file D || trailer: with that key in _ima, IMA must refuse it.  A key
# dedicated to IMA (its binding signature carries the mark, which the
# kernel confirms by verifying the binding with the primary key) verifies
# IMA signatures and refuses OpenPGP document signatures and X.509
# certificates.  A mark the
# kernel cannot confirm refuses the key; the mark on a primary key too;
# without its binding the subkey is an ordinary key, which IMA refuses.
. /pgpk/lib.sh
. /pgpk/tools/pgpk-ima.sh
F=$PGPK_DATA/ima/forged
pgpk_need_module
pgpk_need_data ima/forged/x509-by-i.der ima/forged/i-of-encrypt-only.pgpk ima/forged/i-mark-in-value.pgpk ima/a-s.pgpk ima/docsig ima/docsig.ima ima/forged/i.pgpk \
	ima/forged/p.pgpk ima/forged/doc-by-i.pgpks ima/forged/doc-by-p.pgpks
pgpk_load
ima_ring

# a gpg document signature by the ordinary signing subkey S, as IMA's
expect_ok keyctl padd asymmetric "" "$IMA_RING" <"$I/a-s.pgpk"
ima_refused invalid-signature docsig
assert_contains "$_log" "refused a signature pgpk did not frame" "kernel log"

# forged keys (python3-cryptography): P ordinary, I its marked subkey
I=$F
expect_ok keyctl padd asymmetric "" "$IMA_RING" <"$F/p.pgpk"
p=$PGPK_OUT
expect_ok keyctl padd asymmetric "" "$IMA_RING" <"$F/i.pgpk"
i=$PGPK_OUT
assert_contains "$(grep "^$(printf %08x "$i") " /proc/keys)" "PGP-IMA.rsa" "I"
assert_contains "$(grep "^$(printf %08x "$p") " /proc/keys)" "PGP.rsa" "P"
ima_reads i-file
ima_refused invalid-signature p-file i-file p-file

# OpenPGP document signatures (pgpk_test: the session keyring): by P
# verified, by I refused
expect_ok keyctl padd asymmetric "" @s <"$F/p.pgpk"
expect_ok keyctl padd asymmetric "" @s <"$F/i.pgpk"
pgpk_kmsg_mark
expect_ok keyctl padd pgpk_test by-p @s <"$F/doc-by-p.pgpks"
expect_fail EKEYREJECTED keyctl padd pgpk_test by-i @s <"$F/doc-by-i.pgpks"
assert_contains "$(pgpk_kmsg_since)" \
	"refused an OpenPGP signature by a key dedicated to IMA" "kernel log"

# an X.509 certificate signed with I's secret half: a keyring restricted
# to I must not take it (an IMA key verifies IMA signatures only)
expect_ok keyctl newring restricted-to-i @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$i"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring" <"$F/x509-by-i.der"
assert_contains "$(pgpk_kmsg_since)" \
	"refused all but raw PKCS#1 SHA-256/384/512 naming no certificate (IMA key) (encoding pkcs1" \
	"kernel log"
# the certificate itself is sound: an unrestricted keyring takes it
expect_ok keyctl padd asymmetric "" @s <"$F/x509-by-i.der"

# the mark must be confirmed
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/i-bad-binding.pgpk"
assert_contains "$(pgpk_kmsg_since)" "self-sig [1]: none, bad, of another kind or marked (-129)" "kernel log"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/p-marked.pgpk"
assert_contains "$(pgpk_kmsg_since)" "self-sig [0]: none, bad, of another kind or marked (-129)" "kernel log"

# a primary key that is RSA Encrypt-Only signs nothing: the decoder
# refuses its material
pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$F/i-of-encrypt-only.pgpk"
assert_contains "$(pgpk_kmsg_since)" "not an RSA key that signs" "kernel log"

# without its binding, I is refused (it loaded as an ordinary key before
# issue 26, whose document signatures IMA signatures of D || trailer
# were): a subkey's use and life are read from its binding
keyctl clear "$IMA_RING"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" "$IMA_RING" \
	<"$F/i-no-binding.pgpk"
assert_contains "$(pgpk_kmsg_since)" "self-sig [1]: none" "kernel log"

# the mark's octets inside another notation's value are not the mark
keyctl clear "$IMA_RING"
expect_ok keyctl padd asymmetric "" "$IMA_RING" <"$F/i-mark-in-value.pgpk"
assert_contains "$(grep "^$(printf %08x "$PGPK_OUT") " /proc/keys)" "PGP.rsa" \
	"I with the mark inside a notation's value"
ima_refused invalid-signature i-file-in-value i-file i-file
