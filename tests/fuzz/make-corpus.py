#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seed corpus for tests/fuzz/openpgp_fuzz.c, cut from real keyrings.

  tests/fuzz/make-corpus.py [OUTDIR]     (default tests/fuzz/corpus/openpgp)

- every certificate of debian-archive-keyring.gpg (binary, and a few
  armored);
- a deterministic sample of debian-keyring.gpg certificates (every n-th
  certificate under a size cap, so the corpus stays small);
- single packets of a few certificates (a lone key, a lone signature
  packet, a lone user ID), which reach the packet parsers directly;
- signatures, inline signed messages and cleartext-signed texts made with
  gpg in a throwaway GNUPGHOME (when gpg is installed);
- a few hand-made edge cases (empty, truncated armor, bad CRC, partial
  lengths).

Files are named by content hash, so re-running adds nothing twice.  The
whole corpus is kept under ~3 MB.
"""

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

ARCHIVE = "/usr/share/keyrings/debian-archive-keyring.gpg"
DEBIAN = "/usr/share/keyrings/debian-keyring.gpg"
SAMPLE_MAX = 12 * 1024       # certificates above this size are skipped
SAMPLE_COUNT = 220           # certificates sampled from debian-keyring
BUDGET = 3 * 1024 * 1024 - 256 * 1024


def packets(data):
    """Yield (tag, header_start, body_start, end) of each packet
    (RFC 9580 4.2: old and new formats, no partial lengths in keys)."""
    i = 0
    n = len(data)
    while i < n:
        start = i
        ctb = data[i]
        if not ctb & 0x80:
            raise ValueError("bad packet tag at %d" % i)
        if ctb & 0x40:
            tag = ctb & 0x3F
            o = data[i + 1]
            if o < 192:
                length, hl = o, 2
            elif o < 224:
                length, hl = ((o - 192) << 8) + data[i + 2] + 192, 3
            elif o == 255:
                length, hl = int.from_bytes(data[i + 2:i + 6], "big"), 6
            else:
                raise ValueError("partial length in a keyring at %d" % i)
        else:
            tag = (ctb >> 2) & 0x0F
            lt = ctb & 3
            if lt == 3:
                raise ValueError("indeterminate length at %d" % i)
            ll = (1, 2, 4)[lt]
            length, hl = int.from_bytes(data[i + 1:i + 1 + ll], "big"), 1 + ll
        i = start + hl + length
        yield tag, start, start + hl, i


def certificates(data):
    """Split a keyring into certificates (each starts at a tag 6)."""
    certs = []
    cur = None
    for tag, start, _, end in packets(data):
        if tag == 6:
            if cur is not None:
                certs.append(data[cur:start])
            cur = start
    if cur is not None:
        certs.append(data[cur:])
    return certs


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def armor(data, label="PGP PUBLIC KEY BLOCK", checksum=True):
    b64 = base64.b64encode(data).decode()
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    out = ["-----BEGIN %s-----" % label, "Comment: pgpk fuzz corpus", ""]
    out += lines
    if checksum:
        out.append("=" + base64.b64encode(
            crc24(data).to_bytes(3, "big")).decode())
    out.append("-----END %s-----" % label)
    return ("\n".join(out) + "\n").encode()


class Corpus:
    def __init__(self, outdir):
        self.outdir = outdir
        os.makedirs(outdir, exist_ok=True)
        self.size = sum(os.path.getsize(os.path.join(outdir, f))
                        for f in os.listdir(outdir))
        self.added = 0

    def add(self, data, kind):
        name = "%s-%s" % (kind, hashlib.sha1(data).hexdigest()[:16])
        path = os.path.join(self.outdir, name)
        if os.path.exists(path):
            return True
        if self.size + len(data) > BUDGET:
            return False
        with open(path, "wb") as f:
            f.write(data)
        self.size += len(data)
        self.added += 1
        return True


def gpg_samples(corpus):
    if not shutil.which("gpg"):
        print("gpg not installed: no signature samples")
        return
    home = tempfile.mkdtemp()
    env = dict(os.environ, GNUPGHOME=home)
    g = ["gpg", "--batch", "--quiet", "--no-tty", "--pinentry-mode",
         "loopback", "--passphrase="]

    def run(*args, data=None):
        return subprocess.run(g + list(args), input=data, env=env,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, check=True).stdout

    try:
        run("--quick-gen-key", "Fuzz Corpus <fuzz@example.org>", "rsa2048",
            "sign,cert", "never")
        fpr = run("--with-colons", "--list-keys").decode().split(
            "fpr:::::::::")[1].split(":")[0]
        run("--quick-add-key", fpr, "rsa2048", "sign", "never")
        run("--quick-add-key", fpr, "rsa2048", "encr", "2y")
        run("--quick-add-uid", fpr, "Second UID (comment) <second@example.org>")
        corpus.add(run("--export", fpr), "gpgkey")
        corpus.add(run("--armor", "--export", fpr), "gpgkey-asc")
        text = (b"Format: 3.0 (quilt)\nSource: hello\nVersion: 2.10-3\n"
                b"Files:\n 6cd0ffea3884a4e79330338dcc2987d6 725946 x.tar.gz\n"
                b"- dash line\ntrailing space   \n\tlast")
        for extra, kind in (([], "sig"), (["--armor"], "sig-asc"),
                            (["--textmode", "--armor"], "sig-text"),
                            (["--digest-algo", "SHA512"], "sig-sha512"),
                            (["--digest-algo", "SHA1"], "sig-sha1")):
            corpus.add(run(*extra, "--detach-sign", data=text), kind)
        corpus.add(run("--clearsign", data=text), "cleartext")
        corpus.add(run("--clearsign", "--digest-algo", "SHA384",
                       data=text + b"\r\n-----BEGIN fake-----\n"),
                   "cleartext")
        corpus.add(run("--sign", data=text), "inline")
        corpus.add(run("--sign", "--compress-level", "0", data=text),
                   "inline")
        corpus.add(run("--armor", "--sign", data=text), "inline-asc")
        corpus.add(run("--sign", "--compress-algo", "zlib", data=text),
                   "inline")
    finally:
        subprocess.run(["gpgconf", "--homedir", home, "--kill", "all"],
                       env=env, stderr=subprocess.DEVNULL)
        shutil.rmtree(home, ignore_errors=True)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        root, "tests/fuzz/corpus/openpgp")
    corpus = Corpus(outdir)

    # Hand-made edge cases.
    for data, kind in ((b"", "edge"), (b"\x99", "edge"),
                       (b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n", "edge"),
                       (b"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n"
                        b"\nhello\n-----BEGIN PGP SIGNATURE-----\n\n"
                        b"-----END PGP SIGNATURE-----\n", "edge"),
                       (b"\xc6\xe0" + b"\x04" * 32, "edge"),
                       (b"\xcb\xe1" + b"b\x00\x00\x00\x00\x00" + b"x" * 2,
                        "edge")):
        corpus.add(data, kind)

    if os.path.exists(ARCHIVE):
        certs = certificates(open(ARCHIVE, "rb").read())
        for i, c in enumerate(certs):
            corpus.add(c, "archive")
            if i % 4 == 0:
                corpus.add(armor(c), "archive-asc")
            if i % 7 == 0:
                corpus.add(armor(c, checksum=False), "archive-asc")
        # Lone packets and a truncated certificate.
        for tag, start, body, end in packets(certs[0]):
            corpus.add(certs[0][start:end], "packet%d" % tag)
            corpus.add(certs[0][body:end], "body%d" % tag)
        corpus.add(certs[0][:len(certs[0]) // 2], "truncated")
        bad = bytearray(armor(certs[0]))
        bad[100] ^= 0x01
        corpus.add(bytes(bad), "badcrc")

    if os.path.exists(DEBIAN):
        certs = certificates(open(DEBIAN, "rb").read())
        small = [c for c in certs if len(c) <= SAMPLE_MAX]
        step = max(1, len(small) // SAMPLE_COUNT)
        for c in small[::step][:SAMPLE_COUNT]:
            if not corpus.add(c, "debian"):
                break
        # The certificates that exercise unusual algorithms, whatever
        # their size: every non-RSA primary key (first key octet 4 =
        # version, algorithm at offset 5 of the body).
        for c in certs:
            _, _, body, _ = next(packets(c))
            if c[body] == 4 and c[body + 5] != 1 and len(c) <= 4 * SAMPLE_MAX:
                corpus.add(c, "debian-algo%d" % c[body + 5])

    gpg_samples(corpus)
    print("%s: %d files added, %d octets in total" %
          (outdir, corpus.added, corpus.size))


if __name__ == "__main__":
    main()
