#!/bin/sh
# rmmod while a key is being added: the parse holds no module reference
# while it waits for the helper, so the unload starts; the key it then
# made pointed at the freed module (its subtype): /proc/keys oopsed.
# Now the parse takes a reference only if the module is live: the add
# fails with ENODEV, the module goes, nothing points into it.
# pgpk-timeout: 60
. /pgpk/lib.sh
pgpk_need_module
pgpk_need_helper
pgpk_need_data rsa2048.pgp
pgpk_load

conf=/etc/request-key.d/pgpk.conf
cp "$conf" /tmp/pgpk.conf.saved
trap 'cp /tmp/pgpk.conf.saved "$conf"' EXIT
# The configured helper, four seconds late.
cmd=$(sed -n 's/^create *pgpk *\* *\* *\(.*\) %k$/\1/p' "$conf")
[ -n "$cmd" ] || pgpk_fail "no create line in $conf"
printf '#!/bin/sh\nsleep 4\nexec %s "$1"\n' "$cmd" >/tmp/slow-helper.sh
echo "create pgpk * * /bin/sh /tmp/slow-helper.sh %k" >"$conf"
# The answer comes 4 s late plus the helper's own time, which on the
# debug kernel (KASAN, PGPK_SLOWDOWN 4) passed the default 5 s
# upcall_timeout: ETIMEDOUT before the module could say ENODEV.  The
# parameter goes with the module; the reload below restores it.
echo $((5 * PGPK_SLOWDOWN)) >/sys/module/pgpk/parameters/upcall_timeout

(keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa2048.pgp" >/tmp/padd.out 2>&1
	echo "rc=$?" >>/tmp/padd.out) &
sleep 1.5
assert_eq 0 "$(cat /sys/module/pgpk/refcnt)" "module references mid-upcall"
echo "+ rmmod pgpk"
rmmod pgpk || pgpk_fail "rmmod refused"
wait
cat /tmp/padd.out
assert_contains "$(cat /tmp/padd.out)" "$(pgpk_errno_text ENODEV)" "the add"
! pgpk_loaded || pgpk_fail "pgpk still loaded"
expect_ok cat /proc/keys
assert_not_contains "$PGPK_OUT" "PGP.rsa" "keys of the unloaded module"
cp /tmp/pgpk.conf.saved "$conf"
pgpk_load
exit 0
