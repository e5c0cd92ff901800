#!/bin/bash
# The syscall fuzzer of tests/vm/cases/70-sysfuzz.sh: pgpk-sysfuzz
# (tests/fuzz/syscall/), built static for the busybox initramfs, and its
# corpus: every canonical blob of tests/fuzz/corpus/canon, and the 60
# smallest OpenPGP inputs of tests/fuzz/corpus/openpgp (each one an
# upcall: the case's budget allows a few dozen).  tests/fuzz/syscall/run.sh
# ships the whole OpenPGP corpus itself.  Output in $PGPK_VM_DATA/fuzz/.
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
src=$root/tests/fuzz/syscall
f=$out/fuzz
mkdir -p "$f/corpus/canon" "$f/corpus/openpgp"
gcc -O2 -Wall -Wextra -Werror -static -o "$f/pgpk-sysfuzz" \
	"$src/pgpk-sysfuzz.c" "$src/pgpk_mutate.c"
cp "$root"/tests/fuzz/corpus/canon/* "$f/corpus/canon/"
# (Whole listing first: head closing the pipe would fail pipefail.)
mapfile -t small < <(cd "$root/tests/fuzz/corpus/openpgp" && ls -S -r)
for name in "${small[@]:0:60}"; do
	cp "$root/tests/fuzz/corpus/openpgp/$name" "$f/corpus/openpgp/"
done
