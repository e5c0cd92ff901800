#!/bin/sh
# Nothing of a request outlives it (review finding 4).  The requester
# stops waiting (SIGKILL, or upcall_timeout) while /sbin/request-key and
# its program still run as root, each holding the request's keyring, its
# authorisation key (a kernel copy of the callout) and the requester's
# credentials.  Without the module killing the program, an unprivileged
# user would start such root processes at exec speed, without keeping any
# thread of his own waiting.
#
# Abuse tried: nobody starts 20 OpenPGP add_keys whose request-key
# program never answers and SIGKILLs each after 0.3 s; then none of the
# programs may be left, and nobody's key quota is back to what it was.
# Then the same with upcall_timeout expiring instead of the kill.
# pgpk-timeout: 120
. /pgpk/lib.sh
pgpk_need_module
pgpk_need_data rsa2048.pgp
pgpk_unload
chmod 0755 /
pgpk_load upcall_timeout=1
conf=/etc/request-key.d/pgpk.conf
cp "$conf" /tmp/56.conf
sleepers() {
	for p in /proc/[0-9]*; do
		grep -q "^sleep.4343" "$p/cmdline" 2>/dev/null && echo "${p#/proc/}"
	done
}
trap 'for p in $(sleepers); do kill -9 $p; done; cp /tmp/56.conf '"$conf"'; pgpk_unload; pgpk_load' EXIT
echo "create pgpk * * /bin/sleep 4343" >"$conf"
# quota: nobody's keys and octets in use ("0 0" when he has none).
quota() {
	awk '$1 == "65534:" { split($4, k, "/"); split($5, b, "/")
		print k[1], b[1]; f = 1 } END { if (!f) print "0 0" }' \
		/proc/key-users
}

N=20
before=$(quota)
echo "nobody's keys and octets before: $before"
su -s /bin/sh nobody -c "keyctl session - sh -c 'i=0; while [ \$i -lt $N ]; do
	keyctl padd asymmetric \"\" @s <$PGPK_DATA/rsa2048.pgp >/dev/null 2>&1 &
	p=\$!; sleep 0.3; kill -9 \$p; wait \$p; i=\$((i + 1)); done'"
echo "nobody's shell is gone; his $N add_key calls were killed"
sleep 1
n=$(sleepers | wc -l)
assert_eq 0 "$n" "request-key programs left after $N killed add_keys"

# The same, each request ending by upcall_timeout (1 s): ETIMEDOUT.
expect_fail ETIMEDOUT su -s /bin/sh nobody -c \
	"keyctl session - keyctl padd asymmetric '' @s <$PGPK_DATA/rsa2048.pgp"
sleep 1
n=$(sleepers | wc -l)
assert_eq 0 "$n" "request-key programs left after a timed-out add_key"
# (his session keyrings go with the key garbage collector: a moment)
n=50
while [ "$(quota)" != "$before" ] && [ "$n" -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
assert_eq "$before" "$(quota)" "nobody's keys and octets after"
exit 0
