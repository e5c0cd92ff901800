#!/bin/bash
# Documents with several signatures, as apt sees them: every current
# InRelease file of this machine (apt-get update puts them in
# /var/lib/apt/lists; Debian signs with two RSA-4096 keys and an Ed25519
# key), checked by pgpk verify against the archive keyring, against
# a keyring holding only one of the signers, against one holding none,
# each also on a tampered copy, and with --signatures N.
#
# References, measured in the same run:
#   - gpgv --status-fd: the verdict of each signature (GOODSIG, BADSIG,
#     NO_PUBKEY); gpgv stops at the first bad one, pgpk checks them all,
#     so the lists are compared up to the first bad one.  pgpk's only
#     difference: a signature by a non-RSA key is "unsupported" (skipped),
#     whether gpgv finds it good or bad (a tampered copy with only the
#     Ed25519 key: gpgv says bad, pgpk has nothing it can check, exit 2).
#   - the document's verdict: apt's rule on gpgv's verdicts (good when one
#     signature is good and none is bad): pgpk's exit status 0, 1 (a bad
#     one) or 2 (nothing good).  gpgv's own exit status is 2 as soon as
#     one signature has no key, so it is not the reference.
#   - sqv (if installed), on the same document split into its text and
#     detached signatures: `sqv --signatures N` succeeds for N up to the
#     number of valid signatures; pgpk's count is that minus the non-RSA
#     ones, and `pgpk verify --signatures N` must succeed exactly
#     up to it.
#
# Without apt lists, the frozen copy tests/host/data/InRelease (Debian 12,
# three signatures) is used, with --now at its date (PGPK_APT_LISTS=DIR
# reads the lists from DIR instead).
#
# usage: tests/host/multi-signature.sh   (PGPK=path overrides the
# binary, default bazel-bin/helper/pgpk)
. "$(dirname "$0")/lib.sh"
archive=/usr/share/keyrings/debian-archive-keyring.gpg

for tool in gpg gpgv; do
	command -v $tool >/dev/null || skip "$tool not installed"
done
[ -f "$archive" ] || skip "$archive not installed (debian-archive-keyring)"
[ -x "$pgpk" ] || die "$pgpk not built (bazel build //helper:pgpk)"
host_tmp
mkdir -m 700 "$tmp/gnupg"
G="gpg --homedir $tmp/gnupg --batch --quiet --no-tty"

files=""
for f in "${PGPK_APT_LISTS:-/var/lib/apt/lists}"/*_InRelease; do
	[ -f "$f" ] && files="$files $f"
done
now_opt=""
if [ -z "$files" ]; then
	files=$root/tests/host/data/InRelease
	now_opt="--now $(cat "$root/tests/host/data/InRelease.now")"
	echo "note: no apt lists, using the frozen copy $files"
fi

# gpgv_verdicts KEYRING FILE: "good FPR", "bad", "no-key", "unsupported"
# (good, but not RSA) or "error", one line per signature, in order.
gpgv_verdicts() {
	gpgv --status-fd 1 --keyring "$1" "$2" 2>/dev/null |
		awk 'function flush() {
			if (v == "") return
			if (v == "good" && pk != 1 && pk != 3) v = "unsupported"
			else if (v == "good") v = v " " fpr
			print v; v = ""
		}
		$2 == "NEWSIG" { flush() }
		$2 == "GOODSIG" { v = "good" }
		$2 == "BADSIG" { v = "bad" }
		$2 == "NO_PUBKEY" { v = "no-key" }
		$2 == "ERRSIG" && v == "" { v = "error" }
		$2 == "VALIDSIG" { fpr = $3; pk = $9 }
		END { flush() }'
}

# pgpk_verdicts ARGS: the same from pgpk verify, then "exit N".
pgpk_verdicts() {
	local rc
	# shellcheck disable=SC2086
	"$pgpk" verify $now_opt "$@" >"$tmp/out" 2>&1
	rc=$?
	awk '/^Good signature from .* \(key [0-9A-F]+\)$/ {
		f = $NF; sub(/\)$/, "", f); print "good " f; next }
	/^pgpk verify: BAD signature from / { print "bad"; next }
	/^pgpk verify: signature [0-9]+ \(key [^)]*\): / {
		v = "error"
		if ($0 ~ /no key/) v = "no-key"
		else if ($0 ~ /unsupported algorithm/) v = "unsupported"
		print v }' "$tmp/out"
	echo "exit $rc"
}

# check NAME KEYRING FILE: per-signature verdicts and apt's document rule.
# A non-RSA signature whose key is absent is "no-key" for gpgv and
# "unsupported" for pgpk (which never looks its key up): the same skip.
# pgpk cannot check a non-RSA signature (positions in $nonrsa, from the
# archive keyring's verdicts on the good file): a bad one is unsupported.
check() {
	local name=$1 ring=$2 file=$3 g p want_exit=0
	g=$(gpgv_verdicts "$ring" "$file" |
		awk -v pos=" $nonrsa " 'index(pos, " " NR " ") && $1 == "bad" {
			print "unsupported"; next } { print }')
	p=$(pgpk_verdicts --keyring "$ring" "$file")
	if echo "$g" | grep -q '^bad'; then
		want_exit=1
		p=$(echo "$p" | sed '/^bad/q'; echo "$p" | tail -n 1)
	elif ! echo "$g" | grep -q '^good'; then
		want_exit=2
	fi
	g=$(printf '%s\nexit %s' "$g" "$want_exit")
	p=$(paste -d' ' <(echo "$g") <(echo "$p") |
		awk '$1 == "no-key" && $2 == "unsupported" { print "no-key"; next }
			{ sub(/^[^ ]+( [0-9A-F]+)? /, ""); print }')
	if [ -n "$g" ] && [ "$g" = "$p" ]; then
		ok "$name: $(echo "$g" | tr '\n' ';' | cut -c1-100)"
	else
		fail "$name"
		echo "  gpgv (apt's rule): $(echo "$g" | tr '\n' ';')"
		echo "  pgpk:              $(echo "$p" | tr '\n' ';')"
		sed 's/^/  output: /' "$tmp/out" | head -6
	fi
}

nfiles=0 nsigners=0
for f in $files; do
	nfiles=$((nfiles + 1))
	base=$(basename "$f")
	sed '0,/^Date: /s/^Date: ./Date: X/' "$f" >"$tmp/tampered"
	cmp -s "$f" "$tmp/tampered" && fail "$base: no Date line to tamper with"
	nonrsa=$(gpgv_verdicts "$archive" "$f" | grep -n '^unsupported' |
		cut -d: -f1 | tr '\n' ' ')
	check "$base, archive keyring" "$archive" "$f"
	check "$base tampered, archive keyring" "$archive" "$tmp/tampered"
	# Each signer alone: the others are skipped, never fatal.
	signers=$(gpgv --status-fd 1 --keyring "$archive" "$f" 2>/dev/null |
		awk '$2 == "VALIDSIG" { print $12 }')
	[ -n "$signers" ] || fail "$base: gpgv found no good signature"
	for s in $signers; do
		nsigners=$((nsigners + 1))
		$G --no-default-keyring --keyring "$archive" --export "$s" \
			>"$tmp/one.gpg" 2>/dev/null
		[ -s "$tmp/one.gpg" ] || fail "$base: cannot export $s"
		check "$base, only $s" "$tmp/one.gpg" "$f"
		check "$base tampered, only $s" "$tmp/one.gpg" "$tmp/tampered"
	done
	# No signer at all: nothing checkable.
	$G --no-default-keyring --keyring \
		/usr/share/keyrings/debian-archive-removed-keys.gpg \
		--export >"$tmp/none.gpg" 2>/dev/null
	[ -s "$tmp/none.gpg" ] && check "$base, no signer's key" "$tmp/none.gpg" "$f"

	# --signatures N against sqv's count.
	good=$(pgpk_verdicts --keyring "$archive" "$f" | grep -c '^good')
	if command -v sqv >/dev/null; then
		gpgv --keyring "$archive" --output "$tmp/text" "$f" 2>/dev/null
		head -c -1 "$tmp/text" >"$tmp/Release" # RFC 9580 7.1: the last
		# line ending is not signed
		sed -n '/^-----BEGIN PGP SIGNATURE-----$/,$p' "$f" >"$tmp/sig.asc"
		valid=0
		while sqv --signatures $((valid + 1)) --keyring "$archive" \
			"$tmp/sig.asc" "$tmp/Release" >/dev/null 2>&1; do
			valid=$((valid + 1))
		done
		nonrsa=$(gpgv_verdicts "$archive" "$f" | grep -c '^unsupported')
		if [ "$good" = $((valid - nonrsa)) ] && [ "$valid" -gt 0 ]; then
			ok "$base: $good good RSA signatures = sqv's $valid valid - $nonrsa non-RSA"
		else
			fail "$base: pgpk counts $good good, sqv $valid valid of which gpgv says $nonrsa non-RSA"
		fi
		# The detached form verifies the same way.
		p=$(pgpk_verdicts --keyring "$archive" "$tmp/sig.asc" \
			"$tmp/Release" | grep -c '^good')
		[ "$p" = "$good" ] && ok "$base detached: $p good" ||
			fail "$base detached: $p good, want $good"
	else
		echo "note: sqv not installed, --signatures checked on pgpk's own count"
	fi
	for n in 1 2 3 4; do
		want=2
		[ "$n" -le "$good" ] && want=0
		# shellcheck disable=SC2086
		"$pgpk" verify $now_opt --signatures "$n" --keyring "$archive" \
			"$f" >/dev/null 2>&1
		rc=$?
		[ "$rc" = "$want" ] && ok "$base --signatures $n: exit $rc" ||
			fail "$base --signatures $n: exit $rc, want $want"
	done
	# shellcheck disable=SC2086
	"$pgpk" verify $now_opt --signatures 1 --keyring "$archive" \
		"$tmp/tampered" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 1 ] && ok "$base tampered --signatures 1: exit 1" ||
		fail "$base tampered --signatures 1: exit $rc, want 1"
done

echo "$npass cases agree, $nfail differ ($nfiles InRelease files, $nsigners signers)"
[ "$nfail" = 0 ] || exit 1
[ "$nsigners" -ge 2 ] || {
	echo "FAIL: fewer than two signers were tried"
	exit 1
}
exit 0
