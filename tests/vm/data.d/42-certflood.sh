#!/bin/bash
# Test data for 42-cert-flood (issue 9, finding 6, "certificate
# poisoning"), made on the host after 20-kernel.sh and 33-review.sh:
# certified.pgp (certified by rsa2048) with forged, newer third-party
# certifications beside the genuine one, and without it.  Forgeries from
# tests/lib/pgpk_forge.py.  Output in $PGPK_VM_DATA/c/.
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
c=$out/c
mkdir -p "$c"
for f in k/certified.pgp r/cert-stripped.pgp rsa2048.fpr rsa3072.fpr; do
	[ -s "$out/$f" ] || { echo "missing $out/$f" >&2; exit 1; }
done

PYTHONPATH=$root/tests/lib python3 - "$out" "$c" <<'PY'
import os
import sys
import time

import pgpk_forge as f
from pgpk_openpgp import newest_signature_time

out, c = sys.argv[1], sys.argv[2]
now = int(time.time())
fpr2048 = bytes.fromhex(open(out + "/rsa2048.fpr").read().strip())
fpr3072 = bytes.fromhex(open(out + "/rsa3072.fpr").read().strip())


def flood(buf, n, claim_every, only2048=False):
    """n forgeries, all newer than any genuine certification and none
    in the future (the kernel would refuse them for that before any RSA
    operation: the flood would test the clock, not the signatures):
    random issuers, and every claim_every-th one claiming rsa2048
    (fingerprint and key ID) or rsa3072 with a random value, two in
    three of those with the right quick check (so that only the RSA
    operation refuses them).  The newest one is junk from a random
    issuer with a wrong quick check: the certification the old helper
    offered."""
    key, uid, _ = f.split_key(buf)
    # Newest first, one second apart, from now back; after the newest
    # genuine signature even when gpg made it a moment ago (then up to
    # n seconds ahead of now, inside the kernel's 300 s of clock skew).
    top = max(now, newest_signature_time(buf) + n)
    assert top - now < 250, "%d forgeries: too many for the clock skew" % n
    extra = b""
    for i in range(n):
        created = top - i
        if i and i % claim_every == 0:
            fpr = fpr2048 if only2048 or i % (2 * claim_every) else fpr3072
            extra += f.certification(key, uid, fpr[-8:], created,
                                     issuer_fpr=fpr,
                                     value_len=256 if fpr is fpr2048
                                     else 384,
                                     quick_ok=bool(i % 3))
        else:
            extra += f.certification(key, uid, os.urandom(8), created)
    return f.insert_after_uid(buf, extra)


certified = open(out + "/k/certified.pgp", "rb").read()
stripped = open(out + "/r/cert-stripped.pgp", "rb").read()
open(c + "/flood.pgp", "wb").write(flood(certified, 100, 4))
open(c + "/forged-only.pgp", "wb").write(flood(stripped, 100, 4))
# As many forgeries as a 64 KiB add_key payload holds, all but the newest
# claiming rsa2048, two in three with the right quick check: the worst
# case, one RSA operation each.
n = 0
while len(flood(certified, n + 1, 1, True)) < 65535 - 400:
    n += 1
big = flood(certified, n, 1, True)
while len(big) > 65535:
    n -= 1
    big = flood(certified, n, 1, True)
open(c + "/flood-max.pgp", "wb").write(big)
open(c + "/flood-max.count", "w").write("%d\n" % n)
# 200 forged self-certifications (issuer: the key itself), newer than the
# real one: the helper verifies them newest first, and used to sort them
# with qsort(), whose sysinfo() call the sandbox kills.
import hashlib
key, uid, _ = f.split_key(certified)
me = hashlib.sha1(b"\x99" + len(key).to_bytes(2, "big") + key).digest()
top = max(now, newest_signature_time(certified) + 200)
extra = b"".join(f.certification(key, uid, me[-8:], top - i,
                                 issuer_fpr=me, sig_type=0x13)
                 for i in range(200))
open(c + "/selfflood.pgp", "wb").write(f.insert_after_uid(certified, extra))
PY
# A canonical key is its maker's choice: here the newest certification
# claiming rsa2048, a forgery (the helper converts flood.pgp in the VM).
python3 "$root/tests/vm/tools/pgpk-mkcanon.py" key "$c/forged-only.pgp" \
	--cert-by="$(cut -c 25-40 "$out/rsa2048.fpr")" >"$c/forged-only.pgpk"
ls -l "$c"
