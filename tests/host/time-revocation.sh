#!/bin/bash
# Issue 14: signatures against time and revocation, a matrix written from
# RFC 9580 by an independent generator (tests/timerev/make-matrix.py):
# primary signs / subkey signs with the primary revoked / subkey signs and
# is revoked; every revocation reason; signatures before the key, before
# the subkey's binding, between binding and revocation, after revocation,
# after re-legitimization.  `pgpk verify` must give each row's
# expected verdict under the default policy and under --allow-revoked,
# naming the rule.  sqv's verdict is printed beside it; sqv judges a
# certificate at the signature's time, as --allow-revoked does, and its
# disagreements are the ones by design (README, "Time and revocation"):
# a key revocation with reason 32 (pgpk: hard, as any code other than 1
# and 3; Sequoia: soft) and signatures made after a soft revocation that a
# newer self-signature followed (pgpk, as GnuPG: revoked is revoked;
# Sequoia: the self-signature re-legitimizes the key).
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
host_build
host_tmp
python3 tests/timerev/make-matrix.py "$tmp" || die "generator"
sqv=$(command -v sqv || true)

nfail=0 nrows=0 nsqv=0 ndesign=0
# verdict ARGS...: "good", or the refusal line of pgpk verify
verdict() {
	local out
	if out=$("$pgpk" verify "$@" 2>&1); then
		echo good
	else
		# the signature's line, not the count after it
		echo "$out" | grep -v '^pgpk verify: [0-9]* good, ' |
			tail -n 1
	fi
}
check() {
	local name=$1 want=$2 got=$3
	if [ "$want" = good ] && [ "$got" = good ]; then
		return 0
	fi
	if [ "$want" != good ] && [ "$got" != good ] &&
		grep -qF -- "$want" <<<"$got"; then
		return 0
	fi
	echo "FAIL $name: want '$want', got '$got'"
	nfail=$((nfail + 1))
}
printf '%-62s %-16s %-16s %s\n' row default allow-revoked sqv
while IFS=$'\t' read -r name cert sig want_d want_a; do
	nrows=$((nrows + 1))
	d=$(verdict --keyring "$tmp/$cert" "$tmp/$sig" "$tmp/data.txt")
	a=$(verdict --allow-revoked --keyring "$tmp/$cert" "$tmp/$sig" \
		"$tmp/data.txt")
	check "$name (default)" "$want_d" "$d"
	check "$name (--allow-revoked)" "$want_a" "$a"
	s=-
	if [ -n "$sqv" ]; then
		if "$sqv" --keyring "$tmp/$cert" "$tmp/$sig" "$tmp/data.txt" \
			>/dev/null 2>&1; then
			s=good
		else
			s=refused
		fi
		mine=good
		[ "$a" = good ] || mine=refused
		if [ "$s" != "$mine" ]; then
			case "$name" in
			*.uid-retired.*) ndesign=$((ndesign + 1)) ;;
			*.relegit.after-revocation | *.relegit.after-relegit)
				ndesign=$((ndesign + 1)) ;;
			*)
				echo "FAIL $name: sqv says $s, --allow-revoked $mine (not a disagreement by design)"
				nfail=$((nfail + 1))
				;;
			esac
			s="$s (differs)"
		fi
		nsqv=$((nsqv + 1))
	fi
	short() { [ "$1" = good ] && echo good || echo refused; }
	printf '%-62s %-16s %-16s %s\n' "$name" "$(short "$d")" "$(short "$a")" "$s"
done <"$tmp/rows.txt"
echo "$nrows rows, $nfail failures; sqv compared on $nsqv rows, $ndesign differ by design"
[ "$nrows" -gt 100 ] || { echo "FAIL: only $nrows rows"; exit 1; }
[ "$nfail" = 0 ] || exit 1
echo "PASS: every row has the RFC's verdict and names its rule"
