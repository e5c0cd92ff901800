#!/bin/bash
# Kernel static checks: build the module with sparse (make C=2: check
# every file) against the 6.1 and 6.12 headers the VM tests use
# (tests/vm/kernels.sh); any sparse or compiler warning or error fails.
# Builds in a copy of kernel/ so it neither races with nor is fooled by
# objects left in the tree.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/vm/kernels.sh
. "$root/tests/vm/kernels.sh"

if ! command -v sparse >/dev/null; then
	echo "FAIL: sparse not installed (apt install sparse)"
	exit 1
fi
if [ ! -f "$root/kernel/Kbuild" ] && [ ! -f "$root/kernel/Makefile" ]; then
	echo "FAIL: kernel/Kbuild (or kernel/Makefile) not written yet"
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pgpk-sparse.XXXXXX")
trap 'rm -rf "$work"' EXIT
bad=0
# 7.3 is not checked: its headers use __typeof_unqual__, which Debian
# 13's sparse (0.6.4) cannot parse (the kernel's checker-valid.sh, not
# even shipped in Debian's headers, would turn C=2 off).
for k in 6.1 6.12; do
	if ! pgpk_kernel_use "$k"; then
		echo "FAIL: kernel $k not available"
		bad=1
		continue
	fi
	rm -rf "$work/src"
	mkdir -p "$work/src"
	# Sources only (tracked or new, never ignored build output).
	(cd "$root/kernel" && { git ls-files --cached --others \
		--exclude-standard -- '*.c' '*.h' Kbuild Makefile 2>/dev/null ||
		ls -1; } |
		grep -v / | grep -E '\.[ch]$|^Kbuild$|^Makefile$' |
		grep -v '\.mod\.c$' | sort -u |
		while read -r f; do [ -f "$f" ] && cp "$f" "$work/src/"; done
		cp -r uapi "$work/src/")
	log=$work/build-$k.log
	make -C "$K_KDIR" M="$work/src" C=2 modules >"$log" 2>&1
	rc=$?
	sed "s|$work/src/||g" "$log"
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $K_VER: module build with sparse failed (exit $rc)"
		bad=1
		continue
	fi
	n=$(grep -c -E ': (warning|error):' "$log")
	if [ "$n" -gt 0 ]; then
		echo "FAIL: $K_VER: $n sparse/compiler warning(s) or error(s)"
		bad=1
		continue
	fi
	echo "sparse $K_VER: clean ($(grep -c ' CHECK ' "$log") files checked)"
done
exit "$bad"
