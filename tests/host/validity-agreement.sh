#!/bin/bash
# One validity rule (issue 11): list, key, debug (the upcall's pipeline),
# import and verify judge every key alike (tests/validity/agree.py), over
# the test keyrings, the time/revocation matrix's certificates, Debian's
# archive keyrings and a sample of debian-keyring.gpg (every certificate
# with a key that is unusable or cannot sign, one in 40 of the others).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
helper=$root/bazel-bin/helper/pgpk-helper
[ -x "$helper" ] || bazel build //helper:pgpk-helper >/dev/null 2>&1 ||
	{ echo "FAIL: pgpk-helper does not build"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/timerev/make-matrix.py "$tmp" >/dev/null ||
	{ echo "FAIL: generator"; exit 1; }
rings=(tests/openpgp/data/*.gpg tests/verify/testdata/*.pgp "$tmp"/*.pgp)
for r in debian-archive-keyring debian-archive-removed-keys debian-keyring; do
	f=/usr/share/keyrings/$r.gpg
	if [ -f "$f" ]; then
		rings+=("$f")
	else
		echo "note: $f missing (apt install debian-keyring debian-archive-keyring)"
	fi
done
python3 tests/validity/agree.py "$helper" 40 "${rings[@]}" || exit 1
echo "PASS: every command judges every key alike"
