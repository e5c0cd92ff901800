#!/bin/bash
# The module stays smaller than the in-kernel parser it replaces: at most
# 1,245 code lines (the 2022 patch set's parser patches, counted by
# kernel/count-lines.sh), of which at most 300 read bytes a submitter or
# the helper chose (issue 19).  And every function of that untrusted-byte
# group that others call (the static ones are reached through them) is
# called by a fuzz target in tests/fuzz/.
. "$(dirname "$0")/lib.sh"
out=$("$root/kernel/count-lines.sh" --check)
rc=$?
echo "$out"
[ "$rc" = 0 ] || { echo "FAIL: kernel/ over its size limits"; exit 1; }

fail=0
for f in pgpk_canon.c pgpk_frame.c; do
	for fn in $(grep -v '^static' "$root/kernel/$f" |
		sed -n -E 's/^[a-z][a-z0-9_ ]*[ *]+([a-z_][a-z0-9_]*)\(.*/\1/p'); do
		if ! grep -q -w "$fn" "$root"/tests/fuzz/*.c; then
			echo "FAIL: $f: $fn has no fuzz target in tests/fuzz/"
			fail=1
		fi
	done
done
[ "$fail" = 0 ] && echo "every exported function of the untrusted-byte group is fuzzed"
exit $fail
