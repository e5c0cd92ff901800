#!/bin/bash
# Test data for tests/vm/cases/51-multi-sig.sh (documents signed by
# several keys, issue 11) and 52-import.sh (pgpk import), made
# with GnuPG in a throwaway GNUPGHOME kept in the cache:
#   multi/a.pgp, b.pgp        RSA 3072 and RSA 2048 signing keys
#   multi/c.pgp               an Ed25519 signing key (the kernel cannot
#                             check its signatures)
#   multi/three.clear         cleartext signed by a, b and c, in this
#                             order (like Debian's InRelease: two RSA, one
#                             Ed25519); three-tampered.clear: text changed
#   multi/bad-b.clear         the text signed by a and c, with b's
#                             signature over another text appended: b's
#                             signature is bad for this text
#   multi/certonly.pgp        a certificate whose RSA primary key only
#                             certifies, with two RSA signing subkeys
#                             (certonly.sub1.fpr, .sub2.fpr) and an
#                             encryption subkey; msg.sub1.gpg, msg.sub2.gpg
#                             signed by each signing subkey
#   multi/InRelease, multi/InRelease.signer2.pgp, .signer2.fpr
#                             if apt has fetched Debian's lists: a real
#                             three-signature InRelease, the certificate of
#                             its second signer and that signer's (sub)key
#                             fingerprint, from the archive keyring
#   multi/debian-archive-keyring.gpg  a copy of the host's, for import
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}/multi
cache=${PGPK_VM_CACHE:-${TMPDIR:-/tmp}/pgpk-vm-cache}
mkdir -p "$out" "$cache"
export GNUPGHOME=$cache/gnupg-multi
gpg=(gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase ''
	--no-auto-check-trustdb --trust-model always)

fpr_of() {
	"${gpg[@]}" --with-colons --list-keys "$1" |
		awk -F: '/^fpr/ { print $10; exit }'
}

if [ ! -f "$GNUPGHOME/.pgpk-keys-done" ]; then
	rm -rf "$GNUPGHOME"
	mkdir -m 0700 -p "$GNUPGHOME"
	"${gpg[@]}" --quick-generate-key "multi a <a@pgpk.test>" rsa3072 sign never
	"${gpg[@]}" --quick-generate-key "multi b <b@pgpk.test>" rsa2048 sign never
	"${gpg[@]}" --quick-generate-key "multi c <c@pgpk.test>" ed25519 sign never
	"${gpg[@]}" --quick-generate-key "certonly <certonly@pgpk.test>" \
		rsa2048 cert never
	p=$(fpr_of "certonly <certonly@pgpk.test>")
	"${gpg[@]}" --quick-add-key "$p" rsa2048 sign never
	"${gpg[@]}" --quick-add-key "$p" rsa2048 sign never
	"${gpg[@]}" --quick-add-key "$p" rsa2048 encr never
	touch "$GNUPGHOME/.pgpk-keys-done"
fi

for k in a b c; do
	"${gpg[@]}" --export "multi $k <$k@pgpk.test>" >"$out/$k.pgp"
	fpr_of "multi $k <$k@pgpk.test>" >"$out/$k.fpr"
done
printf 'Origin: pgpk\nLabel: a document signed by three keys\nDate: today\n' \
	>"$out/text"
"${gpg[@]}" -u "$(cat "$out/a.fpr")!" -u "$(cat "$out/b.fpr")!" \
	-u "$(cat "$out/c.fpr")!" --digest-algo SHA256 \
	--output - --clearsign "$out/text" >"$out/three.clear"
sed 's/^Origin: pgpk/Origin: pgpK/' "$out/three.clear" \
	>"$out/three-tampered.clear"
cmp -s "$out/three.clear" "$out/three-tampered.clear" && exit 1

# bad-b.clear: a's and c's signatures of the text, then b's of another.
"${gpg[@]}" -u "$(cat "$out/a.fpr")!" -u "$(cat "$out/c.fpr")!" \
	--digest-algo SHA256 --output - --clearsign "$out/text" >"$out/ac.clear"
sed 's/today/tomorrow/' "$out/text" >"$out/other"
"${gpg[@]}" -u "$(cat "$out/b.fpr")!" --digest-algo SHA256 --output - \
	--clearsign "$out/other" >"$out/b-other.clear"
# splice OUT DOC...: OUT is the first DOC's text with every DOC's
# signature packets, in order, in one armored block.
splice() {
	python3 - "$@" <<'EOF'
import base64, sys

def sigblock(path):
    text = open(path).read()
    head, _, block = text.partition("-----BEGIN PGP SIGNATURE-----\n")
    body = block.split("-----END PGP SIGNATURE-----")[0]
    # Armor headers ("Key: value") and the checksum line are skipped.
    lines = [l for l in body.split("\n")
             if l and ":" not in l and not l.startswith("=")]
    return head, base64.b64decode("".join(lines))

def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF

head, packets = sigblock(sys.argv[2])
for doc in sys.argv[3:]:
    packets += sigblock(doc)[1]
b64 = base64.b64encode(packets).decode()
crc = base64.b64encode(crc24(packets).to_bytes(3, "big")).decode()
with open(sys.argv[1], "w") as f:
    f.write(head + "-----BEGIN PGP SIGNATURE-----\n\n")
    for i in range(0, len(b64), 64):
        f.write(b64[i:i + 64] + "\n")
    f.write("=" + crc + "\n-----END PGP SIGNATURE-----\n")
EOF
}
splice "$out/bad-b.clear" "$out/ac.clear" "$out/b-other.clear"
rm -f "$out/ac.clear" "$out/b-other.clear" "$out/other"

# The certify-only certificate and a message by each signing subkey.
uid="certonly <certonly@pgpk.test>"
"${gpg[@]}" --export "$uid" >"$out/certonly.pgp"
fpr_of "$uid" >"$out/certonly.fpr"
"${gpg[@]}" --with-colons --list-keys "$uid" |
	awk -F: '/^sub/ { s = $12 } /^fpr/ && s ~ /s/ { print $10; s = "" }' \
		>"$out/certonly.subs"
[ "$(wc -l <"$out/certonly.subs")" = 2 ] || {
	echo "51-multi: want two signing subkeys" >&2
	exit 1
}
n=0
while read -r sub; do
	n=$((n + 1))
	echo "$sub" >"$out/certonly.sub$n.fpr"
	printf 'signed by signing subkey %s\n' "$n" >"$out/msg.sub$n.txt"
	"${gpg[@]}" -u "$sub!" --compress-algo none --output - \
		--sign "$out/msg.sub$n.txt" >"$out/msg.sub$n.gpg"
done <"$out/certonly.subs"

# A real InRelease, when apt has lists: its second signer's certificate
# and signing (sub)key, from the archive keyring.
archive=/usr/share/keyrings/debian-archive-keyring.gpg
rm -f "$out/InRelease" "$out/InRelease.signer2.pgp" "$out/InRelease.signer2.fpr"
for f in /var/lib/apt/lists/*_InRelease; do
	[ -f "$f" ] && [ -f "$archive" ] || continue
	n=$(gpgv --status-fd 1 --keyring "$archive" "$f" 2>/dev/null |
		grep -c 'VALIDSIG')
	[ "$n" -ge 3 ] || continue
	line=$(gpgv --status-fd 1 --keyring "$archive" "$f" 2>/dev/null |
		awk '$2 == "VALIDSIG" { if (++n == 2) print $3, $12 }')
	cp "$f" "$out/InRelease"
	echo "${line% *}" >"$out/InRelease.signer2.fpr"
	gpg --homedir "$GNUPGHOME" --batch --quiet --no-default-keyring \
		--keyring "$archive" --export "${line#* }" \
		>"$out/InRelease.signer2.pgp"
	break
done

# The archive keyring itself, for 52-import.sh.
rm -f "$out/debian-archive-keyring.gpg"
[ -f "$archive" ] && cp "$archive" "$out/debian-archive-keyring.gpg"
exit 0
