#!/bin/sh
# Line counts of the module: the untrusted-byte group (every function that
# reads octets a submitter or the helper chose, that is, turns them into
# values, lengths or positions: the strict canonical decoder, which also
# tells a payload's form and counts an integer's bits, and the framing
# walks, whose interface is pgpk_canon.h) and the rest.  Code elsewhere
# handles decoded values (bounded by the decoder) and moves octets without
# reading them: copies, hashes, whole-buffer comparisons, hex for logs.  "code" = lines that are neither blank nor comment; "total" = all
# lines.  The functions of the untrusted group are listed: each has a fuzz
# target (tests/fuzz/, tests/host/kernel-size.sh checks it).
#
# usage: kernel/count-lines.sh [--check]
#   --check   also fail (exit 1) unless the module is smaller than
#             PGPK_MAX_LINES (1245, the 2022 in-kernel parser's size) and
#             the untrusted group at most PGPK_MAX_UNTRUSTED (300)
cd "$(dirname "$0")" || exit 1

UNTRUSTED="pgpk_canon.c pgpk_frame.c"
PGPK_MAX_LINES=${PGPK_MAX_LINES:-1245}
PGPK_MAX_UNTRUSTED=${PGPK_MAX_UNTRUSTED:-300}

# code FILE...: non-blank, non-comment lines (C comments and //).
code() {
	cat "$@" | awk '
		{
			line = $0
			out = ""
			while (line != "") {
				if (incomment) {
					i = index(line, "*/")
					if (!i) { line = ""; break }
					line = substr(line, i + 2)
					incomment = 0
				} else {
					i = index(line, "/*")
					j = index(line, "//")
					if (j && (!i || j < i)) { out = out substr(line, 1, j - 1); line = ""; break }
					if (!i) { out = out line; line = ""; break }
					out = out substr(line, 1, i - 1)
					line = substr(line, i + 2)
					incomment = 1
				}
			}
			if (out ~ /[^ \t]/) n++
		}
		END { print n + 0 }'
}

# functions FILE: the functions it defines (a name at the start of a
# line, after its return type, followed by "(").
functions() {
	sed -n -E 's/^(static )?[a-z][a-z0-9_ ]*[ *]+([a-z_][a-z0-9_]*)\(.*/\2/p' "$1"
}

rest=$(ls pgpk*.c pgpk*.h | grep -v -e "\.mod\.c$" -e "^pgpk_compat\." |
	grep -v -x -F "$(echo "$UNTRUSTED" | tr ' ' '\n')")
untrusted=$(code $UNTRUSTED)
all=$(code $UNTRUSTED $rest)
printf '%-34s %6s %6s\n' "group" "code" "total"
printf '%-34s %6s %6s\n' "decodes untrusted bytes" "$untrusted" \
	"$(cat $UNTRUSTED | wc -l)"
printf '%-34s %6s %6s\n' "the rest" "$(code $rest)" "$(cat $rest | wc -l)"
printf '%-34s %6s %6s\n' "all" "$all" "$(cat $UNTRUSTED $rest | wc -l)"
for f in $UNTRUSTED $rest; do
	printf '  %-32s %6s %6s\n' "$f" "$(code "$f")" "$(wc -l <"$f")"
done
echo "functions reading untrusted bytes:"
for f in $UNTRUSTED; do
	echo "  $f: $(functions "$f" | tr '\n' ' ')"
done
[ "${1:-}" = --check ] || exit 0
ok=0
[ "$all" -lt "$PGPK_MAX_LINES" ] ||
	{ echo "FAIL: $all code lines, not fewer than $PGPK_MAX_LINES"; ok=1; }
[ "$untrusted" -le "$PGPK_MAX_UNTRUSTED" ] ||
	{ echo "FAIL: $untrusted untrusted-byte lines, more than $PGPK_MAX_UNTRUSTED"; ok=1; }
exit $ok
