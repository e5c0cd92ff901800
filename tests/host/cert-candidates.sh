#!/bin/bash
# Which certification vouches for a key (Key.certification, the kernel's
# asym_auth, which a restricted keyring verifies with its trusted key):
# the helper chooses among the trust anchors' (--anchors DIR, default
# /etc/pgpk/anchors/): the newest third-party certification of the
# primary user ID that verifies with an anchor's key, else the key's own.
#   - no directory, an empty one, one whose keys certified nothing: own;
#   - Carl (binary or armored) an anchor: Carl's, through key and through
#     the upcall's pipeline (debug), a garbage file beside him ignored;
#   - Mallory, who certified too, not an anchor: never Mallory's;
#   - 2000 forgeries claiming Carl's key, newer, with correct quick
#     checks (one RSA operation each), and forged revocations in his name:
#     Carl's genuine one still, within the parser's watchdog (2 s);
#   - Carl's certification with SHA-1 (the kernel's floor), made before
#     his key, or with two creation times (the kernel confirms none), or
#     by Carl now expired: own;
#   - a subkey keeps its binding.
# Forgeries come from tests/lib/pgpk_forge.py.
. "$(dirname "$0")/lib.sh"
host_build
host_tmp
GNUPGHOME=$tmp
export GNUPGHOME
G=$GNUPGHOME
gpg_() { gpg --batch --pinentry-mode loopback --passphrase '' -q "$@"; }
fpr() { gpg --with-colons --list-keys "$1" | awk -F: '/^fpr/ { print $10; exit }'; }

gpg_ --quick-gen-key "Alice <alice@example.org>" rsa2048 sign never
gpg_ --quick-add-key "$(fpr alice@example.org)" rsa2048 sign never
gpg_ --quick-gen-key "Carl Certifier <carl@example.org>" rsa2048 cert never
gpg_ --quick-gen-key "Mallory <mallory@example.org>" rsa2048 cert never
gpg_ --quick-gen-key "Dave <dave@example.org>" rsa2048 cert never
gpg_ --faked-system-time 20200101T000000 --quick-gen-key \
	"Old Carl <oldcarl@example.org>" rsa2048 cert 1y
alice=$(fpr alice@example.org)
carl=$(fpr carl@example.org)
mallory=$(fpr mallory@example.org)
oldcarl=$(fpr oldcarl@example.org)
gpg_ -u "$mallory" --cert-digest-algo SHA256 --quick-sign-key "$alice" \
	>/dev/null 2>&1
gpg --export "$alice" >"$G/mallory-only.gpg"
sleep 1 # Carl's certification is the newer
gpg_ -u "$carl" --cert-digest-algo SHA256 --quick-sign-key "$alice" \
	>/dev/null 2>&1
gpg --export "$alice" >"$G/certified.gpg"
mkdir -p "$G/anchors" "$G/armored" "$G/empty" "$G/dave" "$G/mallory" \
	"$G/old" "$G/both"
gpg --export "$carl" >"$G/anchors/carl.pgp"
printf 'not a certificate\n' >"$G/anchors/garbage.gpg"
gpg --export --armor "$carl" >"$G/armored/carl.asc"
gpg --export "$carl" >"$G/armored/carl.pgp.disabled" # not an anchor name
gpg --export "$(fpr dave@example.org)" >"$G/dave/dave.gpg"
gpg --export "$mallory" >"$G/mallory/mallory.pgp"
gpg --export "$oldcarl" >"$G/old/oldcarl.pgp"
gpg --export "$carl" "$mallory" >"$G/both/both.pgp"

# certifier ANCHORS FILE [key|debug]: the issuer of Key.certification
certifier() {
	local out
	if [ "${3:-key}" = debug ]; then
		"$helper" debug --hex --anchors "$1" key "$2" >"$G/dbg" 2>&1 ||
			{ echo "REFUSED: $(tail -n 1 "$G/dbg")"; return; }
		grep -E '^[0-9a-f]+$' "$G/dbg" | tr -d '\n' | xxd -r -p \
			>"$G/blob"
	else
		"$pgpk" key --anchors "$1" "$2" >"$G/blob" 2>"$G/err" ||
			{ echo "REFUSED: $(cat "$G/err")"; return; }
	fi
	"$pgpk" dump --json "$G/blob" | python3 -c '
import json, sys
c = json.load(sys.stdin)["key"].get("certification", {})
print(c.get("issuer_fingerprint", "none"))'
}
# expect NAME WANT ANCHORS FILE [key|debug]
expect() {
	local got
	got=$(certifier "$3" "$4" "${5:-key}")
	if [ "$got" = "$2" ]; then
		echo "ok   $1"
	else
		fail "$1: certified by $got, want $2"
	fi
}

expect "no anchor directory: its own" "$alice" "$G/none" "$G/certified.gpg"
expect "an empty directory: its own" "$alice" "$G/empty" "$G/certified.gpg"
expect "an anchor who certified nothing: its own" "$alice" "$G/dave" \
	"$G/certified.gpg"
expect "Carl an anchor: Carl's" "$carl" "$G/anchors" "$G/certified.gpg"
expect "Carl an anchor, the upcall's pipeline: Carl's" "$carl" \
	"$G/anchors" "$G/certified.gpg" debug
expect "Carl armored: Carl's" "$carl" "$G/armored" "$G/certified.gpg"
expect "Mallory certified, not an anchor: its own" "$alice" "$G/anchors" \
	"$G/mallory-only.gpg"
expect "Mallory an anchor: Mallory's" "$mallory" "$G/mallory" \
	"$G/mallory-only.gpg"
# Carl certified after Mallory: the newer of two anchors' vouches.
expect "Carl and Mallory anchors: the newer, Carl's" "$carl" "$G/both" \
	"$G/certified.gpg"

# A subkey keeps its binding, whoever the anchors.
sub=$(gpg --with-colons --list-keys "$alice" |
	awk -F: '/^sub/ { s = 1 } s && /^fpr/ { print $10; exit }')
got=$("$pgpk" key --anchors "$G/anchors" --select "$sub" \
	"$G/certified.gpg" | "$pgpk" dump --json - | python3 -c '
import json, sys
c = json.load(sys.stdin)["key"]["certification"]
print(c["type"], c.get("issuer_fingerprint"))')
[ "$got" = "24 $alice" ] && echo "ok   a subkey: its binding" ||
	fail "a subkey: certification '$got', want its binding 24 $alice"

# forge IN OUT N FORGED-REVOCATIONS: N newer forgeries claiming Carl (a
# correct quick check: each costs an RSA operation), revocations in his
# name that nobody made
forge() {
	PYTHONPATH=$root/tests/lib python3 - "$1" "$2" "$3" "$4" "$carl" \
		<<'PY'
import sys, time
import pgpk_forge as f
buf = open(sys.argv[1], "rb").read()
key, uid, _ = f.split_key(buf)
carl = bytes.fromhex(sys.argv[5])
now = int(time.time())
extra = b""
for i in range(int(sys.argv[3])):
    extra += f.certification(key, uid, carl[-8:], now - 100 + i % 50,
                             issuer_fpr=carl, quick_ok=True,
                             sig_type=0x10 + i % 4)
for i in range(int(sys.argv[4])):
    extra += f.certification(key, uid, carl[-8:], now - 50 + i,
                             issuer_fpr=carl, quick_ok=True, sig_type=0x30)
open(sys.argv[2], "wb").write(f.insert_after_uid(buf, extra))
PY
}
forge "$G/certified.gpg" "$G/flood.gpg" 2000 0 || exit 1
forge "$G/certified.gpg" "$G/revflood.gpg" 50 200 || exit 1
echo "flood: $(stat -c %s "$G/flood.gpg") octets"
start=$(date +%s%N)
expect "2000 forgeries claiming Carl: Carl's genuine one" "$carl" \
	"$G/anchors" "$G/flood.gpg" debug
echo "     in $((($(date +%s%N) - start) / 1000000)) ms (the watchdog: 2000 ms)"
expect "forged revocations in Carl's name: Carl's genuine one" "$carl" \
	"$G/anchors" "$G/revflood.gpg" debug
forge "$G/mallory-only.gpg" "$G/mflood.gpg" 300 0 || exit 1
expect "forgeries claiming Carl, no genuine one: its own" "$alice" \
	"$G/anchors" "$G/mflood.gpg" debug

# Carl's own certifications of other kinds, signed here with his secret
# key (gpg makes none of them): made OUT KIND, over mallory-only.gpg.
gpg_ --export-secret-keys "$carl" >"$G/carl.sec"
made() {
	PYTHONPATH=$root/tests/lib python3 - "$G/mallory-only.gpg" "$1" \
		"$2" "$G/carl.sec" "$carl" <<'PY'
import hashlib, struct, sys
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, utils
import pgpk_forge as f
import pgpk_seckey
from pgpk_openpgp import packet, packets, subpacket
buf = open(sys.argv[1], "rb").read()
kind, carl = sys.argv[3], bytes.fromhex(sys.argv[5])
key, uid, _ = f.split_key(buf)
priv = pgpk_seckey.private_key(open(sys.argv[4], "rb").read(),
                               sys.argv[5][-16:])
carl_created = [struct.unpack(">I", b[1:5])[0]
                for t, _, b in packets(open(sys.argv[4], "rb").read())
                if t == 5][0]
hash_id, hobj, hfun = 8, hashes.SHA256(), hashlib.sha256
created = struct.unpack(">I", key[1:5])[0] + 10
if kind == "sha1":
    hash_id, hobj, hfun = 2, hashes.SHA1(), hashlib.sha1
if kind == "early":          # before Carl's key was made
    created = carl_created - 100
area = subpacket(2, struct.pack(">I", created))
if kind == "twotimes":       # the kernel confirms no creation time
    area += subpacket(2, struct.pack(">I", created + 1))
area += subpacket(33, b"\x04" + carl)
head = bytes([4, 0x10, 1, hash_id]) + struct.pack(">H", len(area)) + area
digest = hfun(b"\x99" + struct.pack(">H", len(key)) + key + b"\xb4" +
              struct.pack(">I", len(uid)) + uid + head + b"\x04\xff" +
              struct.pack(">I", len(head))).digest()
s = int.from_bytes(priv.sign(digest, padding.PKCS1v15(),
                             utils.Prehashed(hobj)), "big")
unhashed = subpacket(16, carl[-8:])
sig = packet(2, head + struct.pack(">H", len(unhashed)) + unhashed +
             digest[:2] + struct.pack(">H", s.bit_length()) +
             s.to_bytes((s.bit_length() + 7) // 8, "big"))
open(sys.argv[2], "wb").write(f.insert_after_uid(buf, sig))
PY
}
made "$G/made-sha256.gpg" sha256 && made "$G/made-sha1.gpg" sha1 &&
	made "$G/made-early.gpg" early &&
	made "$G/made-twotimes.gpg" twotimes || exit 1
expect "Carl's certification made here (the control): Carl's" "$carl" \
	"$G/anchors" "$G/made-sha256.gpg"
expect "Carl's certification with SHA-1 (the kernel's floor): its own" \
	"$alice" "$G/anchors" "$G/made-sha1.gpg"
expect "Carl's certification made before his key: its own" "$alice" \
	"$G/anchors" "$G/made-early.gpg"
expect "Carl's certification with two creation times: its own" "$alice" \
	"$G/anchors" "$G/made-twotimes.gpg"

# Old Carl certified Alice's 2020 key while he was valid; he expired.
gpg_ --faked-system-time 20200101T000000 --quick-gen-key \
	"Alice 2020 <alice2020@example.org>" rsa2048 sign never
alice20=$(fpr alice2020@example.org)
gpg_ --faked-system-time 20200601T000000 -u "$oldcarl" \
	--cert-digest-algo SHA256 --quick-sign-key "$alice20" >/dev/null 2>&1
gpg --export "$alice20" >"$G/alice2020.gpg"
gpg --list-packets "$G/alice2020.gpg" 2>/dev/null |
	grep -q "keyid ${oldcarl: -16}" ||
	fail "gpg did not make Old Carl's certification of Alice 2020"
expect "Old Carl's certification, Old Carl expired: its own" "$alice20" \
	"$G/old" "$G/alice2020.gpg"

[ "$nfail" = 0 ] || exit 1
echo "PASS: the anchors' newest genuine certification vouches, through floods and forged revocations; otherwise the key's own"
