#!/bin/sh
# pgpk-timeout: 120
# Documents signed by several keys (issue 11): the helper's answer carries
# every RSA signature (Canonical.more_signatures); the kernel checks each
# one whose key it finds.  Good when one is good and none of those found
# is bad; signatures whose key is absent (or that the kernel cannot
# check: Ed25519, left out by the helper) are skipped; ENOKEY when no key
# is found.  Data: tests/vm/data.d/51-multi.sh.
. /pgpk/lib.sh
M=$PGPK_DATA/multi
pgpk_need_module
pgpk_need_helper
pgpk_need_data multi/three.clear multi/three-tampered.clear multi/bad-b.clear \
	multi/a.pgp multi/b.pgp multi/c.pgp multi/liar k/fake-helper.sh
pgpk_load

# content NAME: the pgpk_test key NAME holds the signed text.
content() {
	keyctl pipe "$PGPK_OUT" >/tmp/content ||
		pgpk_fail "cannot read pgpk_test key $1"
	assert_eq "$(cat "$M/text")" "$(tr -d '\r' </tmp/content)" \
		"content of $1"
}

# No key for any of the three signatures.
expect_fail ENOKEY keyctl padd pgpk_test none @s <"$M/three.clear"

# Only the second signer's key (RSA 2048): a's and c's are skipped.
expect_ok keyctl padd asymmetric "" @s <"$M/b.pgp"
b=$PGPK_OUT
expect_ok keyctl padd pgpk_test three-b @s <"$M/three.clear"
content three-b
expect_fail EKEYREJECTED keyctl padd pgpk_test tampered-b @s \
	<"$M/three-tampered.clear"
# b's signature is over another text: bad with b present, whatever a says.
expect_fail EKEYREJECTED keyctl padd pgpk_test bad-b @s <"$M/bad-b.clear"

# Only the first signer's: b's bad signature has no key here, skipped.
expect_ok keyctl unlink "$b" @s
expect_ok keyctl padd asymmetric "" @s <"$M/a.pgp"
a=$PGPK_OUT
expect_ok keyctl padd pgpk_test bad-b-a @s <"$M/bad-b.clear"
content bad-b-a
expect_ok keyctl padd pgpk_test three-a @s <"$M/three.clear"

# Both: both checked, one bad is enough to refuse.
expect_ok keyctl padd asymmetric "" @s <"$M/b.pgp"
expect_ok keyctl padd pgpk_test three-ab @s <"$M/three.clear"
expect_fail EKEYREJECTED keyctl padd pgpk_test bad-b-ab @s <"$M/bad-b.clear"
expect_fail EKEYREJECTED keyctl padd pgpk_test tampered-ab @s \
	<"$M/three-tampered.clear"
expect_ok keyctl unlink "$a" @s

# Ed25519 keys are not loaded (ENOPKG); c's signature never counts.
expect_fail ENOPKG keyctl padd asymmetric "" @s <"$M/c.pgp"

# A real InRelease (when the host had apt lists): two RSA-4096 signatures
# and an Ed25519 one; only the second signer's signing key is present.
if [ -f "$M/InRelease" ]; then
	keyctl clear @s
	expect_fail ENOKEY keyctl padd pgpk_test ir-none @s <"$M/InRelease"
	expect_ok keyctl padd asymmetric "$(cat "$M/InRelease.signer2.fpr")" \
		@s <"$M/InRelease.signer2.pgp"
	# Its Release text (about 150 KB) is more than a user-type payload
	# holds (32767 octets): pgpk_test's view_content, which runs only
	# once the signatures verified, then fails with EINVAL; anything
	# refused before is ENOKEY or EKEYREJECTED (below, and above).
	pgpk_kmsg_mark
	expect_fail EINVAL keyctl padd pgpk_test ir @s <"$M/InRelease"
	pgpk_kmsg_since >/tmp/kmsg
	assert_not_contains "$(cat /tmp/kmsg)" "refused" \
		"no signature refused for the real InRelease"
	assert_not_contains "$(cat /tmp/kmsg)" "quick check" \
		"no quick check failed for the real InRelease"
	sed 's/^Origin: Debian/Origin: Debiam/' "$M/InRelease" >/tmp/ir-bad
	expect_fail EKEYREJECTED keyctl padd pgpk_test ir-bad @s </tmp/ir-bad
else
	echo "note: no real InRelease in the data (no apt lists on the host)"
fi

# A lying helper adds to three.clear's signatures a genuine one by b over
# the same text whose value is not in the submitted bytes: refused
# (binding), although every signature it names would verify.
keyctl clear @s
expect_ok keyctl padd asymmetric "" @s <"$M/b.pgp"
pgpk_fake_helper "$M/liar"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd pgpk_test liar @s <"$M/three.clear"
assert_contains "$(pgpk_kmsg_since)" "binding: signature value" "kernel log"
exit 0
