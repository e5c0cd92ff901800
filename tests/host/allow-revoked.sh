#!/bin/bash
# Policy: a revoked key is refused (EKEYREJECTED, the reason named) unless
# the helper runs with --allow-revoked.  The whole pipeline runs: fork,
# sandbox, parse, re-validate, policy (pgpk-helper debug).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
helper=bazel-bin/helper/pgpk-helper
key=tests/openpgp/data/revoked.gpg
[ -x "$helper" ] || bazel build //helper:pgpk-helper >/dev/null 2>&1 ||
	{ echo "FAIL: pgpk-helper does not build"; exit 1; }

out=$("$helper" debug key "$key" 2>&1)
rc=$?
echo "$out"
if [ "$rc" = 0 ] || ! grep -q 'EKEYREJECTED.*revoked' <<<"$out"; then
	echo "FAIL: revoked key not refused with EKEYREJECTED naming revocation"
	exit 1
fi
out=$("$helper" debug --allow-revoked key "$key" 2>&1)
rc=$?
echo "$out"
if [ "$rc" != 0 ] || ! grep -q '^canonical blob:' <<<"$out"; then
	echo "FAIL: --allow-revoked did not convert the revoked key"
	exit 1
fi
echo "PASS: revoked refused by default, converted with --allow-revoked"
