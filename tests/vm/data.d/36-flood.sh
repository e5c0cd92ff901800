#!/bin/bash
# Test data for tests/vm/cases/36-sig-flood.sh (security issue 9): the
# rsa2048 key of 00-gpg.sh with junk signatures appended, made by
# tests/lib/pgpk_flood.py.  add_key("asymmetric") refuses payloads over
# 64 KiB before pgpk sees them (kernel/README.md, Known limits), so:
#   flood/self127.pgp, self128.pgp  127 / 128 junk self-certifications,
#       newer than the genuine one, correct quick checks, full-size RSA
#       values: one digest and one RSA verification each
#   flood/mixed128.pgp  128 junk signatures of every kind
#   flood/tiny2000.pgp  2000 junk self-certifications of 31 octets
# Output in $PGPK_VM_DATA/flood/.
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
f=$out/flood
mkdir -p "$f"
gen() {
	python3 "$root/tests/lib/pgpk_flood.py" "$out/rsa2048.pgp" "$f/$1" \
		"${@:2}"
	local size
	size=$(stat -c %s "$f/$1")
	if [ "$size" -gt 65535 ]; then
		echo "36-flood: $1 is $size octets, over add_key's 64 KiB" >&2
		exit 1
	fi
}
gen self127.pgp 127 self
gen self128.pgp 128 self
gen mixed128.pgp 128
gen tiny2000.pgp 2000 tiny
