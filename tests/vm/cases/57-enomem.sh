#!/bin/sh
# An allocation failure is ENOMEM, never another errno, never a crash,
# never a leak, never a key loaded without what a failed step should have
# given it (issue 19, finding 6).  Every allocation of each of the
# module's paths is made to fail in turn: the 1st fault-injection point of
# one add_key (or insmod), then the 2nd, ... until a call completes
# without reaching the n-th (tests/vm/tools/pgpk-failnth.c, with
# /proc/thread-self/fail-nth; failslab and fail_page_alloc count
# GFP_KERNEL allocations too, pages of order 1 and up).  Each call either
# succeeds (an allocation the kernel can do without) or fails with ENOMEM.
# The paths: insmod (module init: a module that loads must work, a
# canonical key is added after each), a canonical key, a canonical subkey
# (binding digest), a v6 key, a certified key into a keyring restricted
# to its certifier (a key accepted there has its asym_auth and verified),
# a canonical signature (pgpk_test), and OpenPGP
# bytes (the upcall: the requester's side; the helper is another task).
# Then kmemleak, scanned here: no object left over by any of it.  Crashes,
# KASAN, lockdep: the harness's kernel-log verdict (which takes the stack
# dump of warn_alloc() after an injected failure for none: the module
# loader's vmalloc warns; tests/vm/check-log.sh).  Measured on 6.1-debug
# (2026-12-04): insmod about 300 points, each add_key path 58 to 98.
# Needs fault injection (the debug kernel: tests/vm/README.md); Debian's
# kernels have none, so the case skips there.
# pgpk-timeout: 600
. /pgpk/lib.sh
D=$PGPK_DATA
K=$D/k
F=$D/enomem/pgpk-failnth
pgpk_need_module
pgpk_need_helper
pgpk_need_data enomem/pgpk-failnth k/rsa2048.pgpk rsa2048-sub.fpr \
	k/v6.pgpk k/certified-by-rsa2048.pgpk k/msg.sha512.pgpks rsa2048.pgp
[ -e /proc/self/fail-nth ] && [ -d /sys/kernel/debug/failslab ] ||
	pgpk_skip "no fault injection in this kernel (fail-nth, failslab)"
dbg=/sys/kernel/debug
kmemleak=$dbg/kmemleak

# GFP_KERNEL allocations count (the default ignores them: nearly all of
# the module's); pages from order 1 (kmalloc over 8 KiB, kvmalloc), not
# order 0 (page faults).  Verbose 1: one line per failure, no stack dump
# (a "Call Trace:" would be a kernel report).
for fi in failslab fail_page_alloc; do
	[ -d "$dbg/$fi" ] || continue
	echo 0 >"$dbg/$fi/ignore-gfp-wait"
	echo N >"$dbg/$fi/task-filter"
	echo 1 >"$dbg/$fi/verbose"
done
[ -d "$dbg/fail_page_alloc" ] && echo 1 >"$dbg/fail_page_alloc/min-order"
if [ -w "$kmemleak" ]; then
	echo scan >"$kmemleak"
	echo clear >"$kmemleak"
fi

failed=""
# run NAME MAX ARGS...: pgpk-failnth, its lines in the log.
run() {
	_name=$1
	echo "+ pgpk-failnth $*"
	"$F" "$@" || failed="$failed $_name"
}

# Module init first, while no key holds the module.
pgpk_load
run insmod 4000 insmod "$PGPK_KO" "$K/rsa2048.pgpk"
pgpk_loaded || pgpk_fail "pgpk not loaded after the insmod round"

# The subkey as the helper makes it (pgpk-helper import, key --select).
expect_ok sh -c "$PGPK_HELPER key --select $(cat "$D/rsa2048-sub.fpr") \
	$D/rsa2048.pgp >/tmp/enomem-sub.pgpk"
plain=$(keyctl newring enomem-plain @s)
trust=$(keyctl newring enomem-trust @s)
expect_ok keyctl padd asymmetric "" "$trust" <"$K/rsa2048.pgpk"
restricted=$(keyctl newring enomem-restricted @s)
keyctl restrict_keyring "$restricted" asymmetric "key_or_keyring:$trust" ||
	pgpk_fail "restrict_keyring"
run canonical 2000 add asymmetric "$K/rsa2048.pgpk" "$plain"
run subkey 2000 add asymmetric /tmp/enomem-sub.pgpk "$plain"
run v6 2000 add asymmetric "$K/v6.pgpk" "$plain"
# ENOKEY (126) allowed here, and only here: the kernel's restriction
# (crypto/asymmetric_keys/restrict.c, key_or_keyring_common()) looks the
# certifier up with find_asymmetric_key(), whose kmalloc() of the search
# description may fail: "if (IS_ERR(key)) key = NULL;" makes that
# -ENOKEY, for an X.509 certificate as for a pgpk key.  Refused either way.
export PGPK_FAILNTH_ALLOW=126
run certified 2000 add asymmetric "$K/certified-by-rsa2048.pgpk" \
	"$restricted"
unset PGPK_FAILNTH_ALLOW
# pgpk_test finds the signer in the session keyring (enomem-trust).
run signature 2000 add pgpk_test "$K/msg.sha512.pgpks" "$plain" t
run openpgp 2000 add asymmetric "$D/rsa2048.pgp" "$plain"

for fi in failslab fail_page_alloc; do
	[ -d "$dbg/$fi" ] && echo 2 >"$dbg/$fi/verbose"
done
keyctl clear "$plain"
keyctl clear "$restricted"
keyctl unlink "$plain" @s >/dev/null
keyctl unlink "$restricted" @s >/dev/null
keyctl unlink "$trust" @s >/dev/null

# kmemleak: what these calls left unreferenced.  An object younger than
# 5 s is not reported yet, and the key garbage collector frees the
# unlinked keys in its own time: wait, then scan twice (kmemleak.rst).
if [ -w "$kmemleak" ]; then
	sleep $((8 * PGPK_SLOWDOWN))
	echo scan >"$kmemleak"
	sleep 2
	echo scan >"$kmemleak"
	leaks=$(grep -c '^unreferenced object' "$kmemleak")
	echo "kmemleak after the fail-nth rounds: $leaks unreferenced objects"
	if [ "$leaks" -gt 0 ]; then
		cat "$kmemleak"
		failed="$failed kmemleak($leaks)"
	fi
else
	echo "no kmemleak in this kernel: leaks unchecked"
fi
[ -z "$failed" ] || pgpk_fail "failed:$failed"
exit 0
