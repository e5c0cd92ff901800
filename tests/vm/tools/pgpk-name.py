#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The description the kernel gives a key of an OpenPGP certificate.

usage: pgpk-name.py FILE [KEYID]
FILE: a transferable public key, binary (gpg --export); KEYID: a subkey's
(16 hex digits), else the primary key.  The user ID is the certificate's
first (the test keys have one, self-certified); a v6 key is named by its
key ID (its self-signature is a direct-key one).  Prints the description
(tests/lib/pgpk_name.py), independent of helper/ and kernel/.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from pgpk_name import key_id, seed_name  # noqa: E402
from pgpk_openpgp import packets  # noqa: E402


def main():
    pk = list(packets(open(sys.argv[1], "rb").read()))
    uid = next(b for t, _, b in pk if t == 13)
    keys = [(t, b) for t, _, b in pk if t in (6, 14)]
    want = bytes.fromhex(sys.argv[2]) if len(sys.argv) > 2 else None
    v6 = keys[0][1][0] == 6   # the primary key's version
    for t, body in keys:
        if (want is None and t == 6) or key_id(body) == want:
            # a v6 key's self-signature is its direct-key one, which
            # certifies no user ID (RFC 9580 10.1.3)
            print(seed_name(None if v6 else uid, key_id(body), t == 14))
            return
    sys.exit("pgpk-name.py: no such key in %s" % sys.argv[1])


main()
