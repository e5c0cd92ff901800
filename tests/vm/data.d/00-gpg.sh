#!/bin/bash
# Test data for the VM cases, made on the host with GnuPG.
#
# Runs with PGPK_VM_DATA (output dir, becomes /pgpk/data in the VM) and
# PGPK_VM_CACHE (kept between runs: the generated keys, so reruns take
# well under a second).  Every output name is listed in
# $PGPK_VM_DATA/00-gpg.txt with a one-line description.
#
# Keys (throwaway GNUPGHOME, no passphrase):
#   rsa2048  RSA 2048 primary, signs with SHA-256 (+ an RSA 2048 signing
#            subkey, rsa2048-sub.*)
#   rsa3072  RSA 3072 primary, signs with SHA-512 (needs sha512_generic)
# Files per key K: K.pgp (binary transferable public key), K.asc
# (armored), K.fpr (fingerprint, uppercase hex), K.keyid (key ID).
# Messages: msg.txt, and per key K: msg.txt.K.sig (detached, binary),
# msg.txt.K.asc (detached, armored), msg.K.gpg (attached, binary, not
# compressed), msg.K.zlib.gpg (the same, compressed), msg.K.clear
# (cleartext signed); msg-tampered.txt (msg.txt with one
# byte changed: every signature above is invalid for it).
# Real-world keys: debian-archive-key.pgp (Debian 12 archive automatic
# signing key, RSA 4096 + subkey), debian-release-key.pgp (Debian 11
# stable release key, RSA 4096).  Bad input: rsa2048-truncated.pgp,
# garbage.bin, garbage.asc.
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
cache=${PGPK_VM_CACHE:-${TMPDIR:-/tmp}/pgpk-vm-cache}
mkdir -p "$out" "$cache"
export GNUPGHOME=$cache/gnupg
gpg=(gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase ''
	--no-auto-check-trustdb --trust-model always)
index=$out/00-gpg.txt
: >"$index"
note() { printf '%-28s %s\n' "$1" "$2" >>"$index"; }

# make_key NAME ALGO DIGEST: generate once into the cached keyring.
make_key() {
	local name=$1 algo=$2 digest=$3 uid="pgpk test $1 <$1@pgpk.test>"
	if ! "${gpg[@]}" --list-keys "$uid" >/dev/null 2>&1; then
		"${gpg[@]}" --quick-generate-key "$uid" "$algo" sign never
	fi
	echo "$uid"
}

# tamper IN OUT: OUT is IN with "signed for" -> "signed fOr", in place.
tamper() {
	local off
	off=$(grep -obUa 'signed for' "$1" | head -n 1 | cut -d : -f 1)
	[ -n "$off" ] || { echo "tamper: no 'signed for' in $1" >&2; return 1; }
	cp "$1" "$2"
	printf 'signed fOr' | dd of="$2" bs=1 seek="$off" conv=notrunc \
		status=none
	! cmp -s "$1" "$2"
}

if [ ! -f "$GNUPGHOME/.pgpk-keys-done" ]; then
	rm -rf "$GNUPGHOME"
	mkdir -m 0700 -p "$GNUPGHOME"
	uid=$(make_key rsa2048 rsa2048 SHA256)
	fpr=$("${gpg[@]}" --with-colons --list-keys "$uid" |
		awk -F: '/^fpr/ { print $10; exit }')
	"${gpg[@]}" --quick-add-key "$fpr" rsa2048 sign never
	make_key rsa3072 rsa3072 SHA512 >/dev/null
	touch "$GNUPGHOME/.pgpk-keys-done"
fi

printf 'pgpk: a message signed for the VM tests.\nSecond line.\n' \
	>"$out/msg.txt"
note msg.txt "the signed message"
# Same length, one byte changed.
sed 's/message/messagE/' "$out/msg.txt" >"$out/msg-tampered.txt"
note msg-tampered.txt "msg.txt with one byte changed"

for k in rsa2048:SHA256 rsa3072:SHA512; do
	name=${k%%:*}
	digest=${k#*:}
	uid="pgpk test $name <$name@pgpk.test>"
	"${gpg[@]}" --export "$uid" >"$out/$name.pgp"
	"${gpg[@]}" --armor --export "$uid" >"$out/$name.asc"
	"${gpg[@]}" --with-colons --list-keys "$uid" |
		awk -F: '/^fpr/ { print $10; exit }' >"$out/$name.fpr"
	cut -c 25-40 "$out/$name.fpr" >"$out/$name.keyid"
	# seed 007's description, from the reference (tests/lib/pgpk_name.py)
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1])
from pgpk_name import seed_name
print(seed_name(sys.argv[2].encode(), bytes.fromhex(sys.argv[3])))' \
		"$root/tests/lib" "$uid" "$(cat "$out/$name.keyid")" \
		>"$out/$name.name"
	note "$name.pgp" "$name public key, binary"
	note "$name.asc" "$name public key, armored"
	note "$name.fpr" "$name primary key fingerprint"
	note "$name.keyid" "$name primary key ID"
	note "$name.name" "$name: the description the kernel gives it"
	# Sign with the primary key ("!" forces it over a signing subkey).
	signer="$(cat "$out/$name.fpr")!"
	sign=("${gpg[@]}" --yes --digest-algo "$digest" --local-user "$signer")
	"${sign[@]}" --detach-sign -o "$out/msg.txt.$name.sig" "$out/msg.txt"
	"${sign[@]}" --armor --detach-sign -o "$out/msg.txt.$name.asc" \
		"$out/msg.txt"
	# Inline-signed messages are stored, not compressed: the kernel
	# hashes the literal data itself and never inflates anything.
	"${sign[@]}" --compress-algo none --sign -o "$out/msg.$name.gpg" \
		"$out/msg.txt"
	"${sign[@]}" --compress-algo zlib --sign -o "$out/msg.$name.zlib.gpg" \
		"$out/msg.txt"
	"${sign[@]}" --clearsign -o "$out/msg.$name.clear" "$out/msg.txt"
	note "msg.txt.$name.sig" "detached $digest signature by $name, binary"
	note "msg.txt.$name.asc" "detached $digest signature by $name, armored"
	note "msg.$name.gpg" "msg.txt signed by $name, attached, stored"
	note "msg.$name.zlib.gpg" "msg.txt signed by $name, attached, zlib"
	note "msg.$name.clear" "msg.txt cleartext-signed by $name"
	# The same signed messages with one byte of the content changed.
	tamper "$out/msg.$name.gpg" "$out/msg.$name.tampered.gpg"
	tamper "$out/msg.$name.clear" "$out/msg.$name.tampered.clear"
	note "msg.$name.tampered.gpg" "msg.$name.gpg, one content byte changed"
	note "msg.$name.tampered.clear" "msg.$name.clear, one content byte changed"
done

# The rsa2048 signing subkey and a signature made with it.
"${gpg[@]}" --with-colons --list-keys "pgpk test rsa2048" |
	awk -F: '/^sub/ { s = 1 } s && /^fpr/ { print $10; exit }' \
		>"$out/rsa2048-sub.fpr"
cut -c 25-40 "$out/rsa2048-sub.fpr" >"$out/rsa2048-sub.keyid"
"${gpg[@]}" --yes --digest-algo SHA256 \
	--local-user "$(cat "$out/rsa2048-sub.fpr")!" \
	--detach-sign -o "$out/msg.txt.rsa2048-sub.sig" "$out/msg.txt"
note rsa2048-sub.fpr "rsa2048's signing subkey fingerprint"
note rsa2048-sub.keyid "rsa2048's signing subkey key ID"
note msg.txt.rsa2048-sub.sig "detached SHA256 signature by the subkey"

# Real keys as shipped by Debian (debian-archive-keyring).
keyrings=/usr/share/keyrings
if [ -f "$keyrings/debian-archive-bookworm-automatic.gpg" ]; then
	cp "$keyrings/debian-archive-bookworm-automatic.gpg" \
		"$out/debian-archive-key.pgp"
	note debian-archive-key.pgp "Debian 12 archive signing key (RSA 4096)"
fi
if [ -f "$keyrings/debian-archive-bullseye-stable.gpg" ]; then
	cp "$keyrings/debian-archive-bullseye-stable.gpg" \
		"$out/debian-release-key.pgp"
	note debian-release-key.pgp "Debian 11 release key (RSA 4096)"
fi

# A key cut short inside its first packet (OpenPGP-shaped: the kernel
# sends it to the helper, whose parser refuses it).
head -c 200 "$out/rsa2048.pgp" >"$out/rsa2048-truncated.pgp"
note rsa2048-truncated.pgp "the first 200 octets of rsa2048.pgp"

# Not OpenPGP at all: pseudo-random, the same bytes every run; seed 9
# starts with 0x02, bit 7 clear, which no OpenPGP packet header has
# (RFC 9580 4.2), so the kernel refuses it without an upcall.
perl -e 'srand(9); print map { chr(int(rand(256))) } 1 .. 600' \
	>"$out/garbage.bin"
{
	echo "-----BEGIN PGP PUBLIC KEY BLOCK-----"
	echo
	echo "bm90IGEga2V5IGF0IGFsbCwganVzdCBiYXNlNjQgdGV4dAo="
	echo "=AAAA"
	echo "-----END PGP PUBLIC KEY BLOCK-----"
} >"$out/garbage.asc"
note garbage.bin "600 pseudo-random bytes (fixed seed)"
note garbage.asc "an armor block around base64 text that is no key"
cat "$index"
