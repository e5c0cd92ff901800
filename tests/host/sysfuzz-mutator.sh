#!/bin/bash
# The syscall fuzzer's structure-aware mutator (tests/fuzz/syscall/
# pgpk_mutate.c) does what it claims: 200 mutations of every canonical
# blob of tests/fuzz/corpus/canon, each well-formed protobuf wire format
# after the magic unless it is one of the deliberate encoding errors
# (which the checker must see at the top level), and nearly all different
# from their input (pgpk-sysfuzz -M; no kernel needed).  Also: the fuzzer
# builds as the VM builds it (static, -Werror).
. "$(dirname "$0")/lib.sh"
src=$root/tests/fuzz/syscall
work=$(mktemp -d "${TMPDIR:-/tmp}/pgpk-sysfuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! gcc -O2 -Wall -Wextra -Werror -static -o "$work/pgpk-sysfuzz" \
	"$src/pgpk-sysfuzz.c" "$src/pgpk_mutate.c"; then
	echo "FAIL: pgpk-sysfuzz does not build"
	exit 1
fi
# Two seeds: the mutations differ, the property holds for both.
for seed in 1 2; do
	"$work/pgpk-sysfuzz" -s "$seed" -M 200 "$root/tests/fuzz/corpus/canon" ||
		{ echo "FAIL: mutator check (seed $seed)"; exit 1; }
done
