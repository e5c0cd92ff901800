#!/bin/bash
# THE pgpk test command: every test there is, one count each.
#
#   1. apt dependencies (tests/deps.sh, idempotent)
#   2. bazel build //...                         -> bazel-build
#   3. bazel test //...                          -> one count per target
#   4. bazel test --config=asan (ASan + UBSan)   -> asan:<target> each;
#      every test target except those tagged "no-asan" or "manual"
#   5. tests/host/*.sh (exit 0 pass, 77 skip, else fail) -> host/<name>
#   6. tests/vm/run.sh --kernel K for every supported kernel K (one boot
#      each, every tests/vm/cases/*.sh) -> vm-<K>/<case>, e.g.
#      vm-6.12/02-upcall; the kernels are fetched and cached by
#      tests/vm/kernels.sh.  If the debug kernel is already built (never
#      here: tests/vm/README.md), its short syscall fuzzing too:
#      vm-6.1-debug/70-sysfuzz, kernel-log, kmemleak; after the
#      supported kernels, the demo
#      (tests/demo.sh's VM, on the same data): vm/demo
#
# Prints "PASS: x" / "FAIL: x" / "SKIP: x" for each, then, alone on the
# last line, "N passed, N failed, N skipped".  Exit status 0 iff nothing
# failed.  Logs: build/test-logs/.
#
# usage: tests/run-all.sh [--no-deps] [--no-asan] [--no-vm]
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
logs=$root/build/test-logs
mkdir -p "$logs"
do_deps=1 do_asan=1 do_vm=1
for a in "$@"; do
	case "$a" in
	--no-deps) do_deps=0 ;;
	--no-asan) do_asan=0 ;;
	--no-vm) do_vm=0 ;;
	*)
		echo "usage: tests/run-all.sh [--no-deps] [--no-asan] [--no-vm]" >&2
		exit 2
		;;
	esac
done

npass=0 nfail=0 nskip=0
results=$logs/results.txt
: >"$results"
result() {
	# result PASS|FAIL|SKIP NAME [DETAIL]
	case "$1" in
	PASS) npass=$((npass + 1)) ;;
	FAIL) nfail=$((nfail + 1)) ;;
	SKIP) nskip=$((nskip + 1)) ;;
	esac
	echo "$1: $2${3:+ ($3)}" | tee -a "$results"
}
t0=$(date +%s)
phase_start=$t0
phase() {
	local now
	now=$(date +%s)
	echo "=== $* (at +$((now - t0))s)"
	phase_start=$now
}
phase_end() {
	echo "--- $1 took $(($(date +%s) - phase_start))s"
}

# count_bazel_tests PREFIX LOG: one result per target from Bazel's test
# summary, which follows "Build completed" / "Build did NOT complete"
# ("//pkg:target   (cached) PASSED in 0.1s", "FAILED", "FAILED TO BUILD",
# "NO STATUS", "TIMEOUT", "FLAKY", "SKIPPED", ...).  Sets $bazel_n.
count_bazel_tests() {
	local prefix=$1 log=$2 target verdict
	bazel_n=0
	while read -r target verdict; do
		bazel_n=$((bazel_n + 1))
		case "$verdict" in
		PASSED*) result PASS "$prefix$target" ;;
		SKIPPED*) result SKIP "$prefix$target" ;;
		*) result FAIL "$prefix$target" "$verdict" ;;
		esac
	done < <(awk '/^(INFO|ERROR|FAILED): Build (completed|did NOT complete)/ { s = 1; next }
		s' "$log" |
		sed -n -E 's/^(\/\/[^ ]+) +(\(cached\) )?([A-Z][A-Z ]*[A-Z]).*/\1 \3/p')
}

# --- 1. dependencies ---
if [ "$do_deps" = 1 ]; then
	phase "dependencies"
	# shellcheck source=tests/deps.sh
	. "$root/tests/deps.sh"
	if ! pgpk_install_deps >"$logs/deps.log" 2>&1; then
		cat "$logs/deps.log"
		result FAIL setup/apt-dependencies "see build/test-logs/deps.log"
	fi
	phase_end dependencies
fi

# --- 2. build everything ---
phase "bazel build //..."
if bazel build --keep_going //... >"$logs/bazel-build.log" 2>&1; then
	result PASS bazel-build
else
	grep -E '^(ERROR|FAILED)|error:|warning:' "$logs/bazel-build.log" |
		head -n 30
	result FAIL bazel-build "see build/test-logs/bazel-build.log"
fi
# A warning is a failure too (-Werror should make this impossible).
if grep -q 'warning:' "$logs/bazel-build.log"; then
	grep 'warning:' "$logs/bazel-build.log" | head -n 10
	result FAIL bazel-build-warnings "compiler warnings in the build"
fi
phase_end "bazel build"

# --- 3. unit tests ---
phase "bazel test //..."
bazel test --keep_going --test_output=errors //... \
	>"$logs/bazel-test.log" 2>&1
rc=$?
count_bazel_tests "" "$logs/bazel-test.log"
if [ "$rc" -ne 0 ] && [ "$bazel_n" = 0 ]; then
	if [ "$rc" -eq 4 ]; then
		echo "bazel test: no test targets"
	else
		tail -n 30 "$logs/bazel-test.log"
		result FAIL bazel-test "bazel exited $rc, no summary"
	fi
fi
if [ "$rc" -ne 0 ]; then
	# The failing tests' output (--test_output=errors) for the reader.
	grep -v '^INFO:\|^Loading\|^Analyzing' "$logs/bazel-test.log" |
		tail -n 60
fi
phase_end "bazel test"

# --- 4. the same under ASan + UBSan ---
if [ "$do_asan" = 1 ]; then
	phase "bazel test --config=asan"
	# Own output tree (no rebuild ping-pong with the plain build) and no
	# convenience symlinks (bazel-bin stays the plain build's).
	asan=(--config=asan --platform_suffix=asan --symlink_prefix=/)
	targets=$(bazel query 'tests(//...) except attr(tags, "no-asan|manual", tests(//...))' \
		2>"$logs/asan-query.log")
	if [ -n "$targets" ]; then
		# shellcheck disable=SC2086
		bazel test "${asan[@]}" --keep_going --test_output=errors \
			$targets >"$logs/asan-test.log" 2>&1
		rc=$?
		count_bazel_tests "asan:" "$logs/asan-test.log"
		if [ "$rc" -ne 0 ]; then
			grep -v '^INFO:\|^Loading\|^Analyzing' \
				"$logs/asan-test.log" | tail -n 60
			[ "$bazel_n" = 0 ] && result FAIL asan-test \
				"bazel exited $rc, no summary"
		fi
	else
		echo "asan: no test targets"
	fi
	phase_end "asan"
fi

# --- 5. host-side script tests ---
phase "tests/host/*.sh"
for t in "$root"/tests/host/*.sh; do
	[ -f "$t" ] || continue
	[ "${t##*/}" = lib.sh ] && continue # their shared opening, no test
	name=${t##*/}
	name=${name%.sh}
	timeout -k 10 600 bash "$t" </dev/null >"$logs/host-$name.log" 2>&1
	rc=$?
	case "$rc" in
	0) result PASS "host/$name" ;;
	77) result SKIP "host/$name" "$(tail -n 1 "$logs/host-$name.log")" ;;
	*)
		sed 's/^/    /' "$logs/host-$name.log" | tail -n 25
		case "$rc" in
		124 | 137) rc="$rc: killed after 600 s" ;;
		esac
		result FAIL "host/$name" "exit $rc"
		;;
	esac
done
phase_end "host tests"

# --- 6. the VM, on every supported kernel ---
if [ "$do_vm" = 1 ]; then
	# shellcheck source=tests/vm/kernels.sh
	. "$root/tests/vm/kernels.sh"
	vm_times=""
	# vm_run NAME ARGS...: one tests/vm/run.sh ARGS, its verdicts counted.
	vm_run() {
		local k=$1 rc n=0 line v rest name detail took
		shift
		phase "tests/vm/run.sh $*"
		tests/vm/run.sh "$@" >"$logs/vm-$k.log" \
			2>"$logs/vm-$k-stderr.log"
		rc=$?
		cat "$logs/vm-$k-stderr.log"
		cp tests/vm/out/console.log "$logs/vm-$k-console.log" 2>/dev/null
		while IFS= read -r line; do
			case "$line" in
			"PASS: "* | "FAIL: "* | "SKIP: "*)
				n=$((n + 1))
				v=${line%%: *}
				rest=${line#*: }
				name=${rest%% (*}
				detail=""
				[ "$name" != "$rest" ] && detail=${rest#* (} &&
					detail=${detail%)}
				result "$v" "$name" "$detail"
				;;
			*) echo "$line" ;;
			esac
		done <"$logs/vm-$k.log"
		if [ "$rc" -ne 0 ] && [ "$n" = 0 ]; then
			result FAIL "vm-$k" "tests/vm/run.sh exited $rc without results"
		fi
		took=$(($(date +%s) - phase_start))
		vm_times="$vm_times vm-$k ${took}s,"
		phase_end "vm-$k"
	}
	# The test data (tests/vm/data.d: keys, signatures, floods; made on
	# the host, the same for every kernel) is made by the first kernel's
	# run and reused by the others: 45 s each.
	unset PGPK_VM_NO_DATA
	for k in $PGPK_KERNEL_SERIES; do
		vm_run "$k" --kernel "$k"
		export PGPK_VM_NO_DATA=1
	done
	# The README's main job, tests/demo.sh, on the last run's data (it
	# drifted once: issue 26 changed the names, the demo still expected
	# the old one, and no suite ran it).
	vm_run demo --demo
	# The debug kernel: only once built (9 to 16 min), and then only
	# the syscall fuzzing case (about 2 min): the whole suite on it
	# takes 13 min more (tests/vm/README.md, "The debug kernel").
	if pgpk_kernel_debug_built; then
		vm_run 6.1-debug --kernel 6.1-debug 70-sysfuzz
	else
		echo "=== the debug kernel is not built: vm-6.1-debug skipped" \
			"(tests/vm/run.sh --kernel 6.1-debug builds it)"
	fi
	echo "=== VM time per kernel:${vm_times%,}"
fi

echo "=== total $(($(date +%s) - t0))s"
echo
grep -E '^(FAIL|SKIP): ' "$results" | sed 's/^/summary: /'
echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
