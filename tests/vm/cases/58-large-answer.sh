#!/bin/sh
# Issue 19, finding 8: an upcall answer is not charged to the requester's
# key quota (it lives for the one add_key that asked, like add_key's own
# copy of its payload), so an unprivileged user (default quota 20,000
# octets) adds a key whose answer is about 28 KB: a 4,000-octet user ID
# and a self-certification with a 20,000-octet notation.  His quota then
# holds only the key itself.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/large.pgp
pgpk_load
chmod 0755 /
max=$(cat /proc/sys/kernel/keys/maxbytes)
echo "unprivileged key quota: $max octets"
[ "$max" -lt 28000 ] || pgpk_skip "quota $max octets holds the answer anyway"
pgpk_run su -s /bin/sh nobody -c "keyctl session - sh -c '
	id=\$(keyctl padd asymmetric \"\" @s <$K/large.pgp) &&
	keyctl rdescribe \$id && grep -w 65534 /proc/key-users'" ||
	pgpk_fail "nobody could not add a key with a large answer"
assert_contains "$PGPK_OUT" "asymmetric;65534;" "nobody's key"
exit 0
