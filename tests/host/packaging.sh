#!/bin/bash
# What the Debian packages promise, checked on the tree in seconds (the
# packages themselves are proven by tests/system/run.sh):
#   - the default Bazel build of pgpk and pgpk-helper is hardened as
#     dpkg-buildflags
#     (hardening=+all) would make it: hardening-check passes (PIE, stack
#     protector, fortify, RELRO, BIND_NOW; control-flow protection is not
#     asked for: Debian 12's C runtime objects carry no CET marking);
#   - pgpk-helper(8) names every command and every policy option the
#     helper has, and pgpk.conf documents every policy option;
#   - pgpk(1) names every command pgpk has, and every policy option its
#     commands apply; both pages and pgpk(7) have an EXIT STATUS or
#     ERRORS section; every command answers --help with its usage, exit 0;
#   - pgpk(7) names every module parameter;
#   - kernel/dkms.conf's PACKAGE_VERSION is debian/changelog's version
#     (the directory pgpk-dkms installs the source in), and so is what
#     pgpk --version and pgpk-helper --version say.
# Exit 0 pass, 1 fail, 77 skip (no hardening-check: devscripts).
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
man1=man/pgpk.1
man8=man/pgpk-helper.8
man7=man/pgpk.7
conf=policy/request-key.d/pgpk.conf
host_build

# hardening
command -v hardening-check >/dev/null ||
	skip "hardening-check not installed (devscripts)"
for b in "$pgpk" "$helper"; do
	if out=$(hardening-check --nocfprotection "$b" 2>&1); then
		echo "$out"
		ok "hardening-check $b"
	else
		echo "$out"
		fail "hardening-check $b"
	fi
done

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
ok "$man8 and $conf: $(echo "$cmds" | wc -l) commands," \
	"$(echo "$opts" | wc -l) policy options"

# pgpk(1): commands (from pgpk --help), the policy options its commands
# apply (from key --help), each command's --help.
pcmds=$("$pgpk" --help | sed -n 's/^  \([a-z-][a-z-]*\) .*/\1/p')
[ -n "$pcmds" ] || fail "no commands in pgpk --help"
for c in $pcmds; do
	m=${c//-/\\\\-}
	grep -q "^\.B pgpk $m\$\|^\.B pgpk $m " "$man1" ||
		fail "$man1: no SYNOPSIS line for '$c'"
	grep -q "^\.BI* \"$m[ \"]" "$man1" ||
		fail "$man1: command '$c' not described under COMMANDS"
	out=$("$pgpk" "$c" --help 2>&1)
	rc=$?
	[ "$rc" = 0 ] && grep -q "^usage: pgpk $c " <<<"$out" ||
		fail "pgpk $c --help: exit $rc, $(head -1 <<<"$out")"
done
popts=$("$pgpk" key --help | sed -n '/^policy options/,$p' |
	sed -n 's/^  \(--[a-z-]*\).*/\1/p')
[ -n "$popts" ] || fail "no policy options in pgpk key --help"
for o in $popts; do
	m=${o//-/\\\\-}
	grep -q "^\.BI* $m" "$man1" || fail "$man1: policy option '$o' not described"
done
for c in $cmds; do
	[ "$c" = --selftest ] && continue
	"$helper" "$c" --help >/dev/null 2>&1 || fail "pgpk-helper $c --help: exit $?"
done
for m in "$man1" "$man8"; do
	grep -q '^\.SH EXIT STATUS' "$m" || fail "$m: no EXIT STATUS"
done
ok "$man1: $(echo "$pcmds" | wc -l) commands, $(echo "$popts" | wc -l) policy options; every --help exits 0"

# pgpk(7): module parameters
params=$(sed -n 's/^module_param\(_named\|_cb\)*(\([a-z_]*\),.*/\2/p' kernel/*.c)
[ -n "$params" ] || fail "no module_param in kernel/*.c"
for p in $params; do
	grep -q "^\.BI $p= " "$man7" || fail "$man7: module parameter '$p' not described"
done
ok "$man7: parameters $(echo "$params" | tr '\n' ' ')"

# dkms.conf and the package version
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' kernel/dkms.conf)
deb=$(sed -n '1s/^pgpk (\([^)-]*\).*/\1/p' debian/changelog)
pv=$("$pgpk" --version)
hv=$("$helper" --version)
if [ -n "$dkms" ] && [ "$dkms" = "$deb" ] && [ "$pv" = "pgpk $deb" ] &&
	[ "$hv" = "pgpk-helper $deb" ]; then
	ok "kernel/dkms.conf, debian/changelog, --version: $dkms"
else
	fail "kernel/dkms.conf says '$dkms', debian/changelog '$deb', the programs '$pv', '$hv'"
fi

[ "$nfail" -eq 0 ] && echo "PASS: hardened default build; manual pages and dkms.conf agree with the code"
[ "$nfail" -eq 0 ]
