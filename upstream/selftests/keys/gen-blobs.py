#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write keys_pgpk_blobs.h for the keys kselftest: canonical OpenPGP keys
and signatures (include/uapi/linux/pgpk.h) made from fresh RSA keys.

usage: gen-blobs.py > keys_pgpk_blobs.h
       gen-blobs.py --raw DIR   (the CA, the user, and the user's detached
                                signature of "Signed by the test user.\n",
                                each as DIR/NAME.bin: upstream/kunit/)

Everything a blob holds is written out here from RFC 9580 (key packets,
user ID certifications, document signatures, their trailers and digests)
and signed with python3-cryptography, independently of the kernel's
code; the key IDs the kernel must compute are computed here too.  The
output is committed (the test needs no tools at run time); run it again
only to change the blobs.
"""
import hashlib
import struct
import sys
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils

NOW = int(time.time()) - 86400


def varint(v):
    out = bytearray()
    while True:
        out.append((v & 0x7f) | (0x80 if v > 0x7f else 0))
        v >>= 7
        if not v:
            return bytes(out)


def num(n, v):
    return varint(n << 3) + varint(v)


def byts(n, b):
    return varint(n << 3 | 2) + varint(len(b)) + b


def be(x):
    return x.to_bytes((x.bit_length() + 7) // 8, "big")


def mpi(x):
    return struct.pack(">H", x.bit_length()) + be(x)


class Key:
    def __init__(self, bits, uid):
        self.priv = rsa.generate_private_key(public_exponent=65537,
                                             key_size=bits)
        pub = self.priv.public_key().public_numbers()
        self.n, self.e, self.uid, self.created = pub.n, pub.e, uid, NOW
        self.body = (bytes([4]) + struct.pack(">I", NOW) + bytes([1]) +
                     mpi(self.n) + mpi(self.e))
        self.hashed = b"\x99" + struct.pack(">H", len(self.body)) + self.body
        self.fpr = hashlib.sha1(self.hashed).digest()
        self.keyid = self.fpr[-8:]

    def material(self):
        return (num(1, 4) + num(2, self.created) + num(3, 1) +
                byts(4, be(self.n)) + byts(5, be(self.e)))

    def sign(self, sigtype, prefix, flags=None):
        """A v4 SHA-256 signature of type sigtype over prefix."""
        area = b"\x05\x02" + struct.pack(">I", NOW)
        area += b"\x16\x21\x04" + self.fpr
        if flags is not None:
            area += b"\x02\x1b" + bytes([flags])
        trailer = bytes([4, sigtype, 1, 8]) + struct.pack(">H", len(area))
        trailer += area
        trailer += b"\x04\xff" + struct.pack(">I", len(trailer))
        digest = hashlib.sha256(prefix + trailer).digest()
        s = self.priv.sign(digest, padding.PKCS1v15(),
                           utils.Prehashed(hashes.SHA256()))
        s = s.lstrip(b"\0")
        return (num(1, 4) + num(2, sigtype) + num(3, 1) + num(4, 8) +
                num(5, NOW) + byts(7, area) + num(9, digest[0] << 8 |
                                                  digest[1]) +
                byts(10, s) + byts(11, self.keyid) + byts(12, self.fpr))


def canon(field, msg, extra=b""):
    return b"\x7fPGK\x01" + byts(field, msg) + extra


def key_blob(key, certifier, sigtype, flags):
    """Key: material, user ID, certification, and, when a third party
    certifies, the key's own self-signature (Key.self_signature, 14),
    whose key flags the kernel reads (Documentation/crypto/pgpk.rst)."""
    uid = key.uid.encode()
    prefix = key.hashed + b"\xb4" + struct.pack(">I", len(uid)) + uid
    k = byts(1, key.material()) + byts(4, uid)
    if certifier is key:
        k += byts(10, key.sign(sigtype, prefix, flags))
    else:
        k += byts(10, certifier.sign(sigtype, prefix))
        k += byts(14, key.sign(0x13, prefix, flags))
    return canon(1, k)


def sig_blob(key, data):
    return canon(2, key.sign(0x00, data), byts(3, data))


def c_array(name, data):
    out = [f"static const unsigned char {name}[] = {{"]
    for i in range(0, len(data), 12):
        out.append("\t" + " ".join(f"0x{b:02x}," for b in data[i:i + 12]))
    out.append("};")
    return "\n".join(out)


def main():
    ca = Key(2048, "Test CA <ca@example.org>")
    user = Key(2048, "Test user <user@example.org>")
    other = Key(2048, "Someone else <other@example.org>")
    weak = Key(1024, "Weak <weak@example.org>")
    data = b"Signed by the test user.\n"
    blobs = {
        # the CA, self-certified (0x13), may certify and sign
        "pgpk_ca": key_blob(ca, ca, 0x13, 0x03),
        # the user, certified by the CA (0x10), may sign
        "pgpk_user": key_blob(user, ca, 0x10, 0x02),
        # another key, self-certified only
        "pgpk_other": key_blob(other, other, 0x13, 0x03),
        "pgpk_weak": key_blob(weak, weak, 0x13, 0x03),
        "pgpk_sig_user": sig_blob(user, data),
        "pgpk_sig_other": sig_blob(other, data),
    }
    # detached (no content): what verify_openpgp_signature() takes
    blobs["pgpk_sig_user_detached"] = canon(2, user.sign(0x00, data))
    if sys.argv[1:2] == ["--raw"]:
        for name in ("pgpk_ca", "pgpk_user", "pgpk_sig_user_detached"):
            with open(f"{sys.argv[2]}/{name}.bin", "wb") as f:
                f.write(blobs[name])
        return
    tampered = bytearray(blobs["pgpk_sig_user"])
    tampered[-1] ^= 0x01        # the last octet of the content
    blobs["pgpk_sig_tampered"] = bytes(tampered)
    blobs["pgpk_trailing"] = blobs["pgpk_ca"] + b"\0"
    print("/* SPDX-License-Identifier: GPL-2.0 */")
    print("/* Generated by gen-blobs.py: canonical OpenPGP test blobs. */")
    print()
    for name, b in blobs.items():
        print(c_array(name, b))
        print()
    print(f'static const char pgpk_content[] = "{data.decode()[:-1]}\\n";')
    for name, k in (("ca", ca), ("user", user), ("other", other)):
        print(f'static const char pgpk_{name}_keyid[] = "{k.keyid.hex()}";')


if __name__ == "__main__":
    main()
