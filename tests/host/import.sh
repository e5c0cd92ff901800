#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pgpk import on this host: which keys of which certificates it
# gives to add_key("asymmetric"), in which form and with which
# description.  Into the thread keyring of its own process (@t, which dies
# with it): without the module loaded the kernel refuses every one
# (EBADMSG, and import says the module is not loaded), with it they are
# added and gone at exit; either way the line says what import gave the
# kernel.
#   - a certificate: its primary key as its own OpenPGP packets (the
#     upcall), its signing subkey as a canonical key, its encryption
#     subkey skipped with list's reason; descriptions "<user ID without
#     comment> <last 8 hex digits of the key ID>", for the subkey its
#     primary's user ID and its own key ID (seed 007, the kernel's rule);
#   - the same armored: the same (import removes the armor);
#   - a keyring of two certificates: each certificate's keys, each cut
#     at its own packets;
#   - a certificate over 64 KiB (add_key("asymmetric") takes no more): its
#     primary key canonical too;
#   - an Ed25519 certificate: skipped, not RSA; a file that is not
#     OpenPGP: exit 2.
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
host_build
command -v keyctl >/dev/null || skip "no keyctl (keyutils)"
keyctl show @s >/dev/null 2>&1 || skip "keyring syscalls not permitted"
host_tmp
d=tests/openpgp/data
# expect NAME PATTERN: a line of $out matches the extended regexp
expect() {
	if grep -qE -- "$2" <<<"$out"; then
		ok "$1"
	else
		fail "$1: no line matching '$2' in:"
		sed 's/^/    /' <<<"$out"
	fi
}
# The kernel's answer, whatever it is: a serial, or an errno, or that the
# module is not loaded (the X.509 parser's EBADMSG, and no pgpk).
k='([0-9]+|[A-Za-z ]+ \(E[A-Z]+\)|the pgpk module is not loaded \(EBADMSG[^)]*\))'
alice_pri="^EE06CCB46F6509DA key RSA: $k \(OpenPGP, 2135 octets\) \"Alice Example 6f6509da\"\$"
alice_sub="^AD9473038E5EEBFB subkey RSA: $k \(canonical, [0-9]+ octets\) \"Alice Example 8e5eebfb\"\$"
alice_enc="^817DA6E51E7A301C subkey RSA: skipped: subkey at offset [0-9]+ is not a signing key"

out=$("$pgpk" import --keyring @t $d/alice.gpg 2>&1)
expect "primary key: its packets, through the upcall" "$alice_pri"
expect "signing subkey: canonical" "$alice_sub"
expect "encryption subkey: skipped" "$alice_enc"
expect "the count" "^pgpk import: 0 added, 2 failed, 1 skipped|^pgpk import: 2 added, 0 failed, 1 skipped"
if [ ! -e /sys/module/pgpk ]; then
	expect "no module: each key says so" \
		"^EE06CCB46F6509DA key RSA: the pgpk module is not loaded"
	expect "no module: the count says so" \
		"^pgpk import: 0 added, 2 failed, 1 skipped; the pgpk module is not loaded \(modprobe pgpk\)\$"
fi
out=$("$pgpk" import --keyring @t $d/alice.asc 2>&1)
expect "armored: primary key binary" "$alice_pri"
expect "armored: signing subkey" "$alice_sub"

cat $d/alice.gpg $d/carol.gpg >"$tmp/two.gpg"
out=$("$pgpk" import --keyring @t "$tmp/two.gpg" 2>&1)
expect "keyring: the first certificate" "$alice_pri"
expect "keyring: the second, its own packets" \
	"^F76807EACDDB92A3 key RSA: $k \(OpenPGP, 646 octets\) \"Carol Certifier <carol@example.org> cddb92a3\"\$"

python3 tests/lib/pgpk_flood.py $d/alice.gpg "$tmp/big.pgp" 400 self
out=$("$pgpk" import --keyring @t "$tmp/big.pgp" 2>&1)
expect "over 64 KiB ($(stat -c %s "$tmp/big.pgp") octets): primary canonical" \
	"^EE06CCB46F6509DA key RSA: $k \(canonical, [0-9]+ octets\) \"Alice Example 6f6509da\"\$"
expect "over 64 KiB: signing subkey" "$alice_sub"

out=$("$pgpk" import --keyring @t $d/ed25519.gpg 2>&1)
rc=$?
expect "Ed25519: skipped" "^[0-9A-F]{16} key EdDSA: skipped: not RSA"
[ "$rc" = 1 ] && ok "nothing added: exit 1" || fail "nothing added: exit $rc"
printf 'not OpenPGP\n' >"$tmp/junk"
out=$("$pgpk" import --keyring @t "$tmp/junk" 2>&1)
rc=$?
[ "$rc" = 2 ] && ok "not OpenPGP: exit 2" || fail "not OpenPGP: exit $rc: $out"
out=$("$pgpk" import --keyring %:no-such-keyring-$$ $d/alice.gpg 2>&1)
rc=$?
[ "$rc" = 2 ] && ok "no such keyring: exit 2" ||
	fail "no such keyring: exit $rc: $out"

[ "$nfail" = 0 ] || exit 1
echo "PASS: import gives the kernel each certificate's primary key (OpenPGP, or canonical over 64 KiB) and signing subkeys (canonical), with the descriptions keys had"
