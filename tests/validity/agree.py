#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One validity rule: every command of pgpk and pgpk-helper must judge
every key the same way (issue 11).

For every key of the keyrings given, each certificate on its own:
  list --json   can_sign (GnuPG's meaning) and usable/why (the kernel's);
  key --select  converts exactly the usable keys of RSA algorithms that
                the RSA size policy (--min-rsa-bits 2048, the primary's
                too) admits, and a refusal names list's reason;
  debug key     (pgpk-helper: the upcall's whole pipeline, sandbox,
                broker policy) converts exactly the same keys;
  import        (into the thread keyring of its own process, which dies
                with it) adds exactly the usable RSA primary keys and the
                RSA subkeys that can sign, of the size the policy admits,
                and names list's reason for the others (the kernel's answer
                to add_key does not matter: a host without the module
                refuses them all);
  verify        of a signature naming the key, with a wrong RSA value:
                "BAD signature" (the key was accepted, the value checked)
                exactly for the RSA keys that can sign and pass the size
                policy, else a refusal naming list's reason.
Any disagreement fails.  Big keyrings are sampled: every certificate with
a key that is not usable or cannot sign (at most MAX_ODD), and one in
STRIDE of the others.

usage: agree.py PGPK PGPK-HELPER STRIDE KEYRING...
"""
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from pgpk_openpgp import mpi, packet, packets, subpacket  # noqa: E402

RSA = (1, 2, 3)
MAX_ODD = 80    # certificates with odd keys checked per keyring
RSA_SIGN = (1, 3)


def run(*args):
    p = subprocess.run(args, capture_output=True)
    return p.returncode, (p.stdout + p.stderr).decode(errors="replace")


def certificates(data):
    """Split a binary keyring at each primary key packet (tag 6)."""
    out, cur = [], b""
    for tag, whole, _ in packets(data):
        if tag == 6 and cur:
            out.append(cur)
            cur = b""
        cur += whole
    if cur:
        out.append(cur)
    return out


def primary_fpr(cert):
    """RFC 9580 5.5.4: the fingerprint of a certificate's primary key."""
    for tag, _, body in packets(cert):
        if tag != 6:
            continue
        if body[0] == 6:
            return hashlib.sha256(b"\x9b" + struct.pack(">I", len(body))
                                  + body).hexdigest().upper()
        return hashlib.sha1(b"\x99" + struct.pack(">H", len(body))
                            + body).hexdigest().upper()
    return None


def import_lines(helper, cert):
    """pgpk import of one certificate: {key ID: its line}, and
    whether each was added (an add_key attempt, whatever the kernel said)
    rather than skipped or refused by import itself."""
    rc, out = run(helper, "import", "--keyring", "@t", cert)
    lines = {}
    for line in out.splitlines():
        kid, _, rest = line.partition(" ")
        if len(kid) != 16:
            continue
        what = rest.split(": ", 1)[1] if ": " in rest else ""
        attempted = not what.startswith("skipped: ") and \
            not re.match(r"E[A-Z]+: ", what)
        lines[kid] = (line, attempted)
    return lines


def forged_sig(k, created):
    """A v4 binary signature naming key k with a wrong RSA value."""
    fpr = bytes.fromhex(k["fpr"])
    area = (subpacket(2, struct.pack(">I", created))
            + subpacket(33, b"\x04" + fpr))
    head = bytes([4, 0, k["algo"], 8]) + struct.pack(">H", len(area)) + area
    unhashed = subpacket(16, fpr[-8:])
    s = int.from_bytes(b"\x01" + b"\x5a" * (k["bits"] // 8 - 1), "big")
    return packet(2, head + struct.pack(">H", len(unhashed)) + unhashed
                  + b"\x00\x00" + mpi(s))


def main():
    pgpk, helper = sys.argv[1], sys.argv[2]
    stride, rings = int(sys.argv[3]), sys.argv[4:]
    tmp = tempfile.mkdtemp()
    data = os.path.join(tmp, "data")
    with open(data, "wb") as f:
        f.write(b"data\n")
    now = int(time.time())
    nkeys = nfail = 0

    def fail(msg):
        nonlocal nfail
        nfail += 1
        print("FAIL", msg)

    for ring in rings:
        raw = open(ring, "rb").read()
        if raw[:1] == b"-":
            raw = subprocess.run(["gpg", "--dearmor"], input=raw,
                                 capture_output=True).stdout
        # One list of the whole keyring, keys grouped by certificate.
        rc, out = run(pgpk, "list", "--json", ring)
        by_cert = {}
        for line in out.splitlines():
            if line.startswith("{"):
                k = json.loads(line)
                by_cert.setdefault(k.get("primary_fpr", k["fpr"]),
                                   []).append(k)
        nodd = 0
        for ci, c in enumerate(certificates(raw)):
            keys = by_cert.get(primary_fpr(c))
            if not keys:
                continue        # not a certificate pgpk parses: no keys
            odd = any(not k["usable"] or not k["can_sign"] for k in keys)
            if (not odd or nodd >= MAX_ODD) and ci % stride:
                continue
            nodd += odd
            cf = os.path.join(tmp, "cert")
            with open(cf, "wb") as f:
                f.write(c)
            pri = keys[0]
            imported = import_lines(pgpk, cf)
            for k in keys:
                nkeys += 1
                name = "%s %s" % (os.path.basename(ring), k["fpr"])
                rsa = k["algo"] in RSA
                sized = k["bits"] >= 2048 and pri["bits"] >= 2048
                rc, kout = run(pgpk, "key", "--select", k["fpr"], cf)
                want = k["usable"] and rsa and sized
                if (rc == 0) != want and "MPI" not in kout:
                    fail("%s: key %s, list usable=%s algo %d: %s" % (
                        name, "ok" if rc == 0 else "refused", k["usable"],
                        k["algo"], kout.strip() if rc else "(a blob)"))
                if not k["usable"] and k["why"] not in kout:
                    fail("%s: key says '%s', list '%s'" % (
                        name, kout.strip(), k["why"]))
                converted = rc == 0
                rc, dout = run(helper, "debug", "key", "--select",
                               k["fpr"], cf)
                if (rc == 0) != converted:
                    fail("%s: debug %s, key %s, sized %s: %s" % (
                        name, "ok" if rc == 0 else "refused", converted,
                        sized, dout.strip().splitlines()[-1]))
                line, added = imported.get(k["keyid"], ("(no line)", False))
                want = k["algo"] in RSA_SIGN and sized and converted and (
                    k["usable"] if k["primary"] else k["can_sign"])
                if added != want and "MPI" not in line:
                    fail("%s: import %s, list usable=%s can_sign=%s: %s" % (
                        name, "added" if added else "did not add",
                        k["usable"], k["can_sign"], line))
                if not k["usable"] and k["why"] not in line:
                    fail("%s: import says '%s', list '%s'" % (
                        name, line, k["why"]))
                # A value longer than 1024 octets is no canonical RSA
                # value (proto/pgpk.proto): nothing to forge.
                if (k["version"] != 4 or k["algo"] not in RSA
                        or k["bits"] > 8192):
                    continue
                sf = os.path.join(tmp, "sig")
                with open(sf, "wb") as f:
                    f.write(forged_sig(k, now - 60))
                rc, vout = run(pgpk, "verify", "--keyring", cf, sf, data)
                accepted = rc == 1 and "BAD signature" in vout
                want = (k["can_sign"] and k["algo"] in RSA_SIGN and sized
                        and converted)
                if accepted != want:
                    fail("%s: verify %s, list can_sign=%s: %s" % (
                        name, "accepted the key" if accepted else "refused",
                        k["can_sign"], vout.strip()))
                if not k["usable"] and k["why"] not in vout:
                    fail("%s: verify says '%s', list '%s'" % (
                        name, vout.strip(), k["why"]))
    print("%d keys, %d disagreements" % (nkeys, nfail))
    sys.exit(1 if nfail or not nkeys else 0)


if __name__ == "__main__":
    main()
