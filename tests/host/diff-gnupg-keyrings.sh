#!/bin/bash
# Differential test against GnuPG on the keyrings Debian ships:
# `gpg --show-keys --with-colons` vs `pgpk list --json` on
# debian-keyring.gpg (28 MB, ~905 certificates), debian-archive-keyring.gpg,
# and the smaller debian-maintainers, debian-nonupload, debian-role-keys
# and debian-archive-removed-keys keyrings.  For every key and subkey: fingerprint, key
# ID, algorithm, bits, creation, expiry, revocation, user IDs and signing
# capability agree, or the difference is in
# tests/openpgp/gnupg-allowlist.txt with its reason
# (tests/openpgp/diff_gnupg.py does the comparison).
#
# Both tools run back to back, so they judge expiry at the same "now"; a
# key expiring between the two runs is not compared for can_sign.
# Prints the time of each tool on each keyring.
#
# usage: tests/host/diff-gnupg-keyrings.sh [KEYRING...]
#        (PGPK=path overrides bazel-bin/helper/pgpk)
. "$(dirname "$0")/lib.sh"
allowlist=$root/tests/openpgp/gnupg-allowlist.txt

if ! command -v gpg >/dev/null || ! command -v python3 >/dev/null; then
	skip "gpg or python3 not installed"
fi
[ -x "$pgpk" ] || die "$pgpk not built (bazel build //helper:pgpk)"
if [ $# -gt 0 ]; then
	rings=("$@")
else
	rings=(/usr/share/keyrings/debian-keyring.gpg
		/usr/share/keyrings/debian-archive-keyring.gpg
		/usr/share/keyrings/debian-maintainers.gpg
		/usr/share/keyrings/debian-nonupload.gpg
		/usr/share/keyrings/debian-role-keys.gpg
		/usr/share/keyrings/debian-archive-removed-keys.gpg)
fi
have=0
for r in "${rings[@]}"; do
	[ -f "$r" ] && have=$((have + 1))
done
[ "$have" != 0 ] ||
	skip "no keyring (apt install debian-keyring debian-archive-keyring)"

host_tmp
host_gnupg

# ms: milliseconds since the epoch
ms() { date +%s%3N; }

fail=0
for r in "${rings[@]}"; do
	[ -f "$r" ] || continue
	name=$(basename "$r")
	t0=$(ms)
	if ! gpg --batch --no-tty --show-keys --with-colons "$r" \
		>"$tmp/gpg.txt" 2>"$tmp/gpg.err"; then
		echo "FAIL: gpg --show-keys on $name:"
		tail -n 3 "$tmp/gpg.err"
		exit 1
	fi
	t1=$(ms)
	"$pgpk" list --json "$r" >"$tmp/pgpk.txt" 2>"$tmp/pgpk.err"
	rc=$?
	t2=$(ms)
	if [ $rc != 0 ]; then
		echo "FAIL: pgpk list --json $name exited $rc:"
		tail -n 3 "$tmp/pgpk.err"
		fail=1
		continue
	fi
	gms=$((t1 - t0)) pms=$((t2 - t1))
	echo "$name: $(stat -c %s "$r") octets; gpg --show-keys" \
		"--with-colons ${gms} ms, pgpk list --json ${pms} ms" \
		"(gpg/pgpk $(awk -v g=$gms -v p=$pms \
			'BEGIN { printf "%.1f", p ? g / p : 0 }')x)"
	python3 "$root/tests/openpgp/diff_gnupg.py" --name "$name" \
		--gpg "$tmp/gpg.txt" --pgpk "$tmp/pgpk.txt" \
		--allowlist "$allowlist" \
		--window $((t0 / 1000)) $((t2 / 1000 + 1)) || fail=1
done
if [ "$fail" != 0 ]; then
	echo "FAIL: pgpk and GnuPG disagree (see DIFF lines above)"
	exit 1
fi
echo "PASS: pgpk and GnuPG agree on every key (allowlist: $(grep -c '^[0-9A-Fa-f]' "$allowlist") entries)"
