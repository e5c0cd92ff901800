#!/bin/sh
# Line counts of the module, split into the code that decodes untrusted
# bytes (the strict canonical decoder, ASCII armor removal and the
# binding checks) and the rest.  "code" = lines that are neither blank
# nor comment; "total" = all lines.
# usage: kernel/count-lines.sh
cd "$(dirname "$0")" || exit 1

UNTRUSTED="pgpk_canon.c pgpk_frame.c"

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

rest=$(ls pgpk*.c pgpk*.h | grep -v "\.mod\.c$" | grep -v -x -F "$(echo "$UNTRUSTED" | tr ' ' '\n')")
printf '%-34s %6s %6s\n' "group" "code" "total"
printf '%-34s %6s %6s\n' "decodes untrusted bytes" "$(code $UNTRUSTED)" \
	"$(cat $UNTRUSTED | wc -l)"
printf '%-34s %6s %6s\n' "the rest" "$(code $rest)" "$(cat $rest | wc -l)"
for f in $UNTRUSTED $rest; do
	printf '  %-32s %6s %6s\n' "$f" "$(code "$f")" "$(wc -l <"$f")"
done
