#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real request-key upcall on this host, without the module: a
# temporary /etc/request-key.d entry routes "user" keys described
# "key:<sha256>" / "sig:<sha256>" to the built pgpk-helper (--key-type=user),
# so keyctl request2 runs /sbin/request-key -> pgpk-helper upcall ->
# sandboxed parser -> keyctl_instantiate/keyctl_reject, for real.
# Checks: an armored key is instantiated with the same canonical blob the
# CLI produces; garbage and a SHA-256 mismatch are rejected with EBADMSG;
# a SHA-1 data signature with EKEYREJECTED (policy), and so is any key when
# the configured command line is bad; a second request for
# the same garbage is answered from the negative cache; one log line per
# request reaches the kernel log (--kmsg); the SHA-256 mismatch and the
# bad command line are rejected for 2 s, not --negative-timeout (they say
# nothing about the bytes).
# Exit 0 pass, 77 skip, anything else fail.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
helper=$(readlink -f "$root/bazel-bin/helper/pgpk-helper" 2>/dev/null)
data=$root/tests/broker/testdata
conf=/etc/request-key.d/pgpk-hosttest-$$.conf

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$helper" ] || skip "pgpk-helper not built (bazel build //helper:pgpk-helper)"
[ "$(id -u)" -eq 0 ] || skip "needs root to add a request-key.d entry"
[ -x /sbin/request-key ] || skip "no /sbin/request-key (keyutils)"
command -v keyctl >/dev/null || skip "no keyctl (keyutils)"
[ -d /etc/request-key.d ] || skip "no /etc/request-key.d"
keyctl show @s >/dev/null 2>&1 || skip "keyring syscalls not permitted"

trap 'rm -f "$conf"' EXIT
printf 'create user key:* * %s upcall --key-type=user --kmsg %%k\n' \
	"$helper" >"$conf"
printf 'create user sig:* * %s upcall --key-type=user --kmsg %%k\n' \
	"$helper" >>"$conf"
# A mis-edited line (bad option value): the key must be refused at once.
printf 'create user pgpkbad:* * %s upcall --key-type=user --kmsg %s %%k\n' \
	"$helper" "--min-rsa-bits=12" >>"$conf"

fail=0
check() {	# check NAME CONDITION-STATUS DETAIL
	if [ "$2" -eq 0 ]; then echo "ok   $1: $3"; else echo "FAIL $1: $3"; fail=1; fi
}
# The callout is the file as a shell string (no trailing newline): hash
# exactly that.
sha() { printf '%s' "$(cat "$1")" | sha256sum | cut -d' ' -f1; }
kmsg_count() { dmesg 2>/dev/null | grep -c 'pgpk-helper\[' ; }

# Everything in a fresh session keyring: no cache from an earlier run.
run() {
	key=$data/selftest-key.asc
	logs0=$(kmsg_count)
	id=$(keyctl request2 user "key:$(sha "$key")" "$(cat "$key")" @s 2>&1)
	check "armored key instantiated" $? "$id"
	want=$(printf '%s' "$(cat "$key")" | "$helper" key - | xxd -p |
		tr -d '\n')
	got=$(keyctl pipe "$id" 2>/dev/null | xxd -p | tr -d '\n')
	[ -n "$want" ] && [ "$want" = "$got" ]
	check "payload = pgpk-helper key output" $? "${#got} hex digits"
	[ "${got:0:10}" = 7f50474b01 ]
	check "payload magic" $? "${got:0:10}"

	tmp=$(mktemp)
	printf 'not OpenPGP at all\n' >"$tmp"
	out=$(keyctl request2 user "key:$(sha "$tmp")" "$(cat "$tmp")" @s 2>&1)
	echo "$out" | grep -q "Bad message"
	check "garbage rejected EBADMSG" $? "$out"
	out=$(keyctl request2 user "key:$(sha "$tmp")" "$(cat "$tmp")" @s 2>&1)
	echo "$out" | grep -q "Bad message"
	check "negative cache EBADMSG" $? "$out"

	# (a description no key in this session has yet)
	out=$(keyctl request2 user "key:$(sha "$data/selftest-msg.sig.asc")" \
		"$(cat "$tmp")" @s 2>&1)
	echo "$out" | grep -q "Bad message"
	check "SHA-256 mismatch rejected EBADMSG" $? "$out"
	rm -f "$tmp"

	sig=$data/selftest-msg.sig.asc
	id=$(keyctl request2 user "sig:$(sha "$sig")" "$(cat "$sig")" @s 2>&1)
	check "SHA-256 signature instantiated" $? "$id"
	sig=$data/selftest-msg-sha1.sig.asc
	out=$(keyctl request2 user "sig:$(sha "$sig")" "$(cat "$sig")" @s 2>&1)
	echo "$out" | grep -q "rejected"
	check "SHA-1 signature rejected EKEYREJECTED" $? "$out"

	out=$(keyctl request2 user "pgpkbad:$$" "x" @s 2>&1)
	echo "$out" | grep -q "rejected"
	check "bad command line: key rejected" $? "$out"

	if dmesg >/dev/null 2>&1; then
		sleep 0.2
		n=$(( $(kmsg_count) - logs0 ))
		[ "$n" -eq 6 ]
		check "one log line per upcall" $? "$n lines (6 upcalls)"
		dmesg | grep 'pgpk-helper\[' | tail -n "$n"
		# Not verdicts about the bytes: never for --negative-timeout.
		for what in "EBADMSG for 2 s: callout data does not match" \
			"EKEYREJECTED for 2 s: bad helper command line"; do
			dmesg | grep 'pgpk-helper\[' | tail -n "$n" |
				grep -q "rejected $what"
			check "not cached: $what" $? "log line"
		done
	else
		echo "skip log lines: dmesg not readable"
	fi
	return $fail
}
export -f run check sha kmsg_count
export data helper fail
keyctl session - bash -c run
