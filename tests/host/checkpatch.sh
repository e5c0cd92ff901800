#!/bin/bash
# Kernel style: scripts/checkpatch.pl --strict --no-tree -f over every
# kernel/*.c and kernel/*.h.  Any ERROR, WARNING or CHECK fails.
# checkpatch.pl ships only inside Debian's linux-source-6.1 tarball; the
# three files it needs are extracted once into a cache keyed by the
# tarball's size and date.  A kernel/.checkpatch.conf (read because
# checkpatch runs from kernel/) may hold a reasoned --ignore list.
. "$(dirname "$0")/lib.sh"

tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
if [ -z "$tarball" ]; then
	echo "FAIL: no /usr/src/linux-source-*.tar.xz (apt install linux-source-6.1)"
	exit 1
fi
key=$(stat -c '%s-%Y' "$tarball")
cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/pgpk/checkpatch-$key
if ! mkdir -p "$cache" 2>/dev/null; then
	cache=$root/build/checkpatch-$key
	mkdir -p "$cache"
fi
if [ ! -f "$cache/scripts/checkpatch.pl" ]; then
	top=$(basename "$tarball" .tar.xz)
	echo "extracting checkpatch.pl from $tarball"
	tmp=$(mktemp -d "$cache/.x.XXXXXX")
	if ! tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch"; then
		rm -rf "$tmp"
		echo "FAIL: cannot extract scripts/checkpatch.pl from $tarball"
		exit 1
	fi
	mkdir -p "$cache/scripts"
	mv "$tmp"/scripts/* "$cache/scripts/"
	rm -rf "$tmp"
fi

cd "$root/kernel" || exit 1
# Sources only (tracked or new, never ignored build output like
# pgpk.mod.c), and the UAPI header.
files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' |
	grep -E -x '[^/]+|uapi/linux/[^/]+' | sort -u)
if [ -z "$files" ]; then
	echo "FAIL: no kernel/*.c or kernel/*.h to check"
	exit 1
fi
bad=0
for f in $files; do
	# shellcheck disable=SC2086
	# With --no-tree checkpatch has no $root and cannot seed CamelCase
	# names from include/: drop that noise from its stderr.
	out=$(perl "$cache/scripts/checkpatch.pl" --strict --no-tree \
		--no-summary --terse --show-types -f "$f" 2>"$cache/.err")
	grep -v 'uninitialized value \$root\|/include.: No such file' \
		"$cache/.err"
	if [ -n "$out" ]; then
		echo "$out"
		bad=$((bad + 1))
	else
		echo "ok: kernel/$f"
	fi
done
if [ "$bad" -gt 0 ]; then
	echo "FAIL: checkpatch --strict complains about $bad file(s)"
	exit 1
fi
echo "checkpatch --strict: $(echo "$files" | wc -w) files clean"
