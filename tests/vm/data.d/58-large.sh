#!/bin/bash
# Test data for 58-large-answer: an RSA 2048 certificate whose answer is
# large (about 28 KB, more than an unprivileged user's default key quota
# of 20,000 octets): a 4,000-octet user ID and a self-certification
# carrying a 20,000-octet notation in its hashed area.  Made and signed
# here with python3-cryptography, RFC 9580 5.2.4, 5.5.2.
set -euo pipefail
out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
mkdir -p "$out/k"
python3 - "$out/k/large.pgp" <<'PY'
import hashlib, struct, sys, time
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

def length(n):
    if n < 192:
        return bytes([n])
    if n < 8384:
        n -= 192
        return bytes([(n >> 8) + 192, n & 0xff])
    return b"\xff" + struct.pack(">I", n)

def packet(tag, body):
    return bytes([0xC0 | tag]) + length(len(body)) + body

def sub(t, data):
    return length(len(data) + 1) + bytes([t]) + data

def mpi(i):
    b = i.to_bytes((i.bit_length() + 7) // 8, "big")
    return struct.pack(">H", i.bit_length()) + b

k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
pub = k.public_key().public_numbers()
now = int(time.time()) - 3600
body = bytes([4]) + struct.pack(">I", now) + b"\x01" + mpi(pub.n) + mpi(pub.e)
fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(body)) + body).digest()
uid = (b"pgpk large answer <large@pgpk.test> " + b"x" * 4000)[:4000]
name, value = b"large@pgpk.test", b"v" * 20000
notation = b"\x80\0\0\0" + struct.pack(">HH", len(name), len(value)) + name + value
area = (sub(2, struct.pack(">I", now)) + sub(27, b"\x03") +
        sub(33, b"\x04" + fpr) + sub(20, notation))
head = bytes([4, 0x13, 1, 8]) + struct.pack(">H", len(area)) + area
data = (b"\x99" + struct.pack(">H", len(body)) + body +
        b"\xb4" + struct.pack(">I", len(uid)) + uid +
        head + b"\x04\xff" + struct.pack(">I", len(head)))
sig = k.sign(data, padding.PKCS1v15(), hashes.SHA256())
quick = hashlib.sha256(data).digest()[:2]
unhashed = sub(16, fpr[-8:])
sigpkt = head + struct.pack(">H", len(unhashed)) + unhashed + quick + \
    mpi(int.from_bytes(sig, "big"))
open(sys.argv[1], "wb").write(packet(6, body) + packet(13, uid) +
                              packet(2, sigpkt))
PY
echo "large.pgp                      RSA 2048, 4,000-octet user ID, 20,000-octet notation (58-large-answer)" \
	>>"$out/k/index.txt"
