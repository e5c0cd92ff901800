#!/bin/bash
# User-space C style: clang-format --dry-run -Werror with the project's
# .clang-format over every tracked user-space C file (helper/, sandbox/,
# proto/, tests/).  kernel/ -- the dual-compiled decoder and rebuild files
# included -- is kernel code and is held to checkpatch --strict instead:
# clang-format 14 cannot keep the kernel's aligned tables and comments.
# Fails listing every file that is not formatted.
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
if ! command -v clang-format >/dev/null; then
	echo "FAIL: clang-format not installed (apt install clang-format)"
	exit 1
fi
# Tracked and new (not ignored) files: a fresh clone and a work tree
# check the same set.
files=$(git ls-files --cached --others --exclude-standard -- \
	'helper/*.[ch]' 'sandbox/*.[ch]' 'proto/*.[ch]' 'tests/*.[ch]' \
	2>/dev/null |
	grep -v '\.pb-c\.[ch]$' | sort -u)
if [ -z "$files" ]; then
	echo "SKIP: no user-space C files yet"
	exit 77
fi
bad=""
for f in $files; do
	[ -f "$f" ] || continue
	if ! clang-format --style=file --dry-run -Werror "$f" \
		>/dev/null 2>&1; then
		bad="$bad $f"
	fi
done
if [ -n "$bad" ]; then
	for f in $bad; do
		echo "not formatted: $f ($(clang-format --style=file \
			--dry-run "$f" 2>&1 | grep -c 'warning:') places)"
	done
	echo "FAIL: $(echo "$bad" | wc -w) of $(echo "$files" | wc -w)" \
		"files differ from clang-format (see: clang-format --dry-run FILE)"
	exit 1
fi
echo "clang-format: $(echo "$files" | wc -w) files formatted"
