#!/bin/bash
# Regenerate tests/verify/testdata (committed; the test itself needs no
# gpg): keys and signatures made by gpg in a throwaway GNUPGHOME.
#   good.pgp       RSA-2048 key with a signing subkey
#   msg.txt        the signed data (LF line endings)
#   msg.sig        detached, binary, by the primary key, SHA-256
#   msg.sub.asc    detached, armored, by the subkey, SHA-512
#   msg.text.sig   detached, text mode
#   msg.sha1.sig   detached, SHA-1 (refused by the default policy)
#   msg.clear      cleartext-signed msg.txt
#   msg.inline     inline signed (compressed) msg.txt
#   expired.pgp + msg.expired.sig   key expired in 2021, signed in 2020
#   revoked.pgp + msg.revoked.sig   key revoked after signing
#   small.pgp + msg.small.sig       RSA-1024 (below --min-rsa-bits 2048)
#   other.sig      by a key that is in no keyring here
# v6 keys and signatures: make-v6.py, v3 signatures: make-v3.py (gpg 2.2
# can make neither).
set -eu
out=$(cd "$(dirname "$0")" && pwd)/testdata
mkdir -p "$out"
GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'gpgconf --kill all; rm -rf "$GNUPGHOME"' EXIT
G="gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase= --yes"
fpr() { gpg --with-colons --list-keys "=$1" | awk -F: '/^fpr/ { print $10; exit }'; }
$G --quick-gen-key "Good Key <good@example.org>" rsa2048 sign,cert never
good=$(fpr "Good Key <good@example.org>")
$G --quick-add-key "$good" rsa2048 sign never
sub=$(gpg --with-colons --list-keys "$good" |
	awk -F: '/^sub/ { s = 1 } s && /^fpr/ { print $10; exit }')
$G --faked-system-time 20200101T000000 --quick-gen-key \
	"Expired Key <expired@example.org>" rsa2048 sign,cert 1y
expired=$(fpr "Expired Key <expired@example.org>")
$G --quick-gen-key "Revoked Key <revoked@example.org>" rsa2048 sign,cert never
revoked=$(fpr "Revoked Key <revoked@example.org>")
$G --quick-gen-key "Small Key <small@example.org>" rsa1024 sign,cert never
small=$(fpr "Small Key <small@example.org>")
$G --quick-gen-key "Other Key <other@example.org>" rsa2048 sign,cert never
other=$(fpr "Other Key <other@example.org>")

printf 'pgpk verify test data\nsecond line\n' >"$out/msg.txt"
m=$out/msg.txt
$G -u "$good!" --digest-algo SHA256 -o "$out/msg.sig" --detach-sign "$m"
$G -u "$sub!" --digest-algo SHA512 -a -o "$out/msg.sub.asc" --detach-sign "$m"
$G -u "$good!" --textmode -o "$out/msg.text.sig" --detach-sign "$m"
$G -u "$good!" --digest-algo SHA1 -o "$out/msg.sha1.sig" --detach-sign "$m"
$G -u "$good!" -o "$out/msg.clear" --clearsign "$m"
$G -u "$good!" -o "$out/msg.inline" --sign "$m"
$G -u "$expired!" --faked-system-time 20200601T000000 \
	-o "$out/msg.expired.sig" --detach-sign "$m"
$G -u "$revoked!" -o "$out/msg.revoked.sig" --detach-sign "$m"
sed 's/^:-----BEGIN/-----BEGIN/' "$GNUPGHOME/openpgp-revocs.d/$revoked.rev" |
	$G --import
$G -u "$small!" -o "$out/msg.small.sig" --detach-sign "$m"
$G -u "$other!" -o "$out/other.sig" --detach-sign "$m"
gpg --export "$good" >"$out/good.pgp"
gpg --export "$expired" >"$out/expired.pgp"
gpg --export "$revoked" >"$out/revoked.pgp"
gpg --export "$small" >"$out/small.pgp"
echo "$good" >"$out/good.fpr"
echo "$sub" >"$out/sub.fpr"
ls -l "$out"
