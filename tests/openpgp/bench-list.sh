#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): `pgpk list` against
# `gpg --show-keys --with-colons` on the same keyring in the same run.
# Prints keys/s, MB/s, the speed ratio, peak RSS and how many
# signatures pgpk verified (GnuPG checks the same self-signatures).
#
#   tests/openpgp/bench-list.sh [KEYRING] [RUNS]
#
# Uses bazel-bin/helper/pgpk (the default build is optimized: bazel
# build //helper:pgpk).
set -eu
KEYRING=${1:-/usr/share/keyrings/debian-keyring.gpg}
RUNS=${2:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGPK=${PGPK:-$ROOT/bazel-bin/helper/pgpk}
[ -x "$PGPK" ] || { echo "build //helper:pgpk first" >&2; exit 2; }
[ -r "$KEYRING" ] || { echo "no $KEYRING" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export GNUPGHOME="$TMP/gnupg"
mkdir -m 700 "$GNUPGHOME"

# best of RUNS: "seconds maxrss_kb"
best() {
	b=""
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		/usr/bin/time -f "%e %M" -o "$TMP/t" "$@" >"$TMP/out" 2>"$TMP/err"
		t=$(cat "$TMP/t")
		if [ -z "$b" ] || awk "BEGIN{exit !(${t% *} < ${b% *})}"; then
			b=$t
		fi
		i=$((i + 1))
	done
	echo "$b"
}

P=$(best "$PGPK" list "$KEYRING")
VERIFIED=$(sed -n 's/.* \([0-9]*\) signatures verified/\1/p' "$TMP/err")
"$PGPK" list --json "$KEYRING" >"$TMP/pgpk.json"
KEYS=$(wc -l <"$TMP/pgpk.json")
G=$(best gpg --batch --show-keys --with-colons "$KEYRING")
GKEYS=$(grep -c '^\(pub\|sub\):' "$TMP/out" || true)
SIZE=$(stat -c %s "$KEYRING")

awk -v pt="${P% *}" -v prss="${P#* }" -v gt="${G% *}" -v grss="${G#* }" \
    -v keys="$KEYS" -v gkeys="$GKEYS" -v size="$SIZE" -v ver="$VERIFIED" \
    -v ring="$KEYRING" 'BEGIN {
	mb = size / 1048576
	if (pt <= 0) pt = 0.001
	if (gt <= 0) gt = 0.001
	printf "keyring: %s (%.1f MB)\n", ring, mb
	printf "pgpk list: %.3f s, %d keys, %.0f keys/s, %.1f MB/s, peak RSS %.1f MB (%.2fx input), %d signatures verified\n",
	       pt, keys, keys / pt, mb / pt, prss / 1024, prss * 1024 / size, ver
	printf "gpg --show-keys:  %.3f s, %d keys, %.0f keys/s, %.1f MB/s, peak RSS %.1f MB\n",
	       gt, gkeys, gkeys / gt, mb / gt, grss / 1024
	printf "ratio: pgpk is %.2fx faster than gpg\n", gt / pt
}'
