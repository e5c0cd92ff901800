#!/bin/sh
# Seed 007's descriptions (issue 26): a key added with an empty
# description is named by the user ID its primary key's self-signature
# certifies, without its comment, then a space and the last 8 hex digits
# of its key ID; a subkey by its primary key's user ID and its own key
# ID.  The name is one line of printable ASCII: every other octet (a
# newline, an escape sequence, a NUL, Latin-1 or UTF-8) and the
# backslash are written \xNN; at most 246 octets of the user ID.  A
# user ID with nothing before its comment gives "PGP key <key ID>" (so
# does a v6 key, whose self-signature is a direct-key one: 29-v6).
# f/name-*.name hold the expected names, made on the host from the seed
# (tests/lib/pgpk_name.py), not from the module's code.
#
# Abuse tried: a user ID that would break /proc/keys' one line per key
# (a newline), write to the terminal of whoever reads it (ESC), or stop
# the string early (a NUL: once a heap overflow in the description's
# making); any user may submit these, as canonical blobs.
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
names="comment plain newline long latin1 utf8 nul nul-first comment-only
	backslash escape subkey"
for n in $names; do
	pgpk_need_data "f/name-$n.pgpk" "f/name-$n.name"
done
pgpk_load

for n in $names; do
	want=$(cat "$F/name-$n.name")
	expect_ok keyctl padd asymmetric "" @s <"$F/name-$n.pgpk"
	id=$PGPK_OUT
	got=$(pgpk_key_desc_of "$id")
	echo "$n: $got"
	assert_eq "$want" "$got" "description of name-$n"
	line=$(grep -c "^$(printf %08x "$id") " /proc/keys)
	assert_eq 1 "$line" "/proc/keys lines of name-$n"
	# printable ASCII only (the kernel's own description, as read back)
	if printf '%s' "$got" | tr -d ' -~' | grep -q .; then
		pgpk_fail "name-$n: a character outside printable ASCII"
	fi
	keyctl unlink "$id" @s >/dev/null
done
# 246 octets of the user ID, then the key ID
long=$(cat "$F/name-long.name")
assert_eq 255 "${#long}" "length of the longest name"
# A caller's description is kept as given.
expect_ok keyctl padd asymmetric "my name" @s <"$F/name-plain.pgpk"
assert_eq "my name" "$(pgpk_key_desc_of "$PGPK_OUT")" "a caller's description"
# As nobody too: the rule is the kernel's.
chmod 0755 /
pgpk_run su -s /bin/sh nobody -c \
	"keyctl session - sh -c 'id=\$(keyctl padd asymmetric \"\" @s <$F/name-newline.pgpk) && keyctl rdescribe \$id'" ||
	pgpk_fail "nobody could not add name-newline.pgpk: $PGPK_OUT"
assert_contains "$PGPK_OUT" "$(cat "$F/name-newline.name")" "nobody's key name"
exit 0
