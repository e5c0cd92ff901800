#!/bin/sh
# pgpk_test from a process without a session keyring (a daemon started
# before any login, a service whose manager never joined one): the kernel
# searches ".pgpk" alone.  Issue 26's review found the NULL session
# keyring dereferenced once ".pgpk" had no issuer (an oops by any user).
# Run without "keyctl session -": init, pid 1, never joined a session
# keyring, so this shell has none; a child that names @s is given the
# user session keyring ("_uid_ses.0"), in its own credentials only.
#  - the signer nowhere: ENOKEY;
#  - the signer in ".pgpk": the content verified.
# pgpk-session: none
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/msg.rsa2048.pgpks k/rsa2048.pgpk
pgpk_unload
pgpk_load

expect_ok keyctl rdescribe @s
assert_contains "$PGPK_OUT" "_uid_ses.0" "a child's session keyring"
ring=$(awk '$9 == ".pgpk:" && $2 !~ /R/ { print $1 }' /proc/keys | tail -n 1)
ring=$((0x$ring))

expect_fail ENOKEY keyctl padd pgpk_test nosession @u <"$K/msg.rsa2048.pgpks"
expect_ok keyctl padd asymmetric "" "$ring" <"$K/rsa2048.pgpk"
expect_ok keyctl padd pgpk_test nosession @u <"$K/msg.rsa2048.pgpks"
expect_ok keyctl unlink "$PGPK_OUT" @u
expect_ok keyctl clear "$ring"
# Still none here: the children's session keyrings were their own.
expect_ok keyctl rdescribe @s
assert_contains "$PGPK_OUT" "_uid_ses.0" "a child's session keyring"
exit 0
