#!/bin/sh
# A canonical key whose user ID holds a NUL octet (any user may add one;
# no upcall): the description is the user ID up to the NUL and the key ID
# digits, and nothing past the description's end is read or written
# (kernel/pgpk_key.c pgpk_describe() used to replace "control
# characters" up to the user ID's full length, past the NUL kasprintf()
# stopped at: a heap overflow by any user).
. /pgpk/lib.sh
R=$PGPK_DATA/r
pgpk_need_module
pgpk_need_data r/uid-nul.pgpk r/uid-nul-first.pgpk rsa2048.fpr
pgpk_load

fpr=$(cat "$PGPK_DATA/rsa2048.fpr" | tr 'A-F' 'a-f')
keyid=${fpr#????????????????????????}

expect_ok keyctl padd asymmetric "" @s <"$R/uid-nul.pgpk"
assert_eq "pgpk nul ${keyid#????????}" "$(pgpk_key_desc_of "$PGPK_OUT")" \
	"description of a user ID with a NUL"
keyctl unlink "$PGPK_OUT" @s >/dev/null

expect_ok keyctl padd asymmetric "" @s <"$R/uid-nul-first.pgpk"
assert_eq "PGP key $keyid" "$(pgpk_key_desc_of "$PGPK_OUT")" \
	"description of a user ID starting with a NUL"
keyctl unlink "$PGPK_OUT" @s >/dev/null
exit 0
