#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Adversarial OpenPGP inputs for the sandboxed parser (security issue 9).

Certificate flooding: anyone can append signature packets to a published
key.  None of them verifies, but every one the parser considers costs it
work, and before the fix 128 candidates made glibc's qsort() call
sysinfo(), which the seccomp filter kills.  Written from RFC 9580 alone,
independent of helper/openpgp; used by tests/host/sig-flood.sh and
tests/vm/data.d/36-flood.sh.

    pgpk_flood.py KEY OUT N [KIND,...]    KEY + N junk signatures -> OUT
    pgpk_flood.py --shape NAME KEY OUT    one of SHAPES (below) -> OUT

KINDS (cycled over the N signatures; default: all of them):
  self     0x13 self-certification of the first user ID, newer than the
           genuine one, correct quick check, random value: costs a digest
           and an RSA verification each
  selfqc   the same with a wrong quick check
  short    the same with a one-octet signature value
  tiny     the same in 31 octets (hashed creation time and key ID only)
  third    0x10..0x13 certification by a random issuer
  thirdmin the same with a one-octet value (60 octets each)
  uidrev   0x30 self-revocation of the user ID, correct quick check
  keyrev   0x20 key revocation by the key itself, correct quick check
  direct   0x1F direct-key self-signature, newer, correct quick check
  binding  0x18 subkey binding of the first subkey, correct quick check
  garbage  a signature packet of random octets
  v3       a v3 0x13 self-signature, correct quick check
"""
import hashlib
import os
import random
import struct
import sys

from pgpk_openpgp import mpi, packet, packets, subpacket  # noqa: F401

TAG_SIG, TAG_PUBKEY, TAG_UID, TAG_SUBKEY, TAG_COMP = 2, 6, 13, 14, 8
KINDS = ("self", "selfqc", "short", "tiny", "third", "thirdmin", "uidrev", "keyrev",
         "direct", "binding", "garbage", "v3")


class Key:
    """The v4 RSA primary key of a transferable public key."""

    def __init__(self, buf):
        self.pkts = list(packets(buf))
        body = [b for t, _, b in self.pkts if t == TAG_PUBKEY][0]
        if body[0] not in (4, 6) or body[5] not in (1, 3):
            raise ValueError("need a v4 or v6 RSA primary key")
        self.body = body
        self.version = body[0]
        self.created = struct.unpack(">I", body[1:5])[0]
        at = 6 if body[0] == 4 else 10  # v6: four-octet material length
        bits = struct.unpack(">H", body[at:at + 2])[0]
        self.n = int.from_bytes(body[at + 2:at + 2 + (bits + 7) // 8], "big")
        if self.version == 6:
            self.fpr = hashlib.sha256(self.hashed(body)).digest()
            self.keyid = self.fpr[:8]
        else:
            self.fpr = hashlib.sha1(self.hashed(body)).digest()
            self.keyid = self.fpr[-8:]
        self.uid = [b for t, _, b in self.pkts if t == TAG_UID][0]
        subs = [b for t, _, b in self.pkts if t == TAG_SUBKEY]
        self.sub = subs[0] if subs else None
        self.newest = max([self.created] + [
            struct.unpack(">I", b[b.index(b"\x05\x02") + 2:][:4])[0]
            for t, _, b in self.pkts if t == TAG_SIG and b[0] == 4 and
            b"\x05\x02" in b])

    @staticmethod
    def hashed(body):
        """RFC 9580 5.2.4: 0x99 + two-octet length (v4), 0x9B + four (v6)."""
        if body[0] == 6:
            return b"\x9b" + struct.pack(">I", len(body)) + body
        return b"\x99" + struct.pack(">H", len(body)) + body


def uid_hashed(uid):
    return b"\xb4" + struct.pack(">I", len(uid)) + uid


def sig_v4(key, typ, created, covered, issuer=None, value=None, qc=True,
           rnd=random, tiny=False):
    """A v4 SHA-256 RSA signature packet over `covered` (octets, or a
    hashlib.sha256 of them to continue): junk unless the
    caller has the private key (never here).  `tiny`: only a creation
    time and an issuer key ID, both hashed (31 octets with a one-octet
    value)."""
    issuer = issuer or key.fpr
    hashed = subpacket(2, struct.pack(">I", created))
    if tiny:
        hashed += subpacket(16, issuer[-8:])
    else:
        hashed += subpacket(33, b"\x04" + issuer)
    head = bytes([4, typ, 1, 8]) + struct.pack(">H", len(hashed)) + hashed
    trailer = b"\x04\xff" + struct.pack(">I", len(head))
    if isinstance(covered, bytes):
        covered = hashlib.sha256(covered)
    h = covered.copy()  # `covered` may be a digest of a shared prefix
    h.update(head + trailer)
    digest = h.digest()
    quick = digest[:2] if qc else bytes([digest[0] ^ 0xFF, digest[1]])
    unhashed = b"" if tiny else subpacket(16, issuer[-8:])
    if value is None:
        value = rnd.getrandbits(key.n.bit_length() - 1) | 1
    return packet(TAG_SIG, head + struct.pack(">H", len(unhashed)) +
                  unhashed + quick + mpi(value))


def sig_v6(key, typ, created, covered, rnd=random):
    """A v6 SHA-256 RSA signature (RFC 9580 5.2.3): its 16-octet salt is
    hashed first, so nothing before its own packet can be shared."""
    salt = rnd.randbytes(16)
    hashed = subpacket(2, struct.pack(">I", created))
    hashed += subpacket(33, b"\x06" + key.fpr)
    head = bytes([6, typ, 1, 8]) + struct.pack(">I", len(hashed)) + hashed
    trailer = b"\x06\xff" + struct.pack(">I", len(head))
    digest = hashlib.sha256(salt + covered + head + trailer).digest()
    value = rnd.getrandbits(key.n.bit_length() - 1) | 1
    return packet(TAG_SIG, head + struct.pack(">I", 0) + digest[:2] +
                  bytes([16]) + salt + mpi(value))


def v6_flood(buf, uid_size, nsigs, seed=9):
    """A v6 key with one more user ID of `uid_size` octets carrying
    `nsigs` salted junk self-certifications (correct quick checks)."""
    rnd = random.Random(seed)
    key = Key(buf)
    uid = (b"v6 flood <v6@pgpk.invalid> " + b"z" * uid_size)[:uid_size]
    covered = Key.hashed(key.body) + uid_hashed(uid)  # salted: no sharing
    extra = [packet(TAG_UID, uid)]
    extra += [sig_v6(key, 0x13, key.newest + 1 + i, covered, rnd)
              for i in range(nsigs)]
    return buf + b"".join(extra)


def sig_v3(key, typ, created, covered, rnd=random):
    """RFC 4880 5.2.2: a v3 signature hashes the user ID without header."""
    five = bytes([typ]) + struct.pack(">I", created)
    digest = hashlib.sha256(covered + five).digest()
    value = rnd.getrandbits(key.n.bit_length() - 1) | 1
    return packet(TAG_SIG, bytes([3, 5]) + five + key.keyid +
                  bytes([1, 8]) + digest[:2] + mpi(value))


def junk(key, kind, i, rnd=random):
    """One junk signature of `kind`, and where it goes ("key", "uid",
    "sub")."""
    t = key.newest + 1 + i
    k = Key.hashed(key.body)
    if kind == "self":
        return "uid", sig_v4(key, 0x13, t, k + uid_hashed(key.uid), rnd=rnd)
    if kind == "selfqc":
        return "uid", sig_v4(key, 0x13, t, k + uid_hashed(key.uid),
                             qc=False, rnd=rnd)
    if kind == "short":
        return "uid", sig_v4(key, 0x13, t, k + uid_hashed(key.uid),
                             value=rnd.randrange(1, 256), rnd=rnd)
    if kind == "tiny":
        return "uid", sig_v4(key, 0x13, t, k + uid_hashed(key.uid),
                             value=i % 255 + 1, tiny=True, rnd=rnd)
    if kind == "third":
        return "uid", sig_v4(key, 0x10 + i % 4, t, k + uid_hashed(key.uid),
                             issuer=rnd.randbytes(20), rnd=rnd)
    if kind == "thirdmin":
        return "uid", sig_v4(key, 0x10 + i % 4, t, k + uid_hashed(key.uid),
                             issuer=rnd.randbytes(20), value=i % 255 + 1,
                             rnd=rnd)
    if kind == "uidrev":
        return "uid", sig_v4(key, 0x30, t, k + uid_hashed(key.uid), rnd=rnd)
    if kind == "keyrev":
        return "key", sig_v4(key, 0x20, t, k, rnd=rnd)
    if kind == "direct":
        return "key", sig_v4(key, 0x1F, t, k, rnd=rnd)
    if kind == "binding":
        if not key.sub:
            return "uid", sig_v4(key, 0x13, t, k + uid_hashed(key.uid),
                                 rnd=rnd)
        return "sub", sig_v4(key, 0x18, t, k + Key.hashed(key.sub), rnd=rnd)
    if kind == "v3":
        return "uid", sig_v3(key, 0x13, t, k + key.uid, rnd=rnd)
    if kind == "garbage":
        return "uid", packet(TAG_SIG, rnd.randbytes(12 + i % 200))
    raise ValueError("unknown kind " + kind)


def flood(buf, n, kinds=KINDS, seed=9):
    """`buf` (a binary transferable public key) with `n` junk signatures:
    key-level ones after the primary key's own signatures, user ID ones
    after the first user ID's, subkey ones after the first subkey's."""
    rnd = random.Random(seed)
    key = Key(buf)
    extra = {"key": [], "uid": [], "sub": []}
    for i in range(n):
        where, pkt = junk(key, kinds[i % len(kinds)], i, rnd)
        extra[where].append(pkt)
    out, seen, component = [], set(), None
    for tag, raw, body in key.pkts:
        if tag != TAG_SIG and component is not None:
            out += extra[component]
            extra[component] = []
            component = None
        out.append(raw)
        if tag in (TAG_PUBKEY, TAG_UID, TAG_SUBKEY) and tag not in seen:
            seen.add(tag)
            component = {TAG_PUBKEY: "key", TAG_UID: "uid",
                         TAG_SUBKEY: "sub"}[tag]
    if component is not None:
        out += extra[component]
        extra[component] = []
    out += extra["key"] + extra["uid"] + extra["sub"]  # no such component
    return b"".join(out)


def before_subkeys(key, extra):
    """key's packets with the packets `extra` after its user IDs (before
    its first subkey, or at the end)."""
    out, done = [], False
    for tag, raw, _ in key.pkts:
        if tag == TAG_SUBKEY and not done:
            out += extra
            done = True
        out.append(raw)
    if not done:
        out += extra
    return b"".join(out)


def many_uids(buf, n, size=40, seed=9):
    """`n` extra user IDs of `size` octets after the genuine ones, each
    with a junk self-signature (correct quick check)."""
    rnd = random.Random(seed)
    key = Key(buf)
    k = Key.hashed(key.body)
    extra = []
    for i in range(n):
        uid = (b"junk %08d " % i + b"x" * size)[:size]
        extra.append(packet(TAG_UID, uid))
        extra.append(sig_v4(key, 0x13, key.newest + 1 + i,
                            k + uid_hashed(uid), rnd=rnd))
    return before_subkeys(key, extra)


def big_uid(buf, size, nsigs, seed=9):
    """One extra user ID of `size` octets with `nsigs` junk self-
    signatures (correct quick checks): every one of them is a digest of
    the whole user ID unless the parser shares the common prefix."""
    rnd = random.Random(seed)
    key = Key(buf)
    uid = (b"big <big@pgpk.invalid> " + b"y" * size)[:size]
    # hashed once: 10000 digests of 4 MiB would take minutes here
    covered = hashlib.sha256(Key.hashed(key.body) + uid_hashed(uid))
    extra = [packet(TAG_UID, uid)]
    extra += [sig_v4(key, 0x13, key.newest + 1 + i, covered, value=i + 2,
                     rnd=rnd) for i in range(nsigs)]
    return before_subkeys(key, extra)


def keyring(buf, copies, junk_each=0):
    """The key first, then `copies` flooded copies of it (a large ring)."""
    one = flood(buf, junk_each) if junk_each else buf
    return buf + one * copies


def compressed(inner, algo=2, level=9):
    """A compressed data packet (RFC 9580 5.6): 0 stored, 1 ZIP, 2 ZLIB."""
    import zlib
    if algo == 0:
        data = inner
    elif algo == 1:
        c = zlib.compressobj(level, zlib.DEFLATED, -15)
        data = c.compress(inner) + c.flush()
    else:
        data = zlib.compress(inner, level)
    return packet(TAG_COMP, bytes([algo]) + data)


def nested(msg, depth):
    """`msg` (an inline-signed message, packets) inside `depth` levels of
    compression, alternating ZLIB, ZIP and stored."""
    for i in range(depth):
        msg = compressed(msg, (2, 1, 0)[i % 3])
    return msg


def sig_flood(msg, n, seed=9):
    """A signed message (or detached signature) followed by `n` junk
    signature packets of random issuers, and `n` marker packets."""
    rnd = random.Random(seed)
    junk = []
    for i in range(n):
        hashed = subpacket(2, struct.pack(">I", 1700000000 + i))
        head = bytes([4, 0, 1, 8]) + struct.pack(">H", len(hashed)) + hashed
        unhashed = subpacket(16, rnd.randbytes(8))
        junk.append(packet(TAG_SIG, head + struct.pack(">H", len(unhashed))
                           + unhashed + rnd.randbytes(2) +
                           mpi(rnd.getrandbits(2047) | 1)))
        junk.append(packet(10, b"PGP"))  # marker (RFC 9580 5.8)
    return msg + b"".join(junk)


def many_compressed(msg, n):
    """`msg` then `n` tiny ZLIB packets each holding one marker packet:
    every one is a decompression buffer."""
    return msg + compressed(packet(10, b"PGP")) * n


def bomb(msg, size):
    """`msg`, then a ZLIB packet of `size` zero octets inside a literal
    packet... which is a second literal: refused; a plain zero bomb of
    marker-less padding (tag 21) instead."""
    pad = packet(21, b"\0" * size)
    return msg + compressed(pad)


def armor(data, what="PGP PUBLIC KEY BLOCK"):
    """RFC 9580 6.2: ASCII armor with the CRC-24 checksum."""
    import base64
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    b64 = base64.b64encode(data).decode()
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    crc_b64 = base64.b64encode((crc & 0xFFFFFF).to_bytes(3, "big")).decode()
    return ("-----BEGIN %s-----\n\n%s\n=%s\n-----END %s-----\n" %
            (what, "\n".join(lines), crc_b64, what)).encode()


SHAPES = {
    "many-uids": lambda b: many_uids(b, 2000),
    "max-uid": lambda b: big_uid(b, 60000, 0),
    "max-uid-flood": lambda b: big_uid(b, 512 * 1024, 1500),
    "huge-uid-flood": lambda b: big_uid(b, 4 << 20, 10000),
    "keyring": lambda b: keyring(b, 300, 10),
    "armored-flood": lambda b: armor(flood(b, 2000)),
    # b: a v6 key.  Many salted junk self-certifications on a small
    # user ID, and on large ones (the last two under the default
    # --max-input of 1 MiB): each must cost one RSA operation, never a
    # digest of the whole user ID.
    "v6-flood": lambda b: v6_flood(b, 40, 3000),
    "v6-uid-flood": lambda b: v6_flood(b, 1 << 20, 300),
    "v6-uid256k-flood": lambda b: v6_flood(b, 256 << 10, 400),
    "v6-uid512k-flood": lambda b: v6_flood(b, 512 << 10, 200),
    # Messages (b: an inline-signed message, or a detached signature).
    "nested4": lambda b: nested(b, 4),
    "nested5": lambda b: nested(b, 5),
    "msg-flood": lambda b: sig_flood(b, 3000),
    "msg-many-comp": lambda b: many_compressed(b, 20000),
    "msg-bomb": lambda b: bomb(b, 60 << 20),
    "msg-bomb-over": lambda b: bomb(b, 70 << 20),
}


def main(argv):
    if len(argv) == 4 and argv[0] == "--shape":
        data = SHAPES[argv[1]](open(argv[2], "rb").read())
        open(argv[3], "wb").write(data)
        return 0
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    kinds = tuple(argv[3].split(",")) if len(argv) == 4 else KINDS
    data = flood(open(argv[0], "rb").read(), int(argv[2]), kinds)
    open(argv[1], "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
