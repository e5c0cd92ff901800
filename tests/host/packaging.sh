#!/bin/bash
# What the Debian packages promise, checked on the tree in seconds (the
# packages themselves are proven by tests/system/run.sh):
#   - the default Bazel build of pgpk-helper is hardened as dpkg-buildflags
#     (hardening=+all) would make it: hardening-check passes (PIE, stack
#     protector, fortify, RELRO, BIND_NOW; control-flow protection is not
#     asked for: Debian 12's C runtime objects carry no CET marking);
#   - pgpk-helper(8) names every command and every policy option the
#     helper has, and pgpk.conf documents every policy option;
#   - pgpk(7) names every module parameter;
#   - kernel/dkms.conf's PACKAGE_VERSION is debian/changelog's version
#     (the directory pgpk-dkms installs the source in).
# Exit 0 pass, 1 fail, 77 skip (no hardening-check: devscripts).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
helper=bazel-bin/helper/pgpk-helper
man8=man/pgpk-helper.8
man7=man/pgpk.7
conf=policy/request-key.d/pgpk.conf
bazel build //helper:pgpk-helper >/dev/null 2>&1 ||
	{ echo "FAIL: pgpk-helper does not build"; exit 1; }
nfail=0
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
}

# hardening
if command -v hardening-check >/dev/null; then
	if out=$(hardening-check --nocfprotection "$helper" 2>&1); then
		echo "$out"
		echo "ok: hardening-check $helper"
	else
		echo "$out"
		fail "hardening-check $helper"
	fi
else
	echo "SKIP: hardening-check not installed (devscripts)"
	exit 77
fi

# pgpk-helper(8): commands (from --help) and policy options (from the
# upcall's usage, which prints the policy table).
cmds=$("$helper" --help | sed -n 's/^  \([a-z-][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || fail "no commands in pgpk-helper --help"
for c in $cmds; do
	m=${c//-/\\\\-}
	grep -q "^\.B pgpk-helper $m\$\|^\.B pgpk-helper $m " "$man8" ||
		fail "$man8: no SYNOPSIS line for '$c'"
	grep -q "^\.BI* \"*${m}[ \"]\|^\.B $m\$\|^\.BR $m " "$man8" ||
		fail "$man8: command '$c' not described under COMMANDS"
done
opts=$("$helper" upcall 2>&1 | sed -n 's/^  \(--[a-z-]*\).*/\1/p' |
	grep -v -- '--syslog\|--key-type')
[ -n "$opts" ] || fail "no policy options in pgpk-helper upcall's usage"
for o in $opts; do
	m=${o//-/\\\\-}
	grep -q "^\.BI* $m" "$man8" ||
		fail "$man8: policy option '$o' not described"
	grep -q -- "^#   $o" "$conf" || fail "$conf: policy option '$o' not documented"
done
echo "ok: $man8 and $conf: $(echo "$cmds" | wc -l) commands," \
	"$(echo "$opts" | wc -l) policy options"

# pgpk(7): module parameters
params=$(sed -n 's/^module_param\(_named\|_cb\)*(\([a-z_]*\),.*/\2/p' kernel/*.c)
[ -n "$params" ] || fail "no module_param in kernel/*.c"
for p in $params; do
	grep -q "^\.BI $p= " "$man7" || fail "$man7: module parameter '$p' not described"
done
echo "ok: $man7: parameters $(echo "$params" | tr '\n' ' ')"

# dkms.conf and the package version
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' kernel/dkms.conf)
deb=$(sed -n '1s/^pgpk (\([^)-]*\).*/\1/p' debian/changelog)
if [ -n "$dkms" ] && [ "$dkms" = "$deb" ]; then
	echo "ok: kernel/dkms.conf and debian/changelog: $dkms"
else
	fail "kernel/dkms.conf says '$dkms', debian/changelog '$deb'"
fi

[ "$nfail" -eq 0 ] && echo "PASS: hardened default build; manual pages and dkms.conf agree with the code"
[ "$nfail" -eq 0 ]
