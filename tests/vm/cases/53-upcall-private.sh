#!/bin/sh
# Issue 19, findings 1 and 5: nothing one user does changes what another
# is answered.  There is no shared answer cache any more: every OpenPGP
# add_key makes an upcall of its own, under a random description, in a
# keyring of its own, marked as the module's (request_key's aux).
#  - User space cannot make or join the module's requests:
#    request_key("pgpk") is refused (EPERM) whatever the description,
#    "key:<sha256>:" too (the empty select that read uninitialised stack).
#  - Nobody can plant an answer: add_key("pgpk") is refused (EPERM).
#  - While nobody hammers both (and holds pgpk keys of his own under every
#    description he can think of), root's adds of the same key each get
#    an upcall of their own and all succeed.
#  - A description is only a name: "key:<hex>:" names a canonical key.
#  - No upcall key outlives its add_key in any keyring.
# pgpk-timeout: 120
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data rsa2048.pgp k/rsa2048.pgpk
pgpk_load
chmod 0755 /
key=$PGPK_DATA/rsa2048.pgp
sum=$(pgpk_sha256 "$key")

for d in "key:$sum" "key:$sum:" "key:0123456789abcdef0123456789abcdef" \
	"sig:$sum" x; do
	expect_fail EPERM keyctl request2 pgpk "$d" callout @s
	pgpk_run su -s /bin/sh nobody -c \
		"keyctl session - sh -c 'keyctl request2 pgpk $d callout @s'" &&
		pgpk_fail "nobody made a pgpk request ($d)"
	assert_contains "$PGPK_OUT" "$(pgpk_errno_text EPERM)" "nobody's request $d"
	pgpk_run su -s /bin/sh nobody -c \
		"keyctl session - sh -c 'keyctl padd pgpk $d @s <$K/rsa2048.pgpk'" &&
		pgpk_fail "nobody planted an answer ($d)"
	assert_contains "$PGPK_OUT" "$(pgpk_errno_text EPERM)" "nobody's add_key pgpk $d"
done

# nobody, in the background, keeps trying while root adds the key.
cat >/tmp/53-nobody.sh <<EOS
i=0
while [ ! -e /tmp/53.stop ]; do
	i=\$((i + 1))
	keyctl request2 pgpk "key:$sum" x @s 2>/dev/null
	keyctl request2 pgpk "key:\$(head -c 16 /dev/urandom | xxd -p)" x @s 2>/dev/null
	keyctl padd pgpk "key:$sum:\$i" @s <$K/rsa2048.pgpk 2>/dev/null
	keyctl padd asymmetric "" @s <$key >/dev/null 2>&1
done
EOS
rm -f /tmp/53.stop
su -s /bin/sh nobody -c "keyctl session - sh /tmp/53-nobody.sh" &
bg=$!
up=$(count_upcalls)
n=8
i=0
while [ $i -lt $n ]; do
	expect_ok keyctl padd asymmetric "" @s <"$key"
	i=$((i + 1))
done
touch /tmp/53.stop
wait "$bg"
sleep 0.5
ups=$(($(count_upcalls) - up))
echo "upcalls during the race: $ups (root's $n and nobody's own)"
[ "$ups" -ge "$n" ] || pgpk_fail "root's $n adds made $ups upcalls: an answer was shared"

# A description is the key's name, even one that looks like a request.
expect_ok keyctl padd asymmetric "key:$sum:" @s <"$K/rsa2048.pgpk"
assert_eq "key:$sum:" "$(pgpk_key_desc_of "$PGPK_OUT")" "description"

# The answers lived in keyrings of their own: none is left anywhere.
sleep 1
left=$(awk '$8 == "pgpk" { print $1 }' /proc/keys | wc -l)
assert_eq 0 "$left" "pgpk keys left in /proc/keys"
exit 0
