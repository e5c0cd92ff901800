#!/bin/bash
# Seed corpus for tests/fuzz/canon_fuzz.c: canonical blobs made by
# `pgpk key` / `pgpk convert` from real keys and signatures
# (every RSA key and subkey of debian-archive-keyring.gpg, a sample of
# debian-keyring.gpg, the signatures of apt's InRelease files and of
# tests/broker/testdata), plus a few truncated and bit-flipped blobs.
# Files are named by content hash.
#
# usage: tests/fuzz/make-canon-corpus.sh [OUTDIR]
#        (PGPK overrides bazel-bin/helper/pgpk)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
pgpk=${PGPK:-$root/bazel-bin/helper/pgpk}
out=${1:-$root/tests/fuzz/corpus/canon}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
keep() {
	# keep FILE KIND: store under its hash if it is a blob
	[ -s "$1" ] || return 0
	local h
	h=$(sha1sum "$1" | cut -c1-16)
	cp "$1" "$out/$2-$h"
	n=$((n + 1))
}

keys_of() {
	# keys_of KEYRING MAX: canonical Key of every listed RSA key
	"$pgpk" list --json "$1" 2>/dev/null |
		sed -n 's/.*"fpr":"\([0-9A-F]*\)".*"algo":1,.*/\1/p' |
		head -n "$2" >"$tmp/fprs"
	while read -r fpr; do
		"$pgpk" key --select "$fpr" "$1" >"$tmp/blob" 2>/dev/null &&
			keep "$tmp/blob" key
	done <"$tmp/fprs"
}
keys_of /usr/share/keyrings/debian-archive-keyring.gpg 100
keys_of /usr/share/keyrings/debian-keyring.gpg 40
for f in /var/lib/apt/lists/*InRelease "$root"/tests/broker/testdata/*.sig.asc \
	"$root"/tests/fuzz/corpus/openpgp/sig-* \
	"$root"/tests/fuzz/corpus/openpgp/cleartext-* \
	"$root"/tests/fuzz/corpus/openpgp/inline-*; do
	[ -f "$f" ] || continue
	"$pgpk" convert "$f" >"$tmp/blob" 2>/dev/null && keep "$tmp/blob" sig
done
for f in "$root"/tests/broker/testdata/*key*.asc; do
	[ -f "$f" ] || continue
	"$pgpk" key "$f" >"$tmp/blob" 2>/dev/null && keep "$tmp/blob" key
done
# Damaged blobs: refused at different places.
first=$(ls "$out"/key-* | head -n 1)
size=$(stat -c %s "$first")
head -c $((size / 2)) "$first" >"$tmp/blob" && keep "$tmp/blob" truncated
head -c 5 "$first" >"$tmp/blob" && keep "$tmp/blob" magic-only
{ cat "$first"; printf '\0'; } >"$tmp/blob" && keep "$tmp/blob" trailing
python3 - "$first" "$tmp/blob" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[7] ^= 0x80      # turns a length octet into a varint continuation
open(sys.argv[2], "wb").write(b)
PY
keep "$tmp/blob" flipped
echo "$out: $n blobs written ($(du -sh "$out" | cut -f1))"
