#!/bin/sh
# One user's flood never changes another user's answer (issue 30, trust
# rule 7).  The kernel charges each request in flight 4 KiB of its
# requester's key quota: beyond 4 of his (the default 20,000 octets) it
# refuses EDQUOT before starting anything.  The broker takes one of
# --max-per-uid (4) slots of the requester's uid for the whole request
# (/run/pgpk/uid-<uid>.<n>, flock: a killed broker gives its slot back);
# beyond them the request is refused at once with EDQUOT, which only
# that user sees.  His parsers run niced by slot (0, 5, 10, 15), his log
# lines at most 10 per 5 s, then one line saying how many were
# suppressed.
#
# Abuse tried (nobody; alice, uid 1001, is the other user):
# 1. nobody floods 150 concurrent adds of a 64 KiB certificate of forged
#    certifications that claim a trust anchor (c/flood-max.pgp: one RSA
#    verification each in the helper), from a session of his own.
#    Checked: 1 s into it, root's add and alice's succeed within the
#    module's upcall_timeout plus what the same 150 processes of his cost
#    root's add when no parser takes their bytes (measured first: no
#    bound in pgpk can take back what his own processes cost, the
#    scheduler sharing the CPU per process as Debian ships it); his log
#    lines stay bounded; afterwards no helper is left and every slot of
#    his is free.  Measured (PGPK-MEASURE): root's and alice's add times
#    alone and during both floods, how nobody's adds ended (most EDQUOT
#    from the kernel), the helper processes in flight.
# 2a. every request's program sleeps: nobody's 6 concurrent adds start 4
#    programs, the other 2 are EDQUOT at once; alice's starts beside them.
# 2. nobody's 4 slots held (tools/pgpk-hold): his add is EDQUOT, root's
#    and alice's succeed; with 3 held, his add succeeds.
# 3. nobody alone: 4 concurrent adds all succeed (the bound, not fewer).
# 4. nobody's request in his slot 3 runs at nice 15 (its log line says
#    so).  A SIGKILLed broker's slot is free again: after the flood (the
#    module killed those of his requests that timed out) and
#    //tests/broker:quota_test.
# 5. 16 adds of his in a row, each refused by the broker, log at most 10
#    lines; after the window, one line says how many were suppressed.
# 6. /run/pgpk group-writable (only root can make it so): every request
#    is refused (EIO), the log names the directory; 0700 again: served.
# pgpk-timeout: 600
. /pgpk/lib.sh
C=$PGPK_DATA/c
HOLD=$PGPK_DATA/flood/pgpk-hold
FLOOD=150
SLOTS=/run/pgpk/uid-65534
pgpk_need_module
pgpk_need_helper
pgpk_need_data c/flood-max.pgp rsa2048.pgp rsa3072.pgp flood/pgpk-hold
pgpk_load

# The initramfs root comes from mktemp -d (mode 0700): let the users in.
chmod 0755 /
cp /etc/passwd /tmp/64.passwd
echo "alice:x:1001:1001:alice:/nonexistent:/bin/false" >>/etc/passwd
holders=""
release() {
	for p in $holders; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null	# its locks go with it
	done
	holders=""
}
# hold SLOT...: hold nobody's slots (tools/pgpk-hold) until release.
hold() {
	release
	mkdir -p /run/pgpk
	rm -f /tmp/64/hold
	"$HOLD" "$@" >/tmp/64/hold 2>&1 &
	holders=$!
	_n=$((100 * PGPK_SLOWDOWN))
	until grep -q held /tmp/64/hold 2>/dev/null || [ "$_n" -eq 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	grep -q held /tmp/64/hold ||
		fail_later "pgpk-hold $*: $(cat /tmp/64/hold)"
}
conf=/etc/request-key.d/pgpk.conf
param=/sys/module/pgpk/parameters/upcall_timeout
cp "$conf" /tmp/64.conf
saved=$(cat $param)
trap 'release; cp /tmp/64.passwd /etc/passwd; rm -rf /etc/pgpk/anchors
	cp /tmp/64.conf '"$conf"'; echo '"$saved"' >'"$param" EXIT
# The flood runs with the module's and the helper's own limits (the
# debug kernel's times PGPK_SLOWDOWN, as every limit here; the helper's
# watchdog counts each parser's own CPU time, and is not scaled: a
# wall-clock watchdog let nobody's flood kill root's parse on the debug
# kernel).
echo $((saved * PGPK_SLOWDOWN)) >$param
# With rsa2048 an anchor, each forgery in flood-max.pgp costs the helper
# an RSA verification: the most work one add_key can ask for.
mkdir -p /etc/pgpk/anchors
cp "$PGPK_DATA/rsa2048.pgp" /etc/pgpk/anchors/
rm -rf /tmp/64
mkdir -p /tmp/64
chmod 0777 /tmp/64
failed=""
fail_later() {
	echo "FAILED CHECK: $*"
	failed="${failed:+$failed; }$*"
}

# An add of FILE in a session keyring of its own, timed inside the shell
# that runs it: "STATUS SECONDS MESSAGE" in OUT.  As USER: su to him.
cat >/tmp/64/add.sh <<'EOF'
t0=$(cut -d ' ' -f 1 /proc/uptime)
out=$(keyctl padd asymmetric "" @s <"$1" 2>&1)
rc=$?
t1=$(cut -d ' ' -f 1 /proc/uptime)
echo "$rc $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') $out" >"$2"
EOF
timed_add() {	# timed_add USER FILE OUT
	rm -f "$3"
	if [ "$1" = root ]; then
		keyctl session - sh /tmp/64/add.sh "$2" "$3" >/dev/null
	else
		su -s /bin/sh "$1" -c "keyctl session - sh /tmp/64/add.sh $2 $3" \
			>/dev/null
	fi
	echo "$1 adds $(basename "$2"): $(cat "$3")"
}
# ok_add USER FILE WHAT: the add must succeed.
ok_add() {
	timed_add "$1" "$2" /tmp/64/r
	[ "$(cut -d ' ' -f 1 /tmp/64/r)" = 0 ] || fail_later "$3: $(cat /tmp/64/r)"
}
secs() { cut -d ' ' -f 2 /tmp/64/r; }
# helpers: "BROKERS PARSERS REQUEST-KEYS" now (brokers run as root,
# their parsers as a uid of their own).
helpers() {
	ps -o user,args | awk '/pgpk-helper upcall/ && !/awk/ {
		if ($1 == "root") b++; else p++ }
		/request-key/ && !/awk/ { r++ }
		END { printf "%d %d %d\n", b, p, r }'
}
wait_idle() {
	n=$((300 * PGPK_SLOWDOWN))
	while [ "$(helpers)" != "0 0 0" ] && [ "$n" -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
	done
	[ "$(helpers)" = "0 0 0" ] || fail_later "helpers still running: $(helpers)"
}
# flood_tally: how nobody's adds ended ("ok", or the error text).
flood_tally() {
	for f in /tmp/64/flood.[0-9]*; do
		if [ -s "$f" ]; then sed 's/^add_key: //' "$f"; else echo ok; fi
	done | sort | uniq -c | sed 's/^ *//' | tr '\n' ';'
}
# wait_for FILE: until it exists (at most 300 s, times PGPK_SLOWDOWN).
wait_for() {
	n=$((1500 * PGPK_SLOWDOWN))
	while [ ! -e "$1" ] && [ "$n" -gt 0 ]; do
		sleep 0.2
		n=$((n - 1))
	done
}
# held FILE: someone holds a flock on FILE (/proc/locks names its inode;
# looking takes no lock, so it never makes a request find a slot held).
held() {
	[ -e "$1" ] && grep -q "FLOCK.*:$(stat -c %i "$1") " /proc/locks
}
edquot=$(pgpk_errno_text EDQUOT)

echo "=== 1: no flood: root's add alone (3 times), alice's"
ok_add root "$PGPK_DATA/rsa3072.pgp" "root's add alone"
alone="$(secs)"
ok_add root "$PGPK_DATA/rsa3072.pgp" "root's add alone"
alone="$alone $(secs)"
ok_add root "$PGPK_DATA/rsa3072.pgp" "root's add alone"
alone="$alone $(secs)"
ok_add alice "$PGPK_DATA/rsa2048.pgp" "alice's add alone"
alice_alone=$(secs)

echo "=== 1: nobody floods $FLOOD concurrent adds of flood-max.pgp" \
	"($(wc -c <"$C/flood-max.pgp") octets)"
# From a session of his own, as a user logs in: his own processes (150
# keyctl) compete as one group of his (autogroup), not with root's.
# flood.sh FILE: $FLOOD adds of FILE at once.
cat >/tmp/64/flood.sh <<EOF
rm -f /tmp/64/flood.*[0-9] /tmp/64/flood.done
i=0
while [ \$i -lt $FLOOD ]; do
	keyctl padd asymmetric "" @s <"\$1" >/dev/null 2>/tmp/64/flood.\$i &
	i=\$((i + 1))
done
wait
touch /tmp/64/flood.done
EOF
# What his own processes cost others, pgpk or not: the same number of
# adds of as many octets that no parser takes (EBADMSG at once).
head -c "$(wc -c <"$C/flood-max.pgp")" /dev/zero >/tmp/64/zeros
chmod 0644 /tmp/64/zeros
su -s /bin/sh nobody -c "setsid keyctl session - sh /tmp/64/flood.sh \
	/tmp/64/zeros" >/dev/null 2>&1 &
sleep 1
timed_add root "$PGPK_DATA/rsa3072.pgp" /tmp/64/r
baseline="$(secs) s ($(cut -d ' ' -f 3- /tmp/64/r))"
# What his processes alone cost root's add, beyond its time alone: no
# bound in pgpk can take that back (the scheduler shares the CPU per
# process here, autogroup off as Debian ships it), so the limit root's
# add is held to during the OpenPGP flood is the module's upcall_timeout
# plus that (whole seconds, at most 60).
limit=$(echo "$(secs) $alone" | awk '{ m = $2; for (i = 3; i <= NF; i++)
	if ($i < m) m = $i; d = $1 - m; d = d > 0 ? int(d + 0.999) : 0
	printf "%d", d }')
limit=$((saved * PGPK_SLOWDOWN + limit))
[ "$limit" -le 60 ] || limit=60
wait_for /tmp/64/flood.done
echo "PGPK-MEASURE 65-uid-flood: root's add 1 s into $FLOOD adds of" \
	"nobody's that no parser takes: $baseline; their ends:" \
	"$(flood_tally); autogroup" \
	"$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo none)"
: >/tmp/64/samples
lines=$(pgpk_log_lines)
t0=$(cut -d ' ' -f 1 /proc/uptime)
su -s /bin/sh nobody -c "setsid keyctl session - sh /tmp/64/flood.sh \
	$C/flood-max.pgp" >/dev/null 2>&1 &
( while [ ! -e /tmp/64/flood.done ]; do
	helpers >>/tmp/64/samples
	sleep 0.5
done ) &
sampler=$!
sleep 1
echo "$limit" >$param	# the module's, for root's and alice's adds
timed_add root "$PGPK_DATA/rsa3072.pgp" /tmp/64/r
during="$(secs) s ($(cut -d ' ' -f 3- /tmp/64/r))"
[ "$(cut -d ' ' -f 1 /tmp/64/r)" = 0 ] ||
	fail_later "root's add 1 s into nobody's flood (limit $limit s): $(cat /tmp/64/r)"
timed_add alice "$PGPK_DATA/rsa2048.pgp" /tmp/64/r
alice_during="$(secs) s ($(cut -d ' ' -f 3- /tmp/64/r))"
[ "$(cut -d ' ' -f 1 /tmp/64/r)" = 0 ] ||
	fail_later "alice's add during nobody's flood (limit $limit s): $(cat /tmp/64/r)"
echo $((saved * PGPK_SLOWDOWN)) >$param
wait_for /tmp/64/flood.done
t1=$(cut -d ' ' -f 1 /proc/uptime)
wait $sampler
[ -e /tmp/64/flood.done ] || fail_later "nobody's flood did not end"
wait_idle
sleep 0.5
tally=$(flood_tally)
max=$(awk '{ if ($1 > b) b = $1; if ($2 > p) p = $2; if ($3 > r) r = $3 }
	END { printf "brokers %d, parsers %d, request-key %d", b, p, r }' \
	/tmp/64/samples)
# The helper's lines about nobody's requests during the flood.
nlines=$(pgpk_log_since "$lines" | grep -c "$PGPK_HELPER_TAG.*uid 65534:")
echo "PGPK-MEASURE 65-uid-flood: root's add alone $alone s, 1 s into" \
	"the flood $during (limit $limit s); alice's alone $alice_alone s, then $alice_during"
echo "PGPK-MEASURE 65-uid-flood: nobody's $FLOOD adds took" \
	"$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s: $tally" \
	"in flight at most (0.5 s samples): $max; his helper log lines: $nlines"
# 10 lines per 5 s, one suppressed-count line per window, and the
# other lines of the window (anchors, warnings) are each his too.
bound=$(echo "$t0 $t1" | awk '{ printf "%d", (($2 - $1) / 5 + 2) * 11 }')
[ "$nlines" -le "$bound" ] ||
	fail_later "nobody's flood logged $nlines lines (at most $bound)"
! held $SLOTS.0 && ! held $SLOTS.1 && ! held $SLOTS.2 && ! held $SLOTS.3 &&
	echo "ok: every slot of nobody's is free after the flood" ||
	fail_later "a slot of nobody's is still held after his flood"

# What follows checks who is admitted, not how fast the machine is (the
# host's other jobs slow the emulated CPU): generous limits.
echo 30 >$param

echo "=== 2a: the kernel's bound: 4 requests of his in flight, the 5th EDQUOT"
# Every request's program sleeps (nothing answers): each request holds
# 4 KiB of its requester's key quota (20,000 octets) until it ends.
wait_idle
# his quota in use (/proc/key-users: uid, usage, keys, quota keys,
# quota bytes): what the flood left goes with the garbage collector
qbytes() { awk '$1 == "65534:" { split($5, q, "/"); print q[1] }' /proc/key-users; }
n=$((100 * PGPK_SLOWDOWN))
while [ "$(qbytes)" -gt 1000 ] 2>/dev/null && [ "$n" -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
echo "nobody's key quota: $(grep '^65534:' /proc/key-users)"
printf '#!/bin/sh\necho "$$" >>/tmp/64/started\nexec sleep 120\n' \
	>/tmp/64/sleeper
chmod 0755 /tmp/64/sleeper
: >/tmp/64/started
echo "create pgpk * * /tmp/64/sleeper" >"$conf"
# programs started, and still running
sleepers() {
	_n=0
	for p in $(cat /tmp/64/started); do
		[ -d "/proc/$p" ] && _n=$((_n + 1))
	done
	echo $_n
}
pids=""
for i in 1 2 3 4 5 6; do
	su -s /bin/sh nobody -c "keyctl session - sh /tmp/64/add.sh \
		$PGPK_DATA/rsa2048.pgp /tmp/64/six.$i" >/dev/null 2>&1 &
	pids="$pids $!"
done
n=$((300 * PGPK_SLOWDOWN))
until { [ "$(ls /tmp/64/six.* 2>/dev/null | wc -l)" -ge 2 ] &&
	[ "$(sleepers)" -ge 4 ]; } || [ "$n" -eq 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
sleep 1
echo "nobody's key quota: $(grep '^65534:' /proc/key-users)"
echo "nobody's 6 adds: $(sleepers) programs started;" \
	"$(cat /tmp/64/six.* 2>/dev/null | tr '\n' ';')"
[ "$(sleepers)" = 4 ] ||
	fail_later "nobody's 6 adds started $(sleepers) programs, not 4"
[ "$(grep -l "$edquot" /tmp/64/six.* 2>/dev/null | wc -l)" = 2 ] ||
	fail_later "nobody's 5th and 6th adds were not refused $edquot"
# alice's quota is hers: her request starts.
su -s /bin/sh alice -c "keyctl session - sh /tmp/64/add.sh \
	$PGPK_DATA/rsa2048.pgp /tmp/64/six.alice" >/dev/null 2>&1 &
alice_pid=$!
n=$((100 * PGPK_SLOWDOWN))
until [ "$(sleepers)" -ge 5 ] || [ "$n" -eq 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
[ "$(sleepers)" = 5 ] && echo "ok: alice's request started beside his 4" ||
	fail_later "alice's request did not start beside nobody's 4"
# Their add_keys killed, the module kills the sleeping programs.
for p in $(ps -o pid,user,args | awk '($2 == "nobody" || $2 == "alice") &&
	/keyctl padd/ { print $1 }'); do
	kill -9 "$p"
done
wait $pids $alice_pid 2>/dev/null
cp /tmp/64.conf "$conf"
wait_idle
n=$((50 * PGPK_SLOWDOWN))
while [ "$(sleepers)" != 0 ] && [ "$n" -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
[ "$(sleepers)" = 0 ] || fail_later "$(sleepers) programs left behind"
sed 's/ %k$/ --timeout-ms=20000 %k/' /tmp/64.conf >"$conf"
echo "=== 2: nobody's 4 slots held (upcall_timeout 30 s, --timeout-ms=20000)"
hold $SLOTS.0 $SLOTS.1 $SLOTS.2 $SLOTS.3
cat /tmp/64/hold
timed_add nobody "$PGPK_DATA/rsa2048.pgp" /tmp/64/r
case "$(cat /tmp/64/r)" in
*"$edquot"*) echo "ok: refused $edquot in $(secs) s" ;;
*) fail_later "nobody's add with his slots taken: $(cat /tmp/64/r)" ;;
esac
ok_add root "$PGPK_DATA/rsa3072.pgp" "root's add while nobody's slots are taken"
ok_add alice "$PGPK_DATA/rsa2048.pgp" "alice's add while nobody's slots are taken"
release
hold $SLOTS.0 $SLOTS.1 $SLOTS.2
ok_add nobody "$PGPK_DATA/rsa2048.pgp" "nobody's add with 3 of his slots taken"
release

echo "=== 3: nobody alone, 4 concurrent adds"
wait_idle
pids=""
for i in 1 2 3 4; do
	su -s /bin/sh nobody -c "keyctl session - sh /tmp/64/add.sh \
		$PGPK_DATA/rsa2048.pgp /tmp/64/four.$i" &
	pids="$pids $!"
done
wait $pids
for i in 1 2 3 4; do
	echo "nobody's add $i: $(cat /tmp/64/four.$i)"
	[ "$(cut -d ' ' -f 1 /tmp/64/four.$i)" = 0 ] ||
		fail_later "nobody's add $i of 4: $(cat /tmp/64/four.$i)"
done

echo "=== 4: nobody's request in his slot 3 runs at nice 15"
wait_idle
hold $SLOTS.0 $SLOTS.1 $SLOTS.2
lines=$(pgpk_log_lines)
timed_add nobody "$PGPK_DATA/rsa2048.pgp" /tmp/64/r
release
sleep 0.5
v=$(pgpk_log_since "$lines" | grep "uid 65534: key .*: instantiated: ")
echo "$v"
case "$v" in
*"slot 3, nice 15)") echo "ok: slot 3, nice 15" ;;
*) fail_later "nobody's request with slots 0-2 held: '$v'" ;;
esac
wait_idle

echo "=== 5: at most 10 of his lines in 5 s, then how many were left out"
hold $SLOTS.0 $SLOTS.1 $SLOTS.2 $SLOTS.3
sleep 5.5
lines=$(pgpk_log_lines)
t0=$(cut -d ' ' -f 1 /proc/uptime)
# one after another: the kernel lets at most 4 of his in at once
su -s /bin/sh nobody -c "keyctl session - sh -c 'for i in \$(seq 16); do
	keyctl padd asymmetric \"\" @s <$PGPK_DATA/rsa2048.pgp; done'" \
	>/dev/null 2>&1
t1=$(cut -d ' ' -f 1 /proc/uptime)
sleep 0.5
n=$(pgpk_log_since "$lines" | grep -c "uid 65534: key")
span=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
echo "nobody's 16 refused adds in $span s: $n log lines"
fast=$(echo "$span" | awk '{ print ($1 < 5) }')
[ "$n" -le $((10 * (${span%.*} / 5 + 1))) ] ||
	fail_later "nobody's 16 adds logged $n lines in $span s"
sleep 5.5
lines=$(pgpk_log_lines)
timed_add nobody "$PGPK_DATA/rsa2048.pgp" /tmp/64/r
release
sleep 0.5
pgpk_log_since "$lines"
if pgpk_log_since "$lines" | grep -q "uid 65534: [0-9]* lines suppressed"; then
	echo "ok: a line says how many of nobody's lines were suppressed"
elif [ "$fast" = 1 ]; then
	fail_later "no line saying how many of nobody's lines were suppressed"
else
	echo "not checked: 16 requests took $span s, no 5 s window filled" \
		"(the windows: //tests/broker:quota_test)"
fi

echo "=== 6: /run/pgpk not root's alone: every request refused, EIO"
chmod 0770 /run/pgpk
timed_add root "$PGPK_DATA/rsa3072.pgp" /tmp/64/r
chmod 0700 /run/pgpk
case "$(cat /tmp/64/r)" in
*"$(pgpk_errno_text EIO)"*) echo "ok: refused EIO" ;;
*) fail_later "root's add with /run/pgpk group-writable: $(cat /tmp/64/r)" ;;
esac
grep "is owned by uid 0, mode 0770" "$PGPK_SYSLOG" | tail -n 1
ok_add root "$PGPK_DATA/rsa3072.pgp" "root's add once /run/pgpk is 0700 again"

[ -z "$failed" ] || pgpk_fail "$failed"
exit 0
