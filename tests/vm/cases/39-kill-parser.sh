#!/bin/sh
# Killing the parser (issue 9, finding 5).
# 1. nobody runs kill -9 -1 in a loop while root adds a key: the parser
#    must not be killable by nobody (it runs under a uid of its own), so
#    root's add succeeds.
# 2. A helper that rejects with a circumstantial errno (ECHILD, as when
#    the parser is killed) for 60 s: the module must not serve that from
#    .pgpk_cache; root's next add of the same bytes gets a fresh upcall.
#    (The rejection is given twice: the module retries once itself.)
# 3. The same rejection, late, for another caller whose upcall root
#    joined while it ran: root gets an answer of his own.
# 4. Nobody loops requests that always end so: whichever of his upcalls
#    root joins, root gets an answer of his own.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb1-comment.asc k/deb1.fpr rsa3072.pgp rsa3072.fpr \
	k/deb2-comment.asc k/deb2.fpr k/deb3.pgp k/deb3.fpr
pgpk_load

chmod 0755 /
cache=$(awk '$9 == ".pgpk_cache:" { print $1 }' /proc/keys)
[ -n "$cache" ] || pgpk_fail "no .pgpk_cache keyring in /proc/keys"
expect_ok keyctl clear $((0x$cache))

conf=/etc/request-key.d/pgpk.conf
cp "$conf" /tmp/pgpk.conf.saved
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
}
trap cleanup EXIT

echo "=== 1: nobody kills every process he may, in a loop"
su -s /bin/sh nobody -c 'while :; do kill -9 -1; done' 2>/dev/null &
sleep 1
kill -0 $! || pgpk_fail "the kill loop did not start"
lines=$(pgpk_log_lines)
pgpk_run keyctl padd asymmetric "" @s <"$K/deb1-comment.asc"
rc=$?
stop_nobody
sleep 0.5
pgpk_log_since "$lines"
# Both parts run, whatever the first gives: each proves its own fix.
failed=
[ "$rc" -eq 0 ] || failed="root's add failed while nobody ran kill -9 -1"

echo "=== 2: a helper that rejects ECHILD for 60 s, twice"
# (pgpk.ko asks once more itself after such a rejection: two upcalls.)
cat >/tmp/39-helper.sh <<'XEOF'
n=$(cat /tmp/39-count 2>/dev/null || echo 0)
echo $((n + 1)) >/tmp/39-count
if [ "$n" -lt 2 ]; then
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
	failed="${failed:+$failed; }root's second add was refused from the cache"
else
	sleep 0.5
	[ "$(count_upcalls)" -eq $((up + 1)) ] ||
		failed="${failed:+$failed; }no fresh upcall for the second add"
fi
echo "=== 3: root waits for another caller's upcall that ends in ECHILD"
# The other caller's upcall is slow and ends in a rejection that is no
# verdict: root, who joined it, must get an answer of his own.
cat >/tmp/39-helper.sh <<'XEOF'
if [ ! -e /tmp/39-rejected ]; then
	: >/tmp/39-rejected
	sleep 2
	logger -t pgpk-helper "fake: key $1 rejected ECHILD for 60 s, late"
	keyctl reject "$1" 60 10 0
	exit 0
fi
exec /usr/sbin/pgpk-helper upcall "$1"
XEOF
rm -f /tmp/39-rejected
keyctl session - sh -c "keyctl padd asymmetric '' @s \
	<'$K/deb2-comment.asc' >/tmp/39-other 2>&1" >/dev/null &
other=$!
sleep 1
[ -e /tmp/39-rejected ] || failed="${failed:+$failed; }no slow upcall"
if ! pgpk_run keyctl padd asymmetric "" @s <"$K/deb2-comment.asc"; then
	failed="${failed:+$failed; }root got the other caller's rejection"
fi
wait "$other"
echo "other caller: $(cat /tmp/39-other)"
echo "=== 4: nobody's requests of the same bytes always end in ECHILD"
# Four loops keep an upcall of nobody's under way in the cache at almost
# any time; whichever root joins, he must get his own answer.
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
pgpk_run su -s /bin/sh nobody -c "sh /tmp/39-loops.sh"
sleep 2
lines=$(pgpk_log_lines)
pgpk_run keyctl padd asymmetric "" @s <"$K/deb3.pgp" ||
	failed="${failed:+$failed; }root got nobody's rejection"
stop_nobody
pgpk_log_since "$lines"
head -n 3 /tmp/39-loop.*
[ "$(pgpk_log_since "$lines" | grep -c "fake: nobody's")" -gt 0 ] ||
	failed="${failed:+$failed; }nobody's loops made no upcall"

[ -z "$failed" ] || pgpk_fail "$failed"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb2.fpr")"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb3.fpr")"
expect_ok keyctl search @s asymmetric "id:$(cat "$K/deb1.fpr")"
expect_ok keyctl search @s asymmetric "id:$(cat "$PGPK_DATA/rsa3072.fpr")"
exit 0
