#!/bin/bash
# Run the series' KUnit suites and kselftest in the VM harness on the
# 7.3-pgpk-debug kernel (upstream/build-debug.sh), as cases of
# tests/vm/run.sh --cases: upstream/vm-cases/*.sh with the in-tree pgpk.ko
# and keys_pgpk (built static in the Debian 13 build root from the
# series' tools/testing/selftests/keys/).
#
# usage: upstream/vm-test.sh [run.sh arguments, e.g. 80-kunit]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=upstream/lib.sh
. "$here/lib.sh"
pgpk_kernel_use 7.3-pgpk-debug || exit 1
cases=$here/out/vm-cases
rm -rf "$cases"
mkdir -p "$cases"
cp "$here"/vm-cases/*.sh "$cases/"
ko=$(find "$K_MODS" -name pgpk.ko | head -n 1)
[ -n "$ko" ] || up_die "no pgpk.ko in $K_MODS (CONFIG_OPENPGP_KEY_PARSER=m?)"
cp "$ko" "$cases/pgpk-intree.ko"
up_in_buildroot "$K_BIND" '
	set -e
	cd /work/src/tools/testing/selftests/keys
	gcc -static -O2 -Wall -Werror -I.. -o /work/keys_pgpk keys_pgpk.c' ||
	up_die "keys_pgpk does not build"
cp "$K_BIND/keys_pgpk" "$cases/"
exec "$up_root/tests/vm/run.sh" --kernel 7.3-pgpk-debug --cases "$cases" "$@"
