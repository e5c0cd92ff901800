#!/bin/bash
# Kernel static checks: build the module with sparse (make C=2: check
# every file) against the Debian headers the VM tests use; any sparse or
# compiler warning or error fails.  Builds in a copy of kernel/ so it
# neither races with nor is fooled by objects left in the tree.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/kver.sh
. "$root/tests/vm/kver.sh"

if ! command -v sparse >/dev/null; then
	echo "FAIL: sparse not installed (apt install sparse)"
	exit 1
fi
kver=$(pgpk_pick_kver) || { echo "FAIL: no kernel headers"; exit 1; }
kdir=/usr/src/linux-headers-$kver
if [ ! -f "$root/kernel/Kbuild" ] && [ ! -f "$root/kernel/Makefile" ]; then
	echo "FAIL: kernel/Kbuild (or kernel/Makefile) not written yet"
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pgpk-sparse.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Sources only (tracked or new, never ignored build output).
(cd "$root/kernel" && { git ls-files --cached --others --exclude-standard \
	-- '*.c' '*.h' Kbuild Makefile 2>/dev/null || ls -1; } |
	grep -v / | grep -E '\.[ch]$|^Kbuild$|^Makefile$' | grep -v '\.mod\.c$' |
	sort -u |
	while read -r f; do [ -f "$f" ] && cp "$f" "$work/"; done)
log=$work/build.log
make -C "$kdir" M="$work" C=2 modules >"$log" 2>&1
rc=$?
sed "s|$work/||g" "$log"
if [ "$rc" -ne 0 ]; then
	echo "FAIL: module build with sparse failed (exit $rc)"
	exit 1
fi
n=$(grep -c -E ': (warning|error):' "$log")
if [ "$n" -gt 0 ]; then
	echo "FAIL: $n sparse/compiler warning(s) or error(s)"
	exit 1
fi
echo "sparse: clean ($(grep -c ' CHECK ' "$log") files checked)"
