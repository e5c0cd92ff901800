#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The conventions of pgpk(1) and pgpk-helper(8), EXIT STATUS, on every
# command (issue 27): --help (exit 0, the usage on stdout) and --version;
# exit 0, 1 or 2 and never an errno, debug included; every message line
# "pgpk COMMAND: " (or "pgpk-helper COMMAND: "); a missing argument named
# in one line before the usage; policy options applied or refused; binary
# output refused on a terminal unless -o FILE; ISO 8601 times; BAD
# signatures in one line; pgpk-helper's old commands with a one-line
# notice.  Each case prints its command, what it said and its status: a
# transcript.
#
#   tests/cli/conventions.sh [PGPK PGPK-HELPER]   (Bazel: //tests/cli)
set -u
here=$(cd "$(dirname "$0")" && pwd)
pgpk=${1:-$here/../../bazel-bin/helper/pgpk}
helper=${2:-$here/../../bazel-bin/helper/pgpk-helper}
pgpk=$(cd "$(dirname "$pgpk")" && pwd)/$(basename "$pgpk")
helper=$(cd "$(dirname "$helper")" && pwd)/$(basename "$helper")
d=$here/../verify/testdata
o=$here/../openpgp/data
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/conv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# run CMD...: its stdout in $tmp/out, stderr in $tmp/err, status in $rc;
# the transcript printed
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	echo "\$ ${*#"$here"/}" | sed "s|$pgpk|pgpk|; s|$helper|pgpk-helper|; s|$here/||g"
	sed 's/^/  out: /' "$tmp/out" | head -n 6
	sed 's/^/  err: /' "$tmp/err" | head -n 8
	echo "  exit $rc"
}

# shellcheck source=tests/cli/check.sh
. "$here/check.sh"

err_has() { grep -qE -- "$1" "$tmp/err"; }
out_has() { grep -qE -- "$1" "$tmp/out"; }
status_is() { [ "$rc" = "$1" ]; }
# Every stderr line: the prefix, or the usage and its hint.
prefixed() {
	! grep -vE "^($1|usage: |\(pgpk(-helper)? [a-z-]+ --help says more\))" \
		"$tmp/err" | grep -q .
}

pcmds="list key sig convert dump verify import ima-sign"
hcmds="upcall debug sandbox-policy --selftest"

# --- --help, --version, missing arguments -------------------------------
for c in $pcmds; do
	run "$pgpk" "$c" --help
	check "pgpk $c --help: usage on stdout, exit 0" status_is 0
	check "pgpk $c --help: starts with its usage" \
		grep -q "^usage: pgpk $c " "$tmp/out"
	check "pgpk $c --help: an exit status section" \
		grep -q "^exit status:" "$tmp/out"
done
for c in $hcmds; do
	run "$helper" "$c" --help
	check "pgpk-helper $c --help: exit 0" status_is 0
	check "pgpk-helper $c --help: usage on stdout" \
		grep -q "^usage: pgpk-helper $c" "$tmp/out"
done
run "$pgpk" --version
check "pgpk --version" out_has "^pgpk [0-9]"
run "$helper" --version
check "pgpk-helper --version" out_has "^pgpk-helper [0-9]"
run "$pgpk" --help
check "pgpk --help: every command" \
	bash -c "for c in $pcmds; do grep -q \"^  \$c \" '$tmp/out' || exit 1; done"
for c in list key sig convert dump verify import ima-sign; do
	run "$pgpk" "$c"
	check "pgpk $c with no argument: exit 2" status_is 2
	check "pgpk $c with no argument: what is missing, one line, then the usage" \
		bash -c "head -n 1 '$tmp/err' | grep -qE '^pgpk $c: (missing|no) ' &&
			sed -n 2p '$tmp/err' | grep -q '^usage: pgpk $c '"
	run "$pgpk" "$c" --no-such-option x
	check "pgpk $c --no-such-option: exit 2, named" \
		bash -c "[ $rc = 2 ] && grep -q \"^pgpk $c: unknown option '--no-such-option'\" '$tmp/err'"
done
run "$helper" debug
check "pgpk-helper debug with no argument: named, exit 2" \
	bash -c "[ $rc = 2 ] && head -n 1 '$tmp/err' | grep -q '^pgpk-helper debug: missing '"

# --- verify: gpgv's statuses, one line per bad signature -----------------
run "$pgpk" verify --keyring "$d/good.pgp" "$d/msg.sig" "$d/msg.txt"
check "verify good: exit 0" status_is 0
check "verify good: the Good line on stdout" out_has "^Good signature from Good Key"
check "verify: every message prefixed" prefixed "pgpk verify: "
echo changed >>"$tmp/changed.txt"
cat "$d/msg.txt" >>"$tmp/changed.txt"
run "$pgpk" verify --keyring "$d/good.pgp" "$d/msg.sig" "$tmp/changed.txt"
check "verify bad: exit 1" status_is 1
check "verify bad: one line, the key once, no quick check" \
	bash -c "grep -c 'BAD signature' '$tmp/err' | grep -qx 1 &&
		grep -qE '^pgpk verify: BAD signature from Good Key <good@example.org> \(key [0-9A-F]{40}\)$' '$tmp/err'"
run "$pgpk" verify --keyring "$o/carol.gpg" "$d/msg.sig" "$d/msg.txt"
check "verify, no key: exit 2" status_is 2
run "$pgpk" verify --keyring "$d/expired.pgp" "$d/msg.expired.sig" "$d/msg.txt"
check "verify, expired key: ISO 8601 time" \
	err_has "expired at [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"
run "$pgpk" verify --now 2020-06-01T00:00:00Z --keyring "$d/expired.pgp" \
	"$d/msg.expired.sig" "$d/msg.txt"
check "verify --now in ISO 8601" status_is 0
run "$pgpk" verify "$d/msg.sig" "$d/msg.txt"
check "verify without --keyring: named, exit 2" \
	bash -c "[ $rc = 2 ] && head -n 1 '$tmp/err' | grep -q '^pgpk verify: no --keyring FILE'"

# --- policy options: applied, or refused ---------------------------------
run "$pgpk" key --min-rsa-bits=4096 -o "$tmp/k.pgpk" "$d/good.pgp"
check "key --min-rsa-bits=4096 on a 2048-bit key: refused, exit 1" \
	bash -c "[ $rc = 1 ] && [ ! -s '$tmp/k.pgpk' ] &&
		grep -q 'below --min-rsa-bits 4096' '$tmp/err'"
run "$pgpk" verify --min-rsa-bits=4096 --keyring "$d/good.pgp" "$d/msg.sig" "$d/msg.txt"
check "verify --min-rsa-bits=4096: the key refused too" \
	bash -c "[ $rc = 2 ] && grep -q 'below --min-rsa-bits 4096' '$tmp/err'"
run "$pgpk" key --max-input=100 -o "$tmp/k.pgpk" "$d/good.pgp"
check "key --max-input=100: applied, exit 2, named" \
	bash -c "[ $rc = 2 ] && grep -qE '^pgpk key: .*good.pgp: [0-9]+ octets, more than the 100 allowed \(--max-input\)' '$tmp/err'"
run "$pgpk" sig --max-input=100 "$d/msg.sig"
check "sig --max-input=100: applied" status_is 2
run "$pgpk" verify --max-input=100 --keyring "$d/good.pgp" "$d/msg.sig" "$d/msg.txt"
check "verify --max-input=100: applied" status_is 2
run "$pgpk" key --negative-timeout=3 "$d/good.pgp"
check "key --negative-timeout (the upcall's alone): refused, exit 2" \
	bash -c "[ $rc = 2 ] && grep -q 'upcall.s alone' '$tmp/err'"
run "$pgpk" verify --max-per-uid=1 --keyring "$d/good.pgp" "$d/msg.sig" "$d/msg.txt"
check "verify --max-per-uid (the upcall's alone): refused, exit 2" \
	bash -c "[ $rc = 2 ] && grep -q '^pgpk verify: --max-per-uid is the upcall.s alone' '$tmp/err'"
run "$pgpk" key --hashes=md5 "$d/good.pgp"
check "key --hashes=md5: refused with the prefix" \
	bash -c "[ $rc = 2 ] && grep -q '^pgpk key: --hashes: ' '$tmp/err'"
run "$pgpk" sig --hashes=sha512 --data "$d/msg.txt" -o "$tmp/s.pgpks" "$d/msg.sig"
check "sig --hashes=sha512 on a SHA-256 signature: left out, exit 1" \
	bash -c "[ $rc = 1 ] && grep -q 'left out: policy: signature hash SHA256' '$tmp/err'"

# --- binary output --------------------------------------------------------
if command -v script >/dev/null; then
	script -qec "'$pgpk' key '$d/good.pgp'" /dev/null >"$tmp/tty" 2>&1
	rc=$?
	echo "\$ pgpk key good.pgp   (stdout a terminal)"
	sed 's/^/  tty: /' "$tmp/tty"
	echo "  exit $rc"
	check "key to a terminal: refused, exit 2" \
		bash -c "[ $rc = 2 ] && grep -q 'refusing to write binary to a terminal: give -o FILE, or a pipe' '$tmp/tty'"
	script -qec "'$pgpk' key -o '$tmp/k.pgpk' '$d/good.pgp'" /dev/null >"$tmp/tty" 2>&1
	check "key -o FILE from a terminal: written" \
		bash -c "[ $? = 0 ] && [ -s '$tmp/k.pgpk' ]"
fi
run "$pgpk" key "$d/good.pgp"
check "key to a pipe: written, exit 0" \
	bash -c "[ $rc = 0 ] && head -c 4 '$tmp/out' | od -An -c | grep -q 'P   G   K'"

# --- debug: 0, 1, 2, never an errno --------------------------------------
run "$helper" debug key "$d/good.pgp"
check "debug key, good: exit 0" status_is 0
run "$helper" debug key "$d/expired.pgp"
check "debug key, expired (was 127, EKEYEXPIRED): exit 1, named" \
	bash -c "[ $rc = 1 ] && grep -q '^pgpk-helper debug: REJECTED EKEYEXPIRED: ' '$tmp/err'"
printf 'text\n' >"$tmp/text.txt"
run "$helper" debug key "$tmp/text.txt"
check "debug key of text (was 74, EBADMSG): exit 1, named" \
	bash -c "[ $rc = 1 ] && grep -q 'REJECTED EBADMSG' '$tmp/err'"
run "$helper" debug key "$tmp/no-such-file"
check "debug of a missing file: exit 2, named" \
	bash -c "[ $rc = 2 ] && grep -q '^pgpk-helper debug: .*no-such-file: No such file' '$tmp/err'"

# --- input errors name the command ----------------------------------------
run "$pgpk" list "$tmp/no-such-file"
check "list of a missing file: exit 2, 'pgpk list: FILE: why'" \
	bash -c "[ $rc = 2 ] && grep -q '^pgpk list: .*no-such-file: No such file or directory' '$tmp/err'"
head -c 300 /dev/zero >"$tmp/zeros"
run "$pgpk" list --max-input=10 "$tmp/zeros"
check "list --max-input: not a list option, exit 2" status_is 2
run "$pgpk" dump "$d/good.pgp"
check "dump of OpenPGP: not canonical, exit 2, prefixed" \
	bash -c "[ $rc = 2 ] && grep -q '^pgpk dump: .*good.pgp: not a canonical blob' '$tmp/err'"
run "$pgpk" list "$d/msg.sig"
check "list of a signature: exit 2, prefixed" \
	bash -c "[ $rc = 2 ] && grep -q '^pgpk list: ' '$tmp/err'"

# --- the old names ---------------------------------------------------------
run "$helper" list "$d/good.pgp"
check "pgpk-helper list: still works, one line of notice" \
	bash -c "[ $rc = 0 ] && grep -c \"is a pgpk command now\" '$tmp/err' | grep -qx 1 &&
		grep -q '^pub ' '$tmp/out'"
run "$pgpk" upcall 1
check "pgpk upcall: unknown, pointed to pgpk-helper, exit 2" \
	bash -c "[ $rc = 2 ] && grep -q 'a pgpk-helper command' '$tmp/err'"

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
