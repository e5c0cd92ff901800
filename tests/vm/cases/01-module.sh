#!/bin/sh
# The module loads, registers its key types ("pgpk", "pgpk_test") and its
# asymmetric key parser ("pgpk"), leaves /proc/keys and /proc/key-users
# readable, unloads cleanly (everything unregistered, the key types gone)
# and loads again.
. /pgpk/lib.sh

pgpk_need_module
pgpk_unload

# Without the module the key type does not exist.
expect_fail ENODEV keyctl add pgpk_test probe probe @s

cycle=1
while [ "$cycle" -le 2 ]; do
	echo "--- load/unload cycle $cycle"
	pgpk_kmsg_mark
	pgpk_load
	log=$(pgpk_kmsg_since)
	echo "$log"
	assert_contains "$log" "Key type pgpk registered" "kernel log"
	assert_contains "$log" "Key type pgpk_test registered" "kernel log"
	assert_contains "$log" "Asymmetric key parser 'pgpk' registered" \
		"kernel log"
	mods=$(grep '^pgpk ' /proc/modules)
	echo "/proc/modules: $mods"
	assert_eq 0 "$(echo "$mods" | cut -d ' ' -f 3)" "module use count"

	expect_ok cat /proc/keys
	expect_ok cat /proc/key-users

	# The type exists now: the payload is judged (and refused) by the
	# module, no longer "No such device".
	if pgpk_run keyctl add pgpk_test probe "not a signed message" @s; then
		pgpk_fail "pgpk_test accepted a payload that is no message"
	fi
	assert_not_contains "$PGPK_OUT" "$(pgpk_errno_text ENODEV)" \
		"pgpk_test error"

	pgpk_kmsg_mark
	pgpk_unload
	log=$(pgpk_kmsg_since)
	echo "$log"
	assert_contains "$log" "Key type pgpk unregistered" "kernel log"
	assert_contains "$log" "Key type pgpk_test unregistered" "kernel log"
	assert_contains "$log" "Asymmetric key parser 'pgpk' unregistered" \
		"kernel log"
	expect_fail ENODEV keyctl add pgpk_test probe probe @s
	cycle=$((cycle + 1))
done

# Leave it loaded for the cases that follow.
pgpk_load
exit 0
