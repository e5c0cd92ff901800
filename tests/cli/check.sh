# SPDX-License-Identifier: GPL-2.0
# check WHAT COMMAND...: run COMMAND, count it passed (npass) or failed
# (nfail), and say so in one line.  Sourced by tests/cli's scripts.
npass=0 nfail=0
check() {
	local what=$1
	shift
	if "$@"; then
		npass=$((npass + 1))
		echo "ok   $what"
	else
		nfail=$((nfail + 1))
		echo "FAIL $what"
	fi
}
