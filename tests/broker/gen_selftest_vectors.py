#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write helper/selftest_vectors.h: the --selftest known answers.

The expected canonical blobs are computed here, from the OpenPGP packets,
by a second implementation that shares no code with the parser
(helper/openpgp) or protobuf-c: a minimal RFC 9580 packet walker and a
hand-written protobuf encoder following proto/pgpk.proto.  Cross-check the
packet values with `gpg --list-packets tests/broker/testdata/...`.

usage: gen_selftest_vectors.py testdata-dir > helper/selftest_vectors.h &&
       clang-format -i helper/selftest_vectors.h
"""
import sys
import os

# The hand-written wire format shared by the test generators.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from pgpk_wire import MAGIC, f_bytes, f_varint, varint  # noqa: E402,F401


def packets(data):
    """RFC 9580 4.2: yield (tag, body_offset, body) for every packet."""
    i = 0
    while i < len(data):
        ctb = data[i]
        assert ctb & 0x80, "not a packet at %d" % i
        if ctb & 0x40:  # new format, 4.2.1
            tag = ctb & 0x3F
            first = data[i + 1]
            if first < 192:
                length, hl = first, 2
            elif first < 224:
                length, hl = ((first - 192) << 8) + data[i + 2] + 192, 3
            elif first == 255:
                length, hl = int.from_bytes(data[i + 2:i + 6], "big"), 6
            else:
                raise ValueError("partial lengths not expected here")
        else:  # old format, 4.2.2
            tag = (ctb >> 2) & 0xF
            lt = ctb & 3
            hl = 1 + (1, 2, 4)[lt]
            length = int.from_bytes(data[i + 1:i + hl], "big")
        yield tag, i + hl, data[i + hl:i + hl + length]
        i += hl + length


def mpi(b, off):
    """RFC 9580 3.2: (value without leading zeros, next offset)."""
    v, _, nxt = mpi_at(b, off)
    return v, nxt


def mpi_at(b, off):
    """The same and where the value's octets start."""
    bits = int.from_bytes(b[off:off + 2], "big")
    n = (bits + 7) // 8
    raw = b[off + 2:off + 2 + n]
    v = raw.lstrip(b"\0")
    return v, off + 2 + n - len(v), off + 2 + n


def subpackets(area):
    """RFC 9580 5.2.3.7: yield (type, value)."""
    i = 0
    while i < len(area):
        first = area[i]
        if first < 192:
            ln, hl = first, 1
        elif first < 255:
            ln, hl = ((first - 192) << 8) + area[i + 1] + 192, 2
        else:
            ln, hl = int.from_bytes(area[i + 1:i + 5], "big"), 5
        yield area[i + hl] & 0x7F, area[i + hl + 1:i + hl + ln]
        i += hl + ln


def key_material(body):
    """RFC 9580 5.5.2 v4 key body -> KeyMaterial encoding."""
    assert body[0] == 4 and body[5] == 1
    created = int.from_bytes(body[1:5], "big")
    n, off = mpi(body, 6)
    e, off = mpi(body, off)
    assert off == len(body)
    return (f_varint(1, 4) + f_varint(2, created) + f_varint(3, 1) +
            f_bytes(4, n) + f_bytes(5, e)), n


def signature(body, body_offset=None):
    """RFC 9580 5.2.3 v4 signature body -> Signature encoding; with the
    body's offset in the submitted bytes, rsa_s_offset (an upcall's
    certification: where the kernel compares the value)."""
    assert body[0] == 4
    typ, pk, h = body[1], body[2], body[3]
    hlen = int.from_bytes(body[4:6], "big")
    hashed = body[6:6 + hlen]
    off = 6 + hlen
    ulen = int.from_bytes(body[off:off + 2], "big")
    unhashed = body[off + 2:off + 2 + ulen]
    off += 2 + ulen
    quick = int.from_bytes(body[off:off + 2], "big")
    s, s_at, off = mpi_at(body, off + 2)
    created, keyid, fpr = 0, None, None
    for t, v in subpackets(hashed):
        if t == 2:
            created = int.from_bytes(v, "big")
        elif t == 16:
            keyid = v
        elif t == 33:
            fpr = v[1:]
    for t, v in subpackets(unhashed):
        if t == 16 and keyid is None:
            keyid = v
    if fpr is not None and keyid is None:
        keyid = fpr[-8:]
    enc = (f_varint(1, 4) + f_varint(2, typ) + f_varint(3, pk) +
           f_varint(4, h) + f_varint(5, created))
    enc += f_bytes(7, hashed) + f_varint(9, quick) + f_bytes(10, s)
    if keyid is not None:
        enc += f_bytes(11, keyid)
    if fpr is not None:
        enc += f_bytes(12, fpr)
    if body_offset is not None:
        enc += f_varint(13, body_offset + s_at)
    return enc


def canonical_key(data):
    pk = [p for p in packets(data)]
    (t0, koff, kbody), (t1, uoff, ubody), (t2, soff, sbody) = pk[:3]
    assert (t0, t1, t2) == (6, 13, 2)
    mat, _ = key_material(kbody)
    # The self-certification: the certification and the self-signature
    # the kernel reads the key's use and life from.
    cert = signature(sbody, soff)
    key = f_bytes(1, mat) + f_varint(2, koff) + f_bytes(4, ubody) + \
        f_varint(5, uoff)
    key += f_bytes(10, cert)
    return MAGIC + f_bytes(1, key)


def canonical_sig(data):
    (t, _, body), = list(packets(data))
    assert t == 2
    return MAGIC + f_bytes(2, signature(body))


def c_array(name, b):
    out = ["static const uint8_t %s[%d] = {" % (name, len(b))]
    for i in range(0, len(b), 12):
        out.append("\t" + " ".join("0x%02x," % x for x in b[i:i + 12]))
    out.append("};")
    return "\n".join(out)


def main():
    d = sys.argv[1]
    key = open(d + "/selftest-key.pgp", "rb").read()
    msg = open(d + "/selftest-msg.txt", "rb").read()
    sig = open(d + "/selftest-msg.sig", "rb").read()
    sig1 = open(d + "/selftest-msg-sha1.sig", "rb").read()
    print("/* SPDX-License-Identifier: GPL-2.0 */")
    print("/* Generated by tests/broker/gen_selftest_vectors.py from")
    print(" * tests/broker/testdata/selftest-*: do not edit. */")
    print("#ifndef PGPK_SELFTEST_VECTORS_H\n#define PGPK_SELFTEST_VECTORS_H\n")
    print("#include <stdint.h>\n")
    print("/* gpg 2.2, RSA 2048, created 2026-01-01, uid \"pgpk selftest"
          " <selftest@pgpk.invalid>\" */")
    print(c_array("pgpk_st_key", key))
    print(c_array("pgpk_st_key_canon", canonical_key(key)))
    print(c_array("pgpk_st_msg", msg))
    print("/* detached binary signature of pgpk_st_msg, SHA-256 */")
    print(c_array("pgpk_st_sig", sig))
    print(c_array("pgpk_st_sig_canon", canonical_sig(sig)))
    print("/* the same, SHA-1: refused by the default policy */")
    print(c_array("pgpk_st_sig_sha1", sig1))
    print("\n#endif /* PGPK_SELFTEST_VECTORS_H */")


main()
