#!/bin/bash
# The VM harness catches what it must: boots tests/vm/run.sh on a set of
# deliberately good and bad cases and checks every verdict: a pass, an
# assertion failure with its reason, a skip, a hang killed by the per-case
# timeout, lib.sh's expect_fail refusing the wrong errno and a success, a
# kernel WARNING in the log, and a VM that dies mid-case (that case and
# the ones after it are failures, never silently missing).  Then: no
# daemon a run starts keeps the run's lock (a Bazel server started by the
# demo used to, and the test command after it waited for three hours).
# Then, --cases DIR on 6.1 and 6.12: a case failing on one kernel only
# fails there.  Last, the kernel reports: tests/vm/check-log.sh finds each
# kind in canned console logs (tests/host/data/kernel-reports/, captured
# from the debug kernel) and nothing in clean boot logs; and, when the
# debug kernel is built (tests/vm/run.sh --kernel 6.1-debug builds it),
# deliberate bugs of tests/vm/debug-selftest fail a run on it (KASAN,
# UBSAN, lockdep, sleep in atomic, refcount_t, debugobjects in
# vm-6.1-debug/kernel-log, a leak in vm-6.1-debug/kmemleak) while a run
# without them passes both (two boots, about two minutes).
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/pgpk-harness.XXXXXX")
trap 'rm -rf "$work"' EXIT
cases=$work/cases
mkdir -p "$cases"

cat >"$cases/a-pass.sh" <<'CASE'
. /pgpk/lib.sh
expect_ok keyctl add user harness ok @s
assert_eq ok "$(keyctl print "$PGPK_OUT")" "payload"
CASE
cat >"$cases/b-fail.sh" <<'CASE'
. /pgpk/lib.sh
assert_eq 1 2 "deliberate"
echo "not reached"
CASE
cat >"$cases/c-skip.sh" <<'CASE'
. /pgpk/lib.sh
pgpk_skip "deliberate skip"
CASE
cat >"$cases/d-hang.sh" <<'CASE'
# pgpk-timeout: 3
sleep 1000 &
sleep 1000
CASE
cat >"$cases/e-expect.sh" <<'CASE'
. /pgpk/lib.sh
# The wrong errno must fail the assertion...
if (expect_fail EBADMSG keyctl add pgpk_no_such_type x y @s); then
	pgpk_fail "expect_fail accepted ENODEV for EBADMSG"
fi
# ...and so must a success.
if (expect_fail ENODEV keyctl add user x y @s); then
	pgpk_fail "expect_fail accepted a success"
fi
expect_fail ENODEV keyctl add pgpk_no_such_type x y @s
CASE
cat >"$cases/f-warn.sh" <<'CASE'
echo "<4>WARNING: CPU: 0 PID: 1 at pgpk-harness-selftest" >/dev/kmsg
CASE
cat >"$cases/g-die.sh" <<'CASE'
echo "powering off mid-case"
poweroff -f
sleep 30
CASE
cat >"$cases/h-after.sh" <<'CASE'
exit 0
CASE

out=$(PGPK_VM_CASES_DIR=$cases PGPK_VM_OUT=$work/out PGPK_VM_NO_BUILD=1 \
	PGPK_VM_NO_DATA=1 "$root/tests/vm/run.sh" 2>&1)
rc=$?
echo "$out"
fail=0
expect() {
	if printf '%s\n' "$out" | grep -q -E "$1"; then
		echo "ok: $1"
	else
		echo "MISSING: $1"
		fail=1
	fi
}
expect '^PASS: vm/a-pass$'
expect "^FAIL: vm/b-fail \\(FAIL: deliberate: expected '1', got '2'\\)"
expect '^SKIP: vm/c-skip \(deliberate skip\)$'
expect '^FAIL: vm/d-hang \(\*\*\* killed: no result within 3s\)'
expect '^PASS: vm/e-expect$'
expect '^PASS: vm/f-warn$'
expect '^FAIL: vm/g-die \(started but never reported'
expect '^FAIL: vm/h-after \(never ran'
expect '^FAIL: vm/kernel-log \(.*WARNING: CPU: 0 PID: 1 at pgpk-harness-selftest'
if [ "$rc" -eq 0 ]; then
	echo "run.sh exited 0 despite failures"
	fail=1
fi
n=$(printf '%s\n' "$out" | grep -c -E '^(PASS|FAIL|SKIP): ')
if [ "$n" -ne 9 ]; then
	echo "expected 9 verdicts, got $n"
	fail=1
fi

# The lock: a run that starts the Bazel server (shut down first) must
# leave out/.lock free, and a second run must not wait.
if command -v bazel >/dev/null; then
	lockcases=$work/lockcases
	mkdir -p "$lockcases"
	cp "$cases/a-pass.sh" "$lockcases/"
	(cd "$root" && bazel shutdown) </dev/null >/dev/null 2>&1
	for run in 1 2; do
		out=$(PGPK_VM_CASES_DIR=$lockcases PGPK_VM_OUT=$work/lockout \
			PGPK_VM_NO_DATA=1 timeout 600 "$root/tests/vm/run.sh" \
			</dev/null 2>&1)
		case "$out" in
		*"is running in this tree; waiting"*)
			echo "run $run waited for the lock"
			fail=1
			;;
		esac
		printf '%s\n' "$out" | grep -q '^PASS: vm/a-pass$' || {
			printf '%s\n' "$out" | tail -n 20
			echo "run $run: no PASS for a-pass"
			fail=1
		}
		if ! flock -n "$work/lockout/.lock" true; then
			echo "after run $run, a process still holds the lock"
			command -v fuser >/dev/null &&
				fuser -v "$work/lockout/.lock" 2>&1 |
				grep -v "Cannot stat"
			fail=1
			break
		fi
	done
	pgrep -f 'bazel.*server' >/dev/null ||
		echo "note: no Bazel server running after the runs"
else
	echo "bazel not installed: lock check skipped"
fi
# --cases DIR on two kernels: a case that fails on purpose on 6.12 only
# is a failure of vm-6.12 only; DIR's other files are at $PGPK_CASE_DIR.
kcases=$work/kcases
mkdir -p "$kcases"
echo "pgpk-case-file" >"$kcases/note.txt"
cat >"$kcases/k-not-612.sh" <<'CASE'
. /pgpk/lib.sh
assert_eq pgpk-case-file "$(cat "$PGPK_CASE_DIR/note.txt")" "case file"
case "$(uname -r)" in
6.12.*) pgpk_fail "deliberate: this is $(uname -r)" ;;
esac
CASE
for k in 6.1 6.12; do
	out=$(PGPK_VM_OUT=$work/kout PGPK_VM_NO_BUILD=1 PGPK_VM_NO_DATA=1 \
		"$root/tests/vm/run.sh" --kernel "$k" --cases "$kcases" 2>&1)
	krc=$?
	echo "$out"
	if [ "$k" = 6.12 ]; then
		expect '^FAIL: vm-6.12/k-not-612 \(FAIL: deliberate: this is 6\.12\.'
		[ "$krc" -ne 0 ] || { echo "6.12: run.sh exited 0"; fail=1; }
	else
		expect '^PASS: vm-6.1/k-not-612$'
		[ "$krc" -eq 0 ] || { echo "6.1: run.sh exited $krc"; fail=1; }
	fi
	expect "^PASS: vm-$k/kernel-log\$"
done

# --- kernel reports, canned: check-log.sh flags each, and no clean boot ---
reports=$root/tests/host/data/kernel-reports
while IFS='|' read -r file want; do
	case "$file" in '' | '#'*) continue ;; esac
	got=$("$root/tests/vm/check-log.sh" "$reports/$file")
	crc=$?
	if [ -z "$want" ]; then
		if [ "$crc" -eq 0 ]; then
			echo "ok: $file: nothing flagged"
		else
			echo "check-log.sh flags the clean $file: $got"
			fail=1
		fi
	elif [ "$crc" -eq 1 ] && printf '%s\n' "$got" | grep -q -E "$want"; then
		echo "ok: $file: $want"
	else
		echo "check-log.sh missed '$want' in $file (exit $crc): $got"
		fail=1
	fi
done <"$reports/expect.txt"

# --- the debug kernel's detectors, live (when it is built) ---
# shellcheck source=tests/vm/kernels.sh
. "$root/tests/vm/kernels.sh"
if pgpk_kernel_debug_built && pgpk_kernel_use 6.1-debug; then
	dbg=$work/dbgtest
	dcases=$work/dcases
	mkdir -p "$dbg" "$dcases"
	cp "$root"/tests/vm/debug-selftest/{Kbuild,pgpk_dbgtest.c} "$dbg/"
	if make -C "$K_KDIR" M="$dbg" modules >"$work/dbgtest.log" 2>&1; then
		cp "$dbg/pgpk_dbgtest.ko" "$dcases/"
	else
		cat "$work/dbgtest.log"
		echo "pgpk_dbgtest.ko did not build"
		fail=1
	fi
	# Lockdep first: its first report turns it off for the rest of the
	# boot, and so does any KASAN or UBSAN report (a taint that makes
	# lockdep unreliable); RCU's checks go with lockdep, so the RCU bug
	# has its canned log only (rcu.log, from a boot of its own).
	i=0
	for b in lockdep oob uaf leak shift bounds sleep refcount odebug; do
		i=$((i + 1))
		printf '%s\n' "insmod \"\$PGPK_CASE_DIR/pgpk_dbgtest.ko\" bug=$b" \
			"exit 0" >"$dcases/b$(printf %02d "$i")-$b.sh"
	done
	out=$(PGPK_VM_OUT=$work/dout PGPK_VM_NO_BUILD=1 PGPK_VM_NO_DATA=1 \
		"$root/tests/vm/run.sh" --kernel 6.1-debug --cases "$dcases" 2>&1)
	drc=$?
	echo "$out"
	expect '^FAIL: vm-6.1-debug/kernel-log '
	expect '^    BUG: KASAN: slab-out-of-bounds in pgpk_dbgtest_oob'
	expect '^    BUG: KASAN: (slab-)?use-after-free in pgpk_dbgtest_uaf'
	expect '^    UBSAN: shift-out-of-bounds in .*pgpk_dbgtest'
	expect '^    UBSAN: array-index-out-of-bounds in .*pgpk_dbgtest'
	expect '^    WARNING: possible circular locking dependency detected'
	expect '^    BUG: sleeping function called from invalid context'
	expect '^    refcount_t: decrement hit 0'
	expect '^    ODEBUG: '
	expect '^FAIL: vm-6.1-debug/kmemleak \([1-9][0-9]* unreferenced objects'
	[ "$drc" -ne 0 ] || { echo "debug run with bugs exited 0"; fail=1; }
	# The same harness, no bug: both verdicts pass.
	mkdir -p "$work/dclean"
	cp "$cases/a-pass.sh" "$work/dclean/"
	out=$(PGPK_VM_OUT=$work/dout PGPK_VM_NO_BUILD=1 PGPK_VM_NO_DATA=1 \
		"$root/tests/vm/run.sh" --kernel 6.1-debug --cases \
		"$work/dclean" 2>&1)
	drc=$?
	echo "$out"
	expect '^PASS: vm-6.1-debug/a-pass$'
	expect '^PASS: vm-6.1-debug/kernel-log$'
	expect '^PASS: vm-6.1-debug/kmemleak$'
	[ "$drc" -eq 0 ] || { echo "clean debug run exited $drc"; fail=1; }
else
	echo "note: the debug kernel is not built (tests/vm/run.sh --kernel" \
		"6.1-debug builds it): its detectors proven on canned logs only"
fi

[ "$fail" -eq 0 ] && echo "harness self-test: all verdicts as expected"
exit "$fail"
