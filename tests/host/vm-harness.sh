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
# from the debug kernel) and nothing in clean boot logs.  The same
# reports, live on the debug kernel: tests/host/vm-debug-detectors.sh.
# Five boots, about 90 s; each part prints the time it starts at.
. "$(dirname "$0")/lib.sh"
host_tmp
work=$tmp
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

host_part "the verdicts: one boot of 6.1, cases a to h"
out=$(PGPK_VM_CASES_DIR=$cases PGPK_VM_OUT=$work/out PGPK_VM_NO_BUILD=1 \
	PGPK_VM_NO_DATA=1 "$root/tests/vm/run.sh" 2>&1)
rc=$?
echo "$out"
expect() { host_expect "$out" "$1"; }
expect '^PASS: vm/a-pass$'
expect "^FAIL: vm/b-fail \\(FAIL: deliberate: expected '1', got '2'\\)"
expect '^SKIP: vm/c-skip \(deliberate skip\)$'
expect '^FAIL: vm/d-hang \(\*\*\* killed: no result within 3s\)'
expect '^PASS: vm/e-expect$'
expect '^PASS: vm/f-warn$'
expect '^FAIL: vm/g-die \(started but never reported'
expect '^FAIL: vm/h-after \(never ran'
expect '^FAIL: vm/kernel-log \(.*WARNING: CPU: 0 PID: 1 at pgpk-harness-selftest'
[ "$rc" -ne 0 ] || fail "run.sh exited 0 despite failures"
n=$(printf '%s\n' "$out" | grep -c -E '^(PASS|FAIL|SKIP): ')
[ "$n" -eq 9 ] || fail "expected 9 verdicts, got $n"

# The lock: a run that starts the Bazel server (shut down first) must
# leave out/.lock free, and a second run must not wait.
host_part "the lock: two boots, the first with the Bazel server shut down"
if command -v bazel >/dev/null; then
	lockcases=$work/lockcases
	mkdir -p "$lockcases"
	cp "$cases/a-pass.sh" "$lockcases/"
	(cd "$root" && bazel shutdown) </dev/null >/dev/null 2>&1
	for run in 1 2; do
		out=$(PGPK_VM_CASES_DIR=$lockcases PGPK_VM_OUT=$work/lockout \
			PGPK_VM_NO_DATA=1 timeout 180 "$root/tests/vm/run.sh" \
			</dev/null 2>&1)
		[ "$?" -ne 124 ] || fail "run $run: killed after 180 s"
		case "$out" in
		*"is running in this tree; waiting"*)
			fail "run $run waited for the lock"
			;;
		esac
		printf '%s\n' "$out" | grep -q '^PASS: vm/a-pass$' || {
			printf '%s\n' "$out" | tail -n 20
			fail "run $run: no PASS for a-pass"
		}
		if ! flock -n "$work/lockout/.lock" true; then
			command -v fuser >/dev/null &&
				fuser -v "$work/lockout/.lock" 2>&1 |
				grep -v "Cannot stat"
			fail "after run $run, a process still holds the lock"
			break
		fi
	done
	pgrep -f 'bazel.*server' >/dev/null ||
		echo "note: no Bazel server running after the runs"
else
	echo "bazel not installed: lock check skipped"
fi

host_part "--cases DIR on 6.1 and 6.12: two boots"
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
		[ "$krc" -ne 0 ] || fail "6.12: run.sh exited 0"
	else
		expect '^PASS: vm-6.1/k-not-612$'
		[ "$krc" -eq 0 ] || fail "6.1: run.sh exited $krc"
	fi
	expect "^PASS: vm-$k/kernel-log\$"
done

host_part "kernel reports in canned console logs"
# --- kernel reports, canned: check-log.sh flags each, and no clean boot ---
reports=$root/tests/host/data/kernel-reports
while IFS='|' read -r file want; do
	case "$file" in '' | '#'*) continue ;; esac
	got=$("$root/tests/vm/check-log.sh" "$reports/$file")
	crc=$?
	if [ -z "$want" ]; then
		if [ "$crc" -eq 0 ]; then
			ok "$file: nothing flagged"
		else
			fail "check-log.sh flags the clean $file: $got"
		fi
	elif [ "$crc" -eq 1 ] && printf '%s\n' "$got" | grep -q -E "$want"; then
		ok "$file: $want"
	else
		fail "check-log.sh missed '$want' in $file (exit $crc): $got"
	fi
done <"$reports/expect.txt"

host_end
