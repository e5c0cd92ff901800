#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test-only maker of a v6 RSA OpenPGP key and signatures (RFC 9580).

GnuPG 2.2 makes neither v6 keys nor v3 signatures, so the VM's v6 case
gets them from here: a v6 RSA 3072 key packet (5.5.2.3), its salted v6
direct-key self-signature (a v6 key's use and life, 10.1.3), a user ID, a
salted v6 positive certification (5.2.3, 5.2.4), a salted v6 detached
signature over a file, and a v3 detached signature (5.2.2) over it by the
same key, all with OpenPGP-format headers.  Uses python3-cryptography.

usage: pgpk-mkv6.py KEYFILE.pem DATA OUTDIR
writes OUTDIR/v6.pgp, v6.sig, v3.sig, v6.fpr (64 hex), v6.keyid (16 hex)
"""
import hashlib
import os
import sys
import time

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from pgpk_openpgp import mpi, packet, subpacket  # noqa: E402

UID = b"pgpk test v6 <v6@pgpk.test>"


def sign(priv, sigtype, created, fpr, prefix):
    """A v6 signature packet body over prefix (RFC 9580 5.2.3, 5.2.4)."""
    hashed = (subpacket(2, created.to_bytes(4, "big"))
              + subpacket(33, b"\x06" + fpr))
    if sigtype in (0x13, 0x1F):
        hashed += subpacket(27, b"\x03")
    head = bytes([6, sigtype, 1, 8]) + len(hashed).to_bytes(4, "big") + hashed
    salt = os.urandom(16)  # RFC 9580 9.5: 16 octets for SHA-256
    h = hashlib.sha256(salt + prefix + head + b"\x06\xff"
                       + len(head).to_bytes(4, "big"))
    digest = h.digest()
    s = priv.sign(digest, padding.PKCS1v15(), utils.Prehashed(hashes.SHA256()))
    return (head + (0).to_bytes(4, "big") + digest[:2] + bytes([len(salt)])
            + salt + mpi(int.from_bytes(s, "big")))


def main():
    keyfile, data, out = sys.argv[1:4]
    if not os.path.exists(keyfile):
        k = rsa.generate_private_key(public_exponent=65537, key_size=3072)
        open(keyfile, "wb").write(k.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
    priv = serialization.load_pem_private_key(open(keyfile, "rb").read(),
                                              None)
    pub = priv.public_key().public_numbers()
    created = int(os.stat(keyfile).st_mtime)
    material = mpi(pub.n) + mpi(pub.e)
    body = (bytes([6]) + created.to_bytes(4, "big") + bytes([1])
            + len(material).to_bytes(4, "big") + material)
    kprefix = b"\x9b" + len(body).to_bytes(4, "big") + body
    fpr = hashlib.sha256(kprefix).digest()
    uprefix = b"\xb4" + len(UID).to_bytes(4, "big") + UID
    direct = sign(priv, 0x1F, created, fpr, kprefix)
    cert = sign(priv, 0x13, created, fpr, kprefix + uprefix)
    open(out + "/v6.pgp", "wb").write(packet(6, body) + packet(2, direct)
                                      + packet(13, UID) + packet(2, cert))
    msg = open(data, "rb").read()
    now = int(time.time())
    open(out + "/v6.sig", "wb").write(packet(2, sign(priv, 0x00, now, fpr,
                                                     msg)))
    # RFC 9580 5.2.2: v3 hashes the data, then type and creation time.
    head = bytes([0x00]) + now.to_bytes(4, "big")
    digest = hashlib.sha256(msg + head).digest()
    s = priv.sign(digest, padding.PKCS1v15(), utils.Prehashed(hashes.SHA256()))
    v3 = (bytes([3, 5]) + head + fpr[:8] + bytes([1, 8]) + digest[:2]
          + mpi(int.from_bytes(s, "big")))
    open(out + "/v3.sig", "wb").write(packet(2, v3))
    open(out + "/v6.fpr", "w").write(fpr.hex().upper() + "\n")
    open(out + "/v6.keyid", "w").write(fpr[:8].hex().upper() + "\n")


if __name__ == "__main__":
    main()
