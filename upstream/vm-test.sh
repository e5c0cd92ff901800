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
# 82-builtin-keys: the KUnit user (certified by the built-in CA), a key
# only self-certified (the kselftest's pgpk_other), and the user with
# its certification's RSA value changed.
python3 - "$here" "$cases" <<'EOF_PY' || up_die "the blobs of 82-builtin-keys"
import re, sys
here, cases = sys.argv[1], sys.argv[2]
user = open(f"{here}/kunit/keys/pgpk_user.bin", "rb").read()
open(f"{cases}/pgpk_user.bin", "wb").write(user)
h = open(f"{here}/selftests/keys/keys_pgpk_blobs.h").read()
m = re.search(r"pgpk_other\[\] = \{([^}]*)\}", h)
open(f"{cases}/pgpk_other.bin", "wb").write(
    bytes(int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", m.group(1))))

def varint(b, i):
    v = s = 0
    while True:
        v |= (b[i] & 0x7f) << s
        s += 7
        i += 1
        if not b[i - 1] & 0x80:
            return v, i

def field(b, start, end, want):
    """(offset, length) of the LEN field number want in b[start:end]"""
    i = start
    while i < end:
        tag, i = varint(b, i)
        if tag & 7 == 0:
            _, i = varint(b, i)
            continue
        n, i = varint(b, i)
        if tag >> 3 == want:
            return i, n
        i += n
    sys.exit(f"no field {want}")

key = field(user, 5, len(user), 1)              # Canonical.key
cert = field(user, key[0], sum(key), 10)        # Key.certification
s = field(user, cert[0], sum(cert), 10)         # Signature.rsa_s
bad = bytearray(user)
bad[s[0] + s[1] // 2] ^= 0x01
open(f"{cases}/pgpk_user_badcert.bin", "wb").write(bad)
EOF_PY
up_in_buildroot "$K_BIND" '
	set -e
	cd /work/src/tools/testing/selftests/keys
	gcc -static -O2 -Wall -Werror -I.. -o /work/keys_pgpk keys_pgpk.c' ||
	up_die "keys_pgpk does not build"
cp "$K_BIND/keys_pgpk" "$cases/"
exec "$up_root/tests/vm/run.sh" --kernel 7.3-pgpk-debug --cases "$cases" "$@"
