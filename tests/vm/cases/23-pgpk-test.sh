#!/bin/sh
# Key type pgpk_test: signed messages made by gpg, converted by
# "pgpk-helper sig" (the kernel takes canonical signatures only), are
# verified against the session keyring; reading the key gives the signed
# content.  Primary key and signing subkey; SHA-256 and SHA-512; binary,
# text mode and cleartext signatures; a canonical signature made by the
# tests' own converter.  Refusals: tampered content EKEYREJECTED, unknown
# key ENOKEY, expired key EKEYEXPIRED, and a signature past the expiration
# time of its hashed area EKEYEXPIRED (the kernel reads the verified
# octets, not the submitter's field: review finding 1; a blob with the old
# Signature.expires field, now reserved, is refused: EBADMSG).
. /pgpk/lib.sh
D=$PGPK_DATA
K=$D/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data msg.txt msg.rsa2048.gpg msg.rsa2048.clear msg.rsa3072.gpg \
	msg.rsa2048.tampered.gpg msg.rsa2048.tampered.clear k/msg.text.gpg \
	k/msg.sha512.gpg k/msg.sub.gpg k/msg.sha512.pgpks k/expired.pgpk \
	k/msg.expired.gpg k/msg.sigexpired.pgpks k/msg.sigexpired-oldfield.pgpks \
	k/rsa2048.pgpk k/rsa3072.pgpk k/rsa2048-sub.pgpk
pgpk_load

# canon FILE: /tmp/sig.pgpks, FILE's signature and content, canonical.
canon() {
	case "$1" in
	*.pgpks) cp "$1" /tmp/sig.pgpks ;;
	*) expect_ok sh -c "$PGPK_HELPER sig '$1' >/tmp/sig.pgpks" ;;
	esac
}

# signed NAME FILE: add FILE as pgpk_test key NAME, check its content.
signed() {
	canon "$2"
	expect_ok keyctl padd pgpk_test "$1" @s </tmp/sig.pgpks
	keyctl pipe "$PGPK_OUT" >/tmp/content ||
		pgpk_fail "cannot read pgpk_test key $1"
	# Text signatures hash (and the helper returns) CR LF line ends; a
	# cleartext signature does not sign the last line end (RFC 9580 7.1).
	got=$(tr -d '\r' </tmp/content)
	assert_eq "$(cat "$D/msg.txt")" "$got" "content of $1"
	echo "ok: $1 verified, content = msg.txt"
}

# Nothing trusted yet: the signer is unknown.
canon "$D/msg.rsa2048.gpg"
expect_fail ENOKEY keyctl padd pgpk_test nokey @s </tmp/sig.pgpks

expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048.pgpk"
signed binary "$D/msg.rsa2048.gpg"
signed cleartext "$D/msg.rsa2048.clear"
signed textmode "$K/msg.text.gpg"
signed sha512 "$K/msg.sha512.gpg"
signed canonical "$K/msg.sha512.pgpks"
canon "$D/msg.rsa2048.tampered.gpg"
expect_fail EKEYREJECTED keyctl padd pgpk_test bad @s </tmp/sig.pgpks
canon "$D/msg.rsa2048.tampered.clear"
expect_fail EKEYREJECTED keyctl padd pgpk_test bad @s </tmp/sig.pgpks

# The subkey signs only once it is a key in the keyring.
canon "$K/msg.sub.gpg"
expect_fail ENOKEY keyctl padd pgpk_test sub @s </tmp/sig.pgpks
expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048-sub.pgpk"
signed subkey "$K/msg.sub.gpg"

# rsa3072 (SHA-512) is unknown until added.
canon "$D/msg.rsa3072.gpg"
expect_fail ENOKEY keyctl padd pgpk_test k3 @s </tmp/sig.pgpks
expect_ok keyctl padd asymmetric "" @s <"$K/rsa3072.pgpk"
signed rsa3072 "$D/msg.rsa3072.gpg"

# An expired key cannot be added (it would vanish from the keyring at
# the next garbage collection); its messages then have no key.  A
# signature past its own expiration time is refused as expired.
expect_fail EKEYEXPIRED keyctl padd asymmetric "" @s <"$K/expired.pgpk"
canon "$K/msg.expired.gpg"
expect_fail ENOKEY keyctl padd pgpk_test exp @s </tmp/sig.pgpks
canon "$K/msg.sigexpired.pgpks"
expect_fail EKEYEXPIRED keyctl padd pgpk_test sigexp @s </tmp/sig.pgpks
canon "$K/msg.sigexpired-oldfield.pgpks"
expect_fail EBADMSG keyctl padd pgpk_test sigexp @s </tmp/sig.pgpks
# The raw OpenPGP message: not canonical, refused.
expect_fail EBADMSG keyctl padd pgpk_test raw @s <"$D/msg.rsa2048.gpg"
exit 0
