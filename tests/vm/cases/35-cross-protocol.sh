#!/bin/sh
# Only OpenPGP keys issue OpenPGP signatures.  An X.509 key in the
# keyring searched (here the session keyring pgpk_test falls back to)
# signed SHA-256 of a file for another protocol; that file ends like a v4
# OpenPGP trailer (RFC 9580 5.2.4), so the same RSA value is a valid v4
# OpenPGP signature of the file minus its trailer, naming the
# certificate's subject key ID as issuer key ID.  It was verified (as a
# v3 signature: those are refused altogether now); the X.509 key is not
# an issuer: ENOKEY.
. /pgpk/lib.sh
X=$PGPK_DATA/r/x509
pgpk_need_module
pgpk_need_data r/x509/cert.der r/x509/forged.pgpks
pgpk_load

expect_ok keyctl padd asymmetric "" @s <"$X/cert.der"
pgpk_kmsg_mark
expect_fail ENOKEY keyctl padd pgpk_test forged @s <"$X/forged.pgpks"
assert_contains "$(pgpk_kmsg_since)" "is not an OpenPGP key" "kernel log"
exit 0
