#!/bin/sh
# Issue 9, finding 3: the kernel is the policy floor for every input
# path.  Canonical blobs skip the helper and its policy, so the kernel
# refuses by itself: SHA-1 (and MD5, RIPEMD-160) document signatures,
# keys whose certification is SHA-1 (EKEYREJECTED, the key not loaded:
# a certification the floor excludes is refused, never silently dropped;
# the helper leaves such certifications out), v3 signatures at all (the
# decoder: EBADMSG), and RSA keys shorter than min_rsa_bits (default
# 2048; it can be raised; a lower value counts as 2048).  Each blob is
# cryptographically valid (tools/pgpk-forge.py checks it).  T's
# certification of K is a third party's: the one a keyring restricted to
# T verifies, whoever chose it (the helper's choice is 42-cert-flood's).
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/t.pgpk f/k.pgpk f/k-by-t.pgpk f/k-by-t-sha1.pgpk \
	f/k-by-t-v3.pgpk f/doc.sha256.pgpks f/doc.sha1.pgpks f/rsa1024.pgpk \
	f/rsa3072.pgpk f/rsa2056.pgpk f/sub-of-t.pgpk f/sub-of-1024.pgpk f/sub-of-t-0x13.pgpk
pgpk_load
param=/sys/module/pgpk/parameters/min_rsa_bits

expect_ok keyctl padd asymmetric "" @s <"$F/t.pgpk"
t=$PGPK_OUT
# restricted NAME: a new keyring restricted to T.
restricted() {
	expect_ok keyctl newring "$1" @s
	expect_ok keyctl restrict_keyring "$PGPK_OUT" asymmetric \
		"key_or_keyring:$t"
	ring=$(keyctl search @s keyring "$1")
}

# Certifications: SHA-256 v4 vouches; SHA-1 refuses the key; v3 too.
restricted good
expect_ok keyctl padd asymmetric "" "$ring" <"$F/k-by-t.pgpk"
restricted sha1
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring" <"$F/k-by-t-sha1.pgpk"
assert_eq "" "$(keyctl rlist "$ring")" "keys in the sha1 ring"
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/k-by-t-sha1.pgpk"
assert_contains "$(pgpk_kmsg_since)" \
	"signature by algorithm 1, hash 2: policy: too weak" "kernel log"
pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$F/k-by-t-v3.pgpk"
assert_contains "$(pgpk_kmsg_since)" "signature version not 4 or 6" \
	"kernel log"

# Document signatures: SHA-256 verifies, SHA-1 is refused by policy.
expect_ok keyctl padd pgpk_test sha256 @s <"$F/doc.sha256.pgpks"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd pgpk_test sha1 @s <"$F/doc.sha1.pgpks"
assert_contains "$(pgpk_kmsg_since)" \
	"signature by algorithm 1, hash 2: policy: too weak" "kernel log"

# Subkeys: bound by T, vouched for by its binding; a 0x13 signature over
# primary and subkey is no binding (EBADMSG).
restricted sub
expect_ok keyctl padd asymmetric "" "$ring" <"$F/sub-of-t.pgpk"
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$F/sub-of-t-0x13.pgpk"

# Key size: 1024 bits refused, for a subkey's primary too; the floor
# cannot go below 2048, whatever the parameter says.
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/rsa1024.pgpk"
assert_contains "$(pgpk_kmsg_since)" "RSA below min_rsa_bits 2048" \
	"kernel log"
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/sub-of-1024.pgpk"
assert_eq 2048 "$(cat $param)" "min_rsa_bits"
trap 'echo 2048 >$param' EXIT
echo 1024 >$param
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/rsa1024.pgpk"
assert_contains "$(pgpk_kmsg_since)" "RSA below min_rsa_bits 2048" \
	"kernel log with min_rsa_bits=1024"
# A size above the floor that the kernel's RSA refuses (6.1: only 2048,
# 3072 and 4096 bits from 2048 up): ENOPKG, the kernel's RSA named.
pgpk_kmsg_mark
case "$(uname -r)" in
6.1.*)
	expect_fail ENOPKG keyctl padd asymmetric "" @s <"$F/rsa2056.pgpk"
	assert_contains "$(pgpk_kmsg_since)" "RSA key refused by the kernel's RSA" \
		"kernel log"
	;;
*)
	pgpk_run keyctl padd asymmetric "" @s <"$F/rsa2056.pgpk"
	echo "note: a 2056-bit key on $(uname -r): ${PGPK_OUT:-loaded}"
	;;
esac
echo 3072 >$param || pgpk_fail "min_rsa_bits cannot be raised"
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/k.pgpk"
expect_ok keyctl padd asymmetric "" @s <"$F/rsa3072.pgpk"
exit 0
