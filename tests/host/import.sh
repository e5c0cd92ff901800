#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pgpk-helper import on this host: which keys of which certificates it
# gives to add_key("asymmetric"), in which form and with which
# description.  Into the thread keyring of its own process (@t, which dies
# with it): without the module loaded the kernel refuses every one
# (EBADMSG), with it they are added and gone at exit; either way the line
# says what import gave the kernel.
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
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
helper=${PGPK_HELPER:-bazel-bin/helper/pgpk-helper}
[ -x "$helper" ] || bazel build //helper:pgpk-helper >/dev/null 2>&1 ||
	{ echo "FAIL: pgpk-helper does not build"; exit 1; }
command -v keyctl >/dev/null || { echo "SKIP: no keyctl (keyutils)"; exit 77; }
keyctl show @s >/dev/null 2>&1 ||
	{ echo "SKIP: keyring syscalls not permitted"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=tests/openpgp/data
nfail=0
# expect NAME PATTERN: a line of $out matches the extended regexp
expect() {
	if grep -qE -- "$2" <<<"$out"; then
		echo "ok   $1"
	else
		echo "FAIL $1: no line matching '$2' in:"
		sed 's/^/    /' <<<"$out"
		nfail=$((nfail + 1))
	fi
}
# The kernel's answer, whatever it is: a serial, or an errno.
k='([0-9]+|[A-Za-z ]+ \(E[A-Z]+\))'
alice_pri="^EE06CCB46F6509DA key RSA: $k \(OpenPGP, 2135 octets\) \"Alice Example 6f6509da\"\$"
alice_sub="^AD9473038E5EEBFB subkey RSA: $k \(canonical, [0-9]+ octets\) \"Alice Example 8e5eebfb\"\$"
alice_enc="^817DA6E51E7A301C subkey RSA: skipped: subkey at offset [0-9]+ is not a signing key"

out=$("$helper" import --keyring @t $d/alice.gpg 2>&1)
expect "primary key: its packets, through the upcall" "$alice_pri"
expect "signing subkey: canonical" "$alice_sub"
expect "encryption subkey: skipped" "$alice_enc"
expect "the count" "^pgpk-helper import: 0 added, 2 failed, 1 skipped|^pgpk-helper import: 2 added, 0 failed, 1 skipped"
out=$("$helper" import --keyring @t $d/alice.asc 2>&1)
expect "armored: primary key binary" "$alice_pri"
expect "armored: signing subkey" "$alice_sub"

cat $d/alice.gpg $d/carol.gpg >"$tmp/two.gpg"
out=$("$helper" import --keyring @t "$tmp/two.gpg" 2>&1)
expect "keyring: the first certificate" "$alice_pri"
expect "keyring: the second, its own packets" \
	"^F76807EACDDB92A3 key RSA: $k \(OpenPGP, 646 octets\) \"Carol Certifier <carol@example.org> cddb92a3\"\$"

python3 tests/lib/pgpk_flood.py $d/alice.gpg "$tmp/big.pgp" 400 self
out=$("$helper" import --keyring @t "$tmp/big.pgp" 2>&1)
expect "over 64 KiB ($(stat -c %s "$tmp/big.pgp") octets): primary canonical" \
	"^EE06CCB46F6509DA key RSA: $k \(canonical, [0-9]+ octets\) \"Alice Example 6f6509da\"\$"
expect "over 64 KiB: signing subkey" "$alice_sub"

out=$("$helper" import --keyring @t $d/ed25519.gpg 2>&1)
rc=$?
expect "Ed25519: skipped" "^[0-9A-F]{16} key EdDSA: skipped: not RSA"
[ "$rc" = 1 ] && echo "ok   nothing added: exit 1" ||
	{ echo "FAIL nothing added: exit $rc"; nfail=$((nfail + 1)); }
printf 'not OpenPGP\n' >"$tmp/junk"
out=$("$helper" import --keyring @t "$tmp/junk" 2>&1)
rc=$?
[ "$rc" = 2 ] && echo "ok   not OpenPGP: exit 2" ||
	{ echo "FAIL not OpenPGP: exit $rc: $out"; nfail=$((nfail + 1)); }
out=$("$helper" import --keyring %:no-such-keyring-$$ $d/alice.gpg 2>&1)
rc=$?
[ "$rc" = 2 ] && echo "ok   no such keyring: exit 2" ||
	{ echo "FAIL no such keyring: exit $rc: $out"; nfail=$((nfail + 1)); }

[ "$nfail" = 0 ] || exit 1
echo "PASS: import gives the kernel each certificate's primary key (OpenPGP, or canonical over 64 KiB) and signing subkeys (canonical), with the descriptions keys had"
