#!/bin/sh
# Quota (issue 9, finding 4; issue 19, finding 8; issue 30).  The
# helper's answer lives for the one add_key that asked and is not charged
# to the requester's key quota; the request, while in flight, holds 4 KiB
# of it (and its 36-octet description).  nobody, with that and 300 octets
# of quota left, adds a 4096-bit OpenPGP key whose canonical answer is
# over 1 KiB.  With less than a request holds, his add fails with EDQUOT
# before any upcall starts, his own circumstance; root's add of the same
# bytes right after succeeds, with an upcall of its own (nothing nobody
# did is served to root).
#
# Abuse tried: nobody exhausts his own quota to make the module fail
# for others; it fails for him only.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb2.pgp k/deb2.fpr
pgpk_load

# The initramfs root comes from mktemp -d (mode 0700): let nobody in.
chmod 0755 /

# A small quota for users other than root: quick to fill, room for one
# request in flight.
maxbytes=$(cat /proc/sys/kernel/keys/maxbytes)
trap 'echo "$maxbytes" >/proc/sys/kernel/keys/maxbytes' EXIT
echo 5000 >/proc/sys/kernel/keys/maxbytes
request=$((4096 + 37))	# what a request in flight holds

# Run by nobody in a session of its own: leave $1 octets of quota, add.
cat >/tmp/38-nobody.sh <<EOF
quota() { awk '\$1 == "65534:" { print \$5 }' /proc/key-users; }
q=\$(quota)
pad=\$(( \${q#*/} - \${q%/*} - 5 - \$1 ))
echo "nobody's quota: \$q octets; filling \$pad"
keyctl add user fill "\$(printf "%\${pad}s" x)" @s >/dev/null || exit 2
echo "nobody's quota: \$(quota) octets"
keyctl padd asymmetric "" @s <$K/deb2.pgp &&
	keyctl search @s asymmetric id:$(cat "$K/deb2.fpr")
EOF
sleep 0.5
up=$(count_upcalls)
pgpk_run su -s /bin/sh nobody -c \
	"keyctl session - sh /tmp/38-nobody.sh $((request + 300))" ||
	pgpk_fail "nobody's add failed with 300 octets of quota left" \
		"beside the request's"
pgpk_wait_upcalls $((up + 1)) "upcalls for nobody's add"

# his keys of the first run go with the garbage collector
n=$((50 * PGPK_SLOWDOWN))
while grep -q '^65534:' /proc/key-users && [ "$n" -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
up=$(count_upcalls)
if pgpk_run su -s /bin/sh nobody -c \
	"keyctl session - sh /tmp/38-nobody.sh $((request - 4))"
then
	pgpk_fail "nobody's add succeeded: the quota could not hold the request"
fi
assert_contains "$PGPK_OUT" "Disk quota exceeded" "nobody's add, quota full"
sleep 0.5
assert_eq "$up" "$(count_upcalls)" "helper log lines (no upcall started)"

# Root, same bytes: an upcall of its own, and the key.
sleep 0.5
up=$(count_upcalls)
expect_ok keyctl padd asymmetric "" @s <"$K/deb2.pgp"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb2.fpr")"
pgpk_wait_upcalls $((up + 1)) "upcalls for root's add"
exit 0
