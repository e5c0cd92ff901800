#!/bin/sh
# Certificate poisoning (issue 9, finding 6): anyone can append forged,
# newer third-party certifications to a key that a trusted key really
# certified.  Which certification the kernel gets is the helper's choice
# for OpenPGP input (the newest that verifies with a trust anchor of
# /etc/pgpk/anchors, else the key's own) and its maker's for a canonical
# key; the kernel verifies it, so a wrong choice is a refusal, never an
# acceptance.  With 100 forgeries (random issuers; some claiming rsa2048
# or rsa3072 with random values, some of those with the right quick
# check), certified.pgp
#   (a) loads into @s, OpenPGP and canonical, anchors or not;
#   (b) with rsa2048 an anchor, is accepted by keyrings restricted to
#       rsa2048, by keyring and by key; so is the helper's canonical
#       form ("pgpk key --anchors");
#   (c) without rsa2048's genuine certification, is refused by both
#       restricted keyrings, and so is a canonical form naming a forgery
#       (EKEYREJECTED: the RSA operation; no forgery is in the future).
# A 64 KiB key full of forgeries claiming rsa2048 still loads, restricted,
# in bounded time; so does one with 200 forged self-certifications.  A
# keyring restricted to ".pgpk" finds the anchor there.  The refusals
# leak nothing (slab objects per cache at two sizes of N).
# pgpk-timeout: 180
. /pgpk/lib.sh
C=$PGPK_DATA/c
K=$PGPK_DATA/k
pgpk_need_helper
pgpk_need_module
pgpk_need_data c/flood.pgp c/forged-only.pgp c/forged-only.pgpk \
	c/flood-max.pgp c/selfflood.pgp k/rsa2048.pgpk rsa2048.pgp \
	k/pgpk-bench
pgpk_load

trap 'rm -rf /etc/pgpk/anchors /tmp/42-anchors' EXIT
mkdir -p /tmp/42-anchors
cp "$PGPK_DATA/rsa2048.pgp" /tmp/42-anchors/
expect_ok sh -c "$PGPK key --anchors /tmp/42-anchors $C/flood.pgp \
	>/tmp/flood.pgpk"

# (a); selfflood.pgp: 200 forged self-certifications (the sandboxed
# parser used to die sorting them)
for f in "$C/flood.pgp" /tmp/flood.pgpk "$C/forged-only.pgp" \
	"$C/forged-only.pgpk" "$C/selfflood.pgp"; do
	expect_ok keyctl padd asymmetric "" @s <"$f"
	expect_ok keyctl unlink "$PGPK_OUT" @s
done

expect_ok keyctl newring trusted @s
trusted=$PGPK_OUT
expect_ok keyctl padd asymmetric "" "$trusted" <"$K/rsa2048.pgpk"
signer=$PGPK_OUT

mkdir -p /etc/pgpk
cp -r /tmp/42-anchors /etc/pgpk/anchors
n=0
for anchor in "$trusted" "$signer"; do
	n=$((n + 1))
	expect_ok keyctl newring "restricted$n" @s
	ring=$PGPK_OUT
	expect_ok keyctl restrict_keyring "$ring" asymmetric \
		"key_or_keyring:$anchor"
	# (b)
	expect_ok keyctl padd asymmetric "" "$ring" <"$C/flood.pgp"
	expect_ok keyctl padd asymmetric "" "$ring" </tmp/flood.pgpk
	# (c)
	expect_fail ENOKEY keyctl padd asymmetric "" "$ring" \
		<"$C/forged-only.pgp"
	# its forgery claims rsa2048 with the right quick check: refused
	# by the RSA operation (the forgeries are not in the future)
	expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring" \
		<"$C/forged-only.pgpk"
done
# flood.pgpk is the same key as flood.pgp: its link replaced the first.
assert_eq 1 "$(keyctl rlist "$ring" | wc -w)" \
	"keys in the last restricted keyring"

# The worst case: every candidate but one claims rsa2048 and needs an RSA
# operation (in the helper) before it is passed over.
count=$(cat "$C/flood-max.count")
t0=$(cut -d ' ' -f 1 /proc/uptime)
expect_ok keyctl padd asymmetric "" "$ring" <"$C/flood-max.pgp"
t1=$(cut -d ' ' -f 1 /proc/uptime)
echo "flood-max: $count forgeries, $(wc -c <"$C/flood-max.pgp") octets, restricted add_key from $t0 s to $t1 s (uptime)"

# The refusal path leaks nothing: no cache grows by an object per refused
# add_key at two sizes of N (lib.sh pgpk_no_leak; 31-leaks measures the
# other paths so).
forged() {
	_out=$("$K/pgpk-bench" forged-only "$C/forged-only.pgpk" "$ring" \
		"$1" asymmetric) || pgpk_fail "pgpk-bench forged-only failed"
	echo "$_out"
	assert_contains "$_out" "failed=$1 $(pgpk_errno_text EKEYREJECTED))" \
		"every forged-only add refused by the RSA operation"
}
forged 50
pgpk_no_leak "refused forged-only keys" forged

# The anchor only in ".pgpk", in no keyring of the caller: found there.
expect_ok keyctl clear @s
pgpk=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
[ -n "$pgpk" ] || pgpk_fail "no .pgpk keyring in /proc/keys"
pgpk=$((0x$pgpk))
expect_ok keyctl padd asymmetric "" "$pgpk" <"$K/rsa2048.pgpk"
expect_ok keyctl newring bypgpk @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$pgpk"
expect_ok keyctl padd asymmetric "" "$ring" </tmp/flood.pgpk
expect_fail EKEYREJECTED keyctl padd asymmetric "" "$ring" \
	<"$C/forged-only.pgpk"
# Leave .pgpk as the next cases expect it: empty (its keys pin the module).
expect_ok keyctl clear "$pgpk"
expect_ok keyctl clear @s
exit 0
