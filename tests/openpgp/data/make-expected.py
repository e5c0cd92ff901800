#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent expected canonical blobs for the known-answer tests.

Run once after (re)generating the test keys with gpg; the outputs are
committed.  Nothing here shares code with helper/openpgp: packet offsets
and signature metadata come from `gpg --list-packets`, the RSA modulus and
exponent from OpenSSL (via `gpg --export-ssh-key` and `ssh-keygen`), the
protobuf encoding is written out by hand from proto/pgpk.proto.

usage: GNUPGHOME=... make-expected.py   (in tests/openpgp/data)
"""
import os
import re
import subprocess
import tempfile
import sys

# The hand-written wire format shared by the test generators.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from pgpk_wire import MAGIC, f_bytes, f_varint, varint  # noqa: E402,F401
from pgpk_openpgp import subpackets  # noqa: E402


def packets(path):
    """(tag, body_offset, body) for every packet, offsets from gpg."""
    out = subprocess.run(["gpg", "--list-packets", path],
                         capture_output=True, text=True).stdout
    data = open(path, "rb").read()
    res = []
    for m in re.finditer(r"# off=(\d+) ctb=\w+ tag=(\d+) hlen=(\d+) plen=(\d+)",
                         out):
        off, tag, hlen, plen = map(int, m.groups())
        res.append((tag, off + hlen, data[off + hlen:off + hlen + plen]))
    return res


def openssl_rsa(fpr):
    """(n, e) of a key via OpenSSH/OpenSSL, no OpenPGP parsing here."""
    ssh = subprocess.run(["gpg", "--export-ssh-key", fpr + "!"],
                         capture_output=True, check=True).stdout
    with tempfile.NamedTemporaryFile("wb", suffix=".pub") as f:
        f.write(ssh)
        f.flush()
        pem = subprocess.run(["ssh-keygen", "-e", "-m", "PKCS8", "-f",
                              f.name], capture_output=True,
                             check=True).stdout
    text = subprocess.run(["openssl", "pkey", "-pubin", "-noout", "-text"],
                          input=pem, capture_output=True, check=True).stdout
    text = text.decode()
    hexmod = "".join(re.search(r"Modulus:\n((?:\s+[0-9a-f:]+\n)+)",
                               text).group(1).split()).replace(":", "")
    n = bytes.fromhex(hexmod).lstrip(b"\0")
    e = int(re.search(r"Exponent: (\d+)", text).group(1))
    return n, e.to_bytes((e.bit_length() + 7) // 8, "big")


def be(b):
    return int.from_bytes(b, "big")


def sig_fields(body):
    """RFC 9580 5.2.3 v4 signature -> dict, by hand."""
    assert body[0] == 4
    hl = be(body[4:6])
    hashed = body[6:6 + hl]
    ul = be(body[6 + hl:8 + hl])
    unhashed = body[8 + hl:8 + hl + ul]
    p = 8 + hl + ul
    left16 = be(body[p:p + 2])
    bits = be(body[p + 2:p + 4])
    raw = body[p + 4:p + 4 + (bits + 7) // 8]
    s = raw.lstrip(b"\0")
    d = {"type": body[1], "pk": body[2], "hash": body[3], "hashed": hashed,
         "left16": left16, "s": s, "s_at": p + 4 + len(raw) - len(s)}
    for t, v in subpackets(hashed):
        if t == 2:
            d["created"] = be(v)
        elif t == 9:
            d["key_expires"] = be(v)
        elif t == 27:
            d["flags"] = v[0]
        elif t == 33:
            d["issuer_fpr"] = v[1:]
        elif t == 16:
            d["issuer"] = v
    for t, v in subpackets(unhashed):
        if t == 16 and "issuer" not in d:
            d["issuer"] = v
        elif t == 33 and "issuer_fpr" not in d:
            d["issuer_fpr"] = v[1:]
    return d


def sig_msg(d, body_off=None):
    """Signature; with the packet body's offset in the submitted octets,
    rsa_s_offset, where the kernel compares the value (an upcall's
    certification)."""
    m = (f_varint(1, 4) + f_varint(2, d["type"]) + f_varint(3, d["pk"]) +
         f_varint(4, d["hash"]) + f_varint(5, d["created"]) +
         f_bytes(7, d["hashed"]) + f_varint(9, d["left16"]) +
         f_bytes(10, d["s"]))
    if "issuer" in d:
        m += f_bytes(11, d["issuer"])
    if "issuer_fpr" in d:
        m += f_bytes(12, d["issuer_fpr"])
    if body_off is not None:
        m += f_varint(13, body_off + d["s_at"])
    return m


def material(body, fpr):
    n, e = openssl_rsa(fpr)
    return (f_varint(1, body[0]) + f_varint(2, be(body[1:5])) +
            f_varint(3, body[5]) + f_bytes(4, n) + f_bytes(5, e))


def fprs(path):
    out = subprocess.run(["gpg", "--show-keys", "--with-colons", path],
                         capture_output=True, text=True).stdout
    return [l.split(":")[9] for l in out.splitlines() if l.startswith("fpr")]


def key_blob(path, which, anchor=None):
    """The canonical Key of the primary key (which 0) or a subkey; with
    the fingerprint of a trust anchor, the primary key's certification is
    that anchor's newest certification of the user ID.  The primary key's
    self-signature (its first user ID's, these keys have one) is the
    certification, else Key.self_signature; a subkey's binding is its
    certification, an older binding Key.first_binding."""
    pk = packets(path)
    fp = fprs(path)
    pri_off, pri_body = pk[0][1], pk[0][2]
    uid = [p for p in pk if p[0] == 13][0]
    uid_i = pk.index(uid)
    sig_pk = [p for p in pk[uid_i + 1:] if p[0] == 2]
    sigs = [sig_fields(p[2]) for p in sig_pk]
    self_sig, self_off = sigs[0], sig_pk[0][1]
    first = None
    if which == 0:
        cert, cert_off = self_sig, self_off
        if anchor:
            by = [(d["created"], i) for i, d in enumerate(sigs)
                  if 0x10 <= d["type"] <= 0x13 and
                  d.get("issuer_fpr") == bytes.fromhex(anchor)]
            i = max(by)[1]
            cert, cert_off = sigs[i], sig_pk[i][1]
        k = (f_bytes(1, material(pri_body, fp[0])) + f_varint(2, pri_off) +
             f_bytes(4, uid[2]) + f_varint(5, uid[1]))
    else:
        subs = [i for i, p in enumerate(pk) if p[0] == 14]
        si = subs[which - 1]
        sub_off, sub_body = pk[si][1], pk[si][2]
        end = next((i for i in range(si + 1, len(pk)) if pk[i][0] == 14),
                   len(pk))
        bindings = sorted((sig_fields(p[2])["created"], p[1], p[2])
                          for p in pk[si + 1:end] if p[0] == 2 and
                          sig_fields(p[2])["type"] == 0x18)
        cert, cert_off = sig_fields(bindings[-1][2]), bindings[-1][1]
        if len(bindings) > 1:
            first = (sig_fields(bindings[0][2]), bindings[0][1])
        k = (f_bytes(1, material(sub_body, fp[which])) +
             f_varint(2, sub_off) + f_varint(3, 1) + f_bytes(4, uid[2]) +
             f_varint(5, uid[1]) + f_bytes(8, material(pri_body, fp[0])))
    k += f_bytes(10, sig_msg(cert, cert_off))
    if which or cert is not self_sig:
        k += f_bytes(14, sig_msg(self_sig, self_off))
    if first:
        k += f_bytes(15, sig_msg(*first))
    return MAGIC + f_bytes(1, k)


def sig_blob(path, content=None):
    data = open(path, "rb").read()
    if data[:1] == b"-":
        data = data[data.index(b"-----BEGIN PGP SIGNATURE-----"):]
        data = subprocess.run(["gpg", "--dearmor"], input=data,
                              capture_output=True, check=True).stdout
    with tempfile.NamedTemporaryFile("wb") as f:
        f.write(data)
        f.flush()
        body = [p for p in packets(f.name) if p[0] == 2][0][2]
    blob = MAGIC + f_bytes(2, sig_msg(sig_fields(body)))
    if content is not None:
        blob += f_bytes(3, content)
    return blob


def cleartext_content(path):
    """RFC 9580 7: the signed text, dash-unescaped, trailing blanks
    removed, CRLF line endings, no final line ending."""
    lines = open(path, "rb").read().split(b"\n")
    start = lines.index(b"") + 1
    end = lines.index(b"-----BEGIN PGP SIGNATURE-----")
    out = []
    for l in lines[start:end]:
        if l.startswith(b"- "):
            l = l[2:]
        out.append(l.rstrip(b" \t\r"))
    return b"\r\n".join(out)


def main():
    w = lambda name, b: open(name, "wb").write(b)
    w("alice.key.expected", key_blob("alice.gpg", 0))
    w("alice-certified.key.expected", key_blob("alice-certified.gpg", 0))
    # Carol, who certified Alice, as the trust anchor.
    w("alice-certified.carol.expected",
      key_blob("alice-certified.gpg", 0, fprs("carol.gpg")[0]))
    w("alice.subkey1.expected", key_blob("alice.gpg", 1))
    w("msg.txt.sig.expected", sig_blob("msg.txt.sig"))
    w("msg.txt.asc.expected", sig_blob("msg.txt.asc"))
    w("msg.txt.clear.expected",
      sig_blob("msg.txt.clear", cleartext_content("msg.txt.clear")))
    with open("fingerprints.expected", "w") as f:
        for name in ("alice.gpg", "ed25519.gpg", "carol.gpg"):
            f.write(name + " " + " ".join(fprs(name)) + "\n")


if __name__ == "__main__":
    if "GNUPGHOME" not in os.environ:
        # The public keys are all --export-ssh-key needs.
        os.environ["GNUPGHOME"] = tempfile.mkdtemp()
        for name in ("alice.gpg", "alice-certified.gpg", "carol.gpg"):
            subprocess.run(["gpg", "--batch", "--quiet", "--import", name],
                           capture_output=True, check=True)
    main()
