#!/bin/sh
# Issue 19, finding 6: an allocation failure is ENOMEM, never ENOPKG and
# never a key loaded without what a failed step should have given it.
# Every allocation on the path of a certified canonical key's add_key into
# a keyring restricted to its certifier is made to fail in turn
# (/proc/self/fail-nth, with failslab): each add_key either succeeds,
# accepted by the restriction (so it has its asym_auth), or fails with
# ENOMEM.  Needs fault injection (the debug kernel: tests/vm/README.md);
# Debian's kernels have none, so the case skips there.
# pgpk-timeout: 180
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/rsa2048.pgpk k/certified-by-rsa2048.pgpk
[ -e /proc/self/fail-nth ] && [ -d /sys/kernel/debug/failslab ] ||
	pgpk_skip "no fault injection in this kernel (fail-nth, failslab)"
pgpk_load

echo 0 >/sys/kernel/debug/failslab/ignore-gfp-wait
echo N >/sys/kernel/debug/failslab/task-filter
trust=$(keyctl newring trust @s)
expect_ok keyctl padd asymmetric "" "$trust" <"$K/rsa2048.pgpk"
n=1 ok=0 nomem=0
while [ $n -le 400 ]; do
	ring=$(keyctl newring "r$n" @s)
	keyctl restrict_keyring "$ring" asymmetric "key_or_keyring:$trust"
	# fail-nth counts the allocations of the thread that writes it.
	out=$(sh -c 'echo '$n' >/proc/thread-self/fail-nth;
		exec keyctl padd asymmetric "" '$ring' <'$K'/certified-by-rsa2048.pgpk' 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		ok=$((ok + 1))
	else
		assert_contains "$out" "$(pgpk_errno_text ENOMEM)" \
			"add_key with allocation $n failing"
		nomem=$((nomem + 1))
	fi
	keyctl unlink "$ring" @s >/dev/null
	[ $rc = 0 ] && [ $ok -ge 20 ] && break
	n=$((n + 1))
done
echo "allocations failed in turn: $n; ENOMEM $nomem, accepted $ok"
[ "$nomem" -gt 0 ] || pgpk_fail "no allocation failure reached add_key"
exit 0
