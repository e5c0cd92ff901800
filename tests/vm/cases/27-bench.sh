#!/bin/sh
# Benchmark, same run: add_key time of a canonical RSA key against an
# X.509 certificate of the same RSA size (N add_key calls in one process,
# tools/pgpk-bench.c), and of the OpenPGP key, each add an upcall (N/5 of
# them: nothing is cached, each starts /sbin/request-key and the
# helper).  Prints "PGPK-BENCH <what> <us> us/add_key";
# fails only if an add fails.  TCG emulation: compare, do not quote.
# The upcalls may take 30 s each here (upcall_timeout): a busy host slows
# the emulated CPU, and this measures, it does not judge (54-upcall-hang
# tests the limit).
# pgpk-timeout: 120
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/deb1.pgpk k/deb1.pgp k/bench.der k/deb1.bits k/pgpk-bench
pgpk_load
N=50
bits=$(cat "$K/deb1.bits")

# bench NAME FILE: N adds of FILE into a fresh keyring (one warm-up).
bench() {
	ring=$(keyctl newring "bench-$1" @s) || pgpk_fail "newring"
	keyctl padd asymmetric "" "$ring" <"$2" >/dev/null ||
		pgpk_fail "add_key of $2 failed"
	"$K/pgpk-bench" "$1" "$2" "$ring" "${3:-$N}" ||
		pgpk_fail "bench $1 failed"
}

bench "canonical-rsa$bits" "$K/deb1.pgpk"
bench "x509-rsa$bits" "$K/bench.der"
if [ -x "$PGPK_HELPER" ]; then
	param=/sys/module/pgpk/parameters/upcall_timeout
	saved=$(cat $param)
	trap 'echo "$saved" >$param' EXIT
	echo 30 >$param
	bench "openpgp-upcall-rsa$bits" "$K/deb1.pgp" $((N / 5))
	echo "$saved" >$param
fi
bench "canonical-rsa$bits-again" "$K/deb1.pgpk"
bench "x509-rsa$bits-again" "$K/bench.der"
exit 0
