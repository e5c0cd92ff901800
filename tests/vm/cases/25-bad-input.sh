#!/bin/sh
# Bad input is refused with EBADMSG, quickly: not canonical (trailing
# octet, truncated, non-minimal varint, magic alone) without an upcall;
# garbage, truncated OpenPGP, a 60 KiB blob via the helper; armor whose
# body is not a key.  The kernel log shows why, no WARNING.  Nothing is
# cached: a refused blob offered again is asked again.
# A 1 MiB blob: add_key("asymmetric") refuses anything over 64 KiB with
# EMSGSIZE before our parser runs (the X.509 parser comes first and its
# ASN.1 decoder stops there, 6.1 lib/asn1_decoder.c); as a pgpk_test
# payload it is refused with EBADMSG (not canonical: signatures never
# reach the helper).
# pgpk-timeout: 60
. /pgpk/lib.sh
D=$PGPK_DATA
K=$D/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/trailing.pgpk k/short.pgpk k/varint.pgpk k/magic.pgpk \
	k/truncated.pgp k/big.pgp k/huge.pgp garbage.bin garbage.asc \
	k/rsa2048.pgpk
pgpk_load

up=$(count_upcalls)
for f in trailing short varint magic; do
	pgpk_kmsg_mark
	expect_fail EBADMSG keyctl padd asymmetric "" @s <"$K/$f.pgpk"
	assert_contains "$(pgpk_kmsg_since)" "canonical key refused" \
		"kernel log for $f.pgpk"
done
sleep 0.5
assert_eq "$up" "$(count_upcalls)" "upcalls for non-canonical blobs"

for f in "$K/truncated.pgp" "$K/big.pgp" "$D/garbage.asc"; do
	start=$(cut -d ' ' -f 1 /proc/uptime)
	expect_fail EBADMSG keyctl padd asymmetric "" @s <"$f"
	end=$(cut -d ' ' -f 1 /proc/uptime)
	echo "ok: $f refused in $(awk -v a="$start" -v b="$end" \
		'BEGIN { print b - a }')s"
done
# Nothing is cached: the same refused blob is a new upcall.
sleep 0.5
up=$(count_upcalls)
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$D/garbage.asc"
pgpk_wait_upcalls $((up + 1)) "upcalls for a refused blob, again"
# Random bytes: OpenPGP-looking (bit 7) or not, never a key.
if pgpk_run keyctl padd asymmetric "" @s <"$D/garbage.bin"; then
	pgpk_fail "garbage accepted"
fi
case "$PGPK_OUT" in
*"$(pgpk_errno_text EBADMSG)"*) echo "ok: garbage refused" ;;
*) pgpk_fail "garbage: expected EBADMSG, got: $PGPK_OUT" ;;
esac
expect_fail EMSGSIZE keyctl padd asymmetric "" @s <"$K/huge.pgp"
expect_fail EBADMSG keyctl padd pgpk_test huge @s <"$K/huge.pgp"
# A canonical key is no signature (pgpk_test), a signature no key.
expect_fail EBADMSG keyctl padd pgpk_test key @s <"$K/rsa2048.pgpk"
if [ -s "$K/msg.sha512.pgpks" ]; then
	expect_fail EBADMSG keyctl padd asymmetric "" @s <"$K/msg.sha512.pgpks"
fi
exit 0
