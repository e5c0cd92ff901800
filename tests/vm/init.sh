#!/bin/sh
# /init of the pgpk test VM (busybox sh, pid 1).
#
# Mounts the pseudo file systems, starts syslogd (the helper logs there
# when it runs as an upcall), loads the extra crypto modules a real system
# would autoload, then, depending on pgpk.mode= on the kernel command line:
#   cases (default)  runs every /pgpk/cases/*.sh in sorted order, each in a
#                    fresh session keyring, under a per-case timeout, and
#                    prints "PGPK-CASE <name> PASS|FAIL|SKIP" for each;
#   demo             runs /pgpk/demo/demo.sh with its output as is;
#   shell            an interactive shell on the console (debugging).
# Then it powers the VM off.  The host side (tests/vm/run.sh) asserts on
# the console log; see there for the line formats.

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
# kmemleak's file and kcov (the debug kernel) live there.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p /var/log /run
hostname pgpk-vm

pgpk_arg() {
	# pgpk_arg NAME DEFAULT: the value of NAME=... on the kernel command line
	for _w in $(cat /proc/cmdline); do
		case "$_w" in
		"$1"=*) echo "${_w#*=}"; return ;;
		esac
	done
	echo "$2"
}
mode=$(pgpk_arg pgpk.mode cases)
default_timeout=$(pgpk_arg pgpk.timeout 60)
# How much slower than Debian's kernel this one is (the debug kernel
# under TCG): per-case limits, and lib.sh's waits, are multiplied by it.
slowdown=$(pgpk_arg pgpk.slowdown 1)
export PGPK_SLOWDOWN="$slowdown"

uptime() {
	cut -d ' ' -f 1 /proc/uptime
}
# (A newline first: the firmware leaves the cursor mid-line.)
echo
echo "PGPK-VM-START kernel=$(uname -r) mode=$mode uptime=$(uptime)"

# The helper logs through syslog(3) when it is not on a terminal; keep
# every line in one file so cases can assert on it.
: >/var/log/messages
syslogd -O /var/log/messages

# Crypto modules a real system would autoload (e.g. sha512_generic for
# SHA-384/512); there is no modprobe/depmod here.  Load order is in the
# list, dependencies first.
kdir=/lib/modules/$(uname -r)
if [ -f /etc/pgpk/modules ]; then
	while read -r mod; do
		[ -n "$mod" ] || continue
		insmod "$kdir/$mod" ||
			echo "PGPK-VM-ERROR insmod $mod failed"
	done </etc/pgpk/modules
fi

# pgpk_dump_new LABEL: print and clear the kernel log, print the syslog
# lines added since the last call; each line prefixed with its origin so
# the host can scan kernel lines for WARNING/BUG/Oops.  In demo mode
# (the demo shows what matters itself) only kernel trouble is printed.
# (/pgpk/kernel-reports.ere: tests/vm/kernel-reports.txt, the host's list.)
syslog_seen=0
pgpk_dump_new() {
	if [ "$mode" = demo ]; then
		dmesg -c | grep -E -f /pgpk/kernel-reports.ere
	else
		dmesg -c
	fi | while IFS= read -r line || [ -n "$line" ]; do
		echo "kmsg $1| $line"
	done
	total=$(wc -l </var/log/messages)
	[ "$mode" = demo ] && syslog_seen=$total
	if [ "$total" -gt "$syslog_seen" ]; then
		tail -n +"$((syslog_seen + 1))" /var/log/messages |
			while IFS= read -r line || [ -n "$line" ]; do
				echo "syslog $1| $line"
			done
	fi
	syslog_seen=$total
}
# IMA as a real system sets it up from its initramfs, before any case
# (policy/ima/pgpk-ima-setup): _ima in root's user keyring, the VM's
# policy (tests/vm/ima.policy: tmpfs files owned by uid 4242 need a
# signature), the first appraisal.  No key yet: pgpk keys hold the module,
# and cases unload it; the IMA cases add theirs.
if [ "$mode" != demo ] && [ -x /usr/sbin/pgpk-ima-setup ]; then
	/usr/sbin/pgpk-ima-setup --policy /etc/pgpk/ima/policy \
		--trigger-uid 4242 || echo "PGPK-VM-ERROR pgpk-ima-setup failed"
fi
pgpk_dump_new boot

# kmemleak (the debug kernel): what boot left unreferenced is marked
# seen ("clear"), so that what a scan finds after the cases is theirs.
# Objects younger than 5 s are not reported yet: wait that long first.
kmemleak=/sys/kernel/debug/kmemleak
if [ "$mode" = cases ] && [ -w "$kmemleak" ]; then
	sleep 5
	echo scan >"$kmemleak"
	n=$(grep -c '^unreferenced object' "$kmemleak")
	echo clear >"$kmemleak"
	echo "PGPK-KMEMLEAK-BOOT $n objects from boot set aside" \
		"(uptime $(uptime))"
fi

# pgpk_kmemleak_report: scan twice with a pause (kmemleak.rst: a first
# scan may report an object whose only reference sits in a register or
# was being moved), print every record as "kmemleak| ..." and a summary
# "PGPK-KMEMLEAK objects=N pgpk=M" for the host's verdict.  M: records
# whose backtrace names pgpk, or holds an address in module space that
# no longer has a name (a module unloaded since: in this VM, pgpk).
pgpk_kmemleak_report() {
	echo scan >"$kmemleak"
	sleep 5
	echo scan >"$kmemleak"
	cat "$kmemleak" >/tmp/kmemleak.txt
	while IFS= read -r line || [ -n "$line" ]; do
		echo "kmemleak| $line"
	done </tmp/kmemleak.txt
	awk '
		/^unreferenced object/ { n++; cur = n }
		(/pgpk/ || /\] 0xffffffffc[0-9a-f]+$/) && cur && !mine[cur]++ {
			p++
		}
		END { printf "PGPK-KMEMLEAK objects=%d pgpk=%d\n", n, p }
	' /tmp/kmemleak.txt
}

# pgpk_alive PID: PID exists and is not a zombie.
pgpk_alive() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f 1)
	[ -n "$_st" ] && [ "$_st" != Z ]
}

# pgpk_run LABEL TIMEOUT PREFIX CMD...: run CMD in its own session (so a
# hang can be killed as a whole process group) and in a fresh anonymous
# session keyring (none if $nosession is set: pid 1 never joined one),
# cwd /pgpk; stream its output with PREFIX; kill it after TIMEOUT
# seconds.  Sets $rc (124 on timeout).  Polls rather than waits:
# a process stuck in the kernel (D state) cannot be killed, and must not
# stop the cases after it from running.
pgpk_run() {
	label=$1 limit=$2 prefix=$3
	shift 3
	rm -f /tmp/pgpk.fifo
	mkfifo /tmp/pgpk.fifo
	while IFS= read -r line || [ -n "$line" ]; do
		echo "$prefix$line"
	done </tmp/pgpk.fifo &
	reader=$!
	(
		cd /pgpk || exit 1
		export PGPK_DATA=/pgpk/data PGPK_CASE="$label" \
			PGPK_CASE_DIR=/pgpk/cases HOME=/tmp \
			PGPK_SLOWDOWN="$slowdown"
		[ -n "$nosession" ] && exec setsid "$@"
		exec setsid keyctl session - "$@"
	) >/tmp/pgpk.fifo 2>&1 </dev/null &
	pid=$!
	ticks=0 deadline=$((limit * 5)) killed=""
	while pgpk_alive "$pid"; do
		sleep 0.2
		ticks=$((ticks + 1))
		if [ -z "$killed" ] && [ "$ticks" -ge "$deadline" ]; then
			kill -KILL -"$pid" 2>/dev/null || kill -KILL "$pid"
			killed=$ticks
		elif [ -n "$killed" ] && [ $((ticks - killed)) -ge 50 ]; then
			break	# unkillable: stuck in the kernel
		fi
	done
	if [ -n "$killed" ]; then
		if pgpk_alive "$pid"; then
			echo "$prefix*** hung: no result within ${limit}s," \
				"and unkillable (stuck in the kernel):"
			sed 's/^/    /' "/proc/$pid/stack" 2>/dev/null
			kill "$reader" 2>/dev/null
		else
			echo "$prefix*** killed: no result within ${limit}s"
			wait "$pid"
			wait "$reader"
		fi
		rc=124
		return
	fi
	wait "$pid"
	rc=$?
	wait "$reader"
}

case "$mode" in
shell)
	echo "pgpk VM shell: /pgpk/lib.sh, /pgpk/cases, /pgpk/data;" \
		"'poweroff -f' to quit"
	cd /pgpk && setsid -c keyctl session - sh -i
	;;
demo)
	pgpk_run demo "$(pgpk_arg pgpk.demo_timeout 600)" "" \
		sh /pgpk/demo/demo.sh
	pgpk_dump_new demo
	if [ "$rc" -eq 0 ]; then
		echo "PGPK-DEMO-RESULT PASS"
	else
		echo "PGPK-DEMO-RESULT FAIL (exit $rc)"
	fi
	;;
*)
	npass=0 nfail=0 nskip=0
	for c in /pgpk/cases/*.sh; do
		[ -f "$c" ] || continue
		name=${c##*/}
		name=${name%.sh}
		# A case may ask for a longer limit: "# pgpk-timeout: <secs>".
		limit=$(sed -n 's/^# pgpk-timeout: *\([0-9][0-9]*\).*/\1/p' \
			"$c" | head -n 1)
		[ -n "$limit" ] || limit=$default_timeout
		limit=$((limit * slowdown))
		# ... and no session keyring: "# pgpk-session: none".
		nosession=$(sed -n 's/^# pgpk-session: *none.*/1/p' "$c")
		echo "PGPK-CASE-BEGIN $name"
		t0=$(uptime)
		pgpk_run "$name" "$limit" "$name| " sh "$c"
		took=$(awk -v a="$t0" -v b="$(uptime)" \
			'BEGIN { printf "%.1f", b - a }')
		pgpk_dump_new "$name"
		case "$rc" in
		0) verdict=PASS npass=$((npass + 1)) ;;
		77) verdict=SKIP nskip=$((nskip + 1)) ;;
		*) verdict=FAIL nfail=$((nfail + 1)) ;;
		esac
		echo "PGPK-CASE $name $verdict (exit $rc, ${took}s)"
	done
	echo "PGPK-VM-SUMMARY $npass passed, $nfail failed, $nskip skipped"
	# Lockdep turns itself off after its first report, or after any
	# KASAN or UBSAN report: say whether it watched to the end.
	if [ -r /proc/lockdep_stats ]; then
		echo "PGPK-LOCKDEP $(grep -o 'debug_locks: *[0-9]*' \
			/proc/lockdep_stats)"
	fi
	if [ -w "$kmemleak" ]; then
		t0=$(uptime)
		pgpk_kmemleak_report
		pgpk_dump_new kmemleak
		echo "PGPK-KMEMLEAK-END ($(awk -v a="$t0" -v b="$(uptime)" \
			'BEGIN { printf "%.1f", b - a }')s)"
	fi
	;;
esac

echo "PGPK-VM-END uptime=$(uptime)"
sync
poweroff -f
