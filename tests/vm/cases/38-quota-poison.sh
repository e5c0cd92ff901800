#!/bin/sh
# Quota poisoning (issue 9, finding 4): nobody fills his key quota until
# the helper's answer no longer fits, then adds an OpenPGP key, so that
# keyctl_instantiate fails (EDQUOT).  That is nobody's circumstance, not
# a verdict about the bytes: nobody is told EDQUOT, and root's add of the
# same file right after succeeds, with an upcall of its own (the failure
# is not served from .pgpk_cache).  Root's answer is cached for the
# module's cache_ttl, not for ever.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb2-comment.asc k/deb2.fpr
pgpk_load

# The initramfs root comes from mktemp -d (mode 0700): let nobody in.
chmod 0755 /
cache=$(awk '$9 == ".pgpk_cache:" { print $1 }' /proc/keys)
[ -n "$cache" ] || pgpk_fail "no .pgpk_cache keyring in /proc/keys"
expect_ok keyctl clear $((0x$cache))

# A small quota for users other than root: quick to fill.
maxbytes=$(cat /proc/sys/kernel/keys/maxbytes)
trap 'echo "$maxbytes" >/proc/sys/kernel/keys/maxbytes' EXIT
echo 4000 >/proc/sys/kernel/keys/maxbytes

# Run by nobody in a session of its own: leave 200 octets of quota (the
# request key's description fits, the canonical answer does not), add.
cat >/tmp/38-nobody.sh <<EOF
quota() { awk '\$1 == "65534:" { print \$5 }' /proc/key-users; }
q=\$(quota)
pad=\$(( \${q#*/} - \${q%/*} - 5 - 200 ))
echo "nobody's quota: \$q octets; filling \$pad"
keyctl add user fill "\$(printf "%\${pad}s" x)" @s >/dev/null || exit 2
echo "nobody's quota: \$(quota) octets"
keyctl padd asymmetric "" @s <$K/deb2-comment.asc
EOF
sleep 0.5
lines=$(pgpk_log_lines)
if pgpk_run su -s /bin/sh nobody -c "keyctl session - sh /tmp/38-nobody.sh"
then
	pgpk_fail "nobody's add succeeded: the quota was not full"
fi
nobody_out=$PGPK_OUT
sleep 0.5
nobody_log=$(pgpk_log_since "$lines")
echo "$nobody_log"

# Root, same bytes: a fresh upcall, and the key.
up=$(count_upcalls)
expect_ok keyctl padd asymmetric "" @s <"$K/deb2-comment.asc"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb2.fpr")"
sleep 0.5
assert_eq $((up + 1)) "$(count_upcalls)" "upcalls for root's add"

# Root's answer is cached for cache_ttl (600 s), not for ever.
ttl=$(awk -v d="key:$(sha256sum <"$K/deb2-comment.asc" | cut -c1-64):" \
	'$8 == "pgpk" && $9 == d { print $4 }' /proc/keys)
echo "cached answer's timeout: $ttl"
case "$ttl" in
[1-9]*m) ;;
*) pgpk_fail "cached answer's timeout is '$ttl', want about 10m" ;;
esac

# Nobody was told his own circumstance, not a verdict about the bytes.
assert_contains "$nobody_out" "Disk quota exceeded" "nobody's add"
assert_contains "$nobody_log" "rejected EDQUOT for 2 s" "helper log"
exit 0
