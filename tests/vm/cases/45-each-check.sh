#!/bin/sh
# Each acceptance check of the kernel, alone (issue 15): every blob is
# right but for one thing, so only that check can refuse it.  A right
# quick check with a wrong RSA value (anyone can compute the quick check:
# it is public) must be refused by the RSA verification itself; a wrong
# quick check by the quick check; an expired signature, a certification
# type offered as a document signature, a wrong or expired certification
# each by their own rule; an RSA value longer than the modulus, and a
# signature that names another algorithm (EdDSA) than the octets signed,
# by theirs.  The good ones pass, so the blobs are sound.
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/t.pgpk f/doc.good.pgpks f/doc.bad-value.pgpks \
	f/doc.bad-quick.pgpks f/doc.expired.pgpks f/doc.type-0x10.pgpks \
	f/doc.long-value.pgpks f/doc.eddsa.pgpks \
	f/k-by-t.pgpk f/k-by-t-bad-value.pgpk f/k-by-t-expired.pgpk
pgpk_load

expect_ok keyctl padd asymmetric "" @s <"$F/t.pgpk"
t=$PGPK_OUT
expect_ok keyctl padd pgpk_test good @s <"$F/doc.good.pgpks"

# refused DOC ERRNO LOG: the document signature DOC is refused with
# ERRNO, and the kernel log names the rule (LOG).
# A refusal's log line is ratelimited per call site (10 in 5 s, shared
# with the cases before): when it is missing, once more after 5 s.
refused() {
	pgpk_kmsg_mark
	expect_fail "$2" keyctl padd pgpk_test "$1" @s <"$F/doc.$1.pgpks"
	_log=$(pgpk_kmsg_since)
	case "$_log" in
	*"$3"*) ;;
	*)
		sleep 5
		pgpk_kmsg_mark
		expect_fail "$2" keyctl padd pgpk_test "$1" @s <"$F/doc.$1.pgpks"
		_log=$(pgpk_kmsg_since)
		;;
	esac
	assert_contains "$_log" "$3" "kernel log"
}
refused bad-value EKEYREJECTED "refused a signature that does not verify"
assert_not_contains "$_log" "quick check" "kernel log"
refused bad-quick EKEYREJECTED "signature quick check"
refused expired EKEYEXPIRED "refused signature expired"
refused type-0x10 EKEYREJECTED "signature type 0x10 does not sign a document"
refused long-value EKEYREJECTED "RSA value longer than its key"
refused eddsa ENOPKG "signature by algorithm 22, hash 8: not supported"

# restricted NAME BLOB ERRNO|ok: BLOB into a new keyring restricted to T.
restricted() {
	expect_ok keyctl newring "$1" @s
	_ring=$PGPK_OUT
	expect_ok keyctl restrict_keyring "$_ring" asymmetric \
		"key_or_keyring:$t"
	if [ "$3" = ok ]; then
		expect_ok keyctl padd asymmetric "" "$_ring" <"$F/$2"
	else
		expect_fail "$3" keyctl padd asymmetric "" "$_ring" <"$F/$2"
	fi
}
restricted good k-by-t.pgpk ok
restricted bad-value k-by-t-bad-value.pgpk EKEYREJECTED
# An expired certification: restrict.c's check of it says so.
pgpk_kmsg_mark
restricted expired k-by-t-expired.pgpk EKEYEXPIRED
assert_contains "$(pgpk_kmsg_since)" "refused signature expired" "kernel log"
exit 0
