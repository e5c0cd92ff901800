# SPDX-License-Identifier: GPL-2.0
"""The description the kernel gives a pgpk key, for the test generators.

Written from the 2022 patch set's patch 007 (../shared/seeds/) and the
rules of proto/pgpk.proto, not from kernel/pgpk_frame.c: the user ID up
to a comment ("("), without the spaces before it, at most 246 octets of
it, every octet outside printable ASCII (and the backslash) as "\\xNN",
a space, the last 8 hex digits of the key ID; without a user ID (or when
nothing is left of it), "PGP key <key ID>" or "PGP subkey <key ID>".
"""
import hashlib

PGPK_NAME_UID = 246


def seed_name(uid, keyid, subkey=False):
    name = b""
    if uid:
        cut = uid.find(b"(")
        name = (uid if cut < 0 else uid[:cut]).rstrip(b" ")[:PGPK_NAME_UID]
    if not name:
        return ("PGP subkey " if subkey else "PGP key ") + keyid.hex()
    text = "".join(chr(c) if 0x20 <= c < 0x7F and c != 0x5C else
                   "\\x%02x" % c for c in name)
    return text + " " + keyid[4:].hex()


def key_id(body):
    """RFC 9580 5.5.4: a v4 key's ID ends its SHA-1 fingerprint, a v6
    key's starts its SHA-256 one."""
    if body[0] == 6:
        return hashlib.sha256(b"\x9b" + len(body).to_bytes(4, "big")
                              + body).digest()[:8]
    return hashlib.sha1(b"\x99" + len(body).to_bytes(2, "big")
                        + body).digest()[-8:]
