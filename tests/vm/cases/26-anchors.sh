#!/bin/sh
# Trust anchors: pgpk-anchors loads the
# certificates of an anchors directory into ".pgpk" with pgpk-helper
# import (each primary key through the module's upcall, bound to the
# file's bytes), one log line per file, a garbage file refused and the
# others loaded; then it locks ".pgpk" (with no certificate in the
# directory, it loads and locks nothing).  After that:
#  - a message signed by the anchor verifies with an empty session keyring;
#  - nothing more can be added to ".pgpk", by root either (EPERM);
#  - a keyring restricted to ".pgpk" accepts a key the anchor certified
#    (the helper, reading the same directory, chose the anchor's
#    certification), refuses one it did not (ENOKEY);
#  - root may clear ".pgpk" so that the module unloads, and a reloaded
#    module has a new ".pgpk", empty and open to root, closed to others.
# pgpk-timeout: 120
. /pgpk/lib.sh
D=$PGPK_DATA
K=$D/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/anchors/rsa2048.pgp k/anchors/garbage.pgp \
	k/msg.rsa2048.pgpks k/certified.pgp rsa3072.pgp k/rsa3072.pgpk
pgpk_unload
pgpk_load
chmod 0755 /
trap 'rm -rf /etc/pgpk/anchors' EXIT
mkdir -p /etc/pgpk/anchors

# An empty directory (as the package installs it): nothing loaded, and
# .pgpk left open to root.
expect_ok pgpk-anchors
ring=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
ring=$((0x$ring))
expect_ok keyctl padd asymmetric "" "$ring" <"$K/rsa3072.pgpk"
expect_ok keyctl clear "$ring"

cp "$K"/anchors/* /etc/pgpk/anchors/

pgpk_run pgpk-anchors && pgpk_fail "pgpk-anchors hid the refused file"
assert_contains "$PGPK_OUT" "rsa2048.pgp: " "pgpk-anchors' log"
assert_contains "$PGPK_OUT" "garbage.pgp: refused" "pgpk-anchors' log"
assert_contains "$PGPK_OUT" ".pgpk" "pgpk-anchors' log"
assert_contains "$PGPK_OUT" "locked" "pgpk-anchors' log"
ring=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
ring=$((0x$ring))
expect_ok keyctl rlist "$ring"
[ "$(echo "$PGPK_OUT" | wc -w)" -ge 1 ] || pgpk_fail "no key in .pgpk"
# Its keys are root's, not in root's session (not possessed): named by
# import (user ID and key ID), viewed, not searched.
short=$(cut -c 33-40 "$D/rsa2048.fpr" | tr 'A-F' 'a-f')
names=$(for k in $PGPK_OUT; do keyctl rdescribe "$k"; done)
echo "$names"
assert_contains "$names" "asymmetric;0;0;" ".pgpk's keys"
assert_contains "$names" "rsa2048@pgpk.test> $short" ".pgpk's keys"

# A message signed by the anchor, nothing in the session keyring.
keyctl clear @s
expect_ok keyctl padd pgpk_test anchored @s <"$K/msg.rsa2048.pgpks"
keyctl pipe "$PGPK_OUT" >/tmp/26-content || pgpk_fail "cannot read it"
assert_eq "$(cat "$D/msg.txt")" "$(cat /tmp/26-content)" "verified content"

# Locked: root cannot add (restrict_link_reject: EPERM).
expect_fail EPERM keyctl padd asymmetric "" "$ring" <"$K/rsa3072.pgpk"

# A keyring restricted to .pgpk: the anchor's certification vouches.
r=$(keyctl newring restricted @s)
expect_ok keyctl restrict_keyring "$r" asymmetric "key_or_keyring:$ring"
expect_ok keyctl padd asymmetric "" "$r" <"$K/certified.pgp"
expect_fail ENOKEY keyctl padd asymmetric "" "$r" <"$D/rsa3072.pgp"

# Root clears it; the module unloads; a new .pgpk is empty and open.
keyctl clear @s
expect_ok keyctl clear "$ring"
pgpk_unload
pgpk_load
ring=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
ring=$((0x$ring))
expect_ok keyctl rlist "$ring"
assert_eq "" "$PGPK_OUT" "keys in the new .pgpk"
expect_ok keyctl padd asymmetric "" "$ring" <"$K/rsa3072.pgpk"
pgpk_run su -s /bin/sh nobody -c \
	"keyctl session - sh -c 'keyctl padd asymmetric \"\" $ring <$K/rsa3072.pgpk'" &&
	pgpk_fail "nobody added a key to .pgpk"
assert_contains "$PGPK_OUT" "$(pgpk_errno_text EACCES)" "nobody's add to .pgpk"
expect_ok keyctl clear "$ring"
exit 0
