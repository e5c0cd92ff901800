#!/bin/sh
# Issue 19, finding 3: a canonical key may no longer carry an RSA public
# exponent longer than 8 octets (the helper's limit, now the kernel's):
# the decoder refuses it (EBADMSG, "length out of bounds"), whoever
# submits it.  A 1,024-octet exponent used to make every verification
# with the key cost 400-540 ms under TCG, inside restrict.c under the
# destination keyring's lock.  8 octets load (a key made with such an
# exponent, self-certified).
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data f/rsa-e8.pgpk k/deb1-e9.pgpk k/deb1-e1024.pgpk
pgpk_load

# A key of its own (tests/vm/tools/pgpk-forge.py): its self-signature
# verifies with that exponent.
expect_ok keyctl padd asymmetric "" @s <"$PGPK_DATA/f/rsa-e8.pgpk"
for n in 9 1024; do
	pgpk_kmsg_mark
	expect_fail EBADMSG keyctl padd asymmetric "" @s <"$K/deb1-e$n.pgpk"
	assert_contains "$(pgpk_kmsg_since)" "length out of bounds" \
		"the kernel's reason for a $n-octet exponent"
done
# As nobody too: the rule is the kernel's, not the helper's.
chmod 0755 /
pgpk_run su -s /bin/sh nobody -c \
	"keyctl session - sh -c 'keyctl padd asymmetric \"\" @s <$K/deb1-e1024.pgpk'" &&
	pgpk_fail "nobody loaded a key with a 1024-octet exponent"
assert_contains "$PGPK_OUT" "$(pgpk_errno_text EBADMSG)" "nobody's error"
exit 0
