#!/bin/sh
# Syscall fuzzing, short (issue 20): pgpk-sysfuzz (tests/fuzz/syscall/,
# built by tests/vm/data.d/70-sysfuzz.sh) drives every entry point of the
# module with mutated input -- add_key of "asymmetric" and "pgpk_test",
# request_key of "pgpk" with crafted descriptions and callout data,
# keyctl restrict, search, pkey_query/verify/encrypt, describe, read,
# revoke, invalidate, unlink, link, clear, timeout and setperm -- as root,
# then as uid 1000 in a session of his own, then in races for a few
# seconds: adds against revoke, unlink, expiry (the garbage collector)
# and rmmod/insmod, and two users (1000, 1001) adding the same blob.
# Inputs: the canonical corpus as it is, mutated by structure (valid
# wire format, wrong values, foreign signatures) and by bytes, and a
# sample of OpenPGP inputs through the upcall (at most UPCALLS).  The
# upcalls are answered by pgpk-sysfuzz -H: by the real helper, or with
# its answer mutated, or another blob, or a random rejection (a helper
# that lies: the module must refuse, never crash; each answer is bound to
# the submitted bytes, so a mutated offset is a lie too).  Canonical seeds
# made for an older contract lose the fields proto/pgpk.proto now
# reserves (Key 9 and 11) as they are loaded.  The fuzzer unloads
# and loads the module once with KCOV on (its init and exit code).
#
# What the kernel thinks of it is the harness's verdict (kernel-log, and
# kmemleak on the debug kernel).  The case fails if the fuzzer fails,
# makes fewer inputs than asked, or leaves a module that does not unload
# and load again.  With KCOV (the debug kernel) it prints the module's
# coverage as "PGPK-KCOV <section> <offset>" lines, which
# tests/fuzz/syscall/kcov-report.py turns into a report.
#
# tests/fuzz/syscall/run.sh runs this case for a long time: its
# $PGPK_CASE_DIR/sysfuzz.conf sets N (root inputs), USER_N, RACES
# (seconds), UPCALLS, SEED, CORPUS, BUDGET (seconds of fuzzing) and
# VERBOSE (every input printed); the defaults here keep the case short on
# every kernel.
# pgpk-timeout: 150
. /pgpk/lib.sh
F=$PGPK_DATA/fuzz
pgpk_need_module
pgpk_need_helper
pgpk_need_data fuzz/pgpk-sysfuzz
# Corpus: the fuzz corpora's sample, the VM's canonical keys (IMA ones
# too) and its genuine OpenPGP keys and signed messages (upcalls that
# succeed: the binding checks run).
D=$PGPK_DATA
N=2000 USER_N=500 RACES=5 UPCALLS=40 SEED="" VERBOSE=""
CORPUS="$F/corpus $D/k $D/ima $D/rsa2048.pgp $D/rsa3072.pgp $D/msg.rsa2048.gpg"
# Stop making inputs well before the case's limit (150 s here, times
# PGPK_SLOWDOWN), so that the checks below still run.
BUDGET=$((150 * PGPK_SLOWDOWN * 7 / 10))
[ -f "$PGPK_CASE_DIR/sysfuzz.conf" ] && . "$PGPK_CASE_DIR/sysfuzz.conf"
# The honest answers come from pgpk key, run by pgpk-sysfuzz -H:
# on the debug kernel (KASAN, TCG) that takes longer than the default 5 s
# the module waits for an answer.  (The reload at the end of the inputs
# and the races use the default: a late answer is ETIMEDOUT, no failure.)
pgpk_load
# Keys an earlier case left in the module's trusted keyring ".pgpk" (a
# failing anchors case) hold the module: no reload would be fuzzed and the
# unload below would fail.  Root may clear it.
ring=$(awk '$9 == ".pgpk:" && $10 != "empty" { print $1; exit }' /proc/keys)
if [ -n "$ring" ]; then
	echo "clearing $(grep "^$ring " /proc/keys)"
	keyctl clear $((0x$ring)) || pgpk_fail "keyctl clear .pgpk"
fi
t=$((5 * PGPK_SLOWDOWN))
echo $((t > 60 ? 60 : t)) >/sys/module/pgpk/parameters/upcall_timeout
budget=$BUDGET

# The upcalls go to pgpk-sysfuzz -H until the case ends.  Revoked and
# expired keys (the inputs revoke and expire keyrings full of keys) are
# collected after 1 s instead of 5 min: more collector runs to race
# with, and keys that no longer hold the module when it is reloaded.
conf=/etc/request-key.d/pgpk.conf
gc=/proc/sys/kernel/keys/gc_delay
cp "$conf" /tmp/pgpk.conf.saved
gc_saved=$(cat "$gc")
trap 'cp /tmp/pgpk.conf.saved '"$conf"'; echo '"$gc_saved"' >'"$gc" EXIT
echo "create pgpk * * $F/pgpk-sysfuzz -H %k $F/corpus/canon" >"$conf"
echo 1 >"$gc"
# shellcheck disable=SC2086
set -- -n "$N" -N "$USER_N" -r "$RACES" -m "$PGPK_KO" -k /tmp/kcov.txt \
	-t "$budget" ${UPCALLS:+-U "$UPCALLS"} ${SEED:+-s "$SEED"} \
	${VERBOSE:+-v} $CORPUS
# In a session of its own: its inputs revoke and invalidate the session
# keyring too.
echo "+ pgpk-sysfuzz $*"
keyctl session - "$F/pgpk-sysfuzz" "$@" >/tmp/sysfuzz.out 2>&1
rc=$?
cat /tmp/sysfuzz.out
[ "$rc" -eq 0 ] || pgpk_fail "pgpk-sysfuzz exited $rc"
made=$(sed -n 's/^PGPK-SYSFUZZ seed [0-9]*: \([0-9]*\) inputs in .*/\1/p' \
	/tmp/sysfuzz.out)
[ -n "$made" ] || pgpk_fail "pgpk-sysfuzz printed no summary"
[ "$made" -ge $((N + USER_N)) ] ||
	pgpk_fail "only $made inputs (wanted at least $((N + USER_N)))"
if [ -s /tmp/pgpk-sysfuzz-helper.log ]; then
	echo "upcall answers (pgpk-sysfuzz -H):"
	sort /tmp/pgpk-sysfuzz-helper.log | uniq -c
fi
if [ -s /tmp/kcov.txt ]; then
	while IFS= read -r line; do
		echo "PGPK-KCOV $line"
	done </tmp/kcov.txt
fi

# After all that, the module still leaves (once the keys that hold it,
# all in the fuzzer's sessions, are collected) and comes back.
pgpk_loaded || pgpk_load
pgpk_unload
pgpk_load
exit 0
