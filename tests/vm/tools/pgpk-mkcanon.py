#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test-only OpenPGP -> pgpk canonical converter (host side).

Independent of helper/ on purpose: the VM cases use it to make canonical
blobs (also deliberately wrong ones, for the lying-helper and bad-input
cases) without trusting the code under test.  Handles what the tests
feed it (RSA v4 keys and signatures from gpg), nothing more.

usage: pgpk-mkcanon.py key FILE [SELECT] [--no-offsets] [--no-cert] [--no-self]
                         [--cert-type=N]   (pick that signature type)
                         [--cert-by=KEYID] (the newest certification of the
                                            user ID by that key, e.g. a
                                            trust anchor's)
                         [--exponent-pad=N] (N more octets of e: too long)
                         [--packet-offset=N] (say the key's body is at N)
  (Key.certification: the self-certification or binding, or --cert-by's;
  Key.self_signature: the primary key's self-certification when the
  certification is not it (--no-self: left out); Key.first_binding: a
  subkey's older binding; with offsets, each signature carries the offset
  of its RSA value in FILE, as an upcall answer does.)
       pgpk-mkcanon.py sig FILE [--content=DATA] [--old-expires]
                         (--old-expires: with field 6, Signature.expires,
                          which pgpk once had: the decoder refuses it)
Writes the canonical blob (magic included) to stdout.
"""
import base64
import re
import sys
import os

# The hand-written wire format shared by the test generators.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from pgpk_wire import MAGIC, f_bytes, f_varint, varint  # noqa: E402,F401
from pgpk_openpgp import subpackets  # noqa: E402


def dearmor(data):
    text = data.decode("ascii", "replace")
    content = None
    if text.lstrip().startswith("-----BEGIN PGP SIGNED MESSAGE-----"):
        head, _, rest = text.partition("\n-----BEGIN PGP SIGNATURE-----")
        body = head.split("\n\n", 1)[1] if "\n\n" in head else ""
        lines = body.split("\n")
        if lines and lines[-1] == "":
            lines = lines[:-1]
        out = []
        for line in lines:
            line = line.rstrip("\r")
            if line.startswith("- "):
                line = line[2:]
            out.append(line.rstrip(" \t"))
        content = "\r\n".join(out).encode()
        text = "-----BEGIN PGP SIGNATURE-----" + rest
    lines = text.strip().split("\n")
    i = 1
    while lines[i].strip():
        i += 1
    b64 = ""
    for line in lines[i + 1:]:
        if line.startswith("=") or line.startswith("-"):
            break
        b64 += line.strip()
    return base64.b64decode(b64), content


def packets(buf):
    """Yield (tag, body_offset, body) for every packet; partial lengths joined."""
    p = 0
    while p < len(buf):
        h = buf[p]
        assert h & 0x80, "not a packet at %d" % p
        if h & 0x40:
            tag = h & 0x3F
            p += 1
            body = b""
            off = None
            while True:
                l0 = buf[p]
                if l0 < 192:
                    n, p = l0, p + 1
                    partial = False
                elif l0 < 224:
                    n, p = ((l0 - 192) << 8) + buf[p + 1] + 192, p + 2
                    partial = False
                elif l0 == 255:
                    n, p = int.from_bytes(buf[p + 1:p + 5], "big"), p + 5
                    partial = False
                else:
                    n, p = 1 << (l0 & 0x1F), p + 1
                    partial = True
                if off is None:
                    off = p
                body += buf[p:p + n]
                p += n
                if not partial:
                    break
        else:
            tag = (h >> 2) & 0xF
            lt = h & 3
            nl = [1, 2, 4, 0][lt]
            n = int.from_bytes(buf[p + 1:p + 1 + nl], "big")
            if lt == 3:
                n = len(buf) - p - 1
            off = p + 1 + nl
            body = buf[off:off + n]
            p = off + n
        yield tag, off, body


def mpi(b, p):
    bits = int.from_bytes(b[p:p + 2], "big")
    n = (bits + 7) // 8
    return b[p + 2:p + 2 + n], p + 2 + n


def key_material(body):
    ver, created, algo = body[0], int.from_bytes(body[1:5], "big"), body[5]
    p = 6 + (4 if ver == 6 else 0)
    n, p = mpi(body, p)
    e, p = mpi(body, p)
    return ver, (f_varint(1, ver) + f_varint(2, created) + f_varint(3, algo)
                 + f_bytes(4, n) + f_bytes(5, e))


def signature(body, base=None, say_expires=False):
    """Return (canonical Signature bytes, info dict).  With the body's
    offset in the file (base), the RSA value's offset is field 13."""
    ver = body[0]
    info = {}
    p = 19
    if ver == 3:
        typ, created = body[2], int.from_bytes(body[3:7], "big")
        keyid, pka, ha = body[7:15], body[15], body[16]
        quick = body[17:19]
        s, _ = mpi(body, 19)
        hashed = None
        info["issuer_key_id"] = keyid
        fpr = None
        expires = 0
    else:
        typ, pka, ha = body[1], body[2], body[3]
        w = 4 if ver == 6 else 2
        hl = int.from_bytes(body[4:4 + w], "big")
        hashed = body[4 + w:4 + w + hl]
        p = 4 + w + hl
        ul = int.from_bytes(body[p:p + w], "big")
        unhashed = body[p + w:p + w + ul]
        p += w + ul
        quick = body[p:p + 2]
        p += 2
        if ver == 6:
            info["salt"] = body[p + 1:p + 1 + body[p]]
            p += 1 + body[p]
        s, _ = mpi(body, p)
        created, expires, keyid, fpr = 0, 0, None, None
        for area in (hashed, unhashed):
            for t, d in subpackets(area):
                if t == 2 and area is hashed:
                    created = int.from_bytes(d, "big")
                elif t == 3 and area is hashed:
                    expires = int.from_bytes(d, "big")
                elif t == 9 and area is hashed:
                    info["key_expires"] = int.from_bytes(d, "big")
                elif t == 27 and area is hashed:
                    info["key_flags"] = d[0]
                elif t == 16:
                    keyid = d
                elif t == 33:
                    fpr = d[1:]
        if expires:
            expires += created
    info["issuer_key_id"] = keyid
    info["issuer_fpr"] = fpr
    info["type"] = typ
    info.update(version=ver, pk=pka, hash=ha, created=created,
                s_len=len(s.lstrip(b"\0")))
    out = (f_varint(1, ver) + f_varint(2, typ) + f_varint(3, pka)
           + f_varint(4, ha) + f_varint(5, created))
    if expires and say_expires:
        out += f_varint(6, expires)
    if hashed is not None:
        out += f_bytes(7, hashed)
    if "salt" in info:
        out += f_bytes(8, info["salt"])
    out += f_varint(9, int.from_bytes(quick, "big")) + f_bytes(10, s)
    if keyid:
        out += f_bytes(11, keyid)
    if fpr:
        out += f_bytes(12, fpr)
    if base is not None:
        out += f_varint(13, base + p + 2)
    return out, info


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    mode, path = args[0], args[1]
    select = args[2].upper() if len(args) > 2 else None
    data = open(path, "rb").read()
    content = None
    if not data[0] & 0x80:
        data, content = dearmor(data)
    pk = list(packets(data))
    if mode == "sig":
        sigs = [b for t, o, b in pk if t == 2]
        lits = [b for t, o, b in pk if t == 11]
        sig, _ = signature(sigs[-1], None, "--old-expires" in flags)
        out = f_bytes(2, sig)
        if lits:
            lit = lits[0]
            content = lit[6 + lit[1]:]
        for f in flags:
            if f.startswith("--content="):
                content = open(f[len("--content="):], "rb").read()
        if content is not None:
            out += f_bytes(3, content)
        sys.stdout.buffer.write(MAGIC + out)
        return
    import hashlib
    primary = None
    keys = []     # (tag, off, body, material, fpr)
    uid = None
    cur = None
    certs = {}
    for t, o, b in pk:
        if t in (6, 14):
            if t == 6 and primary is not None:
                break
            ver, mat = key_material(b)
            if ver == 4:
                fpr = hashlib.sha1(b"\x99" + len(b).to_bytes(2, "big") + b).digest()
            else:
                fpr = hashlib.sha256(b"\x9b" + len(b).to_bytes(4, "big") + b).digest()
            cur = (t, o, b, mat, fpr)
            keys.append(cur)
            if t == 6:
                primary = cur
            certs[o] = []
        elif t == 13 and uid is None and cur is primary:
            uid = (o, b)
        elif t == 2 and cur is not None:
            s, info = signature(b, None if "--no-offsets" in flags else o)
            if cur is primary and uid is None and info["type"] != 0x1F:
                continue
            certs[cur[1]].append((s, info))
    want = primary
    if select:
        sel = bytes.fromhex(select)
        want = [k for k in keys if k[4] == sel or k[4][-8:] == sel][0]
    t, o, b, mat, fpr = want
    for f in flags:
        if f.startswith("--exponent-pad="):
            n = int(f[len("--exponent-pad="):])
            bits = int.from_bytes(b[6:8], "big")
            nlen = (bits + 7) // 8
            e = b[8 + nlen + 2:]
            e = b"\x01" + b"\0" * (n - 1) + e
            mat = (f_varint(1, b[0]) + f_varint(2, int.from_bytes(b[1:5], "big"))
                   + f_varint(3, b[5]) + f_bytes(4, b[8:8 + nlen])
                   + f_bytes(5, e))
    out = f_bytes(1, mat)
    said = [int(f[len("--packet-offset="):]) for f in flags
            if f.startswith("--packet-offset=")]
    if said:
        out += f_varint(2, said[0])
    elif "--no-offsets" not in flags:
        out += f_varint(2, o)
    if t == 14:
        out += f_varint(3, 1)
    if uid:  # a subkey's: its primary key's user ID (its description)
        out += f_bytes(4, uid[1])
        if "--no-offsets" not in flags:
            out += f_varint(5, uid[0])
    cs = certs[o]
    kid = fpr[:8] if len(fpr) == 32 else fpr[-8:]
    mine = [c for c in cs if c[1]["issuer_key_id"] == kid
            or c[1]["issuer_fpr"] == fpr]
    self_ = mine
    if t == 14:
        cert = [c for c in cs if c[1]["type"] == 0x18][-1]
    else:
        cert = ([c for c in self_ if 0x10 <= c[1]["type"] <= 0x13]
                or self_ or [None])[-1]
    for f in flags:
        if f.startswith("--cert-type="):
            want_type = int(f[len("--cert-type="):], 0)
            cert = [c for c in cs if c[1]["type"] == want_type][-1]
        if f.startswith("--cert-by="):
            by = bytes.fromhex(f[len("--cert-by="):])
            cert = sorted([c for c in cs if 0x10 <= c[1]["type"] <= 0x13
                           and (c[1]["issuer_key_id"] == by[-8:]
                                or (c[1]["issuer_fpr"] or b"")[-8:] == by[-8:])],
                          key=lambda c: c[1]["created"])[-1]
    # The primary key's self-signature (its user ID's newest), which the
    # kernel reads a key's use and life from: Key.certification when it
    # is one, else Key.self_signature; a subkey's older binding, if any,
    # Key.first_binding.  Fields 6, 7 and 12 (hints) are gone.
    # (RFC 9580 10.1.1, 10.1.3: a v4 key's user ID self-certification, a
    # v6 key's direct-key signature)
    pfpr = primary[4]
    pkid = pfpr[:8] if len(pfpr) == 32 else pfpr[-8:]
    v6 = len(pfpr) == 32
    pri_self = [c for c in certs[primary[1]]
                if ((c[1]["type"] == 0x1F) if v6 else
                    0x10 <= c[1]["type"] <= 0x13) and
                (c[1]["issuer_key_id"] == pkid or
                 c[1]["issuer_fpr"] == pfpr)]
    pri_self = pri_self[-1] if pri_self else None
    if t == 14:
        out += f_bytes(8, primary[3])
    if cert and "--no-cert" not in flags:
        out += f_bytes(10, cert[0])
    if pri_self and (t == 14 or cert is not pri_self or
                     "--no-cert" in flags) and "--no-self" not in flags:
        out += f_bytes(14, pri_self[0])
    if t == 14:
        binds = sorted([c for c in cs if c[1]["type"] == 0x18],
                       key=lambda c: c[1]["created"])
        if len(binds) > 1 and binds[0][1]["created"] < cert[1]["created"]:
            out += f_bytes(15, binds[0][0])
    sys.stdout.buffer.write(MAGIC + f_bytes(1, out))


if __name__ == "__main__":
    main()
