#!/bin/bash
# Test data for the IMA cases (tests/vm/cases/6x-ima-*.sh), in
# $PGPK_VM_DATA/ima/.  Made the way a user makes them: gpg certificates,
# an IMA subkey added by `pgpk ima-sign --new-key`, files signed by
# `pgpk ima-sign --print` through gpg-agent; the inputs neither can
# make (a gpg document signature as security.ima, forged canonical keys)
# by tests/vm/tools/pgpk-ima-data.py, each checked valid first.
#
#   a.pgp            certificate A: certify-only primary, signing subkey S,
#                    IMA subkey I;  a.pgpk, a-i.pgpk, a-s.pgpk: primary, I
#                    and S canonical
#   b.pgp, b-j.pgpk  certificate B with IMA subkey J (never in _ima)
#   NAME, NAME.ima   a file and its security.ima (hex):
#     good-sha256, good-sha384, good-sha512   signed by I
#     tampered       good-sha256's signature, other contents
#     unsigned       (no .ima)
#     hash-only      an IMA hash (type 4), no signature
#     other-key      signed by J
#     forged-keyid   signed by J, with I's key ID in the header
#     docsig         D || trailer with the gpg document signature of D by S
#   i.keyid          I's IMA key ID (8 hex digits);  forged/: pgpk-ima-data.py
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}/ima
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
pgpk=${PGPK_BIN:-$root/bazel-bin/helper/pgpk}
tool=$root/tests/vm/tools/pgpk-ima-data.py
mkdir -p "$out"

export GNUPGHOME=$(mktemp -d)
trap 'gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$GNUPGHOME"' EXIT
printf 'pinentry-mode loopback\npassphrase \n' >"$GNUPGHOME/gpg.conf"
g() { gpg --batch --quiet "$@" 2>/dev/null; }
fpr_of() { gpg --with-colons --list-keys "$1" | awk -F: '/^fpr/ { print $10; exit }'; }

g --quick-gen-key 'pgpk IMA test A <a@pgpk.test>' rsa2048 cert never
a=$(fpr_of a@pgpk.test)
g --quick-add-key "$a" rsa2048 sign never
s=$(gpg --with-colons --list-keys "$a" | awk -F: '/^fpr/ { f = $10 } END { print f }')
i=$("$pgpk" ima-sign --new-key "$a" --algo rsa2048)
g --quick-gen-key 'pgpk IMA test B <b@pgpk.test>' rsa2048 cert never
b=$(fpr_of b@pgpk.test)
j=$("$pgpk" ima-sign --new-key "$b" --algo rsa2048)

g --export "$a" >"$out/a.pgp"
g --export "$b" >"$out/b.pgp"
"$pgpk" key "$out/a.pgp" >"$out/a.pgpk"
"$pgpk" key --select "$i" "$out/a.pgp" >"$out/a-i.pgpk"
"$pgpk" key --select "$s" "$out/a.pgp" >"$out/a-s.pgpk"
"$pgpk" key --select "$j" "$out/b.pgp" >"$out/b-j.pgpk"
echo "${i: -8}" | tr 'A-F' 'a-f' >"$out/i.keyid"
echo "$i" >"$out/i.fpr"

sign() { # sign FILE KEY HASH: FILE.ima
	"$pgpk" ima-sign --key "$2" --hash "$3" --print "$out/$1" |
		cut -d ' ' -f 1 >"$out/$1.ima"
}
for h in sha256 sha384 sha512; do
	echo "signed by the IMA subkey with $h" >"$out/good-$h"
	sign "good-$h" "$i" "$h"
done
echo "signed by the IMA subkey with sha256, then changed" >"$out/tampered"
cp "$out/good-sha256.ima" "$out/tampered.ima"
echo "never signed" >"$out/unsigned"
echo "only an IMA hash, no signature" >"$out/hash-only"
echo "0404$(sha256sum "$out/hash-only" | cut -d ' ' -f 1)" >"$out/hash-only.ima"
echo "signed by another certificate's IMA subkey" >"$out/other-key"
sign other-key "$j" sha256
echo "signed by another key, claiming the IMA subkey's key ID" >"$out/forged-keyid"
sign forged-keyid "$j" sha256
v=$(cat "$out/forged-keyid.ima")
echo "${v:0:6}$(cat "$out/i.keyid")${v:14}" >"$out/forged-keyid.ima"

# an ordinary gpg document signature by S, as the IMA signature of D || trailer
echo "a document signed with gpg by the ordinary signing subkey" >"$out/doc"
g --digest-algo SHA256 --local-user "$s!" --detach-sign -o "$out/doc.sig" "$out/doc"
python3 "$tool" docsig "$out/a.pgp" "$out/doc.sig" "$out/doc" "$out/docsig"

python3 "$tool" forged "$out/forged"
