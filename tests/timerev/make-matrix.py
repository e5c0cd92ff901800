#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Time and revocation test matrix (issue 14), written from RFC 9580.

Independent of helper/ and kernel/: certificates and signatures are built
here with python3-cryptography, packet by packet, with the times chosen
for each row:

  T0          primary key created
  T0 + 10d    subkey created
  T0 + 20d    subkey bound (0x18 binding with its 0x19 back-signature)
  T0 + 50d    revocation (0x20 of the primary, or 0x28 of the subkey)
  T0 + 70d    re-legitimization (a newer self-signature / binding)

and a document signature made before the signer existed, before the
subkey was bound, between binding and revocation, after the revocation,
and after the re-legitimization.  The expected verdict of each row, under
the default policy and under --allow-revoked, is the RFC's:

  - a signature created before its key, or by a subkey before its
    binding, is invalid (5.2.3.11 with 5.2.1.11: the key could not have
    made it then);
  - 5.2.3.31: a revocation without a reason, or with reason 0, 2 or any
    code other than 1 ("superseded") and 3 ("retired") is hard: every
    signature of the key is invalid, whenever made; a soft one leaves the
    signatures made before it valid;
  - pgpk's policy (README): by default any revocation refuses the key;
    --allow-revoked accepts softly revoked keys for signatures made before
    the revocation, never a hard one;
  - a newer self-signature does not undo a revocation (GnuPG's rule;
    Sequoia lets one undo a soft revocation, so sqv differs there).

usage: make-matrix.py OUTDIR    (writes OUTDIR/rows.txt and the files)
rows.txt: NAME CERT SIG DEFAULT ALLOW, where DEFAULT and ALLOW are "good"
or a word of the refusal the rule must name.
"""
import hashlib
import os
import struct
import sys
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from pgpk_openpgp import mpi, packet, subpacket  # noqa: E402

DAY = 86400
T0 = (int(time.time()) // DAY - 200) * DAY
T_SUB, T_BIND, T_REV, T_RELEGIT = (T0 + 10 * DAY, T0 + 20 * DAY,
                                   T0 + 50 * DAY, T0 + 70 * DAY)
T_REBIND = T0 + 40 * DAY    # a second binding (say, a new expiry)
DATA = b"a document signed at a chosen time\n"

# RFC 9580 5.2.3.31 reason codes; None: no Reason for Revocation subpacket.
REASONS = [("none", None, "hard"), ("unspecified", 0, "hard"),
           ("superseded", 1, "soft"), ("compromised", 2, "hard"),
           ("retired", 3, "soft"), ("uid-retired", 32, "hard"),
           ("private", 101, "hard"), ("unknown", 77, "hard")]


class Key:
    def __init__(self, created):
        self.priv = rsa.generate_private_key(public_exponent=65537,
                                             key_size=2048)
        pub = self.priv.public_key().public_numbers()
        self.created = created
        self.body = (b"\x04" + struct.pack(">I", created) + b"\x01"
                     + mpi(pub.n) + mpi(pub.e))
        self.fpr = hashlib.sha1(self.hashed()).digest()

    def hashed(self):
        return b"\x99" + struct.pack(">H", len(self.body)) + self.body


def sig(signer, typ, created, covered, extra=b"", unhashed_extra=b""):
    """A v4 RSA/SHA-256 signature packet over `covered` (RFC 9580 5.2.4)."""
    area = (subpacket(2, struct.pack(">I", created)) + extra
            + subpacket(33, b"\x04" + signer.fpr))
    head = bytes([4, typ, 1, 8]) + struct.pack(">H", len(area)) + area
    trailer = head + b"\x04\xff" + struct.pack(">I", len(head))
    digest = hashlib.sha256(covered + trailer).digest()
    s = signer.priv.sign(covered + trailer, padding.PKCS1v15(),
                         hashes.SHA256())
    unhashed = subpacket(16, signer.fpr[-8:]) + unhashed_extra
    body = (head + struct.pack(">H", len(unhashed)) + unhashed + digest[:2]
            + mpi(int.from_bytes(s, "big")))
    return packet(2, body)


def reason(code):
    return b"" if code is None else subpacket(29, bytes([code]) + b"test")


def cert(p, s, uid, revoke=None, code=None, relegit=False, rebind=False,
         forged_tie=False, bad_back=False):
    """revoke: None, "primary" or "subkey".  rebind: a second binding at
    T_REBIND; forged_tie: before the first binding, a forgery of it (same
    time, wrong RSA value, right quick check); bad_back: the binding's
    back-signature forged the same way (the subkey then signs nothing)."""
    uidp = b"\xb4" + struct.pack(">I", len(uid)) + uid
    flags_cs = subpacket(27, b"\x03")           # certify, sign
    out = packet(6, p.body)
    if revoke == "primary":
        out += sig(p, 0x20, T_REV, p.hashed(), reason(code))
    out += packet(13, uid) + sig(p, 0x13, T0, p.hashed() + uidp, flags_cs)
    if relegit and revoke == "primary":
        out += sig(p, 0x13, T_RELEGIT, p.hashed() + uidp, flags_cs)
    both = p.hashed() + s.hashed()
    out += packet(14, s.body)

    def binding(t):
        back = sig(s, 0x19, t, both)
        if bad_back:
            back = back[:-1] + bytes([back[-1] ^ 1])
        # The embedded signature is the packet body (RFC 9580 5.2.3.34).
        hdr = 2 if back[1] < 192 else 3
        return sig(p, 0x18, t, both,
                   subpacket(27, b"\x02") + subpacket(32, back[hdr:]))
    if forged_tie:
        good = binding(T_BIND)
        out += good[:-1] + bytes([good[-1] ^ 1])
    out += binding(T_BIND)
    if rebind:
        out += binding(T_REBIND)
    if revoke == "subkey":
        out += sig(p, 0x28, T_REV, both, reason(code))
        if relegit:
            out += binding(T_RELEGIT)
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    p, s = Key(T0), Key(T_SUB)
    uid = b"pgpk matrix <matrix@pgpk.test>"
    with open(os.path.join(outdir, "data.txt"), "wb") as f:
        f.write(DATA)
    rows = []

    def write(name, data):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
        return name

    def docsig(signer, t):
        return sig(signer, 0x00, t, DATA)

    # Signature times, and the verdict each has on an unrevoked key.
    def times(signer, relegit):
        out = [("before-key", signer.created - 3600, "predates"),
               ("between", T_REV - DAY, "good"),
               ("after-revocation", T_REV + DAY, "good")]
        if signer is s:
            out.insert(1, ("before-binding", T_BIND - DAY, "not yet bound"))
        if relegit:
            out.append(("after-relegit", T_RELEGIT + DAY, "good"))
        return out

    # A subkey bound twice: it belongs to the certificate from its first
    # binding, even when a forgery of that binding comes first.
    for forged in (False, True):
        tag = "subkey-signs-rebound%s" % (".forged-tie" if forged else "")
        c = write(tag + ".pgp", cert(p, s, uid, rebind=True,
                                     forged_tie=forged))
        for tname, t, verdict in (
                ("before-binding", T_BIND - DAY, "not yet bound"),
                ("at-binding", T_BIND, "good"),
                ("between-bindings", T_REBIND - DAY, "good"),
                ("after-rebinding", T_REBIND + DAY, "good")):
            name = "%s.%s" % (tag, tname)
            rows.append((name, c, write(name + ".sig", docsig(s, t)),
                         verdict, verdict))
    # Made at the very second of a soft revocation: after it.
    c = write("at-revocation.pgp", cert(p, s, uid, "primary", 1))
    rows.append(("primary-signs-primary-revoked.superseded.at-revocation", c,
                 write("at-revocation.sig", docsig(p, T_REV)),
                 "soft revocation", "after its key was revoked"))
    scenarios = [("primary-signs-primary-revoked", p, "primary"),
                 ("subkey-signs-primary-revoked", s, "primary"),
                 ("subkey-signs-subkey-revoked", s, "subkey")]
    base = write("cert.none.pgp", cert(p, s, uid))
    # Not a row: a signing subkey otherwise usable whose back-signature
    # does not verify, for tests/host/validity-agreement.sh (list checks
    # back-signatures only where they decide).
    write("cert.bad-backsig.pgp", cert(p, s, uid, bad_back=True))
    for signer, who in ((p, "primary"), (s, "subkey")):
        for tname, t, verdict in times(signer, False):
            name = "%s-signs-unrevoked.%s" % (who, tname)
            rows.append((name, base, write(name + ".sig", docsig(signer, t)),
                         verdict, verdict))
    for scen, signer, target in scenarios:
        for rname, code, kind in REASONS:
            for relegit in (False, True):
                if relegit and kind == "hard" and rname != "none":
                    continue    # one hard row re-legitimized is enough
                tag = "%s.%s%s" % (scen, rname, ".relegit" if relegit else "")
                c = write(tag + ".pgp",
                          cert(p, s, uid, target, code, relegit))
                for tname, t, unrevoked in times(signer, relegit):
                    name = "%s.%s" % (tag, tname)
                    sf = write(name + ".sig", docsig(signer, t))
                    # The key's state is judged before the time; a newer
                    # self-signature undoes no revocation.
                    if kind == "hard":
                        d = a = "hard revocation"
                    else:
                        d = "soft revocation"
                        a = unrevoked
                        if a == "good" and t >= T_REV:
                            a = "after its key was revoked"
                    rows.append((name, c, sf, d, a))
    with open(os.path.join(outdir, "rows.txt"), "w") as f:
        for r in rows:
            f.write("%s\t%s\t%s\t%s\t%s\n" % r)


if __name__ == "__main__":
    main()
