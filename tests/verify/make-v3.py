#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write v3 signatures (RFC 4880 5.2.2) into tests/verify/testdata, made by
an implementation independent of pgpk (this file + python3-cryptography);
GnuPG 2.2 makes no v3 signature any more, and pgpk refuses them
everywhere (the kernel checks v4 and v6 only).

  v3.pgp          RSA-2048 v4 key, user ID "V3 Key <v3@example.org>" with
                  a v4 positive certification (0x13), key flags certify+sign
  v3self.pgp      the same key, its user ID certified by a v3 0x13 only
  v3.fpr          its fingerprint
  msg.v3.sig      v3 binary signature over msg.txt, SHA-256
  msg.v3v4.sig    the same v3 signature, then a v4 one over msg.txt: the
                  v4 one is what a canonical answer keeps

usage: tests/verify/make-v3.py   (msg.txt must exist)
"""

import hashlib
import os
import struct
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata")


def mpi(x):
    """RFC 9580 3.2: 2-octet bit count, big-endian value."""
    b = x.to_bytes((x.bit_length() + 7) // 8, "big")
    return struct.pack(">H", x.bit_length()) + b


def packet(tag, body):
    """RFC 4880 4.2: old-format header, 2-octet length."""
    return bytes([0x80 | tag << 2 | 1]) + struct.pack(">H", len(body)) + body


def subpacket(typ, data):
    return bytes([len(data) + 1, typ]) + data


def sign(priv, data):
    digest = hashlib.sha256(data).digest()
    s = priv.sign(digest, padding.PKCS1v15(), utils.Prehashed(hashes.SHA256()))
    return digest, int.from_bytes(s, "big")


def v4_sig(priv, sigtype, hashed, data, keyid):
    """RFC 9580 5.2.3: v4, RSA, SHA-256."""
    head = bytes([4, sigtype, 1, 8]) + struct.pack(">H", len(hashed))
    trailer = head + hashed + b"\x04\xff" + struct.pack(
        ">I", len(head) + len(hashed))
    digest, s = sign(priv, data + trailer)
    unhashed = subpacket(16, keyid)
    return (head + hashed + struct.pack(">H", len(unhashed)) + unhashed +
            digest[:2] + mpi(s))


def v3_sig(priv, sigtype, created, data, keyid):
    """RFC 4880 5.2.2: v3, RSA, SHA-256: hashes type and time after data."""
    hashed = bytes([sigtype]) + struct.pack(">I", created)
    digest, s = sign(priv, data + hashed)
    return (bytes([3, 5]) + hashed + keyid + bytes([1, 8]) + digest[:2] +
            mpi(s))


def main():
    now = int(time.time()) - 3600
    priv = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pub = priv.public_key().public_numbers()
    body = bytes([4]) + struct.pack(">I", now) + bytes([1]) + mpi(pub.n) + \
        mpi(pub.e)
    prefix = b"\x99" + struct.pack(">H", len(body)) + body
    fpr = hashlib.sha1(prefix).digest()
    keyid = fpr[-8:]
    uid = b"V3 Key <v3@example.org>"
    cert_data = prefix + b"\xb4" + struct.pack(">I", len(uid)) + uid
    hashed = (subpacket(2, struct.pack(">I", now)) + subpacket(27, b"\x03") +
              subpacket(33, b"\x04" + fpr))
    v4cert = v4_sig(priv, 0x13, hashed, cert_data, keyid)
    # A v3 certification hashes the user ID without its 0xB4 header.
    v3cert = v3_sig(priv, 0x13, now, prefix + uid, keyid)
    with open(os.path.join(OUT, "v3.pgp"), "wb") as f:
        f.write(packet(6, body) + packet(13, uid) + packet(2, v4cert))
    with open(os.path.join(OUT, "v3self.pgp"), "wb") as f:
        f.write(packet(6, body) + packet(13, uid) + packet(2, v3cert))
    with open(os.path.join(OUT, "v3.fpr"), "w") as f:
        f.write(fpr.hex().upper() + "\n")
    msg = open(os.path.join(OUT, "msg.txt"), "rb").read()
    v3 = packet(2, v3_sig(priv, 0x00, now + 60, msg, keyid))
    v4 = packet(2, v4_sig(priv, 0x00, subpacket(2, struct.pack(
        ">I", now + 60)) + subpacket(33, b"\x04" + fpr), msg, keyid))
    with open(os.path.join(OUT, "msg.v3.sig"), "wb") as f:
        f.write(v3)
    with open(os.path.join(OUT, "msg.v3v4.sig"), "wb") as f:
        f.write(v3 + v4)
    print("v3 signatures by %s written to %s" % (fpr.hex().upper(), OUT))


if __name__ == "__main__":
    main()
