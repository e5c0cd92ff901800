#!/bin/sh
# IMA appraisal with a canonical key (pgpk key --select IMA-SUBKEY,
# no upcall) added with `keyctl padd asymmetric "" %keyring:_ima`; a file
# signed by ima-sign reads.  Removing the key from _ima makes its files
# unreadable (a new inode: IMA caches a verdict per inode); adding it
# again makes them readable.  A keyring restricted to the certificate's
# primary key takes its IMA subkey (the binding is its authority), not
# another certificate's.
. /pgpk/lib.sh
. /pgpk/tools/pgpk-ima.sh
pgpk_need_module
pgpk_need_data ima/a.pgpk ima/b-j.pgpk ima/a-i.pgpk ima/good-sha256.ima ima/good-sha512.ima
pgpk_load
ima_ring

# keyctl finds root's _ima by name (it is the only one root can see)
expect_ok keyctl padd asymmetric "" %keyring:_ima <"$I/a-i.pgpk"
key=$PGPK_OUT
assert_eq "$IMA_RING" "$(keyctl search @u keyring _ima)" "_ima"
expect_ok keyctl rdescribe "$key"
ima_reads good-sha256
ima_reads good-sha512

expect_ok keyctl unlink "$key" "$IMA_RING"
ima_refused invalid-signature after-unlink good-sha256
ima_refused invalid-signature after-unlink-512 good-sha512

expect_ok keyctl padd asymmetric "" "$IMA_RING" <"$I/a-i.pgpk"
ima_reads again good-sha256

# restricted to A's primary key: A's IMA subkey in, B's out
expect_ok keyctl padd asymmetric "" @s <"$I/a.pgpk"
a=$PGPK_OUT
expect_ok keyctl newring restricted-to-a @s
ring=$PGPK_OUT
expect_ok keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$a"
expect_ok keyctl padd asymmetric "" "$ring" <"$I/a-i.pgpk"
expect_fail ENOKEY keyctl padd asymmetric "" "$ring" <"$I/b-j.pgpk"
