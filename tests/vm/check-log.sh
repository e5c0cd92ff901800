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
#
# One stack dump is no report: warn_alloc()'s ("vmalloc error: ..." or
# "page allocation failure: ..."), when the failure was injected
# (tests/vm/cases/57-enomem.sh: "FAULT_INJECTION: forcing a failure."
# on the two lines before; the kernel's module loader vmallocs without
# __GFP_NOWARN, and an allocation failure is what that case asks for).
# Its "Call Trace:" line is left out; any other report still counts.
set -u

here=$(cd "$(dirname "$0")" && pwd)
console=${1:?usage: check-log.sh CONSOLE [MAX]}
max=${2:-20}
patterns=$(grep -v -e '^#' -e '^$' "$here/kernel-reports.txt")
bad=$(grep -a -v -E '^[^ |]+\| |^syslog [^ |]+\| ' "$console" |
	awk '
		/FAULT_INJECTION: forcing a failure\./ { fi = NR; print; next }
		fi && NR - fi <= 3 &&
		/(vmalloc error: |page allocation failure: )/ { wa = NR }
		wa && NR - wa <= 4 && /Call Trace:/ { wa = 0; next }
		{ print }' |
	grep -a -E -e "$patterns" |
	sed -E 's/^kmsg [^ |]+\| //; s/^\[ *[0-9]+\.[0-9]+\] //' |
	awk '!seen[$0]++' | head -n "$max")
[ -z "$bad" ] && exit 0
printf '%s\n' "$bad"
exit 1
