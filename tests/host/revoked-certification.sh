#!/bin/bash
# Restricted keyrings trust a key because of a certification the kernel
# picks from Key.third_party.  A third-party certification that its issuer
# later revoked (0x30) must not be offered there: the kernel then falls
# back to Key.certification, the self-certification, which a restricting
# keyring of third-party keys will not accept.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
helper=$root/bazel-bin/helper/pgpk-helper
[ -x "$helper" ] || (cd "$root" && bazel build //helper:pgpk-helper) \
	>/dev/null 2>&1 || { echo "FAIL: pgpk-helper does not build"; exit 1; }
GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'rm -rf "$GNUPGHOME"' EXIT
gpg_() { gpg --batch --pinentry-mode loopback --passphrase '' -q "$@"; }
fpr() { gpg --with-colons --list-keys "$1" | awk -F: '/^fpr/ { print $10; exit }'; }
# issuer BLOB: issuers of the candidates, then of the certification
issuer() {
	"$helper" key "$1" | "$helper" dump --json - | python3 -c '
import json, sys
k = json.load(sys.stdin)["key"]
print(" ".join([s.get("issuer_fingerprint", "?")
                for s in k.get("third_party", []) + [k["certification"]]]))'
}

gpg_ --quick-gen-key "Alice <alice@example.org>" rsa2048 sign never
gpg_ --quick-gen-key "Carl Certifier <carl@example.org>" rsa2048 cert never
alice=$(fpr alice@example.org)
carl=$(fpr carl@example.org)
gpg_ -u "$carl" --quick-sign-key "$alice"
gpg --export "$alice" >"$GNUPGHOME/certified.gpg"
got=$(issuer "$GNUPGHOME/certified.gpg")
if [ "$got" != "$carl $alice" ]; then
	echo "FAIL: certified key: issuers '$got', want Carl $carl, then Alice"
	exit 1
fi
gpg_ -u "$carl" --quick-revoke-sig "$alice" "$carl"
gpg --export "$alice" >"$GNUPGHOME/revoked-cert.gpg"
got=$(issuer "$GNUPGHOME/revoked-cert.gpg")
if [ "$got" != "$alice" ]; then
	echo "FAIL: revoked certification: issuers '$got', want only the self-certification $alice"
	exit 1
fi
echo "PASS: Carl's certification offered, and withdrawn once Carl revoked it"
