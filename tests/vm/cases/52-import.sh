#!/bin/sh
# pgpk-timeout: 240
# pgpk import (issue 11): every valid RSA key and signing subkey of
# whole certificates and keyrings into the kernel, each through add_key
# (the kernel checks each one as usual: a primary key as OpenPGP through
# the upcall, a subkey as the canonical blob of a sandboxed conversion),
# one line per key.  Signed messages are converted by "pgpk sig".
#   - a certificate whose primary key only certifies, with two RSA
#     signing subkeys and an encryption subkey: primary and both signing
#     subkeys added, the encryption subkey skipped; then messages signed
#     by each subkey verify in the kernel (pgpk_test);
#   - Debian's archive keyring (the host's): every RSA key and signing
#     subkey added (EdDSA keys skipped), into a keyring named as keyctl
#     names it (%keyring:NAME); a real InRelease then verifies with them;
#   - an Ed25519 key alone: nothing added, exit 1.
# Data: tests/vm/data.d/51-multi.sh.
. /pgpk/lib.sh
M=$PGPK_DATA/multi
pgpk_need_module
pgpk_need_helper
pgpk_need_data multi/certonly.pgp multi/certonly.sub1.fpr \
	multi/certonly.sub2.fpr multi/msg.sub1.gpg multi/msg.sub2.gpg \
	multi/c.pgp
pgpk_load

# sig NAME FILE: pgpk_test key NAME from FILE, converted by the helper.
sig() {
	expect_ok sh -c "$PGPK sig '$2' >/tmp/52.pgpks"
	pgpk_run keyctl padd pgpk_test "$1" @s </tmp/52.pgpks
}
sig_fail() {
	_w=$(pgpk_errno_text "$1")
	shift
	sig "$@" && pgpk_fail "expected failure '$_w': pgpk_test $1 < $2"
	assert_contains "$PGPK_OUT" "$_w" "pgpk_test $1"
}

# Before: the subkeys' messages have no key.
sig_fail ENOKEY sub1 "$M/msg.sub1.gpg"

expect_ok pgpk import --keyring @s "$M/certonly.pgp"
out=$PGPK_OUT
for n in 1 2; do
	fpr=$(cat "$M/certonly.sub$n.fpr")
	keyid=$(echo "$fpr" | cut -c25-40)
	echo "$out" | grep -q "^$keyid subkey RSA: [0-9][0-9]* (canonical" ||
		pgpk_fail "signing subkey $n ($keyid) not added: $out"
	# The kernel key is that subkey, found by its fingerprint.
	id=$(echo "$out" | sed -n "s/^$keyid subkey RSA: \([0-9]*\) .*/\1/p")
	expect_ok keyctl search @s asymmetric "id:$fpr"
	assert_eq "$id" "$PGPK_OUT" "subkey $n found by fingerprint"
done
assert_contains "$out" "is not a signing key" \
	"the encryption subkey is skipped"
for n in 1 2; do
	sig "sub$n" "$M/msg.sub$n.gpg" ||
		pgpk_fail "message by subkey $n refused: $PGPK_OUT"
	keyctl pipe "$PGPK_OUT" >/tmp/content
	assert_eq "$(cat "$M/msg.sub$n.txt")" "$(cat /tmp/content)" \
		"content of the message by subkey $n"
done

# Nothing to add: exit 1, the reason named.
keyctl clear @s
if pgpk import --keyring @s "$M/c.pgp" >/tmp/out 2>&1; then
	pgpk_fail "import of an Ed25519 key alone succeeded"
fi
assert_contains "$(cat /tmp/out)" "skipped: not RSA" "Ed25519 key skipped"
assert_contains "$(cat /tmp/out)" "0 added" "nothing added"
if pgpk import --keyring %keyring:no-such-ring "$M/certonly.pgp" \
	>/tmp/out 2>&1; then
	pgpk_fail "import into a missing keyring succeeded"
fi

if [ ! -f "$M/debian-archive-keyring.gpg" ]; then
	echo "note: no archive keyring on the host"
	exit 0
fi
ring=$(keyctl newring debian @s)
expect_ok pgpk import --keyring %keyring:debian \
	"$M/debian-archive-keyring.gpg"
out=$PGPK_OUT
added=$(echo "$out" | grep -c ': [0-9][0-9]* (')
echo "$out" | grep -v ': [0-9][0-9]* (' | grep -v 'skipped: ' |
	grep -v '^pgpk import: ' &&
	pgpk_fail "a key of the archive keyring was neither added nor skipped"
[ "$added" -ge 4 ] || pgpk_fail "only $added keys of the archive keyring added"
assert_eq "$added" "$(keyctl rlist "$ring" | wc -w)" \
	"every added key is in %keyring:debian"
echo "ok: $added keys of the archive keyring added"
if [ -f "$M/InRelease" ]; then
	# Release text over the user-type payload limit: EINVAL comes only
	# after the signatures verified (see 51-multi-sig.sh).
	pgpk_kmsg_mark
	sig_fail EINVAL ir "$M/InRelease"
	assert_not_contains "$(pgpk_kmsg_since)" "refused" \
		"no InRelease signature refused"
	sed 's/^Origin: Debian/Origin: Debiam/' "$M/InRelease" >/tmp/ir-bad
	sig_fail EKEYREJECTED ir-bad /tmp/ir-bad
fi
exit 0
