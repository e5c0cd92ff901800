#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): pgpk against its peers on the same inputs in the
# same run, and the upcall pipeline (pgpk-helper debug) on its own.
#
#   tests/bench/verify-speed.sh [RUNS] [--before HELPER] [--icount] [--no-list]
#
# Wall times are the best of RUNS rounds (default 5); in each round every
# tool of a case runs in turn (a loaded machine slows a round down, never
# speeds one up, and every tool sees the same load).  Instructions come
# from callgrind (valgrind): they do not depend on the machine's load.
# Cases:
#   detached   a detached signature, a one-certificate keyring
#              (tests/verify/testdata: good.pgp, msg.sig, msg.txt):
#              pgpk verify, gpgv, sqv; 20 runs per round; pgpk's
#              instructions are its process's and its sandboxed child's
#              (from pgpk_sandbox_enter_with(): fork copies the counts),
#              counted through tests/bench/callgrind_seccomp.so, minus
#              what that shim costs the dynamic linker (measured here:
#              pgpk --version with and without it)
#   inrelease  the newest /var/lib/apt/lists/*_InRelease against
#              /usr/share/keyrings/debian-archive-keyring.gpg (gpgv only:
#              sqv takes no cleartext-signed messages); 20 runs per round
#   list       /usr/share/keyrings/debian-keyring.gpg: pgpk list,
#              gpg --show-keys --with-colons, sq keyring list (primary
#              user IDs) and sq inspect (every component, as list); pgpk's
#              CPU time (user + system) of its best round and its parallel
#              efficiency on the machine's CPUs, CPU / (wall x CPUs)
#   upcall     pgpk-helper debug key tests/bench/rsa4096.pgp: one whole
#              sandboxed conversion (exec, OpenSSL start, sandbox
#              preparation, fork, sandbox, parse, answer, re-validation,
#              policy), the parent and the child; instructions through
#              tests/bench/callgrind_seccomp.so (valgrind has no
#              seccomp(2); the shim adds about 0.17 M of its own: one more
#              object in the dynamic linker's search order), with --icount
#              also counted natively by tests/bench/icount (ptrace,
#              single-stepping: minutes)
#   import     pgpk import of debian-keyring.gpg into a throwaway
#              session keyring (keyctl session -): on a host without the
#              pgpk module every add_key fails at once, so this is
#              import's own cost per key (each key it adds on a pgpk
#              kernel costs one upcall more)
# Not here: import on a pgpk kernel, the whole keyring through add_key in
# the VM, time per key (tests/bench/vm-import.sh [--tree DIR]: one VM
# run per build, about 5 minutes; README "Performance").
# --before HELPER adds HELPER's figures for the pgpk rows (e.g. a build of
# the previous commit's pgpk-helper, which ran every command itself),
# measured in the same rounds.
# Uses bazel-bin/helper/pgpk and pgpk-helper (PGPK, PGPK_HELPER
# override), the default optimized, hardened build; bazel build
# //helper:all //tests/bench:all first.
set -u
RUNS=5
BEFORE=""
ICOUNT=0
LIST=1
while [ $# -gt 0 ]; do
	case "$1" in
	--before) BEFORE=$2; shift ;;
	--icount) ICOUNT=1 ;;
	--no-list) LIST=0 ;;
	[0-9]*) RUNS=$1 ;;
	*) echo "usage: $0 [RUNS] [--before HELPER] [--icount] [--no-list]" >&2; exit 2 ;;
	esac
	shift
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGPK=${PGPK:-$ROOT/bazel-bin/helper/pgpk}
HELPER=${PGPK_HELPER:-$ROOT/bazel-bin/helper/pgpk-helper}
SHIM=$ROOT/bazel-bin/tests/bench/callgrind_seccomp.so
ICOUNT_BIN=$ROOT/bazel-bin/tests/bench/icount
[ -x "$PGPK" ] && [ -x "$HELPER" ] ||
	{ echo "build //helper:pgpk and //helper:pgpk-helper first" >&2; exit 2; }
TMP=$(mktemp -d)
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
export GNUPGHOME="$TMP/gnupg"
mkdir -m 700 "$GNUPGHOME"
D=$ROOT/tests/verify/testdata
NCPU=$(nproc)
HAVE_VG=0
command -v valgrind >/dev/null && HAVE_VG=1

# Each program at a path of the same length: the dynamic linker's work
# depends on it a little (a few thousand instructions).  An earlier
# pgpk-helper runs every command itself: it is copied as pgpk.
mkdir -p "$TMP/a" "$TMP/b" "$TMP/c"
cp "$PGPK" "$TMP/a/pgpk"
cp "$HELPER" "$TMP/c/pgpk-helper"
P_NOW="$TMP/a/pgpk"
H_NOW="$TMP/c/pgpk-helper"
P_OLD=""
if [ -n "$BEFORE" ]; then
	cp "$BEFORE" "$TMP/b/pgpk"
	P_OLD="$TMP/b/pgpk"
fi

# insns CMD...: instructions of one run (callgrind), or "-"
insns() {
	[ "$HAVE_VG" = 1 ] || { echo -; return; }
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 \
		>/dev/null | sed -n 's/.*refs: *//p' | tr -d , | grep . || echo -
}

# pgpk_insns CMD...: instructions of pgpk's process and its sandboxed
# child (callgrind, through the seccomp shim, which is then taken off
# again); an earlier pgpk-helper, which forks no child, as insns does.
# As root the child would drop to its own uid and could not write its
# profile: measured as nobody (no uid change, the rest the same).
SHIM_COST=""
pgpk_cg() { # pgpk_cg DIR PRELOAD CMD...: the summed summaries
	local w=$1 pre=$2 run=()
	shift 2
	[ "$(id -u)" = 0 ] && run=(runuser -u nobody --)
	(cd "$w" && "${run[@]}" env ${pre:+LD_PRELOAD="$pre"} \
		valgrind --tool=callgrind --zero-before=pgpk_sandbox_enter_with \
		--callgrind-out-file="$w/cg.%p" "$@" >/dev/null 2>&1)
	cat "$w"/cg.* 2>/dev/null | sed -n 's/^summary: //p' |
		awk '{ s += $1 } END { print s + 0 }'
	rm -f "$w"/cg.*
}
pgpk_insns() {
	local w a b t
	[ "$HAVE_VG" = 1 ] && [ -r "$SHIM" ] || { echo -; return; }
	[ "$1" = "$P_NOW" ] || { insns "$@"; return; }
	w=$(mktemp -d "$TMP/cg.XXXX")
	chmod 1777 "$w"
	cp "$SHIM" "$w/"
	chmod 755 "$w/callgrind_seccomp.so"
	if [ -z "$SHIM_COST" ]; then
		a=$(pgpk_cg "$w" "$w/callgrind_seccomp.so" "$P_NOW" --version)
		b=$(pgpk_cg "$w" "" "$P_NOW" --version)
		SHIM_COST=$((a - b))
	fi
	t=$(pgpk_cg "$w" "$w/callgrind_seccomp.so" "$@")
	echo $((t - SHIM_COST))
}

# ms_per_run N CMD...: wall milliseconds per run over N runs
ms_per_run() {
	local n=$1 t0 t1 i
	shift
	t0=$(date +%s%N)
	for i in $(seq "$n"); do
		"$@" >/dev/null 2>&1
	done
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / n / 1e6 }'
}

# rounds N NAME=CMD...: best wall ms per run of each named command, the
# commands interleaved in every round; sets BEST_<NAME>
rounds() {
	local n=$1 r spec name ms var
	shift
	for spec in "$@"; do
		eval "BEST_${spec%%=*}="
	done
	for r in $(seq "$RUNS"); do
		for spec in "$@"; do
			name=${spec%%=*}
			ms=$(eval "ms_per_run $n ${spec#*=}")
			var=BEST_$name
			if [ -z "${!var}" ] || awk -v x="$ms" -v y="${!var}" 'BEGIN { exit !(x < y) }'; then
				eval "BEST_$name=$ms"
			fi
		done
	done
}

row() { # row CASE TOOL MS INSNS [PGPK_MS PGPK_INSNS]
	awk -v c="$1" -v t="$2" -v ms="$3" -v i="$4" -v pm="${5:-}" -v pi="${6:-}" 'BEGIN {
		printf "| %-9s | %-22s | %11s | %10.2f |", c, t,
		       i == "-" ? "-" : sprintf("%.3f M", i / 1e6), ms
		if (pm != "")
			printf " pgpk/%s: %.2f time, %s insns |", t, pm / ms,
			       (i == "-" || pi == "-") ? "-" : sprintf("%.2f", pi / i)
		printf "\n"
	}'
}

echo "machine: $NCPU CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); $RUNS rounds"
echo
echo "| case | tool | instructions | wall ms | ratio |"
echo "|---|---|---|---|---|"

# --- detached --------------------------------------------------------------
# gpgv wants a path with a slash; nobody (pgpk_insns) must read them
cp "$D/good.pgp" "$D/msg.sig" "$D/msg.txt" "$TMP/"
chmod 644 "$TMP/good.pgp" "$TMP/msg.sig" "$TMP/msg.txt"
K=$TMP/good.pgp
D=$TMP
"$P_NOW" verify --keyring "$K" "$D/msg.sig" "$D/msg.txt" >"$TMP/p.out" 2>&1 ||
	{ echo "detached: pgpk verify failed:"; cat "$TMP/p.out"; }
gpgv --keyring "$K" "$D/msg.sig" "$D/msg.txt" >/dev/null 2>&1 ||
	echo "detached: gpgv says it is not good"
specs=("pgpk=\"$P_NOW\" verify --keyring $K $D/msg.sig $D/msg.txt"
	"gpgv=gpgv --keyring $K $D/msg.sig $D/msg.txt")
[ -n "$P_OLD" ] && specs+=("old=\"$P_OLD\" verify --keyring $K $D/msg.sig $D/msg.txt")
command -v sqv >/dev/null && specs+=("sqv=sqv --keyring $K $D/msg.sig $D/msg.txt")
rounds 20 "${specs[@]}"
pi=$(pgpk_insns "$P_NOW" verify --keyring "$K" "$D/msg.sig" "$D/msg.txt")
row detached "pgpk verify" "$BEST_pgpk" "$pi"
if [ -n "$P_OLD" ]; then
	oi=$(insns "$P_OLD" verify --keyring "$K" "$D/msg.sig" "$D/msg.txt")
	row detached "before" "$BEST_old" "$oi" "$BEST_pgpk" "$pi"
fi
row detached gpgv "$BEST_gpgv" "$(insns gpgv --keyring "$K" "$D/msg.sig" "$D/msg.txt")" "$BEST_pgpk" "$pi"
command -v sqv >/dev/null &&
	row detached sqv "$BEST_sqv" "$(insns sqv --keyring "$K" "$D/msg.sig" "$D/msg.txt")" "$BEST_pgpk" "$pi"

# --- inrelease -------------------------------------------------------------
IR=$(ls -t /var/lib/apt/lists/*_InRelease 2>/dev/null | head -n 1)
A=/usr/share/keyrings/debian-archive-keyring.gpg
if [ -n "$IR" ] && [ -r "$A" ]; then
	cp "$IR" "$TMP/InRelease"
	IR=$TMP/InRelease
	specs=("pgpk=\"$P_NOW\" verify --keyring $A $IR" "gpgv=gpgv --keyring $A $IR")
	[ -n "$P_OLD" ] && specs+=("old=\"$P_OLD\" verify --keyring $A $IR")
	rounds 20 "${specs[@]}"
	pi=$(pgpk_insns "$P_NOW" verify --keyring "$A" "$IR")
	row inrelease "pgpk verify" "$BEST_pgpk" "$pi"
	[ -n "$P_OLD" ] && row inrelease "before" "$BEST_old" \
		"$(insns "$P_OLD" verify --keyring "$A" "$IR")" "$BEST_pgpk" "$pi"
	row inrelease gpgv "$BEST_gpgv" "$(insns gpgv --keyring "$A" "$IR")" "$BEST_pgpk" "$pi"
else
	echo "| inrelease | skipped: no /var/lib/apt/lists/*_InRelease or archive keyring | | | |"
fi

# --- upcall ----------------------------------------------------------------
KEY=$ROOT/tests/bench/rsa4096.pgp
cp "$KEY" "$TMP/key.pgp"
chmod 644 "$TMP/key.pgp"
"$H_NOW" debug key "$TMP/key.pgp" >"$TMP/u.out" 2>&1 ||
	{ echo "upcall: pgpk-helper debug failed:"; cat "$TMP/u.out"; }
specs=("pgpk=\"$H_NOW\" debug key $TMP/key.pgp")
[ -n "$P_OLD" ] && specs+=("old=\"$P_OLD\" debug key $TMP/key.pgp")
rounds 10 "${specs[@]}"
# upcall_insns HELPER: callgrind instructions of parent + child, the child
# counted from pgpk_sandbox_enter() (its fork copies the parent's counts).
upcall_insns() {
	local w
	[ "$HAVE_VG" = 1 ] && [ -r "$SHIM" ] || { echo -; return; }
	w=$(mktemp -d "$TMP/cg.XXXX")
	chmod 1777 "$w"
	cp "$1" "$w/pgpk-helper"
	cp "$SHIM" "$w/"
	chmod 755 "$w/pgpk-helper" "$w/callgrind_seccomp.so"
	# As root the child would drop to its own uid and could not write
	# its profile: measure as nobody (no uid change, the rest the same).
	local run=()
	[ "$(id -u)" = 0 ] && run=(runuser -u nobody --)
	(cd "$w" && "${run[@]}" env LD_PRELOAD="$w/callgrind_seccomp.so" \
		valgrind --tool=callgrind --zero-before=pgpk_sandbox_enter \
		--callgrind-out-file="$w/cg.%p" ./pgpk-helper debug key \
		"$TMP/key.pgp" >"$w/out" 2>&1)
	grep -q '^OK' "$w/out" || { echo -; return; }
	cat "$w"/cg.* | sed -n 's/^summary: //p' | awk '{ s += $1 } END { print s }'
}
pi=$(upcall_insns "$H_NOW")
row upcall "pgpk-helper debug key" "$BEST_pgpk" "$pi"
[ -n "$P_OLD" ] && row upcall "before" "$BEST_old" \
	"$(upcall_insns "$P_OLD")" "$BEST_pgpk" "$pi"
if [ "$ICOUNT" = 1 ] && [ -x "$ICOUNT_BIN" ]; then
	for h in "$H_NOW" ${P_OLD:+"$P_OLD"}; do
		"$ICOUNT_BIN" "$h" debug --timeout-ms 600000 key "$TMP/key.pgp" \
			>/dev/null 2>"$TMP/ic.err"
		echo "upcall, native (icount, $h): $(grep '^icount:' "$TMP/ic.err")"
	done
fi

# --- list, import ----------------------------------------------------------
R=/usr/share/keyrings/debian-keyring.gpg
if [ "$LIST" = 1 ] && [ -r "$R" ]; then
	# best_cpu NAME CMD...: best wall (s) of RUNS runs and that run's
	# CPU time (user + system), interleaving is done by the caller.
	declare -A WALL CPU
	tools=(pgpk gpg)
	[ -n "$P_OLD" ] && tools+=(old)
	command -v sq >/dev/null && tools+=(sqlist sqinspect)
	cmd_of() {
		case "$1" in
		pgpk) echo "$P_NOW list $R" ;;
		old) echo "$P_OLD list $R" ;;
		gpg) echo "gpg --batch --show-keys --with-colons $R" ;;
		sqlist) echo "sq keyring list $R" ;;
		sqinspect) echo "sq inspect $R" ;;
		esac
	}
	for r in $(seq "$RUNS"); do
		for t in "${tools[@]}"; do
			# shellcheck disable=SC2046
			/usr/bin/time -f "%e %U %S" -o "$TMP/t" $(cmd_of "$t") >/dev/null 2>&1
			read -r e u s < <(tail -n 1 "$TMP/t")
			if [ -z "${WALL[$t]:-}" ] || awk -v x="$e" -v y="${WALL[$t]}" 'BEGIN { exit !(x < y) }'; then
				WALL[$t]=$e
				CPU[$t]=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
			fi
		done
	done
	list_row() {
		local label
		case "$1" in
		pgpk) label="pgpk list" ;;
		old) label="before" ;;
		gpg) label="gpg --show-keys" ;;
		sqlist) label="sq keyring list" ;;
		sqinspect) label="sq inspect" ;;
		esac
		awk -v t="$label" -v w="${WALL[$1]}" -v c="${CPU[$1]}" -v p="${WALL[pgpk]}" \
		    -v n="$NCPU" -v self="$2" 'BEGIN {
			printf "| list      | %-22s | %11s | %10.0f |", t, "-", w * 1000
			if (self)
				printf " CPU %.0f ms, parallel efficiency %.0f%% (%d CPUs) |", c * 1000, 100 * c / (w * n), n
			else
				printf " pgpk %.2fx faster |", w / p
			printf "\n"
		}'
	}
	list_row pgpk 1
	[ -n "$P_OLD" ] && list_row old 1
	list_row gpg 0
	if command -v sq >/dev/null; then
		list_row sqlist 0
		list_row sqinspect 0
	fi
	"$P_NOW" list "$R" 2>&1 >/dev/null | sed 's/^/list: /'
	# import: a session keyring of its own, discarded at the end
	if command -v keyctl >/dev/null; then
		for h in "$P_NOW" ${P_OLD:+"$P_OLD"}; do
			best=""
			for r in $(seq "$RUNS"); do
				/usr/bin/time -f "%e %U %S" -o "$TMP/t" keyctl session - \
					"$h" import --keyring @s "$R" >"$TMP/imp" 2>&1
				read -r e u s < <(tail -n 1 "$TMP/t")
				if [ -z "$best" ] || awk -v x="$e" -v y="$best" 'BEGIN { exit !(x < y) }'; then
					best=$e
					cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
				fi
			done
			keys=$(grep -c '^[0-9A-F]\{16\} ' "$TMP/imp")
			awk -v h="$h" -v w="$best" -v c="$cpu" -v k="$keys" -v old="$P_OLD" 'BEGIN {
				printf "| import    | %-22s | %11s | %10.0f | %.0f us per key (%d keys), CPU %.0f ms |\n",
				       h == old ? "before" : "pgpk import", "-",
				       w * 1000, w * 1e6 / k, k, c * 1000
			}'
		done
	fi
fi
