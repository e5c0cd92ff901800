#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real request-key upcall on this host, without the module: a
# temporary /etc/request-key.d entry routes "user" keys described
# "key:*" (and a mis-edited line) to the built pgpk-helper
# (--key-type=user), so keyctl request2 runs /sbin/request-key ->
# pgpk-helper upcall -> sandboxed parser -> keyctl_instantiate/keyctl_reject,
# for real.
#
# request_key(2) passes callout data as a C string: binary OpenPGP (every
# key packet holds a zero octet) cannot go through it, so the module's
# binary callouts and their answers are proven by the VM cases and, on the
# host, by pgpk-helper debug and --selftest (the same pipeline).  Here:
# the refusals the kernel can provoke, each with its errno, for 2 s
# (PGPK_REJECT_TIMEOUT: then the next request runs the helper again),
# one log line each in the kernel log (--kmsg):
#   - the module's description "key:<32 hex digits>" with armored or
#     garbage callout data: EBADMSG (not binary OpenPGP);
#   - the descriptions the module no longer makes ("key:<sha256>",
#     "key:<...>:<select>", "sig:<...>"): EBADMSG;
#   - a bad command line in the configuration: EKEYREJECTED.
# Exit 0 pass, 77 skip, anything else fail.
. "$(dirname "$0")/lib.sh"
helper=$(readlink -f "$helper" 2>/dev/null)
data=$root/tests/broker/testdata
conf=/etc/request-key.d/pgpk-hosttest-$$.conf

[ -x "$helper" ] || skip "pgpk-helper not built (bazel build //helper:pgpk-helper)"
[ "$(id -u)" -eq 0 ] || skip "needs root to add a request-key.d entry"
[ -x /sbin/request-key ] || skip "no /sbin/request-key (keyutils)"
command -v keyctl >/dev/null || skip "no keyctl (keyutils)"
[ -d /etc/request-key.d ] || skip "no /etc/request-key.d"
keyctl show @s >/dev/null 2>&1 || skip "keyring syscalls not permitted"

host_cleanup() { rm -f "$conf"; }
trap host_exit EXIT
for d in 'key:*' 'sig:*'; do
	printf 'create user %s * %s upcall --key-type=user --kmsg %%k\n' \
		"$d" "$helper" >>"$conf"
done
# A mis-edited line (bad option value): the key must be refused at once.
printf 'create user pgpkbad:* * %s upcall --key-type=user --kmsg %s %%k\n' \
	"$helper" "--min-rsa-bits=12" >>"$conf"

fail=0
check() {	# check NAME CONDITION-STATUS DETAIL
	if [ "$2" -eq 0 ]; then echo "ok   $1: $3"; else echo "FAIL $1: $3"; fail=1; fi
}
# kmsg_now: the time of the kernel log's last line; kmsg_since T: the
# helper's lines after T (a count of all lines would shrink when the ring
# buffer wraps)
kmsg_now() { dmesg 2>/dev/null | tail -n 1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'; }
kmsg_since() {
	dmesg 2>/dev/null | awk -F '[][]' -v t="${1:-0}" '$2 + 0 > t + 0' |
		grep 'pgpk-helper\['
}
nonce() { od -An -tx1 -N16 /dev/urandom | tr -d ' \n'; }

# Everything in a fresh session keyring: no negative key from an earlier run.
run() {
	local t0 out desc sha lines
	t0=$(kmsg_now)
	desc="key:$(nonce)"
	out=$(keyctl request2 user "$desc" "$(cat "$data/selftest-key.asc")" \
		@s 2>&1)
	echo "$out" | grep -q "Bad message"
	check "armored key: EBADMSG" $? "$out"
	# The same description within 2 s: the rejection, no new upcall;
	# after it: a new upcall.
	out=$(keyctl request2 user "$desc" "x" @s 2>&1)
	echo "$out" | grep -q "Bad message"
	check "the rejection, again within its 2 s" $? "$out"
	sleep 3
	out=$(keyctl request2 user "$desc" "not OpenPGP at all" @s 2>&1)
	echo "$out" | grep -q "Bad message"
	check "garbage, after the 2 s: EBADMSG" $? "$out"

	sha=$(sha256sum "$data/selftest-key.pgp" | cut -d' ' -f1)
	for d in "key:$sha" "key:$(nonce):7DF4F6CEDFE00F04" "sig:$(nonce)" \
		"key:$(nonce | tr a-f A-F)"; do
		out=$(keyctl request2 user "$d" "x" @s 2>&1)
		echo "$out" | grep -q "Bad message"
		check "description ${d:0:20}...: EBADMSG" $? "$out"
	done

	out=$(keyctl request2 user "pgpkbad:$$" "x" @s 2>&1)
	echo "$out" | grep -q "rejected"
	check "bad command line: key rejected" $? "$out"

	if dmesg >/dev/null 2>&1; then
		sleep 0.2
		lines=$(kmsg_since "$t0")
		n=$(echo "$lines" | grep -c .)
		[ "$n" -eq 7 ]
		check "one log line per upcall" $? "$n lines (7 upcalls)"
		echo "$lines"
		for what in "EBADMSG for 2 s: not binary OpenPGP" \
			"EBADMSG for 2 s: description: junk after" \
			"EBADMSG for 2 s: description does not start with key:" \
			"EBADMSG for 2 s: description: not 32 lowercase hex" \
			"EKEYREJECTED for 2 s: bad helper command line"; do
			echo "$lines" | grep -q "rejected $what"
			check "log: $what" $? "log line"
		done
	else
		echo "skip log lines: dmesg not readable"
	fi
	return $fail
}
export -f run check kmsg_now kmsg_since nonce
export data helper fail
keyctl session - bash -c run
