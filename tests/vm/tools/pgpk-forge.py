#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test data for the trust-boundary cases (tests/vm/cases/40-*.sh..44-*).

Independent of helper/ and kernel/: keys, signatures, certificates and
canonical blobs are made here from RFC 9580 / RFC 5280 with
python3-cryptography, and every forgery is checked to be
cryptographically valid before it is written, so a case that sees it
refused proves the kernel's rule, not a broken input.

usage: pgpk-forge.py OUTDIR
"""
import datetime
import hashlib
import math
import os
import struct
import sys
import time

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from pgpk_name import seed_name  # noqa: E402
from pgpk_openpgp import mpi, packet, subpacket  # noqa: E402
from pgpk_wire import MAGIC, f_bytes, f_varint  # noqa: E402

SHA1, SHA256 = 2, 8         # RFC 9580 9.5
HASHES = {SHA1: hashes.SHA1, SHA256: hashes.SHA256}
NOW = int(time.time()) - 3600


def rsa_with_exponent(bits, e):
    """An RSA key of `bits` bits with public exponent e (OpenSSL makes
    only small ones): its primes, d for e."""
    while True:
        pn = rsa.generate_private_key(public_exponent=65537,
                                      key_size=bits).private_numbers()
        p, q = pn.p, pn.q
        lam = (p - 1) * (q - 1) // math.gcd(p - 1, q - 1)
        if math.gcd(e, lam) == 1:
            break
    d = pow(e, -1, lam)
    return rsa.RSAPrivateNumbers(
        p, q, d, d % (p - 1), d % (q - 1), rsa.rsa_crt_iqmp(p, q),
        rsa.RSAPublicNumbers(e, p * q)).private_key()


class Key:
    """An RSA OpenPGP v4 key whose secret half this script holds."""

    def __init__(self, bits, uid, created=NOW - 86400, e=65537):
        self.priv = (rsa.generate_private_key(public_exponent=65537,
                                              key_size=bits) if e == 65537
                     else rsa_with_exponent(bits, e))
        pub = self.priv.public_key().public_numbers()
        self.n, self.e, self.uid, self.created = pub.n, pub.e, uid, created
        self.body = (b"\x04" + struct.pack(">I", created) + b"\x01"
                     + mpi(self.n) + mpi(self.e))
        self.fpr = hashlib.sha1(self.hashed()).digest()
        self.keyid = self.fpr[-8:]

    def hashed(self):
        """RFC 9580 5.2.4: how a v4 key is hashed (0x99, length, body)."""
        return b"\x99" + struct.pack(">H", len(self.body)) + self.body

    def material(self):
        nb = self.n.to_bytes((self.n.bit_length() + 7) // 8, "big")
        eb = self.e.to_bytes((self.e.bit_length() + 7) // 8, "big")
        return (f_varint(1, 4) + f_varint(2, self.created) + f_varint(3, 1)
                + f_bytes(4, nb) + f_bytes(5, eb))

    def sign(self, data, algo=SHA256):
        """PKCS#1 v1.5 of H(data), as OpenPGP and X.509 both make it."""
        return self.priv.sign(data, padding.PKCS1v15(), HASHES[algo]())


class KeyV6(Key):
    """An RSA OpenPGP v6 key (RFC 9580 5.5.2.3)."""

    def __init__(self, bits, uid, created=NOW - 86400):
        super().__init__(bits, uid, created)
        mat = mpi(self.n) + mpi(self.e)
        self.body = (b"\x06" + struct.pack(">I", created) + b"\x01"
                     + struct.pack(">I", len(mat)) + mat)
        self.fpr = hashlib.sha256(self.hashed()).digest()
        self.keyid = self.fpr[:8]

    def hashed(self):
        return b"\x9b" + struct.pack(">I", len(self.body)) + self.body

    def material(self):
        return f_varint(1, 6) + super().material()[2:]


def v6_doc_sig(signer, doc, salt, created=NOW):
    """A salted v6 binary document signature (RFC 9580 5.2.4)."""
    area = b"\x05\x02" + struct.pack(">I", created)
    head = bytes([6, 0, 1, SHA256]) + struct.pack(">I", len(area)) + area
    data = salt + doc + head + b"\x06\xff" + struct.pack(">I", len(head))
    return signer.sign(data), hashlib.sha256(data).digest(), area


def v6_self_sig(key, sigtype, created=NOW):
    """A v6 key's salted v6 self-signature: the certification of its user
    ID (0x13), or its direct-key signature (0x1f), its use and life (RFC
    9580 10.1.3: key flags certify and sign)."""
    salt = os.urandom(16)
    area = (b"\x05\x02" + struct.pack(">I", created)
            + subpacket(33, b"\x06" + key.fpr))
    signed = key.hashed()
    if sigtype == 0x1F:
        area += subpacket(27, b"\x03")
    else:
        signed += b"\xb4" + struct.pack(">I", len(key.uid)) + key.uid
    head = bytes([6, sigtype, 1, SHA256]) + struct.pack(">I", len(area)) + area
    data = salt + signed + head + b"\x06\xff" + struct.pack(">I", len(head))
    s = key.sign(data)
    return (f_varint(1, 6) + f_varint(2, sigtype) + f_varint(3, 1)
            + f_varint(4, SHA256) + f_varint(5, created) + f_bytes(7, area)
            + f_bytes(8, salt)
            + f_varint(9, int.from_bytes(hashlib.sha256(data).digest()[:2],
                                         "big"))
            + f_bytes(10, s.lstrip(b"\0")) + f_bytes(12, key.fpr))


def canon_v6_sig(signer, content, salt, s, digest, area):
    sig = (f_varint(1, 6) + f_varint(2, 0) + f_varint(3, 1)
           + f_varint(4, SHA256) + f_varint(5, NOW) + f_bytes(7, area)
           + f_bytes(8, salt) + f_varint(9, int.from_bytes(digest[:2], "big"))
           + f_bytes(10, s.lstrip(b"\0")) + f_bytes(12, signer.fpr))
    return MAGIC + f_bytes(2, sig) + f_bytes(3, content)


def v4_trailer(typ, algo, area):
    """RFC 9580 5.2.4: v4 signature trailer over its hashed area."""
    head = bytes([4, typ, 1, algo]) + struct.pack(">H", len(area)) + area
    return head + b"\x04\xff" + struct.pack(">I", len(head))


def hashed_area(signer, created, flags=None, key_expires=None, expires=None,
                extra=b""):
    """Creation time (5.2.3.11) and issuer fingerprint (5.2.3.35); key
    flags (5.2.3.29), key expiration time (5.2.3.13), expiration time
    (5.2.3.18, both seconds after the key's or the signature's creation),
    and more subpackets, if given."""
    area = (b"\x05\x02" + struct.pack(">I", created)
            + b"\x16\x21\x04" + signer.fpr)
    if flags is not None:
        area += subpacket(27, bytes([flags]))
    if key_expires is not None:
        area += b"\x05\x09" + struct.pack(">I", key_expires)
    if expires is not None:
        area += b"\x05\x03" + struct.pack(">I", expires)
    return area + extra


def canon_sig(ver, typ, algo, created, area, digest, s, keyid, fpr=None):
    out = (f_varint(1, ver) + f_varint(2, typ) + f_varint(3, 1)
           + f_varint(4, algo) + f_varint(5, created))
    if area is not None:
        out += f_bytes(7, area)
    out += (f_varint(9, int.from_bytes(digest[:2], "big"))
            + f_bytes(10, s.lstrip(b"\0")) + f_bytes(11, keyid))
    if fpr:
        out += f_bytes(12, fpr)
    return out


SELF = object()   # canon_key(): the key's own self-certification


def canon_key(key, cert=SELF, uid=True, self_sig=SELF):
    """A canonical primary key: its certification (cert; SELF: its own
    self-certification, None: none) and, when the certification is not
    that, its self-signature (self_sig; SELF: its self-certification,
    None: none), from which the kernel reads its use and life."""
    body = f_bytes(1, key.material())
    if uid:
        body += f_bytes(4, key.uid)
    if cert is SELF:
        cert, self_sig = certify(key, key), None
    if cert:
        body += f_bytes(10, cert)
    if self_sig is SELF:
        self_sig = certify(key, key)
    if self_sig:
        body += f_bytes(14, self_sig)
    return MAGIC + f_bytes(1, body)


def certify(signer, key, ver=4, algo=SHA256, typ=0x13, created=NOW,
            tweak=None, **area):
    """signer's certification of key's user ID (RFC 9580 5.2.4); area:
    hashed_area()'s flags, key_expires, expires, extra."""
    if ver == 3:
        data = (key.hashed() + key.uid + bytes([typ])
                + struct.pack(">I", created))
        hashed = None
    else:
        hashed = hashed_area(signer, created, **area)
        data = (key.hashed() + b"\xb4" + struct.pack(">I", len(key.uid))
                + key.uid + v4_trailer(typ, algo, hashed))
    s = signer.sign(data, algo)
    if tweak == "value":
        s = s[:-1] + bytes([s[-1] ^ 1])
    digest = hashlib.new("sha1" if algo == SHA1 else "sha256", data).digest()
    return canon_sig(ver, typ, algo, created, hashed, digest, s, signer.keyid,
                     signer.fpr if ver == 4 else None)


def canon_subkey(primary, sub, cert=None, first=None, soft_revoked=None,
                 self_sig=SELF, uid=True):
    """A canonical subkey (no offsets: not from OpenPGP bytes): its
    primary key's user ID and self-signature (self_sig; SELF: its
    self-certification), its binding (cert) and first binding (first)."""
    body = f_bytes(1, sub.material()) + f_varint(3, 1)
    if uid:
        body += f_bytes(4, primary.uid)
    body += f_bytes(8, primary.material())
    if cert:
        body += f_bytes(10, cert)
    if soft_revoked is not None:
        body += f_varint(13, soft_revoked)
    if self_sig is SELF:
        self_sig = certify(primary, primary)
    if self_sig:
        body += f_bytes(14, self_sig)
    if first:
        body += f_bytes(15, first)
    return MAGIC + f_bytes(1, body)


def bind(primary, sub, typ=0x18, created=NOW, signer=None, **area):
    """primary's signature over primary and subkey (RFC 9580 5.2.4), or
    signer's, if given (a forgery); area: hashed_area()'s options."""
    signer = signer or primary
    hashed = hashed_area(signer, created, **area)
    data = primary.hashed() + sub.hashed() + v4_trailer(typ, SHA256, hashed)
    s = signer.sign(data)
    return canon_sig(4, typ, SHA256, created, hashed,
                     hashlib.sha256(data).digest(), s, signer.keyid,
                     signer.fpr)


def doc_sig(signer, doc, algo=SHA256, created=NOW, typ=0, expires=None,
            tweak=None, claim=None, extra=b"", issuer=None):
    """A document signature (default binary, 0x00), canonical, with its
    content.  expires: seconds after creation (RFC 9580 5.2.3.18).
    tweak: "value" flips a bit of the RSA value, "quick" of the quick
    check; the other stays right; "long" puts an octet 0x01 before the
    RSA value (longer than the modulus); "eddsa" names algorithm 22 in
    the canonical blob (the octets signed say RSA).  claim: the creation time the canonical
    blob says, if not the one signed; extra: more hashed subpackets;
    issuer: the key the canonical blob names, if not the signer."""
    area = hashed_area(signer, created, expires=expires, extra=extra)
    data = doc + v4_trailer(typ, algo, area)
    s = signer.sign(data, algo)
    digest = hashlib.new("sha1" if algo == SHA1 else "sha256", data).digest()
    if tweak == "value":
        s = s[:-1] + bytes([s[-1] ^ 1])
    elif tweak == "quick":
        digest = bytes([digest[0] ^ 0x80]) + digest[1:]
    elif tweak == "long":
        s = b"\x01" + s
    named = issuer or signer
    sig = canon_sig(4, typ, algo, created if claim is None else claim, area,
                    digest, s, named.keyid, named.fpr)
    if tweak == "eddsa":  # field 3, pubkey_algorithm: 1 -> 22
        sig = sig.replace(b"\x18\x01", b"\x18\x16", 1)
    return s, MAGIC + f_bytes(2, sig) + f_bytes(3, doc)


def der(tag, body):
    n = len(body)
    if n < 0x80:
        head = bytes([n])
    else:
        size = (n.bit_length() + 7) // 8
        head = bytes([0x80 | size]) + n.to_bytes(size, "big")
    return bytes([tag]) + head + body


def der_name(cn):
    atv = der(0x30, der(0x06, bytes.fromhex("550403"))
              + der(0x0C, cn.encode()))
    return der(0x30, der(0x31, atv))


def x509_from_document_signature(t, out):
    """Finding 1: T's OpenPGP document signature of an attacker's D is
    an X.509 certificate, issued by T, for the attacker's key."""
    attacker = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    spki = attacker.public_key().public_bytes(
        serialization.Encoding.DER,
        serialization.PublicFormat.SubjectPublicKeyInfo)
    created = NOW
    area = hashed_area(t, created)
    trailer = v4_trailer(0, SHA256, area)   # predictable: only its length
    sha256_rsa = der(0x30, der(0x06, bytes.fromhex("2a864886f70d01010b"))
                     + b"\x05\x00")
    akid = der(0x30, der(0x06, bytes.fromhex("551d23"))
               + der(0x04, der(0x30, der(0x80, t.keyid))))
    # A private, non-critical extension whose OCTET STRING ends the TBS:
    # T's trailer becomes its content.
    tail = der(0x30, der(0x06, bytes.fromhex("2b06010401827f0101"))
               + der(0x04, trailer))
    tbs = der(0x30, der(0xA0, der(0x02, b"\x02")) + der(0x02, b"\x01\x23")
              + sha256_rsa + der_name("pgpk test T")
              + der(0x30, der(0x17, b"250101000000Z")
                    + der(0x17, b"491231235959Z"))
              + der_name("attacker") + spki
              + der(0xA3, der(0x30, akid + tail)))
    assert tbs.endswith(trailer)
    doc = tbs[:-len(trailer)]
    # What T signs: the attacker's document, as any OpenPGP signer would.
    s, sig = doc_sig(t, doc, created=created)
    cert = der(0x30, tbs + sha256_rsa + der(0x03, b"\0" + s))
    loaded = x509.load_der_x509_certificate(cert)
    t.priv.public_key().verify(loaded.signature,
                               loaded.tbs_certificate_bytes,
                               padding.PKCS1v15(), hashes.SHA256())
    write(out, "x509-by-docsig.der", cert)
    write(out, "docsig.pgpks", sig)


def x509_certifier(k, out):
    """Finding 2: an X.509 key whose subject key ID is 8 octets signs a
    file that is exactly the v4 0x13 certification data of key k."""
    xkey = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    skid = bytes.fromhex("5067706b58353039")   # "PgpkX509"
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                         "pgpk test X.509 certifier")])
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(xkey.public_key()).serial_number(7)
            .not_valid_before(datetime.datetime(2025, 1, 1))
            .not_valid_after(datetime.datetime(2049, 12, 31))
            .add_extension(x509.SubjectKeyIdentifier(skid), critical=False)
            .sign(xkey, hashes.SHA256()))
    area = b"\x05\x02" + struct.pack(">I", NOW)
    data = (k.hashed() + b"\xb4" + struct.pack(">I", len(k.uid)) + k.uid
            + v4_trailer(0x13, SHA256, area))
    s = xkey.sign(data, padding.PKCS1v15(), hashes.SHA256())
    digest = hashlib.sha256(data).digest()
    sig = canon_sig(4, 0x13, SHA256, NOW, area, digest, s, skid)
    write(out, "x509-certifier.der",
          cert.public_bytes(serialization.Encoding.DER))
    write(out, "k-by-x509.pgpk", canon_key(k, sig))  # and k's own


def lying_primary(out):
    """A lying helper's answer: A's subkey S offered as B's subkey, with
    B's genuine binding of S (its value appended to A's bytes), B's key
    nowhere in the bytes.  Only the primary key binding refuses it."""
    a = Key(2048, b"pgpk test A <a@pgpk.test>")
    sub = Key(2048, b"")
    b = Key(2048, b"pgpk test B <b@pgpk.test>")
    area = hashed_area(b, NOW)
    data = b.hashed() + sub.hashed() + v4_trailer(0x18, SHA256, area)
    value = b.sign(data)
    sigpkt = (bytes([4, 0x18, 1, SHA256]) + struct.pack(">H", len(area))
              + area + b"\0\0" + hashlib.sha256(data).digest()[:2]
              + mpi(int.from_bytes(value, "big")))
    a_pkt, uid_pkt = packet(6, a.body), packet(13, a.uid)
    sub_pkt = packet(14, sub.body)
    blob = a_pkt + uid_pkt + sub_pkt + packet(2, sigpkt)
    sub_off = len(a_pkt) + len(uid_pkt) + len(sub_pkt) - len(sub.body)
    binding = canon_sig(4, 0x18, SHA256, NOW, area,
                        hashlib.sha256(data).digest(), value, b.keyid,
                        b.fpr)
    answer = MAGIC + f_bytes(1, f_bytes(1, sub.material())
                             + f_varint(2, sub_off) + f_varint(3, 1)
                             + f_bytes(4, b.uid)
                             + f_bytes(8, b.material())
                             + f_bytes(10, binding)
                             + f_bytes(14, certify(b, b)))
    write(out, "lying-primary.pgp", blob)
    write(out, "b.pgpk", canon_key(b))
    liar = os.path.join(out, "liar")
    os.makedirs(liar, exist_ok=True)
    select = sub.keyid.hex().upper()
    write(liar, hashlib.sha256(blob).hexdigest(), answer)
    # Issue 26's reproduction: S re-wrapped as a public-key packet (tag
    # 6), so that the packet binding holds, and B's binding of S carrying
    # the IMA mark: as B's subkey, S would be a PGP-IMA key.  Every other
    # binding holds: B's self-signature is a direct-key one (no user ID
    # needed), and the values of both signatures are in the bytes at the
    # offsets the answer names: only the subkey refusal stops it.  And
    # an answer that names B as a primary key of no subkey.
    ima = (b"\x20\x14\x80\0\0\0\0\x08\0\x0fima@pgpk"
           b"file-signatures")
    m_area = hashed_area(b, NOW, flags=0x20, extra=ima)
    m_data = b.hashed() + sub.hashed() + v4_trailer(0x18, SHA256, m_area)
    d_area = hashed_area(b, NOW, flags=0x03)
    d_data = b.hashed() + v4_trailer(0x1F, SHA256, d_area)
    prefix = a_pkt + uid_pkt + packet(6, sub.body)
    s_off = len(prefix) - len(sub.body)
    sigs, canon = b"", []
    for typ, area, data in ((0x18, m_area, m_data), (0x1F, d_area, d_data)):
        value = b.sign(data)
        digest = hashlib.sha256(data).digest()
        body = (bytes([4, typ, 1, SHA256]) + struct.pack(">H", len(area))
                + area + b"\0\0" + digest[:2]
                + mpi(int.from_bytes(value, "big")))
        pkt = packet(2, body)
        at = len(prefix) + len(sigs) + len(pkt) - len(body) \
            + len(body) - len(value.lstrip(b"\0"))
        canon.append(canon_sig(4, typ, SHA256, NOW, area, digest, value,
                               b.keyid, b.fpr) + f_varint(13, at))
        sigs += pkt
    rewrapped = prefix + sigs
    write(out, "lying-rewrapped.pgp", rewrapped)
    write(liar, hashlib.sha256(rewrapped).hexdigest(),
          MAGIC + f_bytes(1, f_bytes(1, sub.material())
                          + f_varint(2, s_off) + f_varint(3, 1)
                          + f_bytes(8, b.material())
                          + f_bytes(10, canon[0]) + f_bytes(14, canon[1])))
    named = a_pkt + uid_pkt + packet(6, sub.body)
    write(out, "lying-names-b.pgp", named)
    write(liar, hashlib.sha256(named).hexdigest(),
          MAGIC + f_bytes(1, f_bytes(1, sub.material())
                          + f_varint(2, s_off) + f_varint(3, 0)
                          + f_bytes(8, b.material())))
    with open(os.path.join(out, "lying-primary.select"), "w") as f:
        f.write(select + "\n")


def signature_times(out):
    """Issue 14: no signature older than its key or its subkey's binding,
    none after a soft revocation, none by a key that may not sign; the
    kernel confirms the creation time in the hashed area it hashes."""
    p = Key(2048, b"pgpk test time <time@pgpk.test>", created=NOW - 86400)
    s = Key(2048, b"", created=NOW - 80000)
    doc = b"a document: signature times\n"
    write(out, "time-p.pgpk", canon_key(p))
    write(out, "time.good.pgpks", doc_sig(p, doc, created=NOW - 3600)[1])
    # A day ahead of the clock (NOW is an hour behind it).
    write(out, "time.future.pgpks", doc_sig(p, doc, created=NOW + 90000)[1])
    # Signed with the key, an hour before the key's creation time.
    write(out, "time.predates.pgpks",
          doc_sig(p, doc, created=p.created - 3600)[1])
    # Signed now, but the blob claims another time than the hashed one: one
    # second off; or a time whose subpacket octets the signer put in a
    # notation's value (RFC 9580 5.2.3.24), inside the hashed area.
    write(out, "time.claim.pgpks",
          doc_sig(p, doc, created=NOW - 3600, claim=NOW - 3599)[1])
    t = p.created + 60
    value = b"\x05\x02" + struct.pack(">I", t)
    note = subpacket(20, b"\x80\0\0\0" + struct.pack(">HH", 4, len(value))
                     + b"time" + value)
    write(out, "time.claim-notation.pgpks",
          doc_sig(p, doc, created=p.created - 3600, claim=t, extra=note)[1])
    # The same RSA key as another key packet (another creation time, so
    # another fingerprint), signed as p, named as q: q's rules do not apply.
    q = Key.__new__(Key)
    q.priv, q.n, q.e, q.uid = p.priv, p.n, p.e, b"pgpk test time q <q@t>"
    q.created = p.created - 7200
    q.body = (b"\x04" + struct.pack(">I", q.created) + b"\x01" + mpi(q.n)
              + mpi(q.e))
    q.fpr = hashlib.sha1(q.hashed()).digest()
    q.keyid = q.fpr[-8:]
    write(out, "time-q.pgpk", canon_key(q))
    write(out, "time.named-q.pgpks",
          doc_sig(p, doc, created=p.created - 3600, issuer=q)[1])
    # A subkey first bound at NOW - 50000 (Key.first_binding), its
    # binding renewed at NOW - 40000, revoked softly at NOW - 1000
    # (Key.soft_revoked), and the same subkey certify-only.
    bound, revoked = NOW - 50000, NOW - 1000
    write(out, "time-sub.pgpk",
          canon_subkey(p, s, bind(p, s, created=bound + 10000, flags=2),
                       first=bind(p, s, created=bound, flags=2),
                       soft_revoked=revoked))
    write(out, "time-sub-certify.pgpk",
          canon_subkey(p, s, bind(p, s, created=bound, flags=1)))
    # The same subkey without its first binding: it signs from its
    # renewed binding only (the verified time, not a field's word).
    write(out, "time-sub-nofirst.pgpk",
          canon_subkey(p, s, bind(p, s, created=bound + 10000, flags=2)))
    write(out, "time.sub-between.pgpks",
          doc_sig(s, doc, created=bound + 5000)[1])
    write(out, "time.sub-good.pgpks", doc_sig(s, doc, created=NOW - 3600)[1])
    write(out, "time.sub-unbound.pgpks",
          doc_sig(s, doc, created=bound - 100)[1])
    write(out, "time.sub-after-revocation.pgpks",
          doc_sig(s, doc, created=revoked + 10)[1])


def names(out):
    """Seed 007's descriptions (issue 26): each key self-certifies its
    user ID; NAME.name holds what the kernel must name it
    (tests/lib/pgpk_name.py, written from the seed)."""
    uids = {
        "comment": b"Alice Example (work laptop) <alice@example.org>",
        "plain": b"Bob Example <bob@example.org>",
        "newline": b"Carol\nInjected <carol@example.org>",
        "long": b"L" * 300 + b" <long@example.org>",
        "latin1": b"J\xfcrgen M\xfcller <juergen@example.de>",
        "utf8": "J\u00fcrgen \u0141\u00f3d\u017a <j@example.pl>".encode(),
        "nul": b"pgpk nul\x00" + b"\x01" * 200,
        "nul-first": b"\x00(x)" + b"\x01" * 50,
        "comment-only": b"(only a comment)",
        "backslash": b"C:\\pgpk\\key <c@example.org>",
        "escape": b"\x1b[31mred\x1b[0m <esc@example.org>",
    }
    for name, uid in uids.items():
        k = Key(2048, uid)
        write(out, "name-%s.pgpk" % name, canon_key(k))
        write(out, "name-%s.name" % name, (seed_name(uid, k.keyid) + "\n").encode())
    # A subkey: its primary's user ID, its own key ID.
    p = Key(2048, uids["comment"])
    s = Key(2048, b"")
    write(out, "name-subkey.pgpk", canon_subkey(p, s, bind(p, s, flags=2)))
    write(out, "name-subkey.name", (seed_name(p.uid, s.keyid, True) + "\n").encode())


def authority(out):
    """Issue 26: authority only from signatures the kernel verified.  A
    is a trust anchor: a primary key that certifies and signs, with a
    signing subkey S and an encryption subkey E; N's primary key only
    signs (no certify flag).  X is certified by each; I is a subkey
    dedicated to IMA bound by A, by S posing as a primary key."""
    a = Key(2048, b"pgpk anchor A <a@pgpk.test>")
    s = Key(2048, b"")
    e = Key(2048, b"")
    n = Key(2048, b"pgpk no-certify N <n@pgpk.test>")
    x = Key(2048, b"pgpk target X <x@pgpk.test>")
    i = Key(2048, b"")
    mark = (b"\x20\x14\x80\0\0\0\0\x08\0\x0fima@pgpk"
            b"file-signatures")
    a_self = certify(a, a, flags=0x03)
    write(out, "auth-a.pgpk", canon_key(a, a_self, self_sig=None))
    write(out, "auth-s.pgpk",
          canon_subkey(a, s, bind(a, s, flags=0x02), self_sig=a_self))
    write(out, "auth-e.pgpk",
          canon_subkey(a, e, bind(a, e, flags=0x0C), self_sig=a_self))
    write(out, "auth-n.pgpk",
          canon_key(n, certify(n, n, flags=0x02), self_sig=None))
    # S2: a subkey whose binding says no key flags (all an RSA key can do:
    # but a subkey certifies nothing)
    s2 = Key(2048, b"")
    write(out, "auth-s2.pgpk", canon_subkey(a, s2, bind(a, s2),
                                            self_sig=a_self))
    write(out, "auth-x-by-s2.pgpk", canon_key(x, certify(s2, x)))
    # a self-signature whose RSA value is not the signer's
    write(out, "auth-x-bad-self.pgpk",
          canon_key(x, certify(x, x, tweak="value"), self_sig=None))
    # certifications of X (0x13): by A (the control), by S, by N
    write(out, "auth-x-by-a.pgpk", canon_key(x, certify(a, x)))
    write(out, "auth-x-by-s.pgpk", canon_key(x, certify(s, x)))
    write(out, "auth-x-by-n.pgpk", canon_key(x, certify(n, x)))
    # X as a subkey "bound" (0x18) by S posing as a primary key (S's
    # holder self-certifies S with the certify flag: he holds S)
    s.uid = b"pgpk S posing as a primary <s@pgpk.test>"
    s_self = certify(s, s, flags=0x03)
    write(out, "auth-x-bound-by-s.pgpk",
          canon_subkey(s, x, bind(s, x, flags=0x02), self_sig=s_self))
    # an IMA subkey bound by A (the control) and by S posing as primary
    write(out, "auth-i-of-a.pgpk",
          canon_subkey(a, i, bind(a, i, flags=0x20, extra=mark),
                       self_sig=a_self))
    write(out, "auth-i-of-s.pgpk",
          canon_subkey(s, i, bind(s, i, flags=0x20, extra=mark),
                       self_sig=s_self))
    # RFC 9580 5.2.3.7: a critical subpacket pgpk does not understand (a
    # critical notation, a critical private type 101) in a certification,
    # a binding and a document signature; the same not critical; a
    # critical one pgpk understands (key flags, features)
    note = subpacket(0x80 | 20, b"\x80\0\0\0\0\x08\0\x02crit@pgpk" + b"on")
    note_plain = subpacket(20, b"\x80\0\0\0\0\x08\0\x02crit@pgpk" + b"on")
    priv = subpacket(0x80 | 101, b"x")
    write(out, "auth-x-by-a-critnote.pgpk",
          canon_key(x, certify(a, x, extra=note)))
    write(out, "auth-x-by-a-crit101.pgpk",
          canon_key(x, certify(a, x, extra=priv)))
    write(out, "auth-x-by-a-note.pgpk",
          canon_key(x, certify(a, x, extra=note_plain
                               + subpacket(101, b"x"))))
    write(out, "auth-x-by-a-critknown.pgpk",
          canon_key(x, certify(a, x, extra=subpacket(0x80 | 30, b"\x01"))))
    write(out, "auth-s-crit.pgpk",
          canon_subkey(a, s, bind(a, s, flags=0x02, extra=priv),
                       self_sig=a_self))
    write(out, "auth-x-self-crit.pgpk",
          canon_key(x, certify(x, x, extra=note), self_sig=None))
    doc = b"a document signed by the anchor's signing subkey\n"
    write(out, "auth-doc-by-s.pgpks", doc_sig(s, doc)[1])
    write(out, "auth-doc-by-s-crit.pgpks", doc_sig(s, doc, extra=priv)[1])
    write(out, "auth-doc-by-s-note.pgpks",
          doc_sig(s, doc, extra=note_plain)[1])
    write(out, "auth-doc-by-e.pgpks", doc_sig(e, doc)[1])
    write(out, "auth-doc-by-a.pgpks", doc_sig(a, doc)[1])
    # What the key's own self-signature says rules: expired a day ago
    # (Key Expiration Time), and a self-signature that expired; the old
    # hint fields (6 expires, 7 key_flags, 12 bound) are refused.
    old = Key(2048, b"pgpk expired <old@pgpk.test>", created=NOW - 3 * 86400)
    write(out, "auth-key-expired.pgpk",
          canon_key(old, certify(old, old, created=NOW - 3 * 86400 + 60,
                                 key_expires=2 * 86400),
                    self_sig=None))
    write(out, "auth-self-expired.pgpk",
          canon_key(old, certify(old, old, created=NOW - 3 * 86400 + 60,
                                 expires=86400),
                    self_sig=None))
    body = f_bytes(1, x.material()) + f_bytes(4, x.uid)
    cert = certify(x, x)
    write(out, "auth-old-6.pgpk", MAGIC + f_bytes(1, body + f_varint(6, 1)
                                                  + f_bytes(10, cert)))
    write(out, "auth-old-7.pgpk", MAGIC + f_bytes(1, body + f_varint(7, 2)
                                                  + f_bytes(10, cert)))
    write(out, "auth-old-12.pgpk", MAGIC + f_bytes(1, body + f_bytes(10, cert)
                                                   + f_varint(12, 1)))
    # no self-signature: a key vouched for by A alone
    write(out, "auth-x-by-a-noself.pgpk",
          canon_key(x, certify(a, x), self_sig=None))
    # The review's finding: a v4 key's direct-key signature (0x1f, as
    # gpg's addrevoker makes it: no flags, no expiry) offered as its
    # self-signature, while its user ID's says it expired; as the
    # certification, as Key.self_signature beside A's certification, and
    # as a subkey's primary self-signature.  The control: the user ID's.
    v = Key(2048, b"pgpk expired V <v@pgpk.test>", created=NOW - 3 * 86400)
    v_uid = certify(v, v, created=NOW - 3 * 86400 + 60, flags=0x03,
                    key_expires=2 * 86400)
    area = hashed_area(v, NOW - 3 * 86400 + 120,
                       extra=subpacket(0x80 | 12, b"\x80\x01" + a.fpr))
    data = v.hashed() + v4_trailer(0x1F, SHA256, area)
    v_dk = canon_sig(4, 0x1F, SHA256, NOW - 3 * 86400 + 120, area,
                     hashlib.sha256(data).digest(), v.sign(data), v.keyid,
                     v.fpr)
    write(out, "auth-v-uid.pgpk", canon_key(v, v_uid, self_sig=None))
    write(out, "auth-v-dk.pgpk", canon_key(v, v_dk, self_sig=None))
    write(out, "auth-v-by-a-dk.pgpk", canon_key(v, certify(a, v),
                                                self_sig=v_dk))
    vs = Key(2048, b"")
    write(out, "auth-v-sub-dk.pgpk",
          canon_subkey(v, vs, bind(v, vs, flags=0x02), self_sig=v_dk))
    # a trust signature's critical level and regular expression (5, 6):
    # they limit what a certification says, and pgpk enforces neither
    write(out, "auth-x-by-a-crittrust.pgpk",
          canon_key(x, certify(a, x, extra=subpacket(0x80 | 5, b"\x01\x78")
                               + subpacket(0x80 | 6, b"<[^>]+@example.com>$\0"))))


def write(out, name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    t = Key(2048, b"pgpk test T <t@pgpk.test>")
    k = Key(2048, b"pgpk test K <k@pgpk.test>")
    write(out, "t.pgpk", canon_key(t))
    write(out, "k.pgpk", canon_key(k))
    x509_from_document_signature(t, out)
    x509_certifier(k, out)

    # Finding 3, the kernel's floor: each is valid, and refused by policy.
    write(out, "k-by-t.pgpk", canon_key(k, certify(t, k)))
    write(out, "k-by-t-sha1.pgpk", canon_key(k, certify(t, k, algo=SHA1)))
    write(out, "k-by-t-v3.pgpk", canon_key(k, certify(t, k, ver=3)))
    doc = b"a document signed with SHA-256, then with SHA-1\n"
    write(out, "doc.sha256.pgpks", doc_sig(t, doc)[1])
    write(out, "doc.sha1.pgpks", doc_sig(t, doc, algo=SHA1)[1])
    small = Key(1024, b"pgpk test 1024 <small@pgpk.test>")
    write(out, "rsa1024.pgpk", canon_key(small))
    big = Key(3072, b"pgpk test 3072 <big@pgpk.test>")
    write(out, "rsa3072.pgpk", canon_key(big))
    # 257 octets: above the floor, a size 6.1's RSA refuses
    # (crypto/rsa.c, rsa_check_key_length(): 2048, 3072, 4096 and less)
    odd = Key(2056, b"pgpk test 2056 <odd@pgpk.test>")
    write(out, "rsa2056.pgpk", canon_key(odd))
    write(out, "sub-of-t.pgpk", canon_subkey(t, k, bind(t, k)))
    write(out, "sub-of-1024.pgpk", canon_subkey(small, k, bind(small, k)))
    # A user ID certification type (0x13) made over primary and subkey,
    # offered as a subkey's binding: not a binding signature.
    write(out, "sub-of-t-0x13.pgpk", canon_subkey(t, k, bind(t, k, 0x13)))

    # Each check alone (issue 15): one thing wrong, all else right.
    doc = b"a document: each check of the kernel alone\n"
    write(out, "doc.good.pgpks", doc_sig(t, doc)[1])
    write(out, "doc.bad-value.pgpks", doc_sig(t, doc, tweak="value")[1])
    write(out, "doc.bad-quick.pgpks", doc_sig(t, doc, tweak="quick")[1])
    write(out, "doc.long-value.pgpks", doc_sig(t, doc, tweak="long")[1])
    write(out, "doc.eddsa.pgpks", doc_sig(t, doc, tweak="eddsa")[1])
    write(out, "doc.expired.pgpks",
          doc_sig(t, doc, created=NOW - 7200, expires=3600)[1])
    write(out, "doc.type-0x10.pgpks", doc_sig(t, doc, typ=0x10)[1])
    write(out, "k-by-t-bad-value.pgpk", canon_key(k, certify(t, k,
                                                             tweak="value")))
    write(out, "k-by-t-expired.pgpk",
          canon_key(k, certify(t, k, created=NOW - 7200, expires=3600)))

    # Review of finding 3's fix: a subkey without its primary key; a v6
    # salt that swallows the start of the signed data (SHA-256: 16).
    write(out, "sub-no-primary.pgpk",
          MAGIC + f_bytes(1, f_bytes(1, k.material()) + f_varint(3, 1)))
    # RSA Encrypt-Only (RFC 9580 9.1: algorithm 2) key material.
    enc = k.material().replace(f_varint(3, 1), f_varint(3, 2), 1)
    write(out, "rsa-encrypt-only.pgpk",
          MAGIC + f_bytes(1, f_bytes(1, enc) + f_bytes(4, k.uid)))
    v6 = KeyV6(2048, b"pgpk test v6 <v6@pgpk.test>")
    write(out, "v6.pgpk", canon_key(v6, v6_self_sig(v6, 0x13),
                                    self_sig=v6_self_sig(v6, 0x1F)))
    doc = b"DO NOT RUN: echo owned > /tmp/pwned\n"
    salt = os.urandom(16)
    s, digest, area = v6_doc_sig(v6, doc, salt)
    write(out, "v6.good.pgpks", canon_v6_sig(v6, doc, salt, s, digest, area))
    write(out, "v6.salt-shift.pgpks",
          canon_v6_sig(v6, doc[5:], salt + doc[:5], s, digest, area))

    lying_primary(out)
    signature_times(out)
    names(out)
    authority(out)
    # Issue 19: an RSA exponent of 8 octets (the longest the kernel
    # takes), self-certified: it loads.
    e8 = Key(2048, b"pgpk test e8 <e8@pgpk.test>", e=(1 << 63) | 0x10001)
    write(out, "rsa-e8.pgpk", canon_key(e8))

    # Finding 8: the latest expiries OpenPGP can say, 2^32 - 1 s after
    # the key's creation (Key Expiration Time) or its self-signature's
    # (Signature Expiration Time).
    write(out, "expires-max.pgpk",
          canon_key(k, certify(k, k, key_expires=(1 << 32) - 1),
                    self_sig=None))
    write(out, "expires-sig-max.pgpk",
          canon_key(k, certify(k, k, expires=(1 << 32) - 1),
                    self_sig=None))
    with open(os.path.join(out, "k.created"), "w") as f:
        f.write("%d\n" % k.created)


if __name__ == "__main__":
    main()
