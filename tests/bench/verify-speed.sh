#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): `pgpk-helper verify` against gpgv and sqv on the
# same inputs in the same run, and `pgpk-helper list` against gpg.
#
#   tests/bench/verify-speed.sh [RUNS]
#
# For each case it prints the wall time per verification (best of RUNS
# rounds of 20 runs each: a loaded machine only ever slows a round down)
# and the instructions one run executes (valgrind --tool=callgrind:
# repeatable whatever else the machine does), with the ratios against
# gpgv and sqv.  Cases:
#   detached  a detached signature, a one-certificate keyring
#             (tests/verify/testdata: good.pgp, msg.sig, msg.txt)
#   inrelease the newest /var/lib/apt/lists/*_InRelease against
#             /usr/share/keyrings/debian-archive-keyring.gpg (gpgv only:
#             sqv takes no cleartext-signed messages)
# Uses bazel-bin/helper/pgpk-helper, the default (optimized, hardened)
# build.  Then tests/openpgp/bench-list.sh for `list`.
set -u
RUNS=${1:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HELPER=${PGPK_HELPER:-$ROOT/bazel-bin/helper/pgpk-helper}
[ -x "$HELPER" ] || { echo "build //helper:pgpk-helper first" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export GNUPGHOME="$TMP/gnupg"
mkdir -m 700 "$GNUPGHOME"
D=$ROOT/tests/verify/testdata

# per_run CMD...: best wall time of one run, in ms
per_run() {
	local best="" r t0 t1 i ms
	for r in $(seq "$RUNS"); do
		t0=$(date +%s%N)
		for i in $(seq 20); do
			"$@" >/dev/null 2>&1
		done
		t1=$(date +%s%N)
		ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 20e6 }')
		if [ -z "$best" ] || awk -v x="$ms" -v y="$best" 'BEGIN { exit !(x < y) }'; then
			best=$ms
		fi
	done
	echo "$best"
}

# insns CMD...: instructions of one run (callgrind), or "-"
insns() {
	command -v valgrind >/dev/null || { echo -; return; }
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 \
		>/dev/null | sed -n 's/.*refs: *//p' | tr -d , | grep . || echo -
}

# bench NAME KEYRING SIG [DATA]
bench() {
	local name=$1 ring=$2 sig=$3 data=${4:-}
	local p g s pi gi si
	"$HELPER" verify --keyring "$ring" "$sig" $data >"$TMP/p.out" 2>&1 ||
		{ echo "$name: pgpk-helper verify failed:"; cat "$TMP/p.out"; return; }
	gpgv --keyring "$ring" "$sig" $data >/dev/null 2>&1 ||
		echo "$name: gpgv says it is not good"
	p=$(per_run "$HELPER" verify --keyring "$ring" "$sig" $data)
	g=$(per_run gpgv --keyring "$ring" "$sig" $data)
	pi=$(insns "$HELPER" verify --keyring "$ring" "$sig" $data)
	gi=$(insns gpgv --keyring "$ring" "$sig" $data)
	s=- si=-
	# sqv takes detached signatures only (no cleartext InRelease).
	if [ -n "$data" ] && command -v sqv >/dev/null; then
		s=$(per_run sqv --keyring "$ring" "$sig" $data)
		si=$(insns sqv --keyring "$ring" "$sig" $data)
	fi
	awk -v n="$name" -v p="$p" -v g="$g" -v s="$s" -v pi="$pi" \
		-v gi="$gi" -v si="$si" 'BEGIN {
		printf "%-9s pgpk %6.2f ms %6.1fM insns | gpgv %6.2f ms %6.1fM (pgpk/gpgv %.2f time, %.2f insns)",
		       n, p, pi / 1e6, g, gi / 1e6, p / g, pi / gi
		if (s != "-")
			printf " | sqv %6.2f ms %6.1fM (pgpk/sqv %.2f time, %.2f insns)",
			       s, si / 1e6, p / s, pi / si
		printf "\n"
	}'
}

cp "$D/good.pgp" "$TMP/good.pgp" # gpgv wants a path with a slash
bench detached "$TMP/good.pgp" "$D/msg.sig" "$D/msg.txt"
inrelease=$(ls -t /var/lib/apt/lists/*_InRelease 2>/dev/null | head -n 1)
archive=/usr/share/keyrings/debian-archive-keyring.gpg
if [ -n "$inrelease" ] && [ -r "$archive" ]; then
	bench inrelease "$archive" "$inrelease"
else
	echo "inrelease: skipped (no /var/lib/apt/lists/*_InRelease or archive keyring)"
fi
if [ -r /usr/share/keyrings/debian-keyring.gpg ]; then
	"$ROOT/tests/openpgp/bench-list.sh" /usr/share/keyrings/debian-keyring.gpg 3
fi
