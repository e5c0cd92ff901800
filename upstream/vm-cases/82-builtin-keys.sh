#!/bin/sh
# CONFIG_SYSTEM_OPENPGP_KEYS (patch 13) on the 7.3-pgpk-debug kernel,
# built with the KUnit CA (upstream/kunit/keys/pgpk_ca.bin) as its one
# OpenPGP key: once the in-tree pgpk.ko loads, the CA is in
# .builtin_trusted_keys, and a keyring restricted to the builtin keyring
# (keyctl restrict_keyring ... builtin_trusted, what .ima's restriction
# uses) takes the KUnit user, whose certification is the CA's, and
# refuses a key only self-certified (ENOKEY) and the user's key with its
# certification's RSA value changed (EKEYREJECTED).
# pgpk-timeout: 120
. /pgpk/lib.sh

ko=$PGPK_CASE_DIR/pgpk-intree.ko
for f in "$ko" "$PGPK_CASE_DIR/pgpk_user.bin" "$PGPK_CASE_DIR/pgpk_other.bin" \
	"$PGPK_CASE_DIR/pgpk_user_badcert.bin"; do
	[ -f "$f" ] || pgpk_fail "no $f (upstream/vm-test.sh copies it)"
done
grep -q '^pgpk ' /proc/modules || expect_ok insmod "$ko"

builtin=$(awk '$9 == ".builtin_trusted_keys:" { print $1 }' /proc/keys)
[ -n "$builtin" ] || pgpk_fail "no .builtin_trusted_keys in /proc/keys"
builtin=$(printf '%d' "0x$builtin")
expect_ok keyctl list "$builtin"
assert_contains "$PGPK_OUT" "asymmetric: Test CA <ca@example.org>" \
	".builtin_trusted_keys"
ca=$(echo "$PGPK_OUT" | sed -n 's/^ *\([0-9]*\):.*Test CA <ca@example.org>.*/\1/p')
expect_ok grep "^$(printf '%08x' "$ca") .* PGP[.]rsa" /proc/keys

expect_ok keyctl newring builtin-only @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric builtin_trusted
# certified by the built-in CA: accepted
expect_ok keyctl padd asymmetric "" "$ring" <"$PGPK_CASE_DIR/pgpk_user.bin"
user=$PGPK_OUT
expect_ok keyctl describe "$user"
assert_contains "$PGPK_OUT" "Test user <user@example.org>" "the user's key"
# self-certified only: no key of the builtin keyring vouches for it
expect_fail ENOKEY keyctl padd asymmetric "" "$ring" \
	<"$PGPK_CASE_DIR/pgpk_other.bin"
# the CA's certification with its RSA value changed: the CA's key refuses it
expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring" \
	<"$PGPK_CASE_DIR/pgpk_user_badcert.bin"
# the same user key in an unrestricted keyring: loads (the refusal above
# is the restriction's, not the parser's)
expect_ok keyctl newring open @s
expect_ok keyctl padd asymmetric "" "$PGPK_OUT" <"$PGPK_CASE_DIR/pgpk_user.bin"

# The built-in keys pin the module: rmmod is refused.
pgpk_run rmmod pgpk && pgpk_fail "pgpk unloaded with keys in .builtin_trusted_keys"
grep -q '^pgpk ' /proc/modules || pgpk_fail "pgpk unloaded with keys in .builtin_trusted_keys"
exit 0
