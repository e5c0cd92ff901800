#!/bin/bash
# Syscall fuzzing of pgpk.ko, the long run: tests/vm/cases/70-sysfuzz.sh
# with many inputs, the whole corpus (tests/fuzz/corpus/canon and
# openpgp) and long races, on the debug kernel (KASAN, kmemleak, lockdep,
# UBSAN: tests/vm/kernels.sh builds it once), then the module's KCOV
# coverage per file and per function (kcov-report.py).
#
# usage: tests/fuzz/syscall/run.sh [-n N] [-N USER_N] [-r SECS] [-U N]
#                                  [-s SEED] [-t SECS] [-v] [--kernel K]
#   -n N        inputs as root (default 100000)
#   -N N        inputs as uid 1000 in his own session (default 20000)
#   -r SECS     seconds of races (default 60)
#   -U N        at most N upcalls (OpenPGP inputs; default 300)
#   -s SEED     the fuzzer's seed (default: random, printed)
#   -t SECS     stop making inputs after SECS (default 5400)
#   -v          print every input (with a seed and few inputs: a replay)
#   --kernel K  another kernel (tests/vm/run.sh --list-kernels); without
#               KCOV there is no coverage report
#
# Prints the harness's verdicts (PASS|FAIL: vm-<kernel>/70-sysfuzz,
# kernel-log, kmemleak), the fuzzer's figures and the coverage report.
# Everything is in tests/vm/out-sysfuzz/ (console.log, kcov-report.txt).
# Exit status 0 iff every verdict passed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
n=100000 user_n=20000 races=60 upcalls=300 seed="" budget=5400 verbose=""
kernel=6.1-debug
while [ $# -gt 0 ]; do
	case "$1" in
	-n | -N | -r | -U | -s | -t | --kernel)
		[ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
		case "$1" in
		-n) n=$2 ;;
		-N) user_n=$2 ;;
		-r) races=$2 ;;
		-U) upcalls=$2 ;;
		-s) seed=$2 ;;
		-t) budget=$2 ;;
		--kernel) kernel=$2 ;;
		esac
		shift 2
		;;
	-v)
		verbose=1
		shift
		;;
	-h | --help)
		sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "run.sh: unknown argument $1 (--help)" >&2
		exit 2
		;;
	esac
done

out=$root/tests/vm/out-sysfuzz
cases=$(mktemp -d "${TMPDIR:-/tmp}/pgpk-sysfuzz.XXXXXX")
trap 'rm -rf "$cases"' EXIT
mkdir -p "$cases/corpus" "$out"
cp -R "$root/tests/fuzz/corpus/canon" "$root/tests/fuzz/corpus/openpgp" \
	"$cases/corpus/"
# The case's limit: the budget, the races, and time to check and unload
# after (init.sh multiplies it by the kernel's slowdown again: margin).
limit=$((budget + races + 300))
sed "s/^# pgpk-timeout: .*/# pgpk-timeout: $limit/" \
	"$root/tests/vm/cases/70-sysfuzz.sh" >"$cases/70-sysfuzz.sh"
cat >"$cases/sysfuzz.conf" <<EOF
N=$n
USER_N=$user_n
RACES=$races
UPCALLS=$upcalls
SEED=$seed
BUDGET=$budget
VERBOSE=$verbose
CORPUS="\$PGPK_CASE_DIR/corpus \$CORPUS"
EOF
echo "sysfuzz: $n + $user_n inputs, $races s of races, $upcalls upcalls" \
	"at most, ${budget}s at most, on $kernel" >&2
t0=$(date +%s)
PGPK_VM_OUT=$out PGPK_VM_TIMEOUT=$((limit * 6 + 900)) \
	"$root/tests/vm/run.sh" --kernel "$kernel" --cases "$cases" |
	tee "$out/verdicts.txt"
rc=${PIPESTATUS[0]}
echo "sysfuzz: the VM run took $(($(date +%s) - t0))s" >&2
grep -a '^70-sysfuzz| PGPK-SYSFUZZ' "$out/console.log" | cut -d ' ' -f 2-
if grep -a -q '^70-sysfuzz| PGPK-KCOV ' "$out/console.log"; then
	python3 "$here/kcov-report.py" "$out/kbuild/pgpk.ko" \
		"$out/console.log" >"$out/kcov-report.txt" &&
		cat "$out/kcov-report.txt"
else
	echo "sysfuzz: no KCOV coverage (a kernel without KCOV, or the" \
		"module not loaded)" >&2
fi
exit "$rc"
