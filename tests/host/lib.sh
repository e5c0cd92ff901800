# SPDX-License-Identifier: GPL-2.0
# What every tests/host script opens with: . "$(dirname "$0")/lib.sh"
#
#   root          the clone
#   pgpk, helper  bazel-bin/helper/pgpk and pgpk-helper (PGPK and
#                 PGPK_HELPER override them)
#   host_build [TARGET...]  bazel build both programs (and TARGETs) unless
#                 they are built; FAIL if that fails
#   host_tmp      a temporary directory, $tmp, removed at exit (after
#                 host_cleanup, if the script defines one; KEEP=1 keeps it)
#   host_gnupg    GNUPGHOME=$tmp/gnupg, its agent killed at exit
#   ok, fail      count a case (npass, nfail) and print its line
#   host_expect OUT ERE  ok if a line of OUT matches ERE, fail if none does
#   host_part WHAT  a line saying WHAT begins, and the test's time so far
#                 (a test killed by run-all's timeout shows where it was)
#   die, skip     FAIL or SKIP (exit 77) at once
#   host_end      "N passed, M failed", and the exit status
# shellcheck shell=bash
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
pgpk=${PGPK:-$root/bazel-bin/helper/pgpk}
helper=${PGPK_HELPER:-$root/bazel-bin/helper/pgpk-helper}
npass=0
nfail=0
tmp=""

ok() {
	npass=$((npass + 1))
	echo "ok   $*"
}

fail() {
	nfail=$((nfail + 1))
	echo "FAIL $*"
}

host_expect() {
	if printf '%s\n' "$1" | grep -q -E "$2"; then
		ok "$2"
	else
		fail "missing: $2"
	fi
}

host_part() {
	echo "--- $* (at ${SECONDS}s)"
}

die() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

host_build() {
	if [ "$#" = 0 ] && [ -x "$pgpk" ] && [ -x "$helper" ]; then
		return 0
	fi
	(cd "$root" && bazel build //helper:pgpk //helper:pgpk-helper "$@") \
		>/dev/null 2>&1 ||
		die "bazel build //helper:pgpk //helper:pgpk-helper $* failed"
}

host_exit() {
	if declare -F host_cleanup >/dev/null; then
		host_cleanup
	fi
	[ -z "$tmp" ] && return
	[ -d "$tmp/gnupg" ] &&
		gpgconf --homedir "$tmp/gnupg" --kill all >/dev/null 2>&1
	if [ -n "${KEEP:-}" ]; then
		echo "kept: $tmp"
	else
		rm -rf "$tmp"
	fi
}

host_tmp() {
	tmp=$(mktemp -d)
	trap host_exit EXIT
}

host_gnupg() {
	export GNUPGHOME=$tmp/gnupg
	mkdir -m 700 "$GNUPGHOME"
}

host_end() {
	echo "$npass passed, $nfail failed"
	[ "$nfail" = 0 ]
	exit
}
