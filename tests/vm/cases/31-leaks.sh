#!/bin/sh
# No leak, measured by each slab cache's objects in use at two sizes of
# N (pgpk_no_leak, lib.sh: a leak grows with N, the allocator's
# retention does not; every cache is shrunk before each count, per-CPU
# and partial slabs flushed, KASAN's quarantine emptied): no cache may
# grow by half an object per call or more, twice.  The paths: failing
# key adds (non-canonical EBADMSG; certified by no key of a restricted
# keyring ENOKEY; expired EKEYEXPIRED), pgpk_test verified, bad signature
# (EKEYREJECTED) and unknown key (ENOKEY), the signatures converted by the
# helper first; successful canonical adds (against X.509 certificates,
# the kernel's own, for comparison: for 5 minutes after boot IMA queues a
# copy of every asymmetric key payload added, ima_queue_key(),
# CONFIG_IMA_QUEUE_EARLY_BOOT_KEYS; the key is deb1 without its
# third-party candidates, deb1-lean.pgpk, so that its payload is in the
# X.509 certificate's slab size class); and the upcall path (armor,
# refused by the helper: EBADMSG after a request with its own key,
# keyring and request-key program each time: three processes per call,
# whose task, pid, cred and file objects the slab keeps for a while;
# vmap_area left out: pgpk allocates no vmalloc area, and the helpers'
# stacks are freed lazily).  The kernel's total unreclaimable slab
# (SUnreclaim) measured this once; it is no such test on the debug
# kernels: it moved by 84 kB, then 604 kB, over the same 2,400 refused
# add_keys on 7.3-pgpk-debug (2026-12-05, kmemleak 0), and by 100 to
# 280 kB on 6.1-debug.
# pgpk-timeout: 420
. /pgpk/lib.sh
D=$PGPK_DATA
K=$D/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/pgpk-bench k/deb1-lean.pgpk k/trailing.pgpk \
	k/rsa3072.pgpk k/expired.pgpk k/rsa2048.pgpk k/msg.sha512.pgpks \
	k/badb64.asc msg.rsa2048.tampered.gpg msg.rsa3072.gpg
pgpk_load

expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048.pgpk"
signer=$PGPK_OUT
ring=$(keyctl newring leaks @s) || pgpk_fail "newring"
strict=$(keyctl newring strict @s) || pgpk_fail "newring"
expect_ok keyctl restrict_keyring "$strict" asymmetric "key_or_keyring:$signer"
for m in msg.rsa2048.tampered msg.rsa3072; do
	expect_ok sh -c "$PGPK sig $D/$m.gpg >/tmp/$m.pgpks"
done

# path NAME ERRNO|- FILE RING N TYPE [DESC]: N add_key calls, each of
# which must fail with ERRNO (- : succeed), or the case fails: a leak
# test of a path not taken proves nothing.
path() {
	_out=$("$K/pgpk-bench" "$1" "$3" "$4" "$5" "$6" ${7:+"$7"}) ||
		pgpk_fail "pgpk-bench $1 failed"
	echo "$_out"
	case "$2" in
	-) _want="failed=0)" ;;
	*) _want="failed=$5 $(pgpk_errno_text "$2"))" ;;
	esac
	assert_contains "$_out" "$_want" "path $1"
}

failing() {
	path ebadmsg EBADMSG "$K/trailing.pgpk" "$ring" "$1" asymmetric
	path enokey ENOKEY "$K/rsa3072.pgpk" "$strict" "$1" asymmetric
	path ekeyexpired EKEYEXPIRED "$K/expired.pgpk" "$ring" "$1" asymmetric
	path verified - "$K/msg.sha512.pgpks" "$ring" "$1" pgpk_test ok
	path ekeyrejected EKEYREJECTED /tmp/msg.rsa2048.tampered.pgpks \
		"$ring" "$1" pgpk_test bad
	path enokey-sig ENOKEY /tmp/msg.rsa3072.pgpks "$ring" "$1" \
		pgpk_test unknown
	keyctl clear "$ring"
	sleep 2		# let the key garbage collector run
}

failing 50

# x509 FILE / canonical: N successful adds of a payload of one size.
adds() {
	"$K/pgpk-bench" "$1" "$2" "$ring" "$3" asymmetric
	keyctl clear "$ring"
	sleep 2
}
adds x509 "$K/bench.der" 50
adds canonical "$K/deb1-lean.pgpk" 50

# upcall N: N OpenPGP adds refused by the helper (armor), each an upcall.
upcall() {
	path upcall EBADMSG "$K/badb64.asc" "$ring" "$1" asymmetric
	keyctl clear "$ring"
	sleep 2
}

# The six failing paths, 6 x 100 and 6 x 400 calls: a leak of one
# object per call in any one path is a slope of 1000/1000.
pgpk_no_leak "6 failing paths" failing
pgpk_slab_slope x509 adds x509 "$K/bench.der"
x509_slope=$slope
pgpk_no_leak "canonical keys (X.509 certificates: $x509_slope/1000)" \
	adds canonical "$K/deb1-lean.pgpk"

# The upcall path, at N1 = 50 and N2 = 200 refused upcalls (0.1 to
# 0.2 s each under TCG).
upcall 20
N1=50 N2=200 pgpk_no_leak "refused upcalls" upcall
exit 0
