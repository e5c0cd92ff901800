#!/bin/sh
# pgpk, /usr/bin/pgpk, run by an unprivileged user (nobody), as people run
# it (issue 27): every command parses in a sandboxed child of its own.
# What nobody can do with it, and what he cannot:
#   - list, key, sig, dump, verify work for him (his child sandboxed
#     without a uid change: no capability to drop, the same filter),
#     and import adds to his own session keyring;
#   - import into .pgpk, root's trusted keyring, is refused by the kernel
#     (EACCES), as keyctl is: pgpk gives him no way around it;
#   - hostile input (garbage, a truncated key, a flood) ends in exit 2
#     with a message naming the file, no child left behind, and a
#     canonical key he makes is still checked by the kernel (a tampered
#     one refused).
. /pgpk/lib.sh
K=$PGPK_DATA
pgpk_need_module
pgpk_need_helper
pgpk_need_data rsa2048.pgp rsa2048.fpr msg.rsa2048.gpg msg.txt \
	msg.txt.rsa2048.sig msg-tampered.txt garbage.bin \
	rsa2048-truncated.pgp
pgpk_load

# The initramfs root comes from mktemp -d (mode 0700): let nobody in.
chmod 0755 /
mkdir -p /tmp/66 && chmod 1777 /tmp/66
# as_nobody CMD: run CMD (a shell command line) as nobody, new session.
as_nobody() {
	pgpk_run su -s /bin/sh nobody -c "keyctl session - sh -c '$1'"
}

as_nobody "$PGPK list $K/rsa2048.pgp" ||
	pgpk_fail "nobody's pgpk list failed"
assert_contains "$PGPK_OUT" "$(cat "$K/rsa2048.fpr")" "nobody's list"
as_nobody "$PGPK verify --keyring $K/rsa2048.pgp $K/msg.txt.rsa2048.sig $K/msg.txt" ||
	pgpk_fail "nobody's pgpk verify of a good signature failed"
assert_contains "$PGPK_OUT" "Good signature" "nobody's verify"
if as_nobody "$PGPK verify --keyring $K/rsa2048.pgp $K/msg.txt.rsa2048.sig $K/msg-tampered.txt"
then
	pgpk_fail "nobody's verify called a tampered message good"
fi
assert_contains "$PGPK_OUT" "pgpk verify: BAD signature from" "a BAD line"
as_nobody "$PGPK key -o /tmp/66/k.pgpk $K/rsa2048.pgp &&
	$PGPK dump /tmp/66/k.pgpk >/dev/null &&
	$PGPK sig -o /tmp/66/m.pgpks $K/msg.rsa2048.gpg &&
	keyctl padd asymmetric \"\" @s </tmp/66/k.pgpk &&
	keyctl padd pgpk_test m @s </tmp/66/m.pgpks" ||
	pgpk_fail "nobody's key, dump, sig, and the kernel taking them"

# His own keyring: yes.  Root's trusted .pgpk: the kernel says no.
as_nobody "$PGPK import --keyring @s $K/rsa2048.pgp" ||
	pgpk_fail "nobody's import into his own session keyring"
assert_contains "$PGPK_OUT" "pgpk import: 2 added" "nobody's import"
ring=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
[ -n "$ring" ] || pgpk_fail "no .pgpk keyring"
if as_nobody "$PGPK import --keyring $((0x$ring)) $K/rsa2048.pgp"; then
	pgpk_fail "nobody imported into .pgpk"
fi
assert_contains "$PGPK_OUT" "(EACCES)" "nobody's import into .pgpk"
assert_contains "$PGPK_OUT" "0 added" "nothing added to .pgpk"

# Hostile input: exit 2, the file named, no child left.
for f in garbage.bin rsa2048-truncated.pgp; do
	if as_nobody "$PGPK list $K/$f"; then
		pgpk_fail "pgpk list of $f succeeded"
	fi
	assert_contains "$PGPK_OUT" "pgpk list: $K/$f: " "list of $f names it"
done
printf 'X\0\0\0\1' >/tmp/66/frame-lookalike
if as_nobody "$PGPK dump /tmp/66/frame-lookalike"; then
	pgpk_fail "pgpk dump of junk succeeded"
fi
assert_contains "$PGPK_OUT" "not a canonical blob" "dump of junk"
# A canonical key changed by one octet of its modulus: the kernel says no.
as_nobody "cp /tmp/66/k.pgpk /tmp/66/bad.pgpk &&
	printf \"\\377\" | dd of=/tmp/66/bad.pgpk bs=1 seek=40 conv=notrunc 2>/dev/null &&
	keyctl padd asymmetric \"\" @s </tmp/66/bad.pgpk" &&
	pgpk_fail "the kernel took a tampered canonical key"
sleep 0.5
left=$(ps | grep -c '[p]gpk ')
assert_eq 0 "$left" "pgpk processes left behind"
exit 0
