#!/bin/sh
# Issue 14: a signature made before its key existed, or by a subkey
# before it was bound, or after its key's soft revocation, or by a key
# whose flags do not allow signing, is refused by the kernel itself.
# Every blob is cryptographically valid: only the time (or flag) rule
# can refuse it.  A subkey signs from its first binding (Key.first_binding)
# when its binding was renewed: both are verified with its primary key
# (issue 26: the time is the signature's, not a canonical field's).  The creation time the kernel compares is confirmed in
# the hashed area it hashes: a blob claiming another time is malformed.
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/time-p.pgpk f/time-sub.pgpk f/time-sub-certify.pgpk \
	f/time.good.pgpks f/time.predates.pgpks f/time.claim.pgpks \
	f/time.sub-good.pgpks f/time.sub-unbound.pgpks \
	f/time.sub-after-revocation.pgpks f/time.claim-notation.pgpks \
	f/time-q.pgpk f/time.named-q.pgpks f/time.future.pgpks \
	f/time-sub-nofirst.pgpk f/time.sub-between.pgpks
pgpk_load

# refused DOC ERRNO LOG: DOC is refused with ERRNO, the log names LOG.
refused() {
	pgpk_kmsg_mark
	expect_fail "$2" keyctl padd pgpk_test "$1" @s <"$F/time.$1.pgpks"
	_log=$(pgpk_kmsg_since)
	assert_contains "$_log" "$3" "kernel log"
}

expect_ok keyctl padd asymmetric "" @s <"$F/time-p.pgpk"
p=$PGPK_OUT
expect_ok keyctl padd pgpk_test good @s <"$F/time.good.pgpks"
refused predates EKEYREJECTED "signature predates its key"
refused future EKEYREJECTED "signature made in the future"
refused claim EBADMSG "its hashed area is not framed as pgpk takes it (one creation time, this one"
# The claimed time's octets are in the hashed area, inside a notation: the
# kernel reads the area's framing, not a pattern.
refused claim-notation EBADMSG "its hashed area is not framed as pgpk takes it (one creation time, this one"
# Signed by p an hour before p existed, named as q, the same RSA key made
# two hours earlier: the hashed issuer fingerprint says p.
expect_ok keyctl padd asymmetric "" @s <"$F/time-q.pgpk"
q=$PGPK_OUT
refused named-q EKEYREJECTED "the issuer fingerprint names another key"
expect_ok keyctl unlink "$q" @s

expect_ok keyctl padd asymmetric "" @s <"$F/time-sub.pgpk"
sub=$PGPK_OUT
expect_ok keyctl padd pgpk_test sub-good @s <"$F/time.sub-good.pgpks"
refused sub-unbound EKEYREJECTED "subkey not yet bound when it signed"
refused sub-after-revocation EKEYREJECTED "after its key was revoked"
expect_ok keyctl padd pgpk_test sub-between @s <"$F/time.sub-between.pgpks"
expect_ok keyctl unlink "$sub" @s
# Without its first binding, the subkey signs from its renewed binding.
expect_ok keyctl padd asymmetric "" @s <"$F/time-sub-nofirst.pgpk"
sub=$PGPK_OUT
refused sub-between EKEYREJECTED "subkey not yet bound when it signed"
expect_ok keyctl padd pgpk_test sub-good @s <"$F/time.sub-good.pgpks"
expect_ok keyctl unlink "$sub" @s

# The same subkey, certify-only: it signs no document at any time.
expect_ok keyctl padd asymmetric "" @s <"$F/time-sub-certify.pgpk"
certify=$PGPK_OUT
refused sub-good EKEYREJECTED "not a signing key"
expect_ok keyctl unlink "$certify" @s
expect_ok keyctl unlink "$p" @s
exit 0
