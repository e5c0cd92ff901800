#!/bin/sh
# Quota (issue 9, finding 4; issue 19, finding 8).  The helper's answer
# lives for the one add_key that asked and is not charged to the
# requester's key quota: nobody, with 300 octets of quota left, adds a
# 4096-bit OpenPGP key whose canonical answer is over 1 KiB.  With his
# quota full, his add fails with EDQUOT, his own circumstance; root's add
# of the same bytes right after succeeds, with an upcall of its own
# (nothing nobody did is served to root).
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

# A small quota for users other than root: quick to fill.
maxbytes=$(cat /proc/sys/kernel/keys/maxbytes)
trap 'echo "$maxbytes" >/proc/sys/kernel/keys/maxbytes' EXIT
echo 4000 >/proc/sys/kernel/keys/maxbytes

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
pgpk_run su -s /bin/sh nobody -c "keyctl session - sh /tmp/38-nobody.sh 300" ||
	pgpk_fail "nobody's add failed with 300 octets of quota left"
pgpk_wait_upcalls $((up + 1)) "upcalls for nobody's add"

if pgpk_run su -s /bin/sh nobody -c "keyctl session - sh /tmp/38-nobody.sh 4"
then
	pgpk_fail "nobody's add succeeded: the quota was not full"
fi
assert_contains "$PGPK_OUT" "Disk quota exceeded" "nobody's add, quota full"

# Root, same bytes: an upcall of its own, and the key.
sleep 0.5
up=$(count_upcalls)
expect_ok keyctl padd asymmetric "" @s <"$K/deb2.pgp"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb2.fpr")"
pgpk_wait_upcalls $((up + 1)) "upcalls for root's add"
exit 0
