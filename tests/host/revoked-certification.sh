#!/bin/bash
# Restricted keyrings trust a key because of the certification the helper
# chooses among the trust anchors' (Key.certification).  A certification
# that its issuer, an anchor, later revoked (0x30, verified with the
# anchor's key) must not be chosen: the key's own then vouches, which a
# keyring restricted to the anchor will not accept.  A revocation in the
# anchor's name that does not verify withdraws nothing (else anyone could
# hide the genuine certification by appending one).
. "$(dirname "$0")/lib.sh"
host_build
host_tmp
host_gnupg
gpg_() { gpg --batch --pinentry-mode loopback --passphrase '' -q "$@"; }
fpr() { gpg --with-colons --list-keys "$1" | awk -F: '/^fpr/ { print $10; exit }'; }
# issuer BLOB: the issuer of the certification chosen with Carl an anchor
issuer() {
	"$pgpk" key --anchors "$GNUPGHOME/anchors" "$1" |
		"$pgpk" dump --json - | python3 -c '
import json, sys
k = json.load(sys.stdin)["key"]
print(k["certification"].get("issuer_fingerprint", "?"))'
}

gpg_ --quick-gen-key "Alice <alice@example.org>" rsa2048 sign never
gpg_ --quick-gen-key "Carl Certifier <carl@example.org>" rsa2048 cert never
alice=$(fpr alice@example.org)
carl=$(fpr carl@example.org)
mkdir "$GNUPGHOME/anchors"
gpg --export "$carl" >"$GNUPGHOME/anchors/carl.pgp"
gpg_ -u "$carl" --quick-sign-key "$alice"
gpg --export "$alice" >"$GNUPGHOME/certified.gpg"
got=$(issuer "$GNUPGHOME/certified.gpg")
if [ "$got" != "$carl" ]; then
	echo "FAIL: certified key: certified by '$got', want Carl $carl"
	exit 1
fi
# A revocation in Carl's name that Carl did not make.
PYTHONPATH=$root/tests/lib python3 - "$GNUPGHOME/certified.gpg" \
	"$GNUPGHOME/forged-rev.gpg" "$carl" <<'PY'
import sys, time
import pgpk_forge as f
buf = open(sys.argv[1], "rb").read()
key, uid, _ = f.split_key(buf)
carl = bytes.fromhex(sys.argv[3])
rev = f.certification(key, uid, carl[-8:], int(time.time()) + 10,
                      issuer_fpr=carl, quick_ok=True, sig_type=0x30)
open(sys.argv[2], "wb").write(f.insert_after_uid(buf, rev))
PY
got=$(issuer "$GNUPGHOME/forged-rev.gpg")
if [ "$got" != "$carl" ]; then
	echo "FAIL: a forged revocation withdrew Carl's certification: '$got'"
	exit 1
fi
sleep 1 # the revocation after the certification
gpg_ -u "$carl" --quick-revoke-sig "$alice" "$carl"
gpg --export "$alice" >"$GNUPGHOME/revoked-cert.gpg"
got=$(issuer "$GNUPGHOME/revoked-cert.gpg")
if [ "$got" != "$alice" ]; then
	echo "FAIL: revoked certification: certified by '$got', want the self-certification $alice"
	exit 1
fi
echo "PASS: Carl's certification chosen, kept through a forged revocation, withdrawn once Carl revoked it"
