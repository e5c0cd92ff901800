#!/bin/bash
# Test data for the kernel review cases (tests/vm/cases/33-*.sh and up),
# made on the host after 20-kernel.sh: canonical blobs built with the
# helpers of tests/vm/tools/pgpk-mkcanon.py (independent of helper/).
# Output in $PGPK_VM_DATA/r/.
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
r=$out/r
mkdir -p "$r"

python3 - "$root/tests/vm/tools/pgpk-mkcanon.py" "$out" "$r" <<'PY'
import importlib.util
import sys

spec = importlib.util.spec_from_file_location("mkcanon", sys.argv[1])
mk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mk)
out, r = sys.argv[2], sys.argv[3]

# certified.pgp without rsa2048's certification (its other packets stay
# at the same offsets): the lying helper answers it with certified.pgpk,
# whose certification is not in these bytes.
buf = open(out + "/k/certified.pgp", "rb").read()
kid = bytes.fromhex(open(out + "/rsa2048.fpr").read().strip())[-8:]
p, keep = 0, b""
while p < len(buf):
    h = buf[p]
    assert h & 0x80 and not h & 0x40, "gpg writes legacy headers"
    nl = [1, 2, 4][h & 3]
    end = p + 1 + nl + int.from_bytes(buf[p + 1:p + 1 + nl], "big")
    if (h >> 2) & 0xF != 2 or kid not in buf[p:end]:
        keep += buf[p:end]
    p = end
assert len(keep) < len(buf), "no certification by rsa2048 found"
open(r + "/cert-stripped.pgp", "wb").write(keep)
PY

# Cross-protocol: an RSA key's PKCS#1 signature of SHA-256(F) (as IMA
# or any X.509 user makes), F ending like a v4 OpenPGP trailer (RFC 9580
# 5.2.4: version, type, algorithms, a hashed area with a creation time,
# 0x04 0xFF and a length), is also the RSA value of a v4 OpenPGP signature
# of F minus that trailer, "issued" by the key ID at the end of the X.509
# certificate's subject key identifier.
x=$r/x509
mkdir -p "$x"
# An 8-octet subject key identifier: the whole ID an OpenPGP key ID names
# (the kernel looks issuers up by exact ID).
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$x/key.pem" \
	-subj "/CN=pgpk cross-protocol test" -days 3650 -outform DER \
	-addext "subjectKeyIdentifier=$(openssl rand -hex 8)" \
	-out "$x/cert.der" 2>/dev/null
python3 - "$x/file" <<'PY'
import struct, sys, time
t = int(time.time()) - 3600
area = b"\x05\x02" + struct.pack(">I", t)
head = bytes([4, 0, 1, 8]) + struct.pack(">H", len(area)) + area
open(sys.argv[1], "wb").write(
    b"a file some X.509 key signed for another protocol\n" + head +
    b"\x04\xff" + struct.pack(">I", len(head)))
PY
openssl dgst -sha256 -binary "$x/file" >"$x/file.sha256"
openssl pkeyutl -sign -inkey "$x/key.pem" -pkeyopt digest:sha256 \
	-in "$x/file.sha256" -out "$x/file.pkcs1"
skid=$(openssl x509 -inform DER -in "$x/cert.der" -noout -ext \
	subjectKeyIdentifier | tail -n 1 | tr -d ' :')
python3 - "$root/tests/vm/tools/pgpk-mkcanon.py" "$x" "$skid" <<'PY'
import importlib.util
import sys

spec = importlib.util.spec_from_file_location("mkcanon", sys.argv[1])
mk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mk)
x, skid = sys.argv[2], bytes.fromhex(sys.argv[3])
f = open(x + "/file", "rb").read()
digest = open(x + "/file.sha256", "rb").read()
s = open(x + "/file.pkcs1", "rb").read().lstrip(b"\0")
trailer = f[-(6 + 6 + 6):]         # head (4 + 2 + 6-octet area) + 6
area = trailer[6:12]
assert area[:2] == b"\x05\x02"
sig = (mk.f_varint(1, 4) + mk.f_varint(2, 0) + mk.f_varint(3, 1)
       + mk.f_varint(4, 8) + mk.f_varint(5, int.from_bytes(area[2:], "big"))
       + mk.f_bytes(7, area)
       + mk.f_varint(9, int.from_bytes(digest[:2], "big"))
       + mk.f_bytes(10, s) + mk.f_bytes(11, skid[-8:]))
open(x + "/forged.pgpks", "wb").write(
    mk.MAGIC + mk.f_bytes(2, sig) + mk.f_bytes(3, f[:-len(trailer)]))
PY

# The lying helper's answers (tests/vm/tools/pgpk-fake-helper.sh finds
# them by the SHA-256 of the submitted bytes): certified.pgp with
# rsa2048's certification chosen, as the answer for both the full
# certificate and the one rsa2048's certification was stripped from.
mkdir -p "$r/liar"
python3 "$root/tests/vm/tools/pgpk-mkcanon.py" key "$out/k/certified.pgp" \
	--cert-by="$(cat "$out/rsa2048.fpr")" >"$r/certified-by-rsa2048.answer"
h=$(sha256sum "$r/cert-stripped.pgp" | cut -d ' ' -f 1)
cp "$r/certified-by-rsa2048.answer" "$r/liar/$h"
h=$(sha256sum "$out/k/certified.pgp" | cut -d ' ' -f 1)
cp "$r/certified-by-rsa2048.answer" "$r/liar/$h"
