#!/bin/bash
# Key.third_party, as the helper fills it (issue 9, finding 6): every
# third-party certification of the primary user ID the kernel could check,
# junk included, newest first, at most 256; never v3, SHA-1, non-RSA or
# values too short for a 2048-bit issuer; the self-certification stays in
# Key.certification.  Forgeries come from tests/lib/pgpk_forge.py.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
helper=$root/bazel-bin/helper/pgpk-helper
(cd "$root" && bazel build //helper:pgpk-helper) >/dev/null 2>&1 ||
	{ echo "FAIL: pgpk-helper does not build"; exit 1; }
GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'rm -rf "$GNUPGHOME"' EXIT
gpg_() { gpg --batch --pinentry-mode loopback --passphrase '' -q "$@"; }
fpr() { gpg --with-colons --list-keys "$1" | awk -F: '/^fpr/ { print $10; exit }'; }

gpg_ --quick-gen-key "Alice <alice@example.org>" rsa2048 sign never
gpg_ --quick-gen-key "Carl Certifier <carl@example.org>" rsa2048 cert never
alice=$(fpr alice@example.org)
carl=$(fpr carl@example.org)
gpg_ -u "$carl" --cert-digest-algo SHA256 --quick-sign-key "$alice" >/dev/null 2>&1
gpg --export "$alice" >"$GNUPGHOME/certified.gpg"

# forge OUT N: certified.gpg + N junk candidates + 5 that must be left out
forge() {
	PYTHONPATH=$root/tests/lib python3 - "$GNUPGHOME/certified.gpg" "$1" \
		"$2" <<'PY'
import os, sys, time
import pgpk_forge as f
buf = open(sys.argv[1], "rb").read()
key, uid, _ = f.split_key(buf)
now = int(time.time())
extra = b""
for i in range(int(sys.argv[3])):
    extra += f.certification(key, uid, os.urandom(8), now + 1000 + i)
ex = 0x0E0E0E0E0E0E0E00
bad = [dict(version=3), dict(hash_algo=2), dict(hash_algo=1),
       dict(pk_algo=17), dict(value_len=200)]
for i, kw in enumerate(bad):
    extra += f.certification(key, uid, (ex + i).to_bytes(8, "big"),
                             now + 5000 + i, **kw)
open(sys.argv[2], "wb").write(f.insert_after_uid(buf, extra))
PY
}

# check OUT N: N candidates newest first, Carl's certification last when
# N < 256, no excluded one, self-certification in certification.
check() {
	"$helper" key "$1" | "$helper" dump --json - | python3 -c '
import json, sys
want, carl, alice = int(sys.argv[1]), sys.argv[2], sys.argv[3]
k = json.load(sys.stdin)["key"]
tp = k.get("third_party", [])
created = [s["created"] for s in tp]
ok = True
def fail(msg):
    global ok
    print("FAIL:", msg)
    ok = False
if len(tp) != want:
    fail("%d candidates, want %d" % (len(tp), want))
if created != sorted(created, reverse=True):
    fail("candidates not newest first")
for s in tp:
    kid = s.get("issuer_key_id", "")
    if kid.startswith("0E0E0E0E0E0E0E"):
        fail("excluded candidate %s offered" % kid)
    if s["version"] not in (4, 6) or s["hash_algorithm"] not in (8, 9, 10, 11):
        fail("candidate v%d hash %d" % (s["version"], s["hash_algorithm"]))
    if len(s["rsa_s"]) // 2 < 248:
        fail("candidate value of %d octets" % (len(s["rsa_s"]) // 2))
fprs = [s.get("issuer_fingerprint", "") for s in tp]
if want < 256 and fprs[-1:] != [carl]:
    fail("Carl not the oldest candidate: %s" % fprs[-1:])
if k["certification"].get("issuer_fingerprint") != alice:
    fail("certification is not the self-certification")
sys.exit(0 if ok else 1)
' "$2" "$carl" "$alice"
}

forge "$GNUPGHOME/few.gpg" 5 || exit 1
check "$GNUPGHOME/few.gpg" 6 || exit 1
forge "$GNUPGHOME/flood.gpg" 300 || exit 1
check "$GNUPGHOME/flood.gpg" 256 || exit 1
check "$GNUPGHOME/certified.gpg" 1 || exit 1
echo "PASS: candidates newest first (5 junk + Carl), v3/SHA-1/MD5/DSA/short values left out, 300 junk cut to 256"
