#!/bin/bash
# The kernel-log verdict of tests/vm/run.sh, on its own so that it can be
# proven on canned logs (tests/host/vm-harness.sh).
#
# usage: tests/vm/check-log.sh CONSOLE [MAX]
# Prints the console lines that are kernel reports (tests/vm/kernel-reports.txt),
# skipping the cases' own output ("<case>| ...") and syslog lines
# ("syslog <case>| ..."), without the "kmsg <case>| " prefix and the
# timestamp, each distinct line once, at most MAX (default 20); exit 1
# if there is any, 0 if none.
set -u

here=$(cd "$(dirname "$0")" && pwd)
console=${1:?usage: check-log.sh CONSOLE [MAX]}
max=${2:-20}
patterns=$(grep -v -e '^#' -e '^$' "$here/kernel-reports.txt")
bad=$(grep -a -v -E '^[^ |]+\| |^syslog [^ |]+\| ' "$console" |
	grep -a -E -e "$patterns" |
	sed -E 's/^kmsg [^ |]+\| //; s/^\[ *[0-9]+\.[0-9]+\] //' |
	awk '!seen[$0]++' | head -n "$max")
[ -z "$bad" ] && exit 0
printf '%s\n' "$bad"
exit 1
