#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test data for the IMA cases (tests/vm/cases/6x-ima-*.sh) that gpg and
pgpk-helper ima-sign cannot make: every input is checked to be
cryptographically valid before it is written, so a case that sees it
refused proves the kernel's rule, not a broken input.

    pgpk-ima-data.py docsig CERT SIG DOC OUT   a gpg document signature of
        DOC (detached, v4, RSA) as security.ima of the file DOC || trailer:
        OUT (the file) and OUT.ima (the xattr, hex)
    pgpk-ima-data.py forged OUTDIR             canonical keys and
        signatures made here (independent of helper/ and kernel/): an IMA
        subkey, the same with its binding tampered, without its binding,
        the mark on a primary key, an OpenPGP document signature by the
        IMA subkey and the same by an ordinary key, an X.509 certificate
        issued with the IMA subkey's secret half
"""
import datetime
import hashlib
import importlib.util
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "lib"))
from pgpk_openpgp import packets  # noqa: E402
from pgpk_wire import MAGIC, f_bytes, f_varint  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "pgpk_forge_tool", os.path.join(here, "pgpk-forge.py"))
forge = importlib.util.module_from_spec(spec)
spec.loader.exec_module(forge)

# kernel/pgpk_ima.h: the Notation Data subpacket that dedicates a subkey
MARK = (bytes([32, 20, 0x80, 0, 0, 0, 0, 8, 0, 15]) + b"ima@pgpk"
        + b"file-signatures")
HASH_IMA = {8: 4, 9: 5, 10: 6}      # RFC 9580 9.5 -> hash_info.h
HASH_PY = {8: hashes.SHA256, 9: hashes.SHA384, 10: hashes.SHA512}


def ima_xattr(keyid, algo, s, modulus_len):
    """security/integrity/integrity.h: signature_v2_hdr + value."""
    s = s.rjust(modulus_len, b"\0")
    return (bytes([3, 2, HASH_IMA[algo]]) + keyid[-4:]
            + struct.pack(">H", len(s)) + s)


def mpi_at(body, i):
    n = (int.from_bytes(body[i:i + 2], "big") + 7) // 8
    return int.from_bytes(body[i + 2:i + 2 + n], "big"), i + 2 + n


def keys_of(cert):
    """{key ID: (n, e)} of every v4 RSA key and subkey of CERT."""
    out = {}
    for tag, _, body in packets(cert):
        if tag in (6, 14) and body[0] == 4 and body[5] in (1, 3):
            n, i = mpi_at(body, 6)
            e, i = mpi_at(body, i)
            fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(body[:i]))
                               + body[:i]).digest()
            out[fpr[-8:]] = (n, e)
    return out


def docsig(cert, sig, doc, out):
    body, = [b for t, _, b in packets(sig) if t == 2]
    assert body[0] == 4 and body[1] == 0 and body[2] == 1, "v4 RSA binary"
    algo = body[3]
    hlen = struct.unpack(">H", body[4:6])[0]
    head = body[:6 + hlen]
    trailer = head + b"\x04\xff" + struct.pack(">I", len(head))
    ulen = struct.unpack(">H", body[6 + hlen:8 + hlen])[0]
    unhashed = body[8 + hlen:8 + hlen + ulen]
    s, _ = mpi_at(body, 8 + hlen + ulen + 2)
    keyid = unhashed[unhashed.index(b"\x09\x10") + 2:][:8]
    n, e = keys_of(cert)[keyid]
    mod_len = (n.bit_length() + 7) // 8
    sb = s.to_bytes(mod_len, "big")
    data = doc + trailer
    # valid: the signature is PKCS#1 of H(D || trailer) by that key
    rsa.RSAPublicNumbers(e, n).public_key().verify(
        sb, data, padding.PKCS1v15(), HASH_PY[algo]())
    with open(out, "wb") as f:
        f.write(data)
    with open(out + ".ima", "w") as f:
        f.write(ima_xattr(keyid, algo, sb, mod_len).hex() + "\n")


def bind_area(primary, sub, area):
    data = (primary.hashed() + sub.hashed()
            + forge.v4_trailer(0x18, forge.SHA256, area))
    s = primary.sign(data)
    return forge.canon_sig(4, 0x18, forge.SHA256, forge.NOW, area,
                           hashlib.sha256(data).digest(), s, primary.keyid,
                           primary.fpr)


def write(outdir, name, data):
    with open(os.path.join(outdir, name), "wb" if isinstance(data, bytes)
              else "w") as f:
        f.write(data)


def forged(outdir):
    os.makedirs(outdir, exist_ok=True)
    p = forge.Key(2048, b"pgpk IMA test P <p@pgpk.test>")
    i = forge.Key(2048, b"")
    area = forge.hashed_area(p, forge.NOW) + MARK + b"\x02\x1b\x20"
    write(outdir, "p.pgpk", forge.canon_key(p))
    write(outdir, "i.pgpk", forge.canon_subkey(p, i, bind_area(p, i, area)))
    # the binding's hashed area changed after signing (key flags 0x22:
    # sign too), its quick check made right again: the mark is there, the
    # RSA value no longer verifies
    good = bind_area(p, i, area)
    area2 = area[:-1] + b"\x22"
    data2 = (p.hashed() + i.hashed()
             + forge.v4_trailer(0x18, forge.SHA256, area2))
    s_old = p.sign(p.hashed() + i.hashed()
                   + forge.v4_trailer(0x18, forge.SHA256, area))
    assert good.count(s_old.lstrip(b"\0")) == 1
    bad = forge.canon_sig(4, 0x18, forge.SHA256, forge.NOW, area2,
                          hashlib.sha256(data2).digest(), s_old, p.keyid,
                          p.fpr)
    write(outdir, "i-bad-binding.pgpk", forge.canon_subkey(p, i, bad))
    write(outdir, "i-no-binding.pgpk", forge.canon_subkey(p, i))
    # the mark's octets as another notation's value: not the mark
    name = b"x@pgpk.test"
    data = (b"\x80\0\0\0" + struct.pack(">HH", len(name), len(MARK))
            + name + MARK)
    inner = bytes([1 + len(data), 20]) + data
    write(outdir, "i-mark-in-value.pgpk", forge.canon_subkey(
        p, i, bind_area(p, i, forge.hashed_area(p, forge.NOW) + inner)))
    # the mark in a primary key's self-certification: never an IMA key
    self_area = forge.hashed_area(p, forge.NOW) + MARK
    data = (p.hashed() + b"\xb4" + struct.pack(">I", len(p.uid)) + p.uid
            + forge.v4_trailer(0x13, forge.SHA256, self_area))
    cert = forge.canon_sig(4, 0x13, forge.SHA256, forge.NOW, self_area,
                           hashlib.sha256(data).digest(), p.sign(data),
                           p.keyid, p.fpr)
    write(outdir, "p-marked.pgpk", forge.canon_key(p, cert, self_sig=None))
    # the mark confirmed by an RSA Encrypt-Only primary (RFC 9580 9.1: it
    # signs nothing): P's material as algorithm 2
    e = forge.Key(2048, b"pgpk IMA test E <e@pgpk.test>")
    e.body = e.body[:5] + b"\x02" + e.body[6:]
    e.fpr = hashlib.sha1(e.hashed()).digest()
    e.keyid = e.fpr[-8:]
    e_material = e.material()
    e.material = lambda: e_material.replace(f_varint(3, 1), f_varint(3, 2), 1)
    write(outdir, "i-of-encrypt-only.pgpk", forge.canon_subkey(
        e, i, bind_area(e, i, forge.hashed_area(e, forge.NOW) + MARK)))
    # an OpenPGP document signature by the IMA subkey, and by P
    doc = b"an OpenPGP document signed by a key dedicated to IMA\n"
    write(outdir, "doc-by-i.pgpks", forge.doc_sig(i, doc)[1])
    write(outdir, "doc-by-p.pgpks", forge.doc_sig(p, doc)[1])
    # a file signed for IMA by i (the kernel's positive control)
    content = b"a file signed for IMA by a forged, marked subkey\n"
    s = i.priv.sign(content, padding.PKCS1v15(), hashes.SHA256())
    write(outdir, "i-file", content)
    write(outdir, "i-file.ima", ima_xattr(i.keyid, 8, s, 256).hex() + "\n")
    # an X.509 certificate issued with I's secret half (its authority key
    # ID is I's key ID): I must not vouch for it in a restricted keyring
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                         "issued by an IMA key")])
    aki = x509.AuthorityKeyIdentifier(i.keyid, None, None)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(other.public_key()).serial_number(9)
            .not_valid_before(datetime.datetime(2025, 1, 1))
            .not_valid_after(datetime.datetime(2049, 12, 31))
            .add_extension(aki, critical=False)
            .sign(i.priv, hashes.SHA256()))
    i.priv.public_key().verify(cert.signature, cert.tbs_certificate_bytes,
                               padding.PKCS1v15(), hashes.SHA256())
    write(outdir, "x509-by-i.der",
          cert.public_bytes(serialization.Encoding.DER))
    # ... and by P, an ordinary key: IMA must refuse it
    s = p.priv.sign(content, padding.PKCS1v15(), hashes.SHA256())
    write(outdir, "p-file.ima", ima_xattr(p.keyid, 8, s, 256).hex() + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "docsig":
        args = sys.argv[2:]
        with open(args[0], "rb") as c, open(args[1], "rb") as s, \
                open(args[2], "rb") as d:
            docsig(c.read(), s.read(), d.read(), args[3])
    elif sys.argv[1] == "forged":
        forged(sys.argv[2])
    else:
        sys.exit(__doc__)
