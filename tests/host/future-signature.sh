#!/bin/bash
# Signatures from the future (issue 11).  pgpk's rule (helper/broker/policy.c
# pgpk_policy_check_sig()): a signature created more than
# PGPK_POLICY_CLOCK_SKEW (300) seconds after now is refused, by `verify`
# and by the upcall alike (the parser child leaves it out of the answer,
# the broker refuses an answer that holds one).  References measured here:
# gpgv accepts any, sqv refuses any created after now (its --not-after).
#
# Signatures made by gpg --faked-system-time: now + 60 s (inside the
# allowance: good), now + 600 s and now + 1 day (refused), and a
# two-signature document whose second signature is from the future
# (good by the first; the upcall answer holds only the first).
. "$(dirname "$0")/lib.sh"
for tool in gpg gpgv; do
	command -v $tool >/dev/null || skip "$tool not installed"
done
[ -x "$pgpk" ] && [ -x "$helper" ] || die "$pgpk or $helper not built"
host_tmp
host_gnupg
G="gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase="

$G --faked-system-time 20200101T000000 --quick-gen-key "A <a@example.org>" \
	rsa2048 sign never 2>/dev/null
$G --faked-system-time 20200101T000000 --quick-gen-key "B <b@example.org>" \
	rsa2048 sign never 2>/dev/null
gpg --export >"$tmp/keys.gpg"
echo "signed text" >"$tmp/data"
sign() { # sign OUT SECONDS-AHEAD KEY
	$G --faked-system-time "$(date -u -d "+$2 sec" +%Y%m%dT%H%M%S)" \
		-u "$3" --detach-sign -o "$tmp/$1" "$tmp/data" 2>/dev/null
}
sign near.sig 60 A
sign ahead.sig 600 A
sign day.sig 86400 A
sign now.sig 0 A
sign b-day.sig 86400 B
cat "$tmp/now.sig" "$tmp/b-day.sig" >"$tmp/two.sig"

# check NAME SIG WANT(good|refused) [DEBUG-WANT]
check() {
	local name=$1 sig=$2 want=$3 v d g s=""
	"$pgpk" verify --keyring "$tmp/keys.gpg" "$tmp/$sig" "$tmp/data" \
		>"$tmp/out" 2>&1
	v=$?
	"$helper" debug sig "$tmp/$sig" >"$tmp/dbg" 2>&1
	d=$?
	gpgv --keyring "$tmp/keys.gpg" "$tmp/$sig" "$tmp/data" >/dev/null 2>&1
	g=$?
	if command -v sqv >/dev/null; then
		sqv --keyring "$tmp/keys.gpg" "$tmp/$sig" "$tmp/data" \
			>/dev/null 2>&1
		s=" sqv $?"
	fi
	if { [ "$want" = good ] && [ "$v" = 0 ] && [ "$d" = 0 ]; } ||
		{ [ "$want" = refused ] && [ "$v" = 2 ] && [ "$d" != 0 ] &&
			grep -q "in the future" "$tmp/out" &&
			grep -q "in the future" "$tmp/dbg"; }; then
		ok "$name: $want by verify and the upcall pipeline (gpgv $g$s)"
	else
		fail "$name: want $want; verify $v, debug $d (gpgv $g$s)"
		sed 's/^/  /' "$tmp/out" "$tmp/dbg" | tail -6
	fi
}
check "now + 60 s" near.sig good
check "now + 600 s" ahead.sig refused
check "now + 1 day" day.sig refused
check "now" now.sig good
# Two signatures, the second from the future: skipped by verify, left out
# of the upcall answer.
"$pgpk" verify --keyring "$tmp/keys.gpg" "$tmp/two.sig" "$tmp/data" \
	>"$tmp/out" 2>&1
v=$?
"$helper" debug sig "$tmp/two.sig" >"$tmp/dbg" 2>&1
d=$?
if [ "$v" = 0 ] && grep -q "signature 2 .*in the future" "$tmp/out" &&
	[ "$d" = 0 ] && grep -q "(0 more)" "$tmp/dbg"; then
	ok "now + future: good by the first, the future one skipped and left out of the answer"
else
	fail "now + future: verify $v, debug $d"
	sed 's/^/  /' "$tmp/out" "$tmp/dbg" | tail -6
fi
echo "$npass agree, $nfail differ"
[ "$nfail" = 0 ]
