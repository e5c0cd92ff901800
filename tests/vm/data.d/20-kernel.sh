#!/bin/bash
# Test data for the kernel module cases (tests/vm/cases/2*-4*.sh), made on
# the host after 00-gpg.sh (reuses its keys and messages).  Output in
# $PGPK_VM_DATA/k/, listed in $PGPK_VM_DATA/k/index.txt.
#
# Canonical blobs are made by tests/vm/tools/pgpk-mkcanon.py, a test-only
# converter independent of helper/ (so a helper bug cannot hide a kernel
# bug), which also makes the deliberately wrong answers the lying-helper
# case serves.
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
cache=${PGPK_VM_CACHE:-${TMPDIR:-/tmp}/pgpk-vm-cache}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
mk=$root/tests/vm/tools/pgpk-mkcanon.py
nm=$root/tests/vm/tools/pgpk-name.py
k=$out/k
mkdir -p "$k/liar"
export GNUPGHOME=$cache/gnupg
gpg=(gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase ''
	--no-auto-check-trustdb --trust-model always)
index=$k/index.txt
: >"$index"
note() { printf '%-30s %s\n' "$1" "$2" >>"$index"; }
fpr_of() {
	"${gpg[@]}" --with-colons --list-keys "$1" |
		awk -F: '/^fpr/ { print $10; exit }'
}

for f in rsa2048.pgp rsa3072.pgp msg.txt; do
	[ -s "$out/$f" ] || { echo "missing $out/$f (00-gpg.sh)" >&2; exit 1; }
done

# --- real RSA keys from debian-archive-keyring, one certificate each ---
deb=$cache/debian-gnupg
if [ ! -d "$deb" ]; then
	mkdir -m 0700 -p "$deb"
	GNUPGHOME=$deb "${gpg[@]}" --import \
		/usr/share/keyrings/debian-archive-keyring.gpg 2>/dev/null || true
fi
i=0
for fpr in $(GNUPGHOME=$deb "${gpg[@]}" --with-colons --list-keys |
	awk -F: '/^pub/ { rsa = ($4 == 1) } /^fpr/ && rsa { print $10; rsa = 0 }')
do
	i=$((i + 1))
	GNUPGHOME=$deb "${gpg[@]}" --export "$fpr" >"$k/deb$i.pgp"
	GNUPGHOME=$deb "${gpg[@]}" --armor --export "$fpr" >"$k/deb$i.asc"
	echo "$fpr" >"$k/deb$i.fpr"
	GNUPGHOME=$deb "${gpg[@]}" --with-colons --list-keys "$fpr" |
		awk -F: '/^uid/ { print $10; exit }' >"$k/deb$i.uid"
	GNUPGHOME=$deb "${gpg[@]}" --with-colons --list-keys "$fpr" |
		awk -F: '/^pub/ { print $3; exit }' >"$k/deb$i.bits"
	python3 "$mk" key "$k/deb$i.pgp" >"$k/deb$i.pgpk"
	python3 "$nm" "$k/deb$i.pgp" >"$k/deb$i.name"
	note "deb$i.{pgp,asc,pgpk,name}" "Debian archive RSA key $fpr (name: its description)"
	[ "$i" -ge 3 ] && break
done
echo "$i" >"$k/deb.count"
# deb1 as a canonical key: a payload of the size of an X.509 certificate
# of the same key (31-leaks compares their slab growth).
cp "$k/deb1.pgpk" "$k/deb1-lean.pgpk"
note deb1-lean.pgpk "canonical deb1 (as deb1.pgpk)"
# RSA exponents of 9 and 1024 octets (55-exponent; the decoder refuses
# them before any signature); another e is another key: no certification.
for n in 6 1021; do
	python3 "$mk" key "$k/deb1.pgp" --no-offsets --no-cert --no-self \
		--exponent-pad=$n >"$k/deb1-e$((n + 3)).pgpk"
done
note "deb1-e{9,1024}.pgpk" "canonical deb1 with an e of 9, 1024 octets"

# --- OpenPGP in the wild: RSA certificates from debian-keyring, as they
# are (all their signatures), under the 64 KiB add_key("asymmetric")
# takes; gpg's fingerprint, size and validity for each ---
mkdir -p "$k/wild"
if [ -f /usr/share/keyrings/debian-keyring.gpg ]; then
	python3 - /usr/share/keyrings/debian-keyring.gpg "$k/wild" 40 <<'PY'
import sys
buf = open(sys.argv[1], "rb").read()
out, want = sys.argv[2], int(sys.argv[3])
p, starts = 0, []
while p < len(buf):
    h = buf[p]
    if h & 0x40:
        tag, l0 = h & 0x3F, buf[p + 1]
        if l0 < 192:
            n, hl = l0, 2
        elif l0 < 224:
            n, hl = ((l0 - 192) << 8) + buf[p + 2] + 192, 3
        else:
            n, hl = int.from_bytes(buf[p + 2:p + 6], "big"), 6
    else:
        tag, lt = (h >> 2) & 0xF, h & 3
        nl = [1, 2, 4][lt]
        n, hl = int.from_bytes(buf[p + 1:p + 1 + nl], "big"), 1 + nl
    if tag == 6:
        starts.append((p, buf[p + hl + 5]))
    p += hl + n
starts.append((len(buf), 0))
i = 0
for (a, algo), (b, _) in zip(starts, starts[1:]):
    if algo == 1 and b - a < 60 * 1024 and i < want:
        i += 1
        open("%s/%02d.pgp" % (out, i), "wb").write(buf[a:b])
PY
fi
for f in "$k"/wild/*.pgp; do
	[ -f "$f" ] || continue
	gpg --batch --with-colons --show-keys "$f" 2>/dev/null | awk -F: -v n="$(basename "$f" .pgp)" '
		/^pub/ { v = $2; bits = $3 }
		/^fpr/ { print n, $10, bits, v; exit }'
done >"$k/wild/list.txt"
note wild/ "RSA certificates from debian-keyring (NN.pgp; list.txt: NN fpr bits validity)"

# --- rsa2048.pgp re-framed with OpenPGP-format packet headers (RFC 9580
# 4.2.1): shortest lengths, and 5-octet lengths everywhere ---
python3 - "$out/rsa2048.pgp" "$k" <<'PY'
import sys
buf = open(sys.argv[1], "rb").read()
pkts, p = [], 0
while p < len(buf):
    h = buf[p]
    assert h & 0x80 and not h & 0x40, "gpg writes legacy headers"
    tag, lt = (h >> 2) & 0xF, h & 3
    nl = [1, 2, 4][lt]
    n = int.from_bytes(buf[p + 1:p + 1 + nl], "big")
    pkts.append((tag, buf[p + 1 + nl:p + 1 + nl + n]))
    p += 1 + nl + n
def short(n):
    if n < 192:
        return bytes([n])
    if n < 8384:
        return bytes([((n - 192) >> 8) + 192, (n - 192) & 0xFF])
    return b"\xff" + n.to_bytes(4, "big")
for name, enc in (("newfmt", short), ("newfmt5", lambda n: b"\xff" + n.to_bytes(4, "big"))):
    open("%s/%s.pgp" % (sys.argv[2], name), "wb").write(
        b"".join(bytes([0xC0 | t]) + enc(len(b)) + b for t, b in pkts))
PY
note newfmt.pgp "rsa2048.pgp with OpenPGP-format headers, shortest lengths"
note newfmt5.pgp "rsa2048.pgp with OpenPGP-format headers, 5-octet lengths"

# --- a v6 RSA key and signature (GnuPG 2.2 makes none) ---
python3 "$root/tests/vm/tools/pgpk-mkv6.py" "$cache/v6-rsa3072.pem" \
	"$out/msg.txt" "$k"
python3 "$mk" key "$k/v6.pgp" >"$k/v6.pgpk"
python3 "$mk" sig "$k/v6.sig" --content="$out/msg.txt" >"$k/v6.msg.pgpks"
python3 "$mk" sig "$k/v3.sig" --content="$out/msg.txt" >"$k/v3.msg.pgpks"
note v3.sig "v3 detached signature of msg.txt by the v6 key's RSA key"
note v3.msg.pgpks "canonical v3.sig with msg.txt as content"
note v6.pgp "v6 RSA 3072 key (RFC 9580), user ID, salted certification"
note v6.sig "v6 salted detached signature of msg.txt"
note v6.pgpk "canonical v6.pgp"
python3 "$nm" "$k/v6.pgp" >"$k/v6.name"
note v6.name "the description the kernel gives v6.pgp's key"
note v6.msg.pgpks "canonical v6.sig with msg.txt as content"
# A raw PKCS#1 v1.5 signature of msg.txt's SHA-256 with the same RSA key,
# for keyctl pkey_verify (the kernel's own asymmetric key operation).
openssl dgst -sha256 -binary "$out/msg.txt" >"$k/msg.sha256"
openssl pkeyutl -sign -inkey "$cache/v6-rsa3072.pem" -pkeyopt digest:sha256 \
	-in "$k/msg.sha256" -out "$k/msg.sha256.pkcs1"
note msg.sha256 "SHA-256 of msg.txt"
note msg.sha256.pkcs1 "PKCS#1 v1.5 signature of it by the v6 key's RSA key"

# --- deb1.asc with an extra armor header: a new blob, the same key ---
sed '1a Comment: pgpk concurrency case' "$k/deb1.asc" >"$k/deb1-comment.asc"
note deb1-comment.asc "deb1.asc with one more armor header line"
sed '1a Comment: pgpk non-root case' "$k/deb2.asc" >"$k/deb2-comment.asc"
note deb2-comment.asc "deb2.asc with one more armor header line"

# --- the 00-gpg.sh keys in canonical form ---
for n in rsa2048 rsa3072; do
	python3 "$mk" key "$out/$n.pgp" >"$k/$n.pgpk"
	note "$n.pgpk" "canonical $n (primary, self-certification)"
done
python3 "$mk" key "$out/rsa2048.pgp" "$(cat "$out/rsa2048-sub.fpr")" \
	>"$k/rsa2048-sub.pgpk"
note rsa2048-sub.pgpk "canonical rsa2048 signing subkey (binding sig)"
python3 "$nm" "$out/rsa2048.pgp" >"$k/rsa2048.name"
python3 "$nm" "$out/rsa2048.pgp" "$(cat "$out/rsa2048-sub.keyid")" \
	>"$k/rsa2048-sub.name"
note "rsa2048{,-sub}.name" "the descriptions the kernel gives rsa2048 and its subkey"

# --- a key certified by rsa2048, and an expired key ---
cuid="pgpk test certified <certified@pgpk.test>"
xuid="pgpk test expired <expired@pgpk.test>"
if ! "${gpg[@]}" --list-keys "$cuid" >/dev/null 2>&1; then
	"${gpg[@]}" --quick-generate-key "$cuid" rsa2048 sign never
	"${gpg[@]}" --local-user "$(cat "$out/rsa2048.fpr")!" \
		--quick-sign-key "$(fpr_of "$cuid")" "$cuid"
fi
if ! "${gpg[@]}" --list-keys "$xuid" >/dev/null 2>&1; then
	"${gpg[@]}" --faked-system-time 20200101T000000 \
		--quick-generate-key "$xuid" rsa2048 sign 2d
fi
"${gpg[@]}" --export "$cuid" >"$k/certified.pgp"
python3 "$mk" key "$k/certified.pgp" >"$k/certified.pgpk"
note certified.pgp "RSA 2048 key certified by rsa2048"
# ... as a canonical key whose certification is rsa2048's (the one a
# keyring restricted to rsa2048 verifies).
python3 "$mk" key "$k/certified.pgp" --no-offsets \
	--cert-by="$(cat "$out/rsa2048.fpr")" >"$k/certified-by-rsa2048.pgpk"
note certified-by-rsa2048.pgpk "canonical certified.pgp, asym_auth rsa2048's certification"
# rsa2048's certification of it, revoked (in a copy of the keyring): a
# helper answering with the revocation (0x30) as the certification.
rev=$cache/gnupg-revoked
rm -rf "$rev"
cp -R "$GNUPGHOME" "$rev"
GNUPGHOME=$rev "${gpg[@]}" --quick-revoke-sig "$(fpr_of "$cuid")" \
	"$(cat "$out/rsa2048.fpr")"
GNUPGHOME=$rev "${gpg[@]}" --export "$cuid" >"$k/cert-revoked.pgp"
python3 "$mk" key "$k/cert-revoked.pgp" --cert-type=0x30 \
	>"$k/cert-revocation.pgpk"
rm -rf "$rev"
note cert-revocation.pgpk "certified key with the revocation of its certification as certification"
"${gpg[@]}" --export "$xuid" >"$k/expired.pgp"
python3 "$mk" key "$k/expired.pgp" >"$k/expired.pgpk"
"${gpg[@]}" --yes --faked-system-time 20200101T120000 \
	--local-user "$(fpr_of "$xuid")!" --compress-algo none --sign \
	-o "$k/msg.expired.gpg" "$out/msg.txt"
note expired.pgp "RSA 2048 key that expired on 2020-01-03"
note msg.expired.gpg "msg.txt signed by it in 2020"

# --- signed messages: text mode, SHA-512, subkey ---
fpr2=$(cat "$out/rsa2048.fpr")
"${gpg[@]}" --yes --digest-algo SHA256 --local-user "$fpr2!" --textmode \
	--compress-algo none --sign -o "$k/msg.text.gpg" "$out/msg.txt"
"${gpg[@]}" --yes --digest-algo SHA512 --local-user "$fpr2!" \
	--compress-algo none --sign -o "$k/msg.sha512.gpg" "$out/msg.txt"
"${gpg[@]}" --yes --digest-algo SHA256 \
	--local-user "$(cat "$out/rsa2048-sub.fpr")!" --compress-algo none \
	--sign -o "$k/msg.sub.gpg" "$out/msg.txt"
"${gpg[@]}" --yes --digest-algo SHA256 --local-user "$fpr2!" --textmode \
	--detach-sign -o "$k/msg.txt.text.sig" "$out/msg.txt"
python3 "$mk" sig "$k/msg.sha512.gpg" >"$k/msg.sha512.pgpks"
note msg.text.gpg "msg.txt, text mode (0x01) inline signature, SHA-256"
note msg.sha512.gpg "msg.txt, SHA-512 inline signature by rsa2048"
note msg.sub.gpg "msg.txt signed by the rsa2048 subkey"
note msg.txt.text.sig "detached text mode signature of msg.txt"
"${gpg[@]}" --yes --default-sig-expire seconds=1 --local-user "$fpr2!" \
	--compress-algo none --sign -o "$k/msg.sigexpired.gpg" "$out/msg.txt"
note msg.sigexpired.gpg "msg.txt signed by rsa2048, signature valid 1 s"
python3 "$mk" sig "$k/msg.sigexpired.gpg" >"$k/msg.sigexpired.pgpks"
python3 "$mk" sig "$k/msg.sigexpired.gpg" --old-expires \
	>"$k/msg.sigexpired-oldfield.pgpks"
note msg.sigexpired.pgpks "canonical msg.sigexpired.gpg (the helper refuses it)"
note msg.sigexpired-oldfield.pgpks "the same with field 6 (Signature.expires, reserved)"
note msg.sha512.pgpks "canonical signature + content of msg.sha512.gpg"

# --- answers for the lying helper, by callout SHA-256 ---
# deb1.pgp answered with rsa2048's canonical blob (another key);
# rsa3072.pgp answered with the right key but a changed user ID;
# certified.pgp answered without offsets; rsa2048.pgp answered with its
# subkey; embedded.pgp (rsa2048.pgp and a user ID packet whose body is a
# header and body of rsa3072's key packet) answered with rsa3072's key at
# that body's offset: found by a search, never by the packet walk.
lie() { cp "$2" "$k/liar/$(sha256sum <"$1" | cut -d ' ' -f 1)"; }
python3 "$mk" key "$out/rsa2048.pgp" >"$k/liar.other"
lie "$k/deb1.pgp" "$k/liar.other"
python3 "$mk" key "$out/rsa3072.pgp" |
	sed 's/pgpk test rsa3072/pgpk test rsa3O72/' >"$k/liar.uid"
lie "$out/rsa3072.pgp" "$k/liar.uid"
python3 "$mk" key "$k/certified.pgp" --no-offsets >"$k/liar.nooffset"
lie "$k/certified.pgp" "$k/liar.nooffset"
python3 "$mk" key "$out/rsa2048.pgp" "$(cat "$out/rsa2048-sub.fpr")" \
	>"$k/liar.subkey"
lie "$out/rsa2048.pgp" "$k/liar.subkey"
off=$(python3 - "$out/rsa2048.pgp" "$out/rsa3072.pgp" "$k/embedded.pgp" <<'PY'
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
# rsa3072's key packet as it is in its file, header included (old format)
hl = {0: 2, 1: 3, 2: 5}[b[0] & 3]
n = int.from_bytes(b[1:hl], "big")
inner = b[:hl + n]
body = b"pgpk embedded " + inner
uid = bytes([0xCD, ((len(body) - 192) >> 8) + 192, (len(body) - 192) & 0xFF]) + body
open(sys.argv[3], "wb").write(a + uid)
print(len(a) + 3 + len(b"pgpk embedded ") + hl)
PY
)
python3 "$mk" key "$out/rsa3072.pgp" --no-offsets --no-cert \
	--packet-offset="$off" >"$k/liar.embedded"
lie "$k/embedded.pgp" "$k/liar.embedded"
note liar/ "lying answers, file name = SHA-256 of the callout"

# --- true answers by callout SHA-256 (and "_SELECT"), for the fake helper ---
mkdir -p "$k/truth"
truth() {
	local name
	name=$(sha256sum <"$2" | cut -d ' ' -f 1)${3:+_$3}
	# (a compressed message has no answer: the helper refuses those)
	python3 "$mk" "$1" "$2" ${3:+"$3"} >"$k/truth/$name" 2>/dev/null ||
		rm -f "$k/truth/$name"
}
for f in "$k"/deb*.pgp "$k"/deb*.asc "$out"/rsa2048.pgp "$out"/rsa2048.asc \
	"$out"/rsa3072.pgp "$out"/rsa3072.asc "$k"/certified.pgp \
	"$k"/expired.pgp "$k"/v6.pgp; do
	truth key "$f"
done
truth key "$out/rsa2048.pgp" "$(cat "$out/rsa2048-sub.fpr")"
truth key "$out/rsa2048.pgp" "$(cat "$out/rsa2048-sub.keyid")"
for f in "$out"/msg.rsa*.gpg "$out"/msg.rsa*.clear "$k"/msg.*.gpg \
	"$out"/msg.txt.rsa*.sig "$out"/msg.txt.rsa*.asc "$k"/msg.txt.text.sig \
	"$k"/v6.sig
do
	truth sig "$f"
done
install -m 0755 "$root/tests/vm/tools/pgpk-fake-helper.sh" "$k/fake-helper.sh"
note truth/ "true answers, file name = SHA-256 of the callout[_SELECT]"
note fake-helper.sh "serves truth/ or liar/ as the helper would"

# --- trust anchors (26-anchors): rsa2048 and a file of garbage ---
mkdir -p "$k/anchors"
cp "$out/rsa2048.pgp" "$k/anchors/rsa2048.pgp"
{ printf '\xc6\x10'; head -c 300 /dev/urandom; } >"$k/anchors/garbage.pgp"
python3 "$mk" sig "$out/msg.rsa2048.gpg" >"$k/msg.rsa2048.pgpks"
note anchors/ "rsa2048.pgp (an anchor) and garbage.pgp"
note msg.rsa2048.pgpks "canonical msg.rsa2048.gpg (signature and content)"

# --- bad input ---
head -c 200 "$out/rsa2048.pgp" >"$k/truncated.pgp"
{ printf '\x99'; head -c $((1024 * 1024 - 2)) /dev/urandom; } >"$k/huge.pgp"
{ printf '\x99'; head -c $((60 * 1024)) /dev/urandom; } >"$k/big.pgp"
c=$k/rsa2048.pgpk
{ cat "$c"; printf '\x00'; } >"$k/trailing.pgpk"
head -c $(($(stat -c %s "$c") - 1)) "$c" >"$k/short.pgpk"
# The envelope's first field tag 0x0a, written as the non-minimal 0x8a 0x00.
{ head -c 5 "$c"; printf '\x8a\x00'; tail -c +7 "$c"; } >"$k/varint.pgpk"
printf '\x7fPGK\x01' >"$k/magic.pgpk"
{
	echo "-----BEGIN PGP PUBLIC KEY BLOCK-----"
	echo
	head -c 3000 /dev/zero | tr '\0' 'A' | fold -w 64
	echo "*AAA"
	echo "-----END PGP PUBLIC KEY BLOCK-----"
} >"$k/badb64.asc"
note truncated.pgp "first 200 octets of rsa2048.pgp"
note huge.pgp "1 MiB - 1 octets: a packet tag then random bytes"
note big.pgp "60 KiB + 1 octets: a packet tag then random bytes"
note trailing.pgpk "canonical rsa2048 + one trailing octet"
note short.pgpk "canonical rsa2048 without its last octet"
note varint.pgpk "canonical rsa2048 with a non-minimal tag varint"
note magic.pgpk "the magic alone"
note badb64.asc "armor whose 3 kB base64 body has a bad character"

# --- benchmark: an X.509 certificate of the same RSA size as deb1 ---
bits=$(cat "$k/deb1.bits")
if [ ! -s "$cache/x509-$bits.der" ]; then
	openssl req -x509 -newkey "rsa:$bits" -nodes -keyout /dev/null \
		-subj "/CN=pgpk bench $bits" -days 3650 -outform DER \
		-out "$cache/x509-$bits.der" 2>/dev/null
fi
cp "$cache/x509-$bits.der" "$k/bench.der"
note bench.der "self-signed X.509 certificate, RSA $bits"
gcc -O2 -static -o "$k/pgpk-bench" "$root/tests/vm/tools/pgpk-bench.c"
note pgpk-bench "times N add_key calls in one process (static binary)"
cat "$index"
