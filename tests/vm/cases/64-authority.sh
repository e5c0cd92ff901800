#!/bin/sh
# Issue 26: the kernel takes authority only from bytes it verified.
#  1. A certification (0x10-0x13) or a binding (0x18) counts only if made
#     by a primary key whose verified self-signature allows certifying:
#     the anchor A ("cert,sign") and its signing subkey S are in .pgpk,
#     as pgpk-anchors loads an anchor; X certified by S, X "bound" by S
#     posing as a primary key (S's holder can self-certify S), and an IMA
#     subkey bound by S are refused by a keyring restricted to .pgpk and
#     by an _ima restricted to .pgpk; so are X certified by N, a primary
#     key that only signs, and by S2, a subkey whose binding has no key
#     flags (all an RSA key can do, but certify).  The controls: A's
#     certification of X, A's IMA subkey.
#  3. RFC 9580 5.2.3.7: a critical subpacket pgpk does not understand (a
#     critical notation, a critical private type) in a certification, a
#     binding, a self-signature or a document signature, and a critical
#     trust level or regular expression (they limit what a certification
#     says; pgpk enforces neither): EBADMSG; the same not critical, and a
#     critical one pgpk understands: accepted.
#  4. What a key may do and until when comes from its self-signatures:
#     an encryption subkey (its binding's flags) signs no document; a key
#     whose self-signature says it expired, or whose self-signature
#     expired, is EKEYEXPIRED; a key vouched for by A but with no
#     self-signature of its own, or whose self-signature's RSA value is
#     not right, is refused; so is a v4 key (or its subkey) offering its
#     direct-key signature (no expiry, no flags) as its self-signature,
#     whatever else vouches for it: the key's version says which
#     self-signature counts (RFC 9580 10.1.1, 10.1.3); the old hint
#     fields (6 expires, 7 key_flags, 12 bound) are EBADMSG (reserved).
#     A subkey's binding time: 50-sig-time.
# Every blob is made on the host by tests/vm/tools/pgpk-forge.py
# (python3-cryptography, independent of helper/ and kernel/), each
# forgery cryptographically valid: a refusal proves the kernel's rule.
#
# Abuse tried: whoever holds only an anchor's signing subkey (the key on
# the release machine) certifies or binds keys with it, into a keyring
# or an _ima that trusts the anchors; a canonical blob's submitter drops
# or bends the facts that once were hints.
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
for f in a s e n s2 x-by-a x-by-s x-by-s2 x-by-n x-bound-by-s i-of-a i-of-s \
	x-by-a-critnote x-by-a-crit101 x-by-a-note x-by-a-critknown s-crit \
	x-self-crit key-expired self-expired old-6 old-7 old-12 x-by-a-noself \
	x-bad-self v-uid v-dk v-by-a-dk v-sub-dk x-by-a-crittrust; do
	pgpk_need_data "f/auth-$f.pgpk"
done
pgpk_need_data f/auth-doc-by-s.pgpks f/auth-doc-by-s-crit.pgpks \
	f/auth-doc-by-s-note.pgpks f/auth-doc-by-e.pgpks f/auth-doc-by-a.pgpks
pgpk_load

add() {	# add RING NAME: the key f/auth-NAME.pgpk into RING
	expect_ok keyctl padd asymmetric "" "$1" <"$F/auth-$2.pgpk"
}
refused() {	# refused ERRNO RING NAME LOG: refused, the kernel says LOG
	pgpk_kmsg_mark
	expect_fail "$1" keyctl padd asymmetric "" "$2" <"$F/auth-$3.pgpk"
	assert_contains "$(pgpk_kmsg_since)" "$4" "kernel log for $3"
}

# .pgpk holds the anchor A and its signing subkey S, as pgpk-anchors
# loads them; N too (a primary key that only signs).
pgpk=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
pgpk=$((0x$pgpk))
add "$pgpk" a
add "$pgpk" s
add "$pgpk" s2
add "$pgpk" n
expect_ok keyctl newring restricted @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$pgpk"
expect_ok keyctl newring _ima @s
ima=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ima" asymmetric "key_or_keyring:$pgpk"

echo "=== 1: who may certify"
add "$ring" x-by-a
keyctl clear "$ring"
refused EKEYREJECTED "$ring" x-by-s \
	"not a primary key whose key flags allow certifying"
# S2's binding says no key flags: all an RSA key can do, but certify
refused EKEYREJECTED "$ring" x-by-s2 \
	"not a primary key whose key flags allow certifying"
refused EKEYREJECTED "$ring" x-bound-by-s \
	"not a primary key whose key flags allow certifying"
refused EKEYREJECTED "$ring" x-by-n \
	"not a primary key whose key flags allow certifying"
assert_eq "" "$(keyctl rlist "$ring")" "keys in the restricted keyring"
add "$ima" i-of-a
assert_contains "$(grep "^$(printf %08x "$PGPK_OUT") " /proc/keys)" \
	"PGP-IMA.rsa" "A's IMA subkey in _ima"
keyctl clear "$ima"
refused EKEYREJECTED "$ima" i-of-s \
	"not a primary key whose key flags allow certifying"
assert_eq "" "$(keyctl rlist "$ima")" "keys in _ima"
# S posing as a primary key loads, in a keyring that takes anything: it
# is the restriction that asks who certified.
add @s x-bound-by-s
add @s i-of-s

echo "=== 3: critical subpackets"
refused EBADMSG "$ring" x-by-a-critnote "no critical subpacket pgpk does not understand"
refused EBADMSG "$ring" x-by-a-crit101 "no critical subpacket pgpk does not understand"
refused EBADMSG "$ring" x-by-a-crittrust "no critical subpacket pgpk does not understand"
refused EBADMSG @s s-crit "no critical subpacket pgpk does not understand"
refused EBADMSG @s x-self-crit "no critical subpacket pgpk does not understand"
add "$ring" x-by-a-note
keyctl clear "$ring"
add "$ring" x-by-a-critknown
keyctl clear "$ring"
expect_ok keyctl padd pgpk_test doc @s <"$F/auth-doc-by-s.pgpks"
expect_ok keyctl padd pgpk_test doc-note @s <"$F/auth-doc-by-s-note.pgpks"
pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd pgpk_test doc-crit @s \
	<"$F/auth-doc-by-s-crit.pgpks"
assert_contains "$(pgpk_kmsg_since)" \
	"no critical subpacket pgpk does not understand" "document signature"

echo "=== 4: what the self-signatures say"
add @s e
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd pgpk_test doc-e @s \
	<"$F/auth-doc-by-e.pgpks"
assert_contains "$(pgpk_kmsg_since)" "not a signing key (key flags)" \
	"an encryption subkey's document signature"
expect_ok keyctl padd pgpk_test doc-a @s <"$F/auth-doc-by-a.pgpks"
refused EKEYEXPIRED @s key-expired "expired at"
refused EKEYEXPIRED @s self-expired "expired at"
refused EKEYREJECTED "$ring" x-by-a-noself "self-sig [0]: none"
refused EKEYREJECTED @s x-bad-self "self-sig [0]: none, bad"
# Which self-signature counts is the key's version's, not the
# submitter's pick: a v4 key's user ID's (it says V expired), never its
# direct-key signature (no expiry, no flags: the review's finding).
refused EKEYEXPIRED @s v-uid "expired at"
refused EKEYREJECTED @s v-dk "self-sig [0]: none, bad, of another kind"
refused EKEYREJECTED "$ring" v-by-a-dk "self-sig [0]: none, bad, of another kind"
refused EKEYREJECTED @s v-sub-dk "self-sig [0]: none, bad, of another kind"
for n in 6 7 12; do
	refused EBADMSG @s "old-$n" "unknown, repeated or misplaced field"
done
# As nobody too: the rules are the kernel's, whoever submits the blob.
chmod 0755 /
pgpk_run su -s /bin/sh nobody -c \
	"keyctl session - sh -c 'keyctl padd asymmetric \"\" @s <$F/auth-key-expired.pgpk'" &&
	pgpk_fail "nobody loaded a key whose self-signature says it expired"
assert_contains "$PGPK_OUT" "$(pgpk_errno_text EKEYEXPIRED)" "nobody's error"
exit 0
