# SPDX-License-Identifier: GPL-2.0
"""Forged OpenPGP certifications, for the certificate-flooding tests.

Appends third-party user ID certifications (RFC 9580 5.2) that nobody
made to a transferable public key: random issuers or a chosen one, random
RSA values, v3/v4, any hash.  With `quick_ok` the 16-bit quick check is
the right one (computed here over key, user ID and trailer, RFC 9580
5.2.4), so that a verifier has to do the RSA operation to refuse it.
Used by tests/host/cert-candidates.sh and tests/vm/data.d/42-certflood.sh.
"""

import hashlib
import os
import struct

from pgpk_openpgp import packet, packets, subpacket  # noqa: F401

HASHES = {2: hashlib.sha1, 8: hashlib.sha256, 9: hashlib.sha384,
          10: hashlib.sha512, 11: hashlib.sha224}


def mpi(value):
    value = value.lstrip(b"\0")
    bits = (len(value) - 1) * 8 + value[0].bit_length()
    return struct.pack(">H", bits) + value


def certification(key_body, uid, issuer_keyid, created, value_len=256,
                  version=4, hash_algo=8, pk_algo=1, sig_type=0x10,
                  issuer_fpr=None, quick_ok=False):
    """One signature packet certifying (key_body, uid), never verifying."""
    value = b"\x01" + os.urandom(value_len - 1)
    if version == 3:
        hashed = bytes([sig_type]) + struct.pack(">I", created)
        body = (bytes([3, 5]) + hashed + issuer_keyid +
                bytes([pk_algo, hash_algo]) + os.urandom(2) + mpi(value))
        return packet(2, body)
    area = subpacket(2, struct.pack(">I", created))
    if issuer_fpr:
        area += subpacket(33, bytes([4]) + issuer_fpr)
    head = bytes([4, sig_type, pk_algo, hash_algo]) + struct.pack(
        ">H", len(area)) + area
    quick = os.urandom(2)
    if quick_ok and hash_algo in HASHES:
        h = HASHES[hash_algo]()
        h.update(b"\x99" + struct.pack(">H", len(key_body)) + key_body)
        h.update(b"\xb4" + struct.pack(">I", len(uid)) + uid)
        h.update(head + b"\x04\xff" + struct.pack(">I", len(head)))
        quick = h.digest()[:2]
    unhashed = subpacket(16, issuer_keyid)
    body = head + struct.pack(">H", len(unhashed)) + unhashed + quick + \
        mpi(value)
    return packet(2, body)


def split_key(buf):
    """(primary key body, first user ID, index after its last signature)."""
    pk = list(packets(buf))
    key_body = [b for t, raw, b in pk if t == 6][0]
    end, uid, seen = 0, None, False
    for t, raw, b in pk:
        if t == 13 and uid is None:
            uid, seen = b, True
        elif seen and t != 2:
            break
        end += len(raw)
    return key_body, uid, end


def insert_after_uid(buf, extra):
    """buf with the packets `extra` after the first user ID's signatures."""
    _, _, end = split_key(buf)
    return buf[:end] + extra + buf[end:]
