#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a v6 RSA certificate and v6 detached signatures (RFC 9580) into
tests/verify/testdata, made by an implementation independent of pgpk
(this file + python3-cryptography); GnuPG 2.2 cannot make v6 packets.

  v6.pgp            RSA-3072 v6 primary key, direct-key signature (0x1F),
                    user ID "V6 Key <v6@example.org>" with a positive
                    certification (0x13), key flags certify+sign
  v6.fpr            its fingerprint (SHA-256, RFC 9580 5.5.4.3)
  msg.v6.sig        v6 binary signature over msg.txt, SHA-256, 16-octet salt
  msg.v6-512.sig    the same with SHA-512 and a 32-octet salt
  msg.v6-text.sig   v6 text signature (0x01), SHA-384, 24-octet salt

usage: tests/verify/make-v6.py   (msg.txt must exist)
"""

import hashlib
import os
import struct
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata")
HASHES = {8: (hashlib.sha256, hashes.SHA256(), 16),
          9: (hashlib.sha384, hashes.SHA384(), 24),
          10: (hashlib.sha512, hashes.SHA512(), 32)}


def mpi(x):
    """RFC 9580 3.2: 2-octet bit count, big-endian value."""
    b = x.to_bytes((x.bit_length() + 7) // 8, "big")
    return struct.pack(">H", x.bit_length()) + b


def packet(tag, body):
    """RFC 9580 4.2.1: new-format header."""
    n = len(body)
    if n < 192:
        hdr = bytes([n])
    elif n < 8384:
        n -= 192
        hdr = bytes([(n >> 8) + 192, n & 0xFF])
    else:
        hdr = b"\xff" + struct.pack(">I", n)
    return bytes([0xC0 | tag]) + hdr + body


def subpacket(typ, data):
    """RFC 9580 5.2.3.7 (short lengths only)."""
    assert len(data) + 1 < 192
    return bytes([len(data) + 1, typ]) + data


def key_body(created, n, e):
    """RFC 9580 5.5.2.3: v6 key with a 4-octet key material length."""
    material = mpi(n) + mpi(e)
    return (bytes([6]) + struct.pack(">I", created) + bytes([1]) +
            struct.pack(">I", len(material)) + material)


def key_hash_prefix(body):
    """RFC 9580 5.2.4 / 5.5.4.3: 0x9B, 4-octet length, body."""
    return b"\x9b" + struct.pack(">I", len(body)) + body


def sign(priv, sigtype, hash_id, hashed, data, fpr):
    """RFC 9580 5.2.3 / 5.2.4: a v6 RSA signature packet body."""
    hfun, hobj, saltlen = HASHES[hash_id]
    salt = os.urandom(saltlen)
    head = bytes([6, sigtype, 1, hash_id]) + struct.pack(">I", len(hashed))
    trailer = head + hashed + b"\x06\xff" + struct.pack(
        ">I", len(head) + len(hashed))
    digest = hfun(salt + data + trailer).digest()
    s = priv.sign(digest, padding.PKCS1v15(), utils.Prehashed(hobj))
    s_int = int.from_bytes(s, "big")
    unhashed = b""
    return (head + hashed + struct.pack(">I", len(unhashed)) + unhashed +
            digest[:2] + bytes([saltlen]) + salt + mpi(s_int))


def main():
    now = int(time.time()) - 3600
    priv = rsa.generate_private_key(public_exponent=65537, key_size=3072)
    pub = priv.public_key().public_numbers()
    body = key_body(now, pub.n, pub.e)
    fpr = hashlib.sha256(key_hash_prefix(body)).digest()
    issuer = subpacket(33, b"\x06" + fpr)
    created = subpacket(2, struct.pack(">I", now))
    flags = subpacket(27, b"\x03")

    # Direct-key self-signature (0x1F) over the key.
    dk = sign(priv, 0x1F, 8, created + flags + issuer,
              key_hash_prefix(body), fpr)
    uid = b"V6 Key <v6@example.org>"
    # Positive certification (0x13): key, then 0xB4 + length + user ID.
    cert_data = key_hash_prefix(body) + b"\xb4" + struct.pack(
        ">I", len(uid)) + uid
    uc = sign(priv, 0x13, 8, created + flags + subpacket(25, b"\x01") +
              issuer, cert_data, fpr)
    with open(os.path.join(OUT, "v6.pgp"), "wb") as f:
        f.write(packet(6, body) + packet(2, dk) + packet(13, uid) +
                packet(2, uc))
    with open(os.path.join(OUT, "v6.fpr"), "w") as f:
        f.write(fpr.hex().upper() + "\n")

    msg = open(os.path.join(OUT, "msg.txt"), "rb").read()
    sig_created = subpacket(2, struct.pack(">I", now + 60))
    for name, typ, hid, data in (
            ("msg.v6.sig", 0x00, 8, msg),
            ("msg.v6-512.sig", 0x00, 10, msg),
            ("msg.v6-text.sig", 0x01, 9, msg.replace(b"\n", b"\r\n"))):
        sig = sign(priv, typ, hid, sig_created + issuer, data, fpr)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(packet(2, sig))
    print("v6 key %s and signatures written to %s" % (fpr.hex().upper(),
                                                     OUT))


if __name__ == "__main__":
    main()
