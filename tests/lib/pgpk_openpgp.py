# SPDX-License-Identifier: GPL-2.0
"""OpenPGP packet framing for the Python test-data generators.

Written from RFC 9580 (not from helper/), once: the generators under
tests/ read and write packets with these, independently of the code
under test.
"""
import struct


def packets(buf):
    """(tag, header + body, body) of each packet, both header forms
    (RFC 9580 4.2); no partial lengths (keys never have them)."""
    i = 0
    while i < len(buf):
        start, ctb = i, buf[i]
        if not ctb & 0x80:
            raise ValueError("bad packet header at %d" % i)
        if ctb & 0x40:
            tag, i = ctb & 0x3F, i + 1
            o = buf[i]
            if o < 192:
                n, i = o, i + 1
            elif o < 224:
                n, i = ((o - 192) << 8) + buf[i + 1] + 192, i + 2
            elif o == 255:
                n, i = struct.unpack(">I", buf[i + 1:i + 5])[0], i + 5
            else:
                raise ValueError("partial length in a key")
        else:
            tag, lt, i = (ctb >> 2) & 0xF, ctb & 3, i + 1
            w = {0: 1, 1: 2, 2: 4}[lt]
            n = int.from_bytes(buf[i:i + w], "big")
            i += w
        yield tag, buf[start:i + n], buf[i:i + n]
        i += n


def packet(tag, body):
    """A new-format packet (RFC 9580 4.2.1), shortest length."""
    n = len(body)
    if n < 192:
        hdr = bytes([n])
    elif n < 8384:
        hdr = bytes([((n - 192) >> 8) + 192, (n - 192) & 0xFF])
    else:
        hdr = b"\xff" + struct.pack(">I", n)
    return bytes([0xC0 | tag]) + hdr + body


def subpacket(typ, data):
    """A signature subpacket, shortest length form (RFC 9580 5.2.3.7)."""
    n = len(data) + 1
    if n < 192:
        return bytes([n, typ]) + data
    assert n < 8384
    return bytes([((n - 192) >> 8) + 192, (n - 192) & 0xFF, typ]) + data


def mpi(x):
    """RFC 9580 3.2: 2-octet bit count, then the big-endian value."""
    b = x.to_bytes(max(1, (x.bit_length() + 7) // 8), "big")
    return struct.pack(">H", x.bit_length()) + b


def subpackets(area):
    """(type without the critical bit, data) of each subpacket of a
    signature's subpacket area (RFC 9580 5.2.3.7)."""
    i = 0
    while i < len(area):
        o = area[i]
        if o < 192:
            n, i = o, i + 1
        elif o < 255:
            n, i = ((o - 192) << 8) + area[i + 1] + 192, i + 2
        else:
            n, i = struct.unpack(">I", area[i + 1:i + 5])[0], i + 5
        yield area[i] & 0x7F, area[i + 1:i + n]
        i += n


def newest_signature_time(buf):
    """The newest creation time (hashed subpacket 2) of the v4
    signatures among buf's packets, or 0."""
    newest = 0
    for tag, _, body in packets(buf):
        if tag != 2 or body[0] != 4:
            continue
        hashed = body[6:6 + struct.unpack(">H", body[4:6])[0]]
        for typ, data in subpackets(hashed):
            if typ == 2 and len(data) == 4:
                newest = max(newest, struct.unpack(">I", data)[0])
    return newest
