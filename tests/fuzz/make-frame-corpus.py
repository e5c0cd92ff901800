#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seed corpora for the fuzz targets of kernel/pgpk_frame.c.

    tests/fuzz/make-frame-corpus.py [ROOT]

writes tests/fuzz/corpus/frame_{packet,bytes,hashed,name}/ from the binary keys,
certificates and signatures of the tests (tests/openpgp/data,
tests/broker/testdata, tests/fuzz/corpus/openpgp), in the input layouts
the targets document:

  frame_packet  tag, offset (4), body length (2), mode, the octets: the
                key, user ID and signature packets of each file, asked at
                their body (a match), one octet off, with another tag
  frame_bytes   offset (4), length (2), flip, the octets: each signature's
                RSA value where it is (as a certification's rsa_s_offset),
                and flipped
  frame_hashed  mark length, mark, area: every v4/v6 hashed area, with the
                IMA mark and without, and hand-made ones (the mark as a
                whole subpacket and inside a notation, two creation times,
                critical subpackets understood and not, key flags and key
                expiration times)
  frame_name    flags (subkey, no user ID), key ID (8), user ID: every user
                ID packet, and hand-made ones (a comment, a newline, ESC,
                a NUL, Latin-1, UTF-8, a backslash, 300 octets)

Files are named by kind and content hash, so rerunning adds nothing new.
"""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from pgpk_openpgp import packets, subpacket  # noqa: E402

IMA_MARK = bytes([32, 20, 0x80, 0, 0, 0, 0, 8, 0, 15]) + \
    b"ima@pgpkfile-signatures"
MAX_INPUT = 8192      # octets of a file kept in a seed
MAX_FILES = 6         # of tests/fuzz/corpus/openpgp, per name prefix
MAX_PACKETS = 12      # asked about, per file


def sources(root):
    """Binary files: every one of the test data, a sample of the corpus."""
    taken = {}
    for d, sample in (("tests/openpgp/data", False),
                      ("tests/broker/testdata", False),
                      ("tests/fuzz/corpus/openpgp", True)):
        d = os.path.join(root, d)
        for name in sorted(os.listdir(d)):
            data = open(os.path.join(d, name), "rb").read()
            if not data or not data[0] & 0x80:
                continue
            prefix = name.split("-")[0]
            if sample and (len(prefix) == 40 or
                           taken.get(prefix, 0) >= MAX_FILES):
                continue
            taken[prefix] = taken.get(prefix, 0) + 1
            yield name, data[:MAX_INPUT]


def walk(data):
    """(tag, body offset, body) of the well-framed top-level packets."""
    out, pos = [], 0
    try:
        for tag, whole, body in packets(data):
            start = pos + len(whole) - len(body)
            out.append((tag, start, body))
            pos += len(whole)
    except (ValueError, IndexError, KeyError, struct.error):
        pass
    return out


def hashed_area(body):
    """A v4/v6 signature body's hashed area, or None (RFC 9580 5.2.3)."""
    if len(body) < 6 or body[0] not in (4, 6):
        return None
    if body[0] == 4:
        n, at = struct.unpack(">H", body[4:6])[0], 6
    else:
        if len(body) < 8:
            return None
        n, at = struct.unpack(">I", body[4:8])[0], 8
    return body[at:at + n] if at + n <= len(body) else None


def rsa_value(body):
    """(offset in body, octets) of an RSA v4 signature's value, or None."""
    if len(body) < 6 or body[0] != 4 or body[2] not in (1, 3):
        return None
    at = 6 + struct.unpack(">H", body[4:6])[0]
    if at + 2 > len(body):
        return None
    at += 2 + struct.unpack(">H", body[at:at + 2])[0] + 2
    if at + 2 > len(body):
        return None
    bits = struct.unpack(">H", body[at:at + 2])[0]
    value = body[at + 2:at + 2 + (bits + 7) // 8]
    return at + 2, value


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    out = os.path.join(root, "tests", "fuzz", "corpus")
    written = {"packet": 0, "bytes": 0, "hashed": 0, "name": 0}
    seen = set()

    def keep(target, kind, blob):
        h = hashlib.sha1(blob).hexdigest()[:16]
        if (target, h) in seen:
            return
        seen.add((target, h))
        d = os.path.join(out, "frame_" + target)
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, "%s-%s" % (kind, h)), "wb").write(blob)
        written[target] += 1

    def packet_seed(kind, tag, off, blen, mode, data):
        keep("packet", kind, struct.pack(">BIHB", tag & 0xFF,
                                         off & 0xFFFFFFFF, blen & 0xFFFF,
                                         mode) + data)

    for name, data in sources(root):
        pk = walk(data)
        for i, (tag, off, body) in enumerate(pk[:MAX_PACKETS]):
            if tag not in (2, 6, 13, 14) or len(body) > 0xFFFF:
                continue
            # the octets up to a little after the packet
            upto = data[:off + len(body) + 16]
            packet_seed("match", tag, off, len(body), 1, upto)
            if i < 4:
                packet_seed("offby1", tag, off + 1, len(body), 1, upto)
                packet_seed("tag", tag ^ 8, off, len(body), 1, upto)
                packet_seed("flip", tag, off, len(body), 3, upto)
            if tag == 13:
                for flags in (0, 1):
                    keep("name", "uid", bytes([flags]) +
                         hashlib.sha1(body).digest()[:8] + body[:4096])
            if tag == 2:
                v = rsa_value(body)
                if v:
                    at = off + v[0]
                    for flip in (255, 0):
                        keep("bytes", "value", struct.pack(
                            ">IHB", at, len(v[1]), flip) +
                            data[:at + len(v[1]) + 8])
                a = hashed_area(body)
                if a is not None:
                    keep("hashed", "sig", b"\x00" + a)
                    keep("hashed", "sig-ima", b"\xff" + a)
    # Hand-made areas: what the kernel must and must not accept.
    t = subpacket(2, b"\x65\x53\xf1\x00")
    fpr = subpacket(33, b"\x04" + bytes(range(20)))
    notation = subpacket(20, b"\x80\0\0\0\0\x08\0\x0f" +
                         b"ima@pgpkfile-signatures")
    for kind, area in (("ima-binding", t + fpr + IMA_MARK),
                       ("ima-in-notation", t + subpacket(20, IMA_MARK)),
                       ("ima-notation", t + notation),
                       ("two-times", t + t),
                       ("no-time", fpr),
                       ("long-notation", subpacket(20, b"n" * 8000) + t),
                       ("overrun", t + b"\x09\x21\x04"),
                       ("empty-subpacket", t + b"\x00"),
                       ("critical-notation", t + subpacket(0x80 | 20,
                                                           notation[2:])),
                       ("critical-private", t + subpacket(0x80 | 101, b"x")),
                       ("critical-flags", t + subpacket(0x80 | 27, b"\x03")),
                       ("private", t + subpacket(101, b"x")),
                       ("key-expiry", t + subpacket(9, b"\0\x01\x51\x80")),
                       ("two-flags", t + subpacket(27, b"\x03")
                        + subpacket(27, b"\x02")),
                       ("empty-flags", t + subpacket(27, b""))):
        keep("hashed", kind, b"\xff" + area)
    keyid = bytes.fromhex("0123456789abcdef")
    for kind, uid in (("comment", b"Alice Example (work) <a@example.org>"),
                      ("newline", b"Carol\nInjected <c@example.org>"),
                      ("escape", b"\x1b[31mred\x1b[0m"),
                      ("nul", b"pgpk nul\x00" + b"\x01" * 20),
                      ("latin1", b"J\xfcrgen M\xfcller <j@example.de>"),
                      ("utf8", "J\u00fcrgen \u0141\u00f3d\u017a".encode()),
                      ("backslash", b"C:\\pgpk <c@example.org>"),
                      ("long", b"L" * 300),
                      ("comment-only", b"(only a comment)"),
                      ("spaces", b"   (   ")):
        for flags in (0, 1):
            keep("name", kind, bytes([flags]) + keyid + uid)
    keep("name", "none", bytes([2]) + keyid)
    keep("name", "none-subkey", bytes([3]) + keyid)
    keep("bytes", "past-end", struct.pack(">IHB", 0xFFFFFFF0, 4, 255) +
         b"octets")
    for kind, n in written.items():
        print("frame_%s: %d seeds" % (kind, n))


main()
