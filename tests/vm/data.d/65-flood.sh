#!/bin/bash
# The slot holder of tests/vm/cases/65-uid-flood.sh
# (tests/vm/tools/pgpk-hold.c), built static for the busybox initramfs.
# The flood itself uses c/flood-max.pgp (42-certflood.sh).  Output in
# $PGPK_VM_DATA/flood/.
set -euo pipefail
out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
mkdir -p "$out/flood"
gcc -O2 -Wall -Wextra -Werror -static -o "$out/flood/pgpk-hold" \
	"$root/tests/vm/tools/pgpk-hold.c"
