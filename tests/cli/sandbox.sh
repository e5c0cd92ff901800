#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every pgpk command that parses does so in its sandboxed child, and a
# parser that goes wrong there harms nothing but itself (issue 27).
# Through pgpk-test-hooks (pgpk built with helper/cli/run.c's test hooks,
# never installed), for list, key, sig, convert, dump, verify and import:
#   PGPK_TEST_PARSER=wait     the child waits, after entering its sandbox,
#                             for a byte on stdin: its /proc status then
#                             shows the seccomp filter (mode 2) on every
#                             task, no_new_privs and no capability, while
#                             the command's own process has none of them;
#   PGPK_TEST_PARSER=crash    the child dies of SIGSEGV: the command says
#                             so, exits 2 and writes no output;
#   PGPK_TEST_PARSER=syscall  the child calls open(): its filter kills it
#                             (SIGSYS), and the command says that;
#   PGPK_TEST_PARSER=spin     with --timeout-ms=300 (the commands that take
#                             policy options: key, sig, convert, verify),
#                             the watchdog kills the child
#                             once it has used 300 ms of CPU time; =wait,
#                             the child using none, at 4 times that of
#                             wall-clock time.  Each said, exit 2.
#
#   tests/cli/sandbox.sh [PGPK-TEST-HOOKS]   (Bazel: //tests/cli)
set -u
here=$(cd "$(dirname "$0")" && pwd)
hooks=${1:-$here/../../bazel-bin/tests/cli/pgpk-test-hooks}
hooks=$(cd "$(dirname "$hooks")" && pwd)/$(basename "$hooks")
d=$here/../verify/testdata
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/sandbox.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/cli/check.sh
. "$here/check.sh"

"$hooks" key "$d/good.pgp" >"$tmp/key.pgpk" || { echo "FAIL: no key"; exit 1; }
# Under ASan a crash is ASan's to report, which writes: the filter kills it.
asan=""
ldd "$hooks" 2>/dev/null | grep -q libasan && asan=1
cases=(
	"list|list $d/good.pgp"
	"key|key $d/good.pgp"
	"sig|sig --data $d/msg.txt $d/msg.sig"
	"convert|convert $d/msg.inline"
	"dump|dump $tmp/key.pgpk"
	"verify|verify --keyring $d/good.pgp $d/msg.sig $d/msg.txt"
)
if command -v keyctl >/dev/null && keyctl show @s >/dev/null 2>&1; then
	cases+=("import|import --keyring @t $d/good.pgp")
fi

# status PID FIELD: a line of /proc/PID/status
field() { sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" 2>/dev/null; }

for c in "${cases[@]}"; do
	name=${c%%|*}
	# shellcheck disable=SC2206
	args=(${c#*|})
	# --- wait: look at the child from outside ---
	mkfifo "$tmp/in"
	PGPK_TEST_PARSER=wait "$hooks" "${args[@]}" <"$tmp/in" \
		>"$tmp/out" 2>"$tmp/err" &
	cmd=$!
	exec 3>"$tmp/in"
	child=""
	for _ in $(seq 500); do
		child=$(cat "/proc/$cmd/task/$cmd/children" 2>/dev/null |
			awk '{ print $1 }')
		[ -n "$child" ] && [ "$(field "$child" Seccomp)" = 2 ] && break
		sleep 0.01
	done
	tasks=0 filtered=0
	for t in /proc/"$child"/task/*; do
		tasks=$((tasks + 1))
		grep -q "^Seccomp:[[:space:]]*2" "$t/status" &&
			grep -q "^NoNewPrivs:[[:space:]]*1" "$t/status" &&
			grep -q "^CapEff:[[:space:]]*0000000000000000" "$t/status" &&
			filtered=$((filtered + 1))
	done
	echo "pgpk $name: command $cmd (Seccomp $(field "$cmd" Seccomp)," \
		"NoNewPrivs $(field "$cmd" NoNewPrivs)), child $child" \
		"(Seccomp $(field "$child" Seccomp), NoNewPrivs" \
		"$(field "$child" NoNewPrivs), CapEff $(field "$child" CapEff)," \
		"Uid $(field "$child" Uid | awk '{ print $1 }')," \
		"$filtered of $tasks tasks filtered)"
	check "pgpk $name: its child is under the filter, every task" \
		bash -c "[ -n '$child' ] && [ $tasks -ge 1 ] && [ $filtered = $tasks ]"
	check "pgpk $name: the command itself is not (it parses nothing)" \
		bash -c "[ '$(field "$cmd" Seccomp)' = 0 ]"
	echo go >&3
	exec 3>&-
	wait "$cmd"
	rc=$?
	rm -f "$tmp/in"
	# (import adds nothing without the module: exit 1, its key lines)
	check "pgpk $name: then the parse runs there, and the command ends well" \
		bash -c "[ $rc = 0 ] || { [ $name = import ] && [ $rc = 1 ] &&
			grep -q '^C5A20950F8ADAF6E key RSA: ' '$tmp/out'; }"
	# --- crash, syscall ---
	for hook in crash syscall; do
		PGPK_TEST_PARSER=$hook "$hooks" "${args[@]}" </dev/null \
			>"$tmp/out" 2>"$tmp/err"
		rc=$?
		echo "\$ PGPK_TEST_PARSER=$hook pgpk $name ...: exit $rc"
		sed 's/^/  err: /' "$tmp/err"
		if [ $hook = crash ] && [ -z "$asan" ]; then
			want="^pgpk $name: the sandboxed parser crashed \(signal 11, Segmentation fault\); nothing of its work is used"
		else
			want="^pgpk $name: the sandboxed parser was killed by its seccomp filter: a system call outside its allowlist \(signal 31, Bad system call\)"
		fi
		check "pgpk $name, parser $hook: exit 2, said, no output" \
			bash -c "[ $rc = 2 ] && [ ! -s '$tmp/out' ] &&
				grep -qE '$want' '$tmp/err'"
	done
	# --- the watchdog: CPU time, then wall-clock time for a stalled child ---
	case $name in list | dump | import) continue ;; esac
	# (stdin: a fifo this shell holds open, which never brings a byte)
	[ -p "$tmp/hold" ] || { mkfifo "$tmp/hold" && exec 4<>"$tmp/hold"; }
	for hook in spin wait; do
		t0=$(date +%s%N)
		PGPK_TEST_PARSER=$hook "$hooks" "$name" --timeout-ms=300 \
			"${args[@]:1}" <"$tmp/hold" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		echo "\$ PGPK_TEST_PARSER=$hook pgpk $name --timeout-ms=300 ...: exit $rc, $ms ms"
		sed 's/^/  err: /' "$tmp/err"
		# spin: at least its 300 ms of CPU time; wait: the 1200 ms
		if [ $hook = spin ]; then
			want="^pgpk $name: the sandboxed parser used ([3-9][0-9]{2}|[0-9]{4,}) ms of CPU time \(--timeout-ms\): killed$"
			waited=1
		else
			want="^pgpk $name: the sandboxed parser did not finish within 1200 ms, with [0-9]+ ms of CPU time: killed$"
			waited=$((ms >= 1200))
		fi
		check "pgpk $name, parser $hook, --timeout-ms=300: exit 2, said, no output" \
			bash -c "[ $rc = 2 ] && [ ! -s '$tmp/out' ] &&
				grep -qE '$want' '$tmp/err' && [ $waited = 1 ]"
	done
done
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
