#!/bin/bash
# One validity rule (issue 11): pgpk list, key, import and verify and
# pgpk-helper debug (the upcall's pipeline) judge every key alike (tests/validity/agree.py), over
# the test keyrings, the time/revocation matrix's certificates, Debian's
# archive keyrings and a sample of debian-keyring.gpg (every certificate
# with a key that is unusable or cannot sign, one in 40 of the others).
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
host_build
host_tmp
python3 tests/timerev/make-matrix.py "$tmp" >/dev/null || die "generator"
rings=(tests/openpgp/data/*.gpg tests/verify/testdata/*.pgp "$tmp"/*.pgp)
for r in debian-archive-keyring debian-archive-removed-keys debian-keyring; do
	f=/usr/share/keyrings/$r.gpg
	if [ -f "$f" ]; then
		rings+=("$f")
	else
		echo "note: $f missing (apt install debian-keyring debian-archive-keyring)"
	fi
done
python3 tests/validity/agree.py "$pgpk" "$helper" 40 "${rings[@]}" || exit 1
echo "PASS: every command judges every key alike"
