#!/bin/sh
# Killing the parser (issue 9, finding 5).
# 1. nobody runs kill -9 -1 in a loop while root adds a key: the parser
#    must not be killable by nobody (it runs under a uid of its own), so
#    root's add succeeds.
# 2. A helper that rejects with a circumstantial errno (ECHILD, as when
#    the parser is killed) for 60 s: the module must not serve that from
#    .pgpk_cache; root's next add of the same bytes gets a fresh upcall.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb1-comment.asc k/deb1.fpr rsa3072.pgp rsa3072.fpr
pgpk_load

chmod 0755 /
cache=$(awk '$9 == ".pgpk_cache:" { print $1 }' /proc/keys)
[ -n "$cache" ] || pgpk_fail "no .pgpk_cache keyring in /proc/keys"
expect_ok keyctl clear $((0x$cache))

conf=/etc/request-key.d/pgpk.conf
cp "$conf" /tmp/pgpk.conf.saved
killer=
cleanup() {
	[ -n "$killer" ] && kill -9 "$killer" 2>/dev/null
	cp /tmp/pgpk.conf.saved "$conf"
}
trap cleanup EXIT

echo "=== 1: nobody kills every process he may, in a loop"
su -s /bin/sh nobody -c 'while :; do kill -9 -1; done' 2>/dev/null &
killer=$!
sleep 1
kill -0 "$killer" || pgpk_fail "the kill loop did not start"
lines=$(pgpk_log_lines)
pgpk_run keyctl padd asymmetric "" @s <"$K/deb1-comment.asc"
rc=$?
kill -9 "$killer"
wait "$killer" 2>/dev/null
killer=
sleep 0.5
pgpk_log_since "$lines"
# Both parts run, whatever the first gives: each proves its own fix.
failed=
[ "$rc" -eq 0 ] || failed="root's add failed while nobody ran kill -9 -1"

echo "=== 2: a helper that rejects ECHILD for 60 s, once"
cat >/tmp/39-helper.sh <<'EOF'
if [ ! -e /tmp/39-rejected ]; then
	: >/tmp/39-rejected
	logger -t pgpk-helper "fake: key $1 rejected ECHILD for 60 s"
	keyctl reject "$1" 60 10 0
	exit 0
fi
exec /usr/sbin/pgpk-helper upcall "$1"
EOF
rm -f /tmp/39-rejected
echo "create pgpk * * /bin/sh /tmp/39-helper.sh %k" >"$conf"
expect_fail ECHILD keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa3072.pgp"
up=$(count_upcalls)
if ! pgpk_run keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa3072.pgp"; then
	failed="${failed:+$failed; }root's second add was refused from the cache"
else
	sleep 0.5
	[ "$(count_upcalls)" -eq $((up + 1)) ] ||
		failed="${failed:+$failed; }no fresh upcall for the second add"
fi
[ -z "$failed" ] || pgpk_fail "$failed"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb1.fpr")"
expect_ok keyctl search @s asymmetric "id:$(cat "$PGPK_DATA/rsa3072.fpr")"
exit 0
