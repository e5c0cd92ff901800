#!/bin/sh
# keyctl and the key system work in the VM: a user key added to the
# session keyring reads back, and a request_key upcall through
# /sbin/request-key and /etc/request-key.conf constructs a key (Debian's
# "debug:" rule), independently of pgpk.
. /pgpk/lib.sh

expect_ok keyctl show @s
expect_ok keyctl add user pgpk-harness "hello from the VM" @s
id=$PGPK_OUT
expect_ok keyctl print "$id"
assert_eq "hello from the VM" "$PGPK_OUT" "user key payload"
assert_eq user "$(pgpk_key_type "$id")" "key type"
expect_ok keyctl search @s user pgpk-harness
assert_eq "$id" "$PGPK_OUT" "search result"
grep -q "user *pgpk-harness: 17" /proc/keys ||
	pgpk_fail "/proc/keys does not show the user key"

# An unknown key type is refused by the kernel itself.
expect_fail ENODEV keyctl add pgpk_no_such_type x y @s

# The upcall machinery: /sbin/request-key runs the configured program,
# which instantiates the key with the callout data.
expect_ok keyctl request2 user debug:pgpk-harness "callout-42" @s
rid=$PGPK_OUT
expect_ok keyctl print "$rid"
assert_eq "Debug callout-42" "$PGPK_OUT" "upcall-constructed payload"

expect_ok keyctl unlink "$id" @s
expect_fail ENOKEY keyctl search @s user pgpk-harness
exit 0
