#!/bin/sh
# Killing the parser (issue 9, finding 5).
# 1. nobody runs kill -9 -1 in a loop while root adds a key: the parser
#    must not be killable by nobody (it runs under a uid of its own), so
#    root's add succeeds.
# 2. A helper that rejects with a circumstantial errno (ECHILD, as when
#    the parser is killed) "for 60 s": that add fails with ECHILD, and the
#    next add of the same bytes gets a fresh upcall and the key (a
#    rejection belongs to its request: nothing is cached).
# 3. Nobody loops requests of the same bytes that always end so: root's
#    add meanwhile gets an answer of his own (no request can join
#    another's: each has a random description and keyring of its own).
# The module's upcall_timeout is its default times PGPK_SLOWDOWN, as
# every limit in these cases: on the debug kernels under TCG, a process
# start costs up to 20 times as much, and nobody's four loops of
# request-key, sh, sleep, logger and keyctl left root's upcall less than
# 5 s (ETIMEDOUT, on 6.1-debug and 7.3-pgpk-debug alike).
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb1.pgp k/deb1.fpr rsa3072.pgp rsa3072.fpr \
	k/deb3.pgp k/deb3.fpr
pgpk_load

chmod 0755 /
conf=/etc/request-key.d/pgpk.conf
cp "$conf" /tmp/pgpk.conf.saved
param=/sys/module/pgpk/parameters/upcall_timeout
saved=$(cat $param)
echo $((saved * PGPK_SLOWDOWN)) >$param
# Every process of nobody's: his loops and their children.
stop_nobody() {
	for p in $(ps -o pid,user | awk '$2 == "nobody" { print $1 }'); do
		kill -9 "$p" 2>/dev/null
	done
	sleep 1.5 # nobody's upcalls under way end
}
cleanup() {
	stop_nobody
	cp /tmp/pgpk.conf.saved "$conf"
	echo "$saved" >$param
}
trap cleanup EXIT

echo "=== 1: nobody kills every process he may, in a loop"
su -s /bin/sh nobody -c 'while :; do kill -9 -1; done' 2>/dev/null &
sleep 1
kill -0 $! || pgpk_fail "the kill loop did not start"
lines=$(pgpk_log_lines)
pgpk_run keyctl padd asymmetric "" @s <"$K/deb1.pgp"
rc=$?
stop_nobody
sleep 0.5
pgpk_log_since "$lines"
# Both parts run, whatever the first gives: each proves its own fix.
failed=
[ "$rc" -eq 0 ] || failed="root's add failed while nobody ran kill -9 -1"

echo "=== 2: a helper that rejects ECHILD for 60 s, once"
cat >/tmp/39-helper.sh <<'XEOF'
n=$(cat /tmp/39-count 2>/dev/null || echo 0)
echo $((n + 1)) >/tmp/39-count
if [ "$n" -lt 1 ]; then
	logger -t pgpk-helper "fake: key $1 rejected ECHILD for 60 s"
	keyctl reject "$1" 60 10 0
	exit 0
fi
exec /usr/sbin/pgpk-helper upcall "$1"
XEOF
rm -f /tmp/39-count
echo "create pgpk * * /bin/sh /tmp/39-helper.sh %k" >"$conf"
expect_fail ECHILD keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa3072.pgp"
up=$(count_upcalls)
if ! pgpk_run keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa3072.pgp"; then
	failed="${failed:+$failed; }root's second add was refused: $PGPK_OUT"
else
	sleep 0.5
	[ "$(count_upcalls)" -eq $((up + 1)) ] ||
		failed="${failed:+$failed; }no fresh upcall for the second add"
fi
echo "=== 3: nobody's requests of the same bytes always end in ECHILD"
# Four loops keep an upcall of nobody's under way at almost any time.
cat >/tmp/39-helper.sh <<'XEOF'
if [ "$2" = 65534 ]; then
	sleep 1
	logger -t pgpk-helper "fake: nobody's key $1 rejected ECHILD for 60 s"
	keyctl reject "$1" 60 10 0
	exit 0
fi
exec /usr/sbin/pgpk-helper upcall "$1"
XEOF
echo "create pgpk * * /bin/sh /tmp/39-helper.sh %k %u" >"$conf"
cat >/tmp/39-loops.sh <<XEOF
for i in 1 2 3 4; do
	keyctl session - sh -c 'while :; do
		keyctl padd asymmetric "" @s <$K/deb3.pgp; done' \
		>/tmp/39-loop.\$i 2>&1 </dev/null &
	sleep 0.3
done
XEOF
loops=$(pgpk_log_lines)
pgpk_run su -s /bin/sh nobody -c "sh /tmp/39-loops.sh"
sleep 2
lines=$(pgpk_log_lines)
pgpk_run keyctl padd asymmetric "" @s <"$K/deb3.pgp" ||
	failed="${failed:+$failed; }root's add during nobody's loops: $PGPK_OUT"
stop_nobody
pgpk_log_since "$lines"
head -n 3 /tmp/39-loop.*
[ "$(pgpk_log_since "$loops" | grep -c "fake: nobody's")" -gt 0 ] ||
	failed="${failed:+$failed; }nobody's loops made no upcall"

[ -z "$failed" ] || pgpk_fail "$failed"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb3.fpr")"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb1.fpr")"
expect_ok keyctl search @s asymmetric "id:$(cat "$PGPK_DATA/rsa3072.fpr")"
exit 0
