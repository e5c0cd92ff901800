#!/bin/sh
# pgpk-timeout: 120
# Documents signed by several keys (issue 11): "pgpk sig" puts
# every RSA signature in the canonical blob (Canonical.more_signatures);
# the kernel checks each one whose key it finds.  Good when one is good and none of those found
# is bad; signatures whose key is absent (or that the kernel cannot
# check: Ed25519, left out by the helper) are skipped; ENOKEY when no key
# is found.  Data: tests/vm/data.d/51-multi.sh.
. /pgpk/lib.sh
M=$PGPK_DATA/multi
pgpk_need_module
pgpk_need_helper
pgpk_need_data multi/three.clear multi/three-tampered.clear multi/bad-b.clear \
	multi/a.pgp multi/b.pgp multi/c.pgp
pgpk_load

# sig NAME FILE: pgpk_test key NAME from FILE, converted by the helper.
sig() {
	expect_ok sh -c "$PGPK sig '$2' >/tmp/51.pgpks"
	pgpk_run keyctl padd pgpk_test "$1" @s </tmp/51.pgpks
}
sig_ok() {
	sig "$@" || pgpk_fail "command failed: keyctl padd pgpk_test $1 < $2"
}
sig_fail() {
	_w=$(pgpk_errno_text "$1")
	shift
	sig "$@" && pgpk_fail "expected failure '$_w': pgpk_test $1 < $2"
	assert_contains "$PGPK_OUT" "$_w" "pgpk_test $1"
}

# content NAME: the pgpk_test key NAME holds the signed text.
content() {
	keyctl pipe "$PGPK_OUT" >/tmp/content ||
		pgpk_fail "cannot read pgpk_test key $1"
	assert_eq "$(cat "$M/text")" "$(tr -d '\r' </tmp/content)" \
		"content of $1"
}

# No key for any of the three signatures.
sig_fail ENOKEY none "$M/three.clear"

# Only the second signer's key (RSA 2048): a's and c's are skipped.
expect_ok keyctl padd asymmetric "" @s <"$M/b.pgp"
b=$PGPK_OUT
sig_ok three-b "$M/three.clear"
content three-b
sig_fail EKEYREJECTED tampered-b "$M/three-tampered.clear"
# b's signature is over another text: bad with b present, whatever a says.
sig_fail EKEYREJECTED bad-b "$M/bad-b.clear"

# Only the first signer's: b's bad signature has no key here, skipped.
expect_ok keyctl unlink "$b" @s
expect_ok keyctl padd asymmetric "" @s <"$M/a.pgp"
a=$PGPK_OUT
sig_ok bad-b-a "$M/bad-b.clear"
content bad-b-a
sig_ok three-a "$M/three.clear"

# Both: both checked, one bad is enough to refuse.
expect_ok keyctl padd asymmetric "" @s <"$M/b.pgp"
sig_ok three-ab "$M/three.clear"
sig_fail EKEYREJECTED bad-b-ab "$M/bad-b.clear"
sig_fail EKEYREJECTED tampered-ab "$M/three-tampered.clear"
expect_ok keyctl unlink "$a" @s

# Ed25519 keys are not loaded (ENOPKG); c's signature never counts.
expect_fail ENOPKG keyctl padd asymmetric "" @s <"$M/c.pgp"

# A real InRelease (when the host had apt lists): two RSA-4096 signatures
# and an Ed25519 one; only the second signer's signing key is present.
if [ -f "$M/InRelease" ]; then
	keyctl clear @s
	sig_fail ENOKEY ir-none "$M/InRelease"
	expect_ok sh -c "$PGPK key --select \
		$(cat "$M/InRelease.signer2.fpr") $M/InRelease.signer2.pgp \
		>/tmp/51-signer2.pgpk"
	expect_ok keyctl padd asymmetric "" @s </tmp/51-signer2.pgpk
	# Its Release text (about 150 KB) is more than a user-type payload
	# holds (32767 octets): pgpk_test's view_content, which runs only
	# once the signatures verified, then fails with EINVAL; anything
	# refused before is ENOKEY or EKEYREJECTED (below, and above).
	pgpk_kmsg_mark
	sig_fail EINVAL ir "$M/InRelease"
	pgpk_kmsg_since >/tmp/kmsg
	assert_not_contains "$(cat /tmp/kmsg)" "refused" \
		"no signature refused for the real InRelease"
	assert_not_contains "$(cat /tmp/kmsg)" "quick check" \
		"no quick check failed for the real InRelease"
	sed 's/^Origin: Debian/Origin: Debiam/' "$M/InRelease" >/tmp/ir-bad
	sig_fail EKEYREJECTED ir-bad /tmp/ir-bad
else
	echo "note: no real InRelease in the data (no apt lists on the host)"
fi

# (Signatures never reach a helper: the blob is the submitter's, who
# chose every field; 23-pgpk-test and 45-each-check refuse the lies.)
exit 0
