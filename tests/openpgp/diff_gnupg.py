#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `gpg --show-keys --with-colons` with `pgpk list --json`.

For every primary key and subkey (matched by fingerprint) these must agree:
fingerprint, key ID, algorithm, bits, creation, expiry, revocation, user
IDs (primary keys) and signing capability.  Keys only one side lists are
differences too.

GnuPG's colon format (doc/DETAILS in GnuPG's source):
  pub/sub: 2 validity (r revoked, e expired, i invalid, ...), 3 bits,
           4 algorithm, 5 key ID, 6 created, 7 expires ('' = never),
           12 capabilities (lower case: this key; upper case on pub: the
           whole key); the next `fpr` line, field 10, is its fingerprint.
  uid:     2 validity, 10 the user ID, C-escaped (\\xHH).
Field numbers are 1-based, as in DETAILS.

What is compared (pgpk name <- GnuPG):
  keyid     <- 5          algo    <- 4         bits <- 3
  created   <- 6          expires <- 7 (0 when empty)
  revoked   <- validity == 'r'
  can_sign  <- 's' in the lower-case capabilities and validity not one of
               r (revoked), e (expired), i (invalid), n/d (disabled); for
               a subkey also the primary's validity (a subkey of an
               expired or revoked primary cannot sign)
  uids      <- every uid line (revoked ones included: both list them),
               compared as multisets of octet strings

An allowlist (one difference per line: `FPR FIELD reason...`, '#'
comments) names differences that are understood; every other difference
fails.  Allowlist entries that match nothing are reported (stale) but do
not fail: expiry-dependent differences come and go with the date.

Exit status: 0 all agree (or allowlisted), 1 differences, 2 usage error.
"""

import argparse
import json
import re
import sys

CAN_SIGN_BLOCKERS = set("reind")


def unescape_colon(field):
    """GnuPG C-escapes ':' and control characters as \\xHH in uid fields."""
    out = bytearray()
    i = 0
    raw = field.encode("utf-8", "surrogateescape")
    while i < len(raw):
        if raw[i:i + 2] == b"\\x" and i + 4 <= len(raw):
            try:
                out.append(int(raw[i + 2:i + 4], 16))
                i += 4
                continue
            except ValueError:
                pass
        out.append(raw[i])
        i += 1
    return bytes(out)


def norm_uid(b):
    """A user ID's octets as pgpk's JSON writes them: valid UTF-8 stays,
    every other octet becomes the code point of the same value (\\u00XX).
    GnuPG prints the raw octets (e.g. Latin-1 names in old keys)."""
    s = b.decode("utf-8", "surrogateescape")
    return "".join(chr(ord(ch) - 0xDC00) if 0xDC80 <= ord(ch) <= 0xDCFF
                   else ch for ch in s)


def parse_gpg(path):
    keys = {}
    order = []
    cur = None
    primary = None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            fld = line.rstrip("\n").split(":")
            tag = fld[0]
            if tag in ("pub", "sub"):
                cur = {
                    "validity": fld[1],
                    "bits": int(fld[2]) if fld[2] else 0,
                    "algo": int(fld[3]) if fld[3] else 0,
                    "keyid": fld[4].upper(),
                    "created": int(fld[5]) if fld[5] else 0,
                    "expires": int(fld[6]) if fld[6] else 0,
                    "caps": fld[11] if len(fld) > 11 else "",
                    "primary": tag == "pub",
                    "uids": [],
                    "fpr": None,
                }
                if tag == "pub":
                    primary = cur
                    cur["primary_key"] = None
                else:
                    cur["primary_key"] = primary
            elif tag == "fpr" and cur is not None and cur["fpr"] is None:
                cur["fpr"] = fld[9].upper()
                keys[cur["fpr"]] = cur
                order.append(cur["fpr"])
            elif tag == "uid" and primary is not None:
                primary["uids"].append(norm_uid(unescape_colon(fld[9])))
    return keys, order


def gpg_view(k):
    """GnuPG's key in pgpk's vocabulary."""
    v = k["validity"]
    can_sign = "s" in k["caps"] and v not in CAN_SIGN_BLOCKERS
    p = k["primary_key"]
    if p is not None and p["validity"] in CAN_SIGN_BLOCKERS:
        can_sign = False
    view = {
        "fpr": k["fpr"],
        "keyid": k["keyid"],
        "algo": k["algo"],
        "bits": k["bits"],
        "created": k["created"],
        "expires": k["expires"],
        "revoked": v == "r",
        "can_sign": can_sign,
    }
    if k["primary"]:
        view["uids"] = sorted(k["uids"])
    else:
        view["primary_fpr"] = p["fpr"] if p else None
    return view


def parse_pgpk(path):
    keys = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                o = json.loads(line)
            except ValueError as e:
                raise SystemExit("pgpk output line %d is not JSON: %s" %
                                 (n, e))
            view = {
                "fpr": str(o.get("fpr", "")).upper(),
                "keyid": str(o.get("keyid", "")).upper(),
                "algo": o.get("algo"),
                "bits": o.get("bits"),
                "created": o.get("created"),
                "expires": o.get("expires"),
                "revoked": bool(o.get("revoked")),
                "can_sign": bool(o.get("can_sign")),
            }
            if o.get("primary"):
                view["uids"] = sorted(o.get("uids", []))
            else:
                view["primary_fpr"] = str(o.get("primary_fpr", "")).upper()
            keys[view["fpr"]] = view
    return keys


def load_allowlist(path):
    allow = {}
    if not path:
        return allow
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise SystemExit("%s:%d: want 'FPR FIELD reason'" %
                                 (path, n))
            allow[(parts[0].upper(), parts[1])] = parts[2]
    return allow


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpg", required=True, help="gpg --with-colons output")
    ap.add_argument("--pgpk", required=True, help="pgpk list --json output")
    ap.add_argument("--allowlist", help="FPR FIELD reason, one per line")
    ap.add_argument("--name", default="keyring")
    ap.add_argument("--max-show", type=int, default=40)
    ap.add_argument("--window", type=int, nargs=2, metavar=("T0", "T1"),
                    help="Unix seconds around both runs: a key expiring "
                    "in between may be judged differently by the two "
                    "tools, so its can_sign is not compared")
    args = ap.parse_args()

    gkeys, order = parse_gpg(args.gpg)
    pkeys = parse_pgpk(args.pgpk)
    allow = load_allowlist(args.allowlist)
    used = set()
    diffs = []
    fields = ("keyid", "algo", "bits", "created", "expires", "revoked",
              "can_sign", "uids", "primary_fpr")
    nfields = 0

    for fpr in order:
        g = gpg_view(gkeys[fpr])
        p = pkeys.get(fpr)
        if p is None:
            diffs.append((fpr, "missing", "listed by gpg, not by pgpk"))
            continue
        racy = (args.window is not None and
                args.window[0] - 1 <= gkeys[fpr]["expires"] <=
                args.window[1] + 1)
        for fld in fields:
            if fld not in g or (racy and fld == "can_sign"):
                continue
            nfields += 1
            if g[fld] != p.get(fld):
                gv, pv = g[fld], p.get(fld)
                if fld == "uids":
                    gv = sorted(set(g[fld]) - set(p[fld] or []))
                    pv = sorted(set(p[fld] or []) - set(g[fld]))
                diffs.append((fpr, fld, "gpg=%r pgpk=%r" % (gv, pv)))
    for fpr in pkeys:
        if fpr not in gkeys:
            diffs.append((fpr, "extra", "listed by pgpk, not by gpg"))

    bad = []
    for fpr, fld, what in diffs:
        key = (fpr, fld)
        if key in allow:
            used.add(key)
        else:
            bad.append((fpr, fld, what))
    nprim = sum(1 for f in order if gkeys[f]["primary"])
    print("%s: gpg %d keys (%d primary, %d subkeys), pgpk %d keys; "
          "%d fields compared; %d differences, %d allowlisted, %d not" %
          (args.name, len(order), nprim, len(order) - nprim, len(pkeys),
           nfields, len(diffs), len(diffs) - len(bad), len(bad)))
    by_field = {}
    for _, fld, _ in bad:
        by_field[fld] = by_field.get(fld, 0) + 1
    if by_field:
        print("  not allowlisted, by field: " +
              ", ".join("%s %d" % kv for kv in sorted(by_field.items())))
    for fpr, fld, what in bad[:args.max_show]:
        print("  DIFF %s %s %s" % (fpr, fld, what))
    if len(bad) > args.max_show:
        print("  ... %d more" % (len(bad) - args.max_show))
    stale = [k for k in allow
             if k not in used and (k[0] in gkeys or k[0] in pkeys)]
    for fpr, fld in stale[:10]:
        print("  note: allowlist entry %s %s matched nothing here" %
              (fpr, fld))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
