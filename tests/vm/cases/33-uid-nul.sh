#!/bin/sh
# A canonical key whose user ID holds a NUL octet (any user may add one;
# no upcall) loads, described by its key ID (the user ID is the
# submitter's text and names nothing in /proc/keys; a description made
# from it once replaced "control characters" past the NUL kasprintf()
# stopped at: a heap overflow by any user).  The user ID is still hashed
# whole: the key's own certification is offered to a restriction.
. /pgpk/lib.sh
R=$PGPK_DATA/r
pgpk_need_module
pgpk_need_data r/uid-nul.pgpk r/uid-nul-first.pgpk rsa2048.fpr
pgpk_load

fpr=$(cat "$PGPK_DATA/rsa2048.fpr" | tr 'A-F' 'a-f')
keyid=${fpr#????????????????????????}

expect_ok keyctl padd asymmetric "" @s <"$R/uid-nul.pgpk"
assert_eq "PGP key $keyid" "$(pgpk_key_desc_of "$PGPK_OUT")" \
	"description of a key whose user ID has a NUL"
keyctl unlink "$PGPK_OUT" @s >/dev/null

expect_ok keyctl padd asymmetric "" @s <"$R/uid-nul-first.pgpk"
assert_eq "PGP key $keyid" "$(pgpk_key_desc_of "$PGPK_OUT")" \
	"description of a user ID starting with a NUL"
keyctl unlink "$PGPK_OUT" @s >/dev/null
exit 0
