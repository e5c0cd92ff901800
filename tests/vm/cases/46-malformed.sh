#!/bin/sh
# Canonical blobs that are well-formed protobuf but say what OpenPGP
# cannot (found reviewing issue 9's fixes), from an unprivileged user:
# a subkey without its primary key (the kernel dereferenced the missing
# primary: NULL pointer, oops), and a v6 signature whose salt is longer
# than its hash's (RFC 9580 9.5: 16 octets for SHA-256), which absorbed
# the first octets of the signed data: the same RSA value "signed" the
# document without them.  Both are EBADMSG now, as is an RSA Encrypt-Only
# key (algorithm 2: no signer, refused by the decoder).
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/sub-no-primary.pgpk f/v6.pgpk f/v6.good.pgpks \
	f/v6.salt-shift.pgpks f/rsa-encrypt-only.pgpk
pgpk_load

chmod 0755 /
as_nobody() {
	pgpk_run su -s /bin/sh nobody -c "keyctl session - sh -c '$1'"
}
if as_nobody "keyctl padd asymmetric \"\" @s <$F/sub-no-primary.pgpk"; then
	pgpk_fail "a subkey without a primary key was loaded"
fi
assert_contains "$PGPK_OUT" "$(pgpk_errno_text EBADMSG)" "nobody's add"

expect_ok keyctl padd asymmetric "" @s <"$F/v6.pgpk"
expect_ok keyctl padd pgpk_test good @s <"$F/v6.good.pgpks"
expect_ok keyctl pipe "$PGPK_OUT"
assert_contains "$PGPK_OUT" "DO NOT RUN" "verified content"
pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd pgpk_test shifted @s <"$F/v6.salt-shift.pgpks"
assert_contains "$(pgpk_kmsg_since)" "v6 salt not as long as its hash says" \
	"kernel log"

pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$F/rsa-encrypt-only.pgpk"
assert_contains "$(pgpk_kmsg_since)" "not an RSA key that signs" "kernel log"
exit 0
