#!/bin/bash
# Policy: a revoked key is refused (EKEYREJECTED, the reason named) unless
# the helper runs with --allow-revoked, which admits soft revocations only
# (RFC 9580 5.2.3.31: "superseded", "retired"); a hard one (no reason,
# "no reason specified", "compromised", any other code) is refused
# whatever the options.  The whole pipeline runs: fork, sandbox, parse,
# re-validate, policy (pgpk-helper debug).
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
host_build
host_tmp
python3 tests/timerev/make-matrix.py "$tmp" >/dev/null ||
	{ echo "FAIL: generator"; exit 1; }
soft=$tmp/primary-signs-primary-revoked.superseded.pgp
hard=$tmp/primary-signs-primary-revoked.compromised.pgp

# refused WHY ARGS...: debug ARGS fails with EKEYREJECTED and WHY
refused() {
	local why=$1 out
	shift
	out=$("$helper" debug "$@" 2>&1) && {
		echo "$out"
		echo "FAIL: debug $* converted, want a refusal naming '$why'"
		exit 1
	}
	grep -q "EKEYREJECTED.*$why" <<<"$out" || {
		echo "$out"
		echo "FAIL: debug $*: no EKEYREJECTED naming '$why'"
		exit 1
	}
	echo "ok: debug $* refused: $why"
}
refused "key revoked (no reason specified): hard" \
	key tests/openpgp/data/revoked.gpg
refused "key revoked (no reason specified): hard" \
	--allow-revoked key tests/openpgp/data/revoked.gpg
refused "key revoked (compromised): hard revocation" --allow-revoked key "$hard"
refused "key revoked (superseded): soft revocation" key "$soft"
out=$("$helper" debug --allow-revoked key "$soft" 2>&1)
rc=$?
echo "$out"
if [ "$rc" != 0 ] || ! grep -q '^canonical blob:' <<<"$out"; then
	echo "FAIL: --allow-revoked did not convert the softly revoked key"
	exit 1
fi
# The canonical key carries the revocation time (Key.soft_revoked, field
# 13): the kernel refuses signatures made after it.
# debug shows it in ISO 8601, gpg in Unix seconds.
revoked_at=$(gpg --list-packets "$soft" 2>/dev/null |
	sed -n 's/.*created \([0-9]*\),.*sigclass 0x20.*/\1/p')
[ -n "$revoked_at" ] &&
	revoked_at=$(date -u -d "@$revoked_at" +%Y-%m-%dT%H:%M:%SZ)
if ! grep -q "signs before $revoked_at (soft revocation)" <<<"$out" ||
	[ -z "$revoked_at" ]; then
	echo "FAIL: the canonical key does not carry the revocation time '$revoked_at'"
	exit 1
fi
"$pgpk" key "$soft" >/dev/null 2>&1 &&
	{ echo "FAIL: key converted a revoked key without --allow-revoked"; exit 1; }
echo "PASS: hard revocations refused always, soft ones with --allow-revoked only"
