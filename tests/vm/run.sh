#!/bin/bash
# Run the pgpk VM test cases (tests/vm/cases/*.sh) in one boot of Debian's
# kernel under qemu (TCG), and assert on the console log.
#
# usage: tests/vm/run.sh [--kernel VERSION] [--cases DIR] [--demo | --shell]
#                        [CASE...]
#        tests/vm/run.sh --list-kernels
#   CASE      a case name (00-keyctl) or file; default: every case
#   --demo    run tests/vm/demo/demo.sh instead, streaming the console
#   --shell   boot to an interactive shell (debugging)
#   --list-kernels    print the supported kernel versions, one per line,
#             fetching them if needed (tests/vm/kernels.sh)
#   --kernel VERSION  boot that kernel: a series (6.1, 6.12, 7.3), a
#             version or a prefix of one; default: Debian 12's 6.1.
#             6.1-debug: the debug kernel (KASAN, kmemleak, lockdep,
#             UBSAN...; tests/vm/kernels.sh builds it once, 9-16 min on
#             two cores): 1 GiB, limits times PGPK_VM_SLOWDOWN, kmemleak
#             scan after the cases (verdict vm-6.1-debug/kmemleak);
#             7.3-pgpk-debug: the same for 7.3 with the upstream series
#             applied (upstream/build-debug.sh builds it)
#   --cases DIR       run DIR's *.sh as the cases, exactly like the
#             built-in ones; DIR's other files are in the VM at
#             $PGPK_CASE_DIR
#
# Prints one line per case for the suite runner:
#   PASS: vm/<case>   FAIL: vm/<case> (<reason>)   SKIP: vm/<case>
# (vm-<series>/<case>, e.g. vm-6.12/02-upcall, when --kernel is given).
# plus "PASS|FAIL: vm/kernel-log": FAIL if the console shows a kernel
# report (tests/vm/check-log.sh, tests/vm/kernel-reports.txt: WARNING,
# BUG, Oops, general protection fault, KASAN/UBSAN, lockdep, refcount_t,
# kmemleak, hung task, stall, panic, call trace).  On a kernel with
# kmemleak, "PASS|FAIL: vm-<series>/kmemleak": FAIL if the scan after the
# cases finds any unreferenced object.  A case that never reports is a
# FAIL.  Exit status 0 iff nothing failed.
#
# Everything it builds lands in tests/vm/out/ (console.log, build logs,
# initramfs.cpio.gz, cache/ with generated gpg keys).
#
# environment:
#   PGPK_VM_TIMEOUT       hard limit for the whole VM run in seconds
#   PGPK_CASE_TIMEOUT     per-case limit (default 60; a case may say
#                         "# pgpk-timeout: N")
#   PGPK_VM_VERBOSE=1     stream the console to stdout as it runs
#   PGPK_VM_NO_BUILD=1    do not run bazel/make (use what is there)
#   PGPK_VM_OUT           output directory (default tests/vm/out)
#   PGPK_VM_CASES_DIR     where the cases are (default tests/vm/cases)
#   PGPK_VM_NO_DATA=1     do not run the data generators (reuse the
#                         last run's data in PGPK_VM_OUT)
#   PGPK_VM_MEM           guest memory in MiB (default 512; the debug
#                         kernel 1024: KASAN's shadow and quarantine)
#   PGPK_VM_SLOWDOWN      multiply every time limit by this (default 1;
#                         the debug kernel 4: measured, see README.md)
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${PGPK_VM_OUT:-$here/out}
casedir=${PGPK_VM_CASES_DIR:-$here/cases}
mode=cases
cases=()
names=()
kernel=""
args=("$@")
while [ $# -gt 0 ]; do
	case "$1" in
	--demo) mode=demo ;;
	--shell) mode=shell ;;
	--list-kernels) mode=list ;;
	--kernel | --cases)
		[ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
		if [ "$1" = --kernel ]; then
			kernel=$2
		else
			[ -d "$2" ] || { echo "run.sh: no such directory: $2" >&2; exit 2; }
			casedir=$(cd "$2" && pwd)
		fi
		shift
		;;
	-h | --help)
		sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*) names+=("$1") ;;
	esac
	shift
done
set -- "${args[@]}"
for a in "${names[@]}"; do
	n=${a##*/}
	n=${n%.sh}
	if [ ! -f "$casedir/$n.sh" ]; then
		echo "run.sh: no such case: $casedir/$n.sh" >&2
		exit 2
	fi
	cases+=("$casedir/$n.sh")
done
if [ ${#cases[@]} -eq 0 ]; then
	for c in "$casedir"/*.sh; do
		[ -f "$c" ] && cases+=("$c")
	done
fi

mkdir -p "$out/status" "$out/cache"
# One run at a time per work tree: runs share out/ (console, initramfs,
# module build).  flock(1) holds the lock around a second run of this
# script, with the descriptor closed there (-o): a daemon started below
# (the Bazel server, a gpg-agent) must not inherit it, or it holds the
# lock for hours and the next run waits for it.
if [ "${PGPK_VM_LOCKED:-}" != "$out" ]; then
	export PGPK_VM_LOCKED=$out
	flock -n -E 75 -o "$out/.lock" "$0" "$@"
	rc=$?
	if [ "$rc" -eq 75 ]; then
		echo "vm: another tests/vm/run.sh is running in this tree; waiting" >&2
		flock -o "$out/.lock" "$0" "$@"
		rc=$?
	fi
	exit "$rc"
fi
rm -f "$out"/status/*
log() { echo "vm: $*" >&2; }
status_note() { echo "$2" >"$out/status/$1"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# shellcheck source=tests/vm/kernels.sh
. "$here/kernels.sh"
if [ "$mode" = list ]; then
	for s in $PGPK_KERNEL_SERIES; do
		pgpk_kernel_use "$s" || { log "kernel $s: not available"; exit 1; }
		echo "$K_VER"
	done
	# The debug kernel is listed, never built here (9-16 min): its
	# version once built, its series name until then.
	if pgpk_kernel_debug_built && pgpk_kernel_use 6.1-debug; then
		echo "$K_VER"
	else
		log "6.1-debug: not built yet (--kernel 6.1-debug builds it)"
		echo 6.1-debug
	fi
	# The 7.3 debug kernel with the upstream series: upstream/build-debug.sh.
	if pgpk_kernel_debug73_built && pgpk_kernel_use 7.3-pgpk-debug; then
		echo "$K_VER"
	else
		log "7.3-pgpk-debug: not built yet (upstream/build-debug.sh builds it)"
		echo 7.3-pgpk-debug
	fi
	exit 0
fi
label=vm
series=6.1
if [ -n "$kernel" ]; then
	if ! series=$(pgpk_kernel_series_of "$kernel"); then
		echo "run.sh: unsupported kernel '$kernel' (supported:" \
			"$PGPK_KERNEL_SERIES; see --list-kernels)" >&2
		exit 2
	fi
	label=vm-$series
fi
if ! pgpk_kernel_use "$series"; then
	for c in "${cases[@]}"; do
		n=${c##*/}
		echo "FAIL: $label/${n%.sh} (kernel $series not available: see above)"
	done
	exit 1
fi
# (A series by its name is its kernel: 6.1-debug is 6.1.<n>-pgpk-debug.)
if [ "$kernel" != "$series" ]; then
	case "$K_VER" in
	"$kernel"*) ;;
	*)
		echo "run.sh: kernel '$kernel' is not the one this harness" \
			"has for $series ($K_VER)" >&2
		exit 2
		;;
	esac
fi
kver=$K_VER
kimg=$K_IMG
kdir=$K_KDIR
log "kernel $kver${K_BUILDROOT:+ (module built in $K_BUILDROOT)}"

t_build=$(now)
# --- the helper (Bazel) ---
helper_bin=""
pgpk_bin=""
helper_built=1
if [ -z "${PGPK_VM_NO_BUILD:-}" ]; then
	log "bazel build //helper:pgpk //helper:pgpk-helper"
	if ! (cd "$root" && bazel build //helper:pgpk //helper:pgpk-helper) \
		>"$out/helper-build.log" 2>&1; then
		# A stale binary from an earlier build must not stand in
		# for this tree's.
		helper_built=0
		log "helper build failed: see $out/helper-build.log"
	fi
fi
if [ "$helper_built" = 1 ] && [ -x "$root/bazel-bin/helper/pgpk-helper" ] &&
	[ -x "$root/bazel-bin/helper/pgpk" ]; then
	helper_bin=$root/bazel-bin/helper/pgpk-helper
	pgpk_bin=$root/bazel-bin/helper/pgpk
fi
if [ -z "$helper_bin" ]; then
	status_note helper "bazel build //helper:pgpk //helper:pgpk-helper failed or \
produced nothing: $(grep -a -m 1 -E 'ERROR|error:' "$out/helper-build.log" \
	2>/dev/null || echo 'no build log')"
fi

# --- the module (Kbuild), built in a copy so that concurrent builds in
# kernel/ and stale objects there cannot interfere ---
ko=""
if [ -f "$root/kernel/Kbuild" ] || [ -f "$root/kernel/Makefile" ]; then
	kb=$out/kbuild
	if [ -z "${PGPK_VM_NO_BUILD:-}" ]; then
		rm -rf "$kb"
		mkdir -p "$kb"
		# Sources only (tracked or new, never ignored build output;
		# every file where git knows none: a copy of the tree).
		(cd "$root/kernel" &&
			{ git ls-files --cached --others --exclude-standard \
				-- '*.c' '*.h' Kbuild Makefile 2>/dev/null |
				grep . || ls -1; } |
			grep -v / | grep -E '\.[ch]$|^Kbuild$|^Makefile$' |
			grep -v '\.mod\.c$' | sort -u |
			while read -r f; do
				[ -f "$f" ] && cp "$f" "$kb/"
			done
			cp -r uapi "$kb/")
		# kernel/Makefile's default target runs Kbuild:
		# make -C $KDIR M=$PWD modules.
		log "make -C kernel KDIR=$kdir (in a copy: $kb)"
		if ! pgpk_kernel_make "$kb" >"$out/module-build.log" 2>&1; then
			log "module build failed: see $out/module-build.log"
		fi
	fi
	[ -f "$kb/pgpk.ko" ] && ko=$kb/pgpk.ko
	[ -n "$ko" ] || status_note module "make -C kernel KDIR=$kdir \
failed: $(grep -a -m 1 -E 'error|Error' "$out/module-build.log" 2>/dev/null ||
		echo 'no pgpk.ko produced')"
else
	status_note module "kernel/Kbuild (or kernel/Makefile) not written yet"
fi
t_built=$(now)

# --- test data (host-side generators) ---
# (PGPK_VM_NO_DATA: the data of the last run is used as it is.)
data=$out/data
[ -n "${PGPK_VM_NO_DATA:-}" ] || rm -rf "$data"
mkdir -p "$data"
data_failed=()
for g in "$here"/data.d/*.sh; do
	[ -f "$g" ] || continue
	[ -n "${PGPK_VM_NO_DATA:-}" ] && break
	gn=${g##*/}
	if ! PGPK_VM_DATA=$data PGPK_VM_CACHE=$out/cache PGPK_ROOT=$root \
		bash "$g" >"$out/data-${gn%.sh}.log" 2>&1; then
		log "data generator $gn failed: see $out/data-${gn%.sh}.log"
		data_failed+=("${gn%.sh}")
	fi
done
t_data=$(now)

# --- initramfs ---
initrd=$out/initramfs.cpio.gz
if ! PGPK_KVER=$kver PGPK_KMODS=$K_MODS PGPK_KO=$ko \
	PGPK_HELPER_BIN=$helper_bin PGPK_BIN=$pgpk_bin PGPK_VM_DATA=$data \
	PGPK_VM_STATUS=$out/status PGPK_CASE_FILES=$casedir \
	PGPK_CASES="${cases[*]}" \
	sh "$here/build-initramfs.sh" "$initrd" >"$out/initramfs.log" 2>&1; then
	cat "$out/initramfs.log" >&2
	for c in "${cases[@]}"; do
		n=${c##*/}
		echo "FAIL: $label/${n%.sh} (initramfs build failed)"
	done
	exit 1
fi
t_initrd=$(now)
log "built in $(secs "$t_build" "$t_initrd")s (components \
$(secs "$t_build" "$t_built")s, data $(secs "$t_built" "$t_data")s, \
initramfs $(secs "$t_data" "$t_initrd")s)"

# --- boot ---
case_timeout=${PGPK_CASE_TIMEOUT:-60}
# The debug kernel: KASAN's shadow (1/8 of memory) and quarantine want
# more memory; KASAN, lockdep and kmemleak under TCG make everything
# slower (PGPK_VM_SLOWDOWN: every limit, in the VM too).
mem=${PGPK_VM_MEM:-512}
slowdown=${PGPK_VM_SLOWDOWN:-1}
if [ -n "$K_DEBUG" ]; then
	mem=${PGPK_VM_MEM:-1024}
	slowdown=${PGPK_VM_SLOWDOWN:-4}
fi
if [ -z "${PGPK_VM_TIMEOUT:-}" ]; then
	# boot + the sum of the per-case limits, capped: a run that hangs
	# everywhere must still end well inside the suite's budget.
	total=60
	for c in "${cases[@]}"; do
		t=$(sed -n 's/^# pgpk-timeout: *\([0-9][0-9]*\).*/\1/p' "$c" |
			head -n 1)
		total=$((total + ${t:-$case_timeout}))
	done
	[ "$mode" = demo ] && total=660
	[ "$total" -gt 900 ] && total=900
	# (The debug kernel also boots slower and scans for leaks last.)
	PGPK_VM_TIMEOUT=$((total * slowdown))
fi
# The kernel log is dumped after each case: a long one (the fuzzer's,
# with its thousands of refusals) must not push a WARNING (not on the
# console under "quiet") out of the 256 KiB default buffer first.
append="console=ttyS0 quiet panic=-1 oops=panic log_buf_len=16M"
append="$append pgpk.mode=$mode pgpk.timeout=$case_timeout"
append="$append pgpk.slowdown=$slowdown"
# KASAN prints only its first report of a boot unless told otherwise.
[ -n "$K_DEBUG" ] && append="$append kasan_multi_shot"
qemu=(qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m "$mem" -nographic
	-no-reboot -kernel "$kimg" -initrd "$initrd" -append "$append")
console=$out/console.log
log "booting (limit ${PGPK_VM_TIMEOUT}s): ${qemu[*]}"
t_boot=$(now)
if [ "$mode" = shell ]; then
	"${qemu[@]}"
	exit $?
fi
if [ "$mode" = demo ]; then
	# Stream from /init's first line on: the firmware's screen-clearing
	# escapes and the boot messages stay in the log file.
	echo "booting the VM (Debian kernel $kver under qemu TCG)..."
	timeout -k 5 "$PGPK_VM_TIMEOUT" "${qemu[@]}" </dev/null 2>&1 |
		tee "$console" | tr -d '\r' | sed -u -n '/^PGPK-VM-START/,$p'
	qrc=${PIPESTATUS[0]}
	grep -a -q '^PGPK-VM-START' <(tr -d '\r' <"$console") || {
		echo "the VM never reached /init; its console:"
		tail -n 40 "$console"
	}
elif [ -n "${PGPK_VM_VERBOSE:-}" ]; then
	timeout -k 5 "$PGPK_VM_TIMEOUT" "${qemu[@]}" </dev/null 2>&1 |
		tee "$console" | tr -d '\r'
	qrc=${PIPESTATUS[0]}
else
	timeout -k 5 "$PGPK_VM_TIMEOUT" "${qemu[@]}" </dev/null >"$console" 2>&1
	qrc=$?
fi
t_end=$(now)
tr -d '\r\000' <"$console" >"$console.txt" && mv "$console.txt" "$console"
first_case=$(grep -a -m 1 -n '^PGPK-CASE-BEGIN\|^PGPK-VM-START' "$console" |
	cut -d : -f 1)
log "VM ran $(secs "$t_boot" "$t_end")s (qemu exit $qrc); console: $console"
boot=$(sed -n 's/^PGPK-VM-START .*uptime=\([0-9.]*\).*/\1/p' "$console")
[ -n "$boot" ] && log "kernel boot to /init: ${boot}s (guest uptime)"
[ -n "$first_case" ] || log "the VM never reached /init"
slow=$(sed -n 's/^PGPK-CASE \([^ ]*\) [A-Z]* (exit [0-9]*, \([0-9.]*\)s)$/\2s \1/p' \
	"$console" | sort -rn | head -n 3 | tr '\n' ' ')
[ -n "$slow" ] && log "slowest cases: $slow"
[ "$qrc" -eq 124 ] && log "VM killed after ${PGPK_VM_TIMEOUT}s (hard limit)"

# --- verdicts ---
failed=0
# Kernel trouble anywhere but in the cases' own output and syslog lines.
kernel_bad=$("$here/check-log.sh" "$console" 20)
# Lockdep off at the end without a report above: it stopped watching
# (MAX_LOCKDEP_* exhausted prints a BUG, anything else would be new).
if grep -a -q '^PGPK-LOCKDEP debug_locks: *0' "$console" &&
	[ -z "$kernel_bad" ]; then
	kernel_bad="lockdep turned itself off during the run (debug_locks: 0)"
fi

if [ "$mode" = demo ]; then
	if grep -a -q '^PGPK-DEMO-RESULT PASS' "$console" && [ -z "$kernel_bad" ]
	then
		echo "PASS: $label/demo"
		exit 0
	fi
	echo "FAIL: $label/demo ($(grep -a -m 1 '^PGPK-DEMO-RESULT' "$console" ||
		echo 'no result: VM died or timed out'))"
	[ -n "$kernel_bad" ] && echo "kernel log:" && echo "$kernel_bad"
	exit 1
fi

for g in "${data_failed[@]}"; do
	echo "FAIL: $label/data-$g (generator failed; see tests/vm/out/data-$g.log)"
	failed=1
done
for c in "${cases[@]}"; do
	n=${c##*/}
	n=${n%.sh}
	v=$(grep -a -E "^PGPK-CASE $n (PASS|FAIL|SKIP)" "$console" | tail -n 1 |
		cut -d ' ' -f 3)
	case "$v" in
	PASS) echo "PASS: $label/$n" ;;
	SKIP)
		why=$(grep -a "^$n| SKIP: " "$console" | tail -n 1 | cut -d ' ' -f 3-)
		echo "SKIP: $label/$n${why:+ ($why)}"
		;;
	FAIL)
		why=$(grep -a -E "^$n\| (FAIL: |\*\*\* (killed|hung))" "$console" |
			tail -n 1 | cut -d ' ' -f 2-)
		[ -n "$why" ] || why=$(grep -a -E "^PGPK-CASE $n FAIL" "$console" |
			tail -n 1 | sed -n 's/.*(\(exit [0-9]*\).*/\1/p')
		echo "FAIL: $label/$n (${why:-no reason given})"
		# The case's last lines, for whoever reads the suite output.
		grep -a "^$n| " "$console" | tail -n 15 | sed 's/^/    /'
		failed=1
		;;
	*)
		if grep -a -q "^PGPK-CASE-BEGIN $n\$" "$console"; then
			echo "FAIL: $label/$n (started but never reported: VM died)"
		else
			echo "FAIL: $label/$n (never ran: VM died or timed out)"
		fi
		failed=1
		;;
	esac
done
if [ -n "$kernel_bad" ]; then
	echo "FAIL: $label/kernel-log ($(echo "$kernel_bad" | head -n 1))"
	echo "$kernel_bad" | sed 's/^/    /'
	failed=1
else
	echo "PASS: $label/kernel-log"
fi
# kmemleak's scan after the cases (init.sh; kernels that have kmemleak).
leaks=$(sed -n 's/^PGPK-KMEMLEAK objects=\([0-9]*\) pgpk=\([0-9]*\)$/\1 \2/p' \
	"$console" | tail -n 1)
if [ -n "$leaks" ]; then
	if [ "${leaks% *}" = 0 ]; then
		echo "PASS: $label/kmemleak"
	else
		echo "FAIL: $label/kmemleak (${leaks% *} unreferenced objects," \
			"${leaks#* } with pgpk or an unloaded module in their" \
			"backtrace)"
		grep -a '^kmemleak| ' "$console" | head -n 40 | sed 's/^/    /'
		failed=1
	fi
elif [ -n "$K_DEBUG" ]; then
	echo "FAIL: $label/kmemleak (no scan: the VM did not finish the cases)"
	failed=1
fi
if ! grep -a -q '^PGPK-VM-END' "$console"; then
	log "the VM did not finish cleanly; last console lines:"
	tail -n 20 "$console" | sed 's/^/    /' >&2
fi
exit $failed
