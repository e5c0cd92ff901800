#!/bin/sh
# Certificate poisoning (issue 9, finding 6): anyone can append forged,
# newer third-party certifications to a key that a trusted key really
# certified.  The helper used to offer the newest one, so the kernel
# refused the key (bad digest) or the restricted keyring did (ENOKEY).
# Now the helper offers every candidate and the kernel picks the one that
# verifies with a key the caller can reach.  With 100 forgeries (random
# issuers; some claiming rsa2048 or rsa3072 with random values, some of
# those with the right quick check), certified.pgp
#   (a) loads into @s, OpenPGP and canonical;
#   (b) is accepted by keyrings restricted to rsa2048, by keyring and by
#       key, the anchor linked into the session keyring;
#   (c) without rsa2048's genuine certification, loads into @s but is
#       refused (ENOKEY) by both restricted keyrings.
# A 64 KiB key full of forgeries claiming rsa2048 still loads, restricted,
# in bounded time; so does one with 200 forged self-certifications.  An
# anchor in the module's ".pgpk" keyring is found there.  The candidate
# path leaks nothing.
# pgpk-timeout: 180
. /pgpk/lib.sh
C=$PGPK_DATA/c
K=$PGPK_DATA/k
pgpk_need_helper
pgpk_need_module
pgpk_need_data c/flood.pgp c/forged-only.pgp c/flood.pgpk \
	c/forged-only.pgpk c/flood-max.pgp c/selfflood.pgp k/rsa2048.pgpk \
	k/pubring.pgpk k/pgpk-bench
pgpk_load

# (a) and the unrestricted half of (c); selfflood.pgp: 200 forged self-
# certifications (the sandboxed parser used to die sorting them)
for f in flood.pgp flood.pgpk forged-only.pgp forged-only.pgpk \
	selfflood.pgp; do
	expect_ok keyctl padd asymmetric "" @s <"$C/$f"
	expect_ok keyctl unlink "$PGPK_OUT" @s
done

expect_ok keyctl newring trusted @s
trusted=$PGPK_OUT
expect_ok keyctl padd asymmetric "" "$trusted" <"$K/rsa2048.pgpk"
signer=$PGPK_OUT

n=0
for anchor in "$trusted" "$signer"; do
	n=$((n + 1))
	expect_ok keyctl newring "restricted$n" @s
	ring=$PGPK_OUT
	expect_ok keyctl restrict_keyring "$ring" asymmetric \
		"key_or_keyring:$anchor"
	# (b)
	expect_ok keyctl padd asymmetric "" "$ring" <"$C/flood.pgp"
	expect_ok keyctl padd asymmetric "" "$ring" <"$C/flood.pgpk"
	# (c)
	expect_fail ENOKEY keyctl padd asymmetric "" "$ring" \
		<"$C/forged-only.pgp"
	expect_fail ENOKEY keyctl padd asymmetric "" "$ring" \
		<"$C/forged-only.pgpk"
done
# flood.pgpk is the same key as flood.pgp: its link replaced the first.
assert_eq 1 "$(keyctl rlist "$ring" | wc -w)" \
	"keys in the last restricted keyring"

# The worst case: every candidate but one claims rsa2048 and needs an RSA
# operation before it is refused.
count=$(cat "$C/flood-max.count")
t0=$(cut -d ' ' -f 1 /proc/uptime)
expect_ok keyctl padd asymmetric "" "$ring" <"$C/flood-max.pgp"
t1=$(cut -d ' ' -f 1 /proc/uptime)
echo "flood-max: $count forgeries, $(wc -c <"$C/flood-max.pgp") octets, restricted add_key from $t0 s to $t1 s (uptime)"

# No leak on the candidate path: 400 refusals of forged-only.pgpk (100
# candidates each, those claiming rsa2048 verified and refused; no key is
# created, so nothing is queued for IMA) leave the unreclaimable slab as
# it was, within 16 kB: less than leaking 64 octets per refusal, or the
# smallest object (8 octets) per candidate (320 kB), would add.
slab() { awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo; }
"$K/pgpk-bench" warm-up "$C/forged-only.pgpk" "$ring" 50 asymmetric
sleep 1
before=$(slab)
"$K/pgpk-bench" forged-only "$C/forged-only.pgpk" "$ring" 400 asymmetric
sleep 1
after=$(slab)
echo "SUnreclaim forged-only x 400: $before kB -> $after kB"
[ $((after - before)) -le 16 ] ||
	pgpk_fail "candidate path: unreclaimable slab grew by $((after - before)) kB"

# The anchor only in ".pgpk" (the preload bundle holds rsa2048), in no
# keyring of the caller: found there.
# (Every pgpk key holds the module: drop this session's keys to unload.)
expect_ok keyctl clear @s
pgpk_unload
mkdir -p /lib/firmware/pgpk
cp "$K/pubring.pgpk" /lib/firmware/pgpk/pubring.pgpk
pgpk_load bundle=pgpk/pubring.pgpk
rm -f /lib/firmware/pgpk/pubring.pgpk
pgpk=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
[ -n "$pgpk" ] || pgpk_fail "no .pgpk keyring in /proc/keys"
expect_ok keyctl newring bypgpk @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric \
	"key_or_keyring:$((0x$pgpk))"
expect_ok keyctl padd asymmetric "" "$ring" <"$C/flood.pgpk"
expect_fail ENOKEY keyctl padd asymmetric "" "$ring" <"$C/forged-only.pgpk"
# Leave the module as the next cases expect it: loaded, no bundle.
expect_ok keyctl clear $((0x$pgpk))
expect_ok keyctl clear @s
pgpk_unload
pgpk_load
exit 0
