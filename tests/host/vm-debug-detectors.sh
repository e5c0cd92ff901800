#!/bin/bash
# The debug kernel's detectors, live: deliberate bugs of
# tests/vm/debug-selftest (KASAN, UBSAN, lockdep, sleep in atomic,
# refcount_t, debugobjects) fail vm-6.1-debug/kernel-log, a leak fails
# vm-6.1-debug/kmemleak, and a run without them passes both.  Two boots
# of the debug kernel, about 2.5 minutes.  The same reports on canned
# logs, and the rest of the harness: tests/host/vm-harness.sh.
#
# SKIP when the debug kernel is not built (tests/vm/run.sh --kernel
# 6.1-debug builds it, 9 to 16 min): this test never builds it.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/vm/kernels.sh
. "$root/tests/vm/kernels.sh"
pgpk_kernel_debug_built ||
	skip "the 6.1 debug kernel is not built (tests/vm/run.sh --kernel 6.1-debug builds it)"
pgpk_kernel_use 6.1-debug || die "the 6.1 debug kernel is built but unusable"
host_tmp

host_part "pgpk_dbgtest.ko, built against the debug kernel"
dcases=$tmp/dcases
mkdir -p "$tmp/dbgtest" "$dcases"
cp "$root"/tests/vm/debug-selftest/{Kbuild,pgpk_dbgtest.c} "$tmp/dbgtest/"
make -C "$K_KDIR" M="$tmp/dbgtest" modules >"$tmp/dbgtest.log" 2>&1 || {
	cat "$tmp/dbgtest.log"
	die "pgpk_dbgtest.ko did not build"
}
cp "$tmp/dbgtest/pgpk_dbgtest.ko" "$dcases/"

# Lockdep first: its first report turns it off for the rest of the boot,
# and so does any KASAN or UBSAN report (a taint that makes lockdep
# unreliable); RCU's checks go with lockdep, so the RCU bug has its
# canned log only (rcu.log, from a boot of its own).
i=0
for b in lockdep oob uaf leak shift bounds sleep refcount odebug; do
	i=$((i + 1))
	printf '%s\n' "insmod \"\$PGPK_CASE_DIR/pgpk_dbgtest.ko\" bug=$b" \
		"exit 0" >"$dcases/b$(printf %02d "$i")-$b.sh"
done

# run_debug DIR: tests/vm/run.sh on the debug kernel with DIR's cases,
# the VM killed after 250 s (about 70 s here; run.sh's own limit, the
# cases' at four times 60 s each, would outlast run-all's 600 s for this
# test); sets $out and $rc.
run_debug() {
	out=$(PGPK_VM_OUT=$tmp/out PGPK_VM_NO_BUILD=1 PGPK_VM_NO_DATA=1 \
		PGPK_VM_TIMEOUT=250 "$root/tests/vm/run.sh" --kernel 6.1-debug \
		--cases "$1" 2>&1)
	rc=$?
	echo "$out"
}

host_part "one boot with the nine bugs"
run_debug "$dcases"
host_expect "$out" '^FAIL: vm-6.1-debug/kernel-log '
host_expect "$out" '^    BUG: KASAN: slab-out-of-bounds in pgpk_dbgtest_oob'
host_expect "$out" '^    BUG: KASAN: (slab-)?use-after-free in pgpk_dbgtest_uaf'
host_expect "$out" '^    UBSAN: shift-out-of-bounds in .*pgpk_dbgtest'
host_expect "$out" '^    UBSAN: array-index-out-of-bounds in .*pgpk_dbgtest'
host_expect "$out" '^    WARNING: possible circular locking dependency detected'
host_expect "$out" '^    BUG: sleeping function called from invalid context'
host_expect "$out" '^    refcount_t: decrement hit 0'
host_expect "$out" '^    ODEBUG: '
host_expect "$out" '^FAIL: vm-6.1-debug/kmemleak \([1-9][0-9]* unreferenced objects'
[ "$rc" -ne 0 ] || fail "the run with bugs exited 0"

host_part "one boot without them"
mkdir -p "$tmp/dclean"
printf '%s\n' '. /pgpk/lib.sh' 'expect_ok keyctl add user harness ok @s' \
	>"$tmp/dclean/a-pass.sh"
run_debug "$tmp/dclean"
host_expect "$out" '^PASS: vm-6.1-debug/a-pass$'
host_expect "$out" '^PASS: vm-6.1-debug/kernel-log$'
host_expect "$out" '^PASS: vm-6.1-debug/kmemleak$'
[ "$rc" -eq 0 ] || fail "the run without bugs exited $rc"
host_end
