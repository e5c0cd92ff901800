#!/bin/bash
# Build the libFuzzer targets with clang (Bazel's default toolchain here
# is gcc, which has no libFuzzer) and optionally run them.
#
#   tests/fuzz/build-fuzzers.sh                 build build/fuzz/{openpgp,canon}_fuzz
#                                               and frame_{packet,bytes,hashed,name}_fuzz
#   tests/fuzz/build-fuzzers.sh --run SECONDS   build, then fuzz each target
#                                               for SECONDS on a scratch copy
#                                               of its corpus (-jobs 1)
#
# Sanitizers: address, undefined (trapping: any UB is a crash), fuzzer.
# Crashes land in build/fuzz/crashes-<target>/; copy a reproducer to
# tests/fuzz/crashes/<target>/ so that the replay tests keep it.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build/fuzz
mkdir -p "$out/gen/proto"
cd "$root"

CC=${CC:-clang}
CFLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
	-fno-sanitize-recover=all -D_GNU_SOURCE -std=gnu11 -Wall -Wno-unused-parameter
	-I$root -I$out/gen"
LIBS="-lcrypto -lprotobuf-c -lz -lpthread"

# The generated protobuf-c code, as //proto:pgpk_pb_c makes it.
protoc-c --proto_path=. --c_out="$out/gen" proto/pgpk.proto

# The kernel's untrusted-byte code, as //kernel:canon builds it.
kcanon="kernel/pgpk_canon.c kernel/pgpk_frame.c kernel/pgpk_rebuild.c"
# shellcheck disable=SC2086
$CC $CFLAGS -o "$out/openpgp_fuzz" tests/fuzz/openpgp_fuzz.c \
	helper/openpgp/*.c "$out/gen/proto/pgpk.pb-c.c" $kcanon $LIBS
# shellcheck disable=SC2086
$CC $CFLAGS -o "$out/canon_fuzz" tests/fuzz/canon_fuzz.c \
	$kcanon "$out/gen/proto/pgpk.pb-c.c" $LIBS
targets="openpgp canon"
for f in packet bytes hashed name; do
	# shellcheck disable=SC2086
	$CC $CFLAGS -o "$out/frame_${f}_fuzz" tests/fuzz/frame_${f}_fuzz.c \
		$kcanon
	targets="$targets frame_$f"
done
echo "built: $targets (in $out)"

if [ "${1:-}" = "--run" ]; then
	secs=${2:-60}
	for t in $targets; do
		work=$out/corpus-$t
		mkdir -p "$work" "$out/crashes-$t"
		cp -n tests/fuzz/corpus/$t/* "$work/" 2>/dev/null || true
		dict=()
		[ -f "tests/fuzz/$t.dict" ] && dict=("-dict=tests/fuzz/$t.dict")
		echo "=== fuzzing $t for ${secs}s"
		"$out/${t}_fuzz" "$work" "${dict[@]}" -max_total_time="$secs" \
			-max_len=65536 -rss_limit_mb=2048 -timeout=10 \
			-artifact_prefix="$out/crashes-$t/" -print_final_stats=1 \
			2>&1 | tail -n 25
	done
fi
