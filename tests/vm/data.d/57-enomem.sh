#!/bin/bash
# The fail-nth driver of tests/vm/cases/57-enomem.sh
# (tests/vm/tools/pgpk-failnth.c), built static for the busybox initramfs.
# Output in $PGPK_VM_DATA/enomem/.
set -euo pipefail
out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
mkdir -p "$out/enomem"
gcc -O2 -Wall -Wextra -Werror -static -o "$out/enomem/pgpk-failnth" \
	"$root/tests/vm/tools/pgpk-failnth.c"
