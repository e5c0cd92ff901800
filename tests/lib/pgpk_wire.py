# SPDX-License-Identifier: GPL-2.0
"""The pgpk canonical wire format, for the Python test-data generators.

Written by hand from proto/pgpk.proto (magic, then protobuf fields), so
that blobs the tests expect are derived independently of protobuf-c and
of the C code under test.  Used by tests/openpgp/data/make-expected.py,
tests/broker/gen_selftest_vectors.py and tests/vm/tools/pgpk-mkcanon.py.
"""

MAGIC = b"\x7fPGK\x01"


def varint(v):
    """Base-128 varint, shortest form (the only form the decoder takes)."""
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_varint(num, v):
    """Field `num`, wire type 0."""
    return varint(num << 3) + varint(v)


def f_bytes(num, b):
    """Field `num`, wire type 2 (bytes or a nested message)."""
    return varint(num << 3 | 2) + varint(len(b)) + b
