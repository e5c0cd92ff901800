#!/bin/sh
# IMA appraisal with an OpenPGP key: the IMA subkey of a gpg certificate
# (made by `pgpk ima-sign --new-key`), converted from the
# certificate by `pgpk key --select <its fingerprint>` (subkeys
# come as canonical blobs) and added to _ima.  Files signed by `pgpk ima-sign` (SHA-256, SHA-384,
# SHA-512) read; tampered, unsigned, hash-only, signed by another key and
# forged-key-ID files are EACCES, each with IMA's audit cause.
. /pgpk/lib.sh
. /pgpk/tools/pgpk-ima.sh
pgpk_need_module
pgpk_need_helper
pgpk_need_data ima/a.pgp ima/i.fpr ima/good-sha256.ima ima/forged-keyid.ima
pgpk_load
ima_ring

expect_ok sh -c "$PGPK key --select $(cat "$I/i.fpr") $I/a.pgp \
	>/tmp/60-i.pgpk"
expect_ok keyctl padd asymmetric "" "$IMA_RING" </tmp/60-i.pgpk
key=$PGPK_OUT
# dedicated to IMA: its public_key says so in /proc/keys
assert_contains "$(grep "^$(printf %08x "$key") " /proc/keys)" "PGP-IMA.rsa" \
	"/proc/keys line of the IMA subkey"
assert_contains "$(grep "^$(printf %08x "$key") " /proc/keys)" \
	"$(cat "$I/i.keyid")" "its IMA key ID"

ima_reads good-sha256
ima_reads good-sha384
ima_reads good-sha512
ima_refused invalid-signature tampered
ima_refused IMA-signature-required unsigned
ima_refused IMA-signature-required hash-only
ima_refused invalid-signature other-key
ima_refused invalid-signature forged-keyid
# a file read again is not appraised again: still readable
expect_ok cat "$IMA_DIR/good-sha256"
