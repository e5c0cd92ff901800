#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): pgpk import of debian-keyring.gpg into a
# keyring in the VM (issue 22), time per key.
#
#   tests/bench/vm-import.sh [--tree DIR] [--certs N] [--kernel V]
#
# The input is /usr/share/keyrings/debian-keyring.gpg, all of it, or with
# --certs its first N certificates, cut at its public-key packets (octets
# unchanged).  Each primary key added is one upcall, a few tenths of a
# second under TCG; the whole keyring (905 certificates, about 600 keys
# added) takes about 4 minutes, inside the case's 540 s limit.  DIR (default: this tree) is the work tree
# whose helper and module are measured, through its own tests/vm/run.sh
# (it builds both): "before" is a work tree of an older commit, run with
# the same N.  Output in DIR/tests/vm/out-import-bench (PGPK_VM_OUT).
# The case itself is tests/bench/vm-import/import-bench.sh; it prints
# "PGPK-BENCH import" lines.  One VM at a time.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TREE=$ROOT
N=1000000
KOPT=()
while [ $# -gt 0 ]; do
	case "$1" in
	--tree) TREE=$(cd "$2" && pwd); shift ;;
	--certs) N=$2; shift ;;
	--kernel) KOPT=(--kernel "$2"); shift ;;
	*) echo "usage: $0 [--tree DIR] [--certs N] [--kernel V]" >&2; exit 2 ;;
	esac
	shift
done
R=/usr/share/keyrings/debian-keyring.gpg
[ -r "$R" ] || { echo "no $R (package debian-keyring)" >&2; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp "$ROOT/tests/bench/vm-import/import-bench.sh" "$TMP/"
# The first N certificates: OpenPGP packet framing (RFC 9580 4.2), a
# certificate starting at each public-key packet (tag 6).
PYTHONPATH=$ROOT/tests/lib python3 - "$R" "$N" "$TMP/sample.gpg" <<'PY' >"$TMP/sample.certs" || exit 2
import sys
from pgpk_openpgp import packets
data = open(sys.argv[1], "rb").read()
want, out = int(sys.argv[2]), sys.argv[3]
pos = certs = 0
for tag, whole, _ in packets(data):
    if tag == 6:
        if certs == want:
            break
        certs += 1
    pos += len(whole)
open(out, "wb").write(data[:pos])
print(certs)
PY
echo "sample: the first $(cat "$TMP/sample.certs") certificates of $R ($(stat -c %s "$TMP/sample.gpg") octets); tree $TREE ($(git -C "$TREE" log -1 --format=%h))"
PGPK_VM_OUT=$TREE/tests/vm/out-import-bench \
	"$TREE/tests/vm/run.sh" "${KOPT[@]}" --cases "$TMP" 2>&1 |
	tee "$TMP/run.log" | grep -v '^PGPK-BENCH'
grep -h 'PGPK-BENCH\|pgpk import:' "$TREE/tests/vm/out-import-bench/console.log" |
	sed 's/^[^|]*| //'
