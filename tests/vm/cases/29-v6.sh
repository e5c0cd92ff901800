#!/bin/sh
# RFC 9580 v6 keys and signatures (made by tools/pgpk-mkv6.py; GnuPG 2.2
# has none): fingerprint SHA-256 over 0x9B + 4-octet length, key ID its
# first 8 octets, salted signatures; a v3 signature by the same RSA key
# is refused (the policy floor: the decoder takes v4 and v6 only);
# keyctl pkey_verify on the key is refused (one key, one protocol).
# The key is named by its key ID.
# Canonical forms load and verify with no helper; through the upcall the
# key binds and matches, or the helper refuses it as unsupported (ENOPKG).
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/v6.name k/v6.pgpk k/v6.pgp k/v6.fpr k/v6.keyid k/v6.msg.pgpks \
	k/v6.sig k/msg.sha256 k/msg.sha256.pkcs1 k/v3.msg.pgpks msg.txt
pgpk_load

fpr=$(cat "$K/v6.fpr")
keyid=$(cat "$K/v6.keyid")
short=$(echo "$keyid" | cut -c 9-16 | tr 'A-F' 'a-f')

expect_ok keyctl padd asymmetric "" @s <"$K/v6.pgpk"
id=$PGPK_OUT
# Named by its key ID: a v6 key's self-signature is its direct-key one,
# which certifies no user ID (RFC 9580 10.1.3).
assert_eq "$(cat "$K/v6.name")" "$(pgpk_key_desc_of "$id")" "description"
assert_eq "PGP key $(echo "$keyid" | tr 'A-F' 'a-f')" "$(cat "$K/v6.name")" \
	"description"
expect_ok keyctl search @s asymmetric "id:$fpr"
assert_eq "$id" "$PGPK_OUT" "key found by the 32-octet fingerprint"
expect_ok keyctl search @s asymmetric "id:$keyid"
assert_eq "$id" "$PGPK_OUT" "key found by the key ID (first 8 octets)"
assert_contains "$(grep "^$(printf %08x "$id") " /proc/keys)" \
	"PGP.rsa $short" "/proc/keys"
expect_ok keyctl pkey_query "$id" 0 enc=pkcs1 hash=sha256
assert_contains "$PGPK_OUT" "key_size=3072" "pkey_query"

# keyctl pkey_verify: a valid PKCS#1 v1.5 signature of a digest by this
# key, which pgpk did not frame: refused, as it would be from IMA, X.509
# or PKCS#7 (the same RSA value could be an OpenPGP signature).
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl pkey_verify "$id" 0 "$K/msg.sha256" \
	"$K/msg.sha256.pkcs1" enc=pkcs1 hash=sha256
assert_contains "$(pgpk_kmsg_since)" "refused a signature pgpk did not frame" \
	"kernel log"

# A salted v6 signature with its content, canonical: verified, content.
expect_ok keyctl padd pgpk_test v6 @s <"$K/v6.msg.pgpks"
assert_eq "$(cat "$PGPK_DATA/msg.txt")" "$(keyctl pipe "$PGPK_OUT")" \
	"verified content"

# A v3 signature (type and time hashed after the data, key ID issuer),
# valid: refused, v3 is below the policy floor.
pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd pgpk_test v3 @s <"$K/v3.msg.pgpks"
assert_contains "$(pgpk_kmsg_since)" "signature version not 4 or 6" \
	"kernel log"

# Restricted by the key itself: its salted self-certification verifies.
expect_ok keyctl newring v6ring @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$id"
expect_ok keyctl padd asymmetric "" "$ring" <"$K/v6.pgpk"

if [ -x "$PGPK_HELPER" ]; then
	if pgpk_run keyctl padd asymmetric "" @s <"$K/v6.pgp"; then
		vid=$PGPK_OUT
		expect_ok keyctl search @s asymmetric "id:$fpr"
		assert_eq "$vid" "$PGPK_OUT" "v6 key via the upcall"
	else
		assert_contains "$PGPK_OUT" "$(pgpk_errno_text ENOPKG)" \
			"helper's refusal of a v6 key"
	fi
fi
exit 0
