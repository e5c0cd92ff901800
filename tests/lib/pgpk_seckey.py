"""An unprotected OpenPGP RSA secret key or subkey as PEM (PKCS#8).

For tests only: compares pgpk ima-sign (gpg-agent signs) with
evmctl (signs with the same key, exported).  `gpg --export-secret-subkeys`
of a key without a passphrase writes secret key packets (tag 5 or 7) whose
secret MPIs are in the clear (RFC 9580 5.5.3, S2K usage 0).

    python3 pgpk_seckey.py KEYID_HEX < secret-export.gpg > key.pem
"""
import hashlib
import os
import sys

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgpk_openpgp import packets  # noqa: E402


def mpi(body, i):
    bits = int.from_bytes(body[i:i + 2], "big")
    n = (bits + 7) // 8
    return int.from_bytes(body[i + 2:i + 2 + n], "big"), i + 2 + n


def key_id(body, public_len):
    pub = body[:public_len]
    fpr = hashlib.sha1(b"\x99" + len(pub).to_bytes(2, "big") + pub).digest()
    return fpr[-8:].hex().upper()


def private_key(data, want):
    for tag, _, body in packets(data):
        if tag not in (5, 7) or body[0] != 4 or body[5] not in (1, 3):
            continue
        n, i = mpi(body, 6)
        e, i = mpi(body, i)
        if not key_id(body, i).endswith(want.upper()):
            continue
        if body[i] != 0:
            raise ValueError("secret key is protected (S2K usage %d)" % body[i])
        d, i = mpi(body, i + 1)
        p, i = mpi(body, i)
        q, i = mpi(body, i)
        return rsa.RSAPrivateNumbers(
            p, q, d, d % (p - 1), d % (q - 1), rsa.rsa_crt_iqmp(p, q),
            rsa.RSAPublicNumbers(e, n)).private_key()
    raise KeyError("no secret RSA key " + want)


if __name__ == "__main__":
    key = private_key(sys.stdin.buffer.read(), sys.argv[1])
    sys.stdout.buffer.write(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
