#!/bin/sh
# Issue 9, finding 3: the kernel is the policy floor for every input
# path.  Canonical blobs skip the helper and its policy, so the kernel
# refuses by itself: SHA-1 (and MD5, RIPEMD-160) document signatures,
# SHA-1 and v3 certifications as authority (the key loads, but vouches
# for nothing: restricted keyrings say ENOPKG), and RSA keys shorter than
# min_rsa_bits (default 2048; it can be raised, never lowered).  Each
# blob is cryptographically valid (tools/pgpk-forge.py checks it).
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/t.pgpk f/k.pgpk f/k-by-t.pgpk f/k-by-t-sha1.pgpk \
	f/k-by-t-v3.pgpk f/doc.sha256.pgpks f/doc.sha1.pgpks f/rsa1024.pgpk \
	f/rsa3072.pgpk f/sub-of-t.pgpk f/sub-of-1024.pgpk f/sub-of-t-0x13.pgpk \
	f/k-3p-t.pgpk f/k-3p-t-v3.pgpk f/k-3p-t-sha1.pgpk
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

# Certifications: SHA-256 v4 vouches; SHA-1 and v3 do not.
restricted good
expect_ok keyctl padd asymmetric "" "$ring" <"$F/k-by-t.pgpk"
for weak in sha1 v3; do
	restricted "$weak"
	pgpk_kmsg_mark
	expect_fail ENOPKG keyctl padd asymmetric "" "$ring" \
		<"$F/k-by-t-$weak.pgpk"
	assert_eq "" "$(keyctl rlist "$ring")" "keys in the $weak ring"
	expect_ok keyctl padd asymmetric "" @s <"$F/k-by-t-$weak.pgpk"
done
log=$(pgpk_kmsg_since)
assert_contains "$log" "policy: v3 certification of key" "kernel log"
# The same as third-party candidates: T, reachable, verifies the SHA-256
# v4 one; the v3 and SHA-1 ones are skipped (no asym_auth: ENOPKG).
restricted good3p
expect_ok keyctl padd asymmetric "" "$ring" <"$F/k-3p-t.pgpk"
for weak in v3 sha1; do
	restricted "3p-$weak"
	expect_fail ENOPKG keyctl padd asymmetric "" "$ring" \
		<"$F/k-3p-t-$weak.pgpk"
done

# Document signatures: SHA-256 verifies, SHA-1 is refused by policy.
expect_ok keyctl padd pgpk_test sha256 @s <"$F/doc.sha256.pgpks"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd pgpk_test sha1 @s <"$F/doc.sha1.pgpks"
assert_contains "$(pgpk_kmsg_since)" \
	"policy: hash algorithm 2 is too weak to sign" "kernel log"

# Subkeys: bound by T, vouched for by its binding; a 0x13 signature over
# primary and subkey is no binding (EBADMSG).
restricted sub
expect_ok keyctl padd asymmetric "" "$ring" <"$F/sub-of-t.pgpk"
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$F/sub-of-t-0x13.pgpk"

# Key size: 1024 bits refused, for a subkey's primary too; the floor
# cannot go below 2048.
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/rsa1024.pgpk"
assert_contains "$(pgpk_kmsg_since)" "has 1024-bit RSA, min_rsa_bits is 2048" \
	"kernel log"
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/sub-of-1024.pgpk"
assert_eq 2048 "$(cat $param)" "min_rsa_bits"
if echo 1024 >$param; then
	pgpk_fail "min_rsa_bits went below 2048"
fi
assert_eq 2048 "$(cat $param)" "min_rsa_bits"
echo 3072 >$param || pgpk_fail "min_rsa_bits cannot be raised"
trap 'echo 2048 >$param' EXIT
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$F/k.pgpk"
expect_ok keyctl padd asymmetric "" @s <"$F/rsa3072.pgpk"
exit 0
