#!/bin/bash
# pgpk verify gives the same verdict as gpgv, signature by signature,
# on real signatures: detached signatures made by gpg here (binary, armored,
# text mode, by a signing subkey, SHA-256/384/512, expired key, revoked
# key, unknown key, tampered data, tampered signature value), inline signed
# messages, a cleartext-signed Debian-style .dsc (good and tampered) and
# every apt InRelease file present on the machine (with the archive
# keyring).
#
# Verdicts: gpgv --status-fd: GOODSIG -> good, BADSIG -> bad, EXPKEYSIG ->
# expired-key, REVKEYSIG -> revoked-key, ERRSIG+NO_PUBKEY -> no-key.
# pgpk: exit status and stdout/stderr line per signature ("Good
# signature from ... (key FPR)" / "signature N: <reason>").  For good
# signatures the signing key fingerprint must agree too.
#
# The only expected disagreements are pgpk's policy, applied to gpgv's
# answer from its VALIDSIG line: a good SHA-1/MD5 data signature is
# "weak-hash" (the SHA-1 case asserts that gpgv really said good), a good
# one with another hash outside the default --hashes (SHA-224) is
# "hash-policy", a good non-RSA signature is "unsupported" (Debian's
# EdDSA release key); and the text-mode canonicalisation cases listed
# with known_text below.
#
# usage: tests/host/verify-vs-gpgv.sh   (PGPK=path overrides the
# binary, default bazel-bin/helper/pgpk)
. "$(dirname "$0")/lib.sh"

for tool in gpg gpgv; do
	command -v $tool >/dev/null || skip "$tool not installed"
done
[ -x "$pgpk" ] || die "$pgpk not built (bazel build //helper:pgpk)"

host_tmp
host_gnupg
G="gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase="

# --- keys (RSA 2048 for speed) ---
genkey() {
	# genkey UID [extra gpg options before --quick-gen-key] -> prints fpr
	local uid=$1
	shift
	$G "$@" --quick-gen-key "$uid" rsa2048 sign,cert "${EXPIRE:-never}" \
		2>>"$tmp/gpg.log" || die "gpg key generation for $uid"
	gpg --with-colons --list-keys "=$uid" 2>/dev/null |
		awk -F: '/^fpr/ { print $10; exit }'
}
alice=$(genkey "Alice Example <alice@example.org>")
[ -n "$alice" ] || die "no fingerprint for alice"
# A signing subkey on alice: signatures with -u SUBKEY! are by the subkey.
$G --quick-add-key "$alice" rsa2048 sign never 2>>"$tmp/gpg.log" ||
	die "adding a signing subkey"
alice_sub=$(gpg --with-colons --list-keys "$alice" |
	awk -F: '/^sub/ { s = 1 } s && /^fpr/ { print $10; exit }')
[ -n "$alice_sub" ] || die "no subkey fingerprint"

# A key that expired in 2021: made, and used, in 2020.
EXPIRE=1y expired=$(genkey "Old Key <old@example.org>" \
	--faked-system-time 20200101T000000)
[ -n "$expired" ] || die "no fingerprint for the expired key"

# A primary key that expired in 2021 with a signing subkey that never
# expires: the subkey dies with its primary.
EXPIRE=1y oldprim=$(genkey "Old Primary <oldprim@example.org>" \
	--faked-system-time 20200101T000000)
[ -n "$oldprim" ] || die "no fingerprint for the old primary key"
$G --faked-system-time 20200101T000100 --quick-add-key "$oldprim" rsa2048 \
	sign never 2>>"$tmp/gpg.log" || die "adding a subkey to the old primary"
oldprim_sub=$(gpg --with-colons --list-keys "$oldprim" |
	awk -F: '/^sub/ { s = 1 } s && /^fpr/ { print $10; exit }')

revoked=$(genkey "Revoked Key <revoked@example.org>")
[ -n "$revoked" ] || die "no fingerprint for the revoked key"

# A key that is not exported: its signatures have no key.
stranger=$(genkey "Stranger <stranger@example.org>")

# --- data ---
printf 'Line one\nLine two with trailing space \nlast line without newline' \
	>"$tmp/data.txt"
head -c 100000 /dev/urandom >"$tmp/data.bin"

sign() {
	# sign OUT KEY [gpg options] -- signs data.txt detached
	local out=$1 key=$2
	shift 2
	$G -u "$key!" --output "$tmp/$out" "$@" 2>>"$tmp/gpg.log" ||
		die "gpg signing $out"
}
cases=""
add() { cases="$cases $*"; }

sign bin.sig "$alice" --detach-sign "$tmp/data.txt"
add "bin.sig:data.txt:"
sign asc.sig "$alice" --armor --detach-sign "$tmp/data.txt"
add "asc.sig:data.txt:"
sign large.sig "$alice" --detach-sign "$tmp/data.bin"
add "large.sig:data.bin:"
sign text.sig "$alice" --textmode --armor --detach-sign "$tmp/data.txt"
add "text.sig:data.txt:"
# Text mode over CRLF data: the same canonical text.
perl -pe 's/\n/\r\n/' "$tmp/data.txt" >"$tmp/data-crlf.txt"
add "text.sig:data-crlf.txt:"
sign sub.sig "$alice_sub" --detach-sign "$tmp/data.txt"
add "sub.sig:data.txt:"
for h in SHA256 SHA384 SHA512; do
	sign "$h.sig" "$alice" --digest-algo "$h" --detach-sign "$tmp/data.txt"
	add "$h.sig:data.txt:"
done
sign sha1.sig "$alice" --digest-algo SHA1 --detach-sign "$tmp/data.txt"
add "sha1.sig:data.txt:weak-hash"
sign sha224.sig "$alice" --digest-algo SHA224 --detach-sign "$tmp/data.txt"
add "sha224.sig:data.txt:hash-policy"
sign expired.sig "$expired" --faked-system-time 20200601T000000 \
	--detach-sign "$tmp/data.txt"
add "expired.sig:data.txt:"
sign oldprim-sub.sig "$oldprim_sub" --faked-system-time 20200601T000000 \
	--detach-sign "$tmp/data.txt"
add "oldprim-sub.sig:data.txt:"
sign revoked.sig "$revoked" --detach-sign "$tmp/data.txt"
add "revoked.sig:data.txt:"
sign stranger.sig "$stranger" --detach-sign "$tmp/data.txt"
add "stranger.sig:data.txt:"
# Tampered data: one octet changed.
sed 's/two/TWO/' "$tmp/data.txt" >"$tmp/tampered.txt"
add "bin.sig:tampered.txt:" "text.sig:tampered.txt:" "sub.sig:tampered.txt:"
# Tampered signature value: the last octet of the RSA value flipped (the
# quick check still matches; the RSA check must fail).
cp "$tmp/bin.sig" "$tmp/badvalue.sig"
size=$(stat -c %s "$tmp/badvalue.sig")
last=$(od -An -tu1 -j $((size - 1)) -N1 "$tmp/badvalue.sig" | tr -d ' ')
printf "$(printf '\\%03o' $((last ^ 1)))" |
	dd of="$tmp/badvalue.sig" bs=1 seek=$((size - 1)) conv=notrunc \
		status=none
add "badvalue.sig:data.txt:"
# Inline signed messages (compressed, binary and armored).
sign inline.gpg "$alice" --sign "$tmp/data.bin"
add "inline.gpg::"
sign inline.asc "$alice" --armor --sign "$tmp/data.txt"
add "inline.asc::"

# A Debian-style .dsc, cleartext-signed, good and tampered.
cat >"$tmp/hello.dsc.in" <<'EOF'
Format: 3.0 (quilt)
Source: hello
Binary: hello
Architecture: any
Version: 2.10-3
Maintainer: Santiago Vila <sanvila@debian.org>
Homepage: https://www.gnu.org/software/hello/
Standards-Version: 4.6.2
Build-Depends: debhelper-compat (= 13)
Package-List:
 hello deb devel optional arch=any
Checksums-Sha256:
 31e066137a962676e89f69d1b65382de95a7ef7d914b8cb956f41ea72e0f516b 725946 hello_2.10.orig.tar.gz
 a3f3d7b4e3f2ab1a38e1b4c3c5f7f0e9b18b5b6a2f6e5c7d5a1a54a8f1a5f6e7 12688 hello_2.10-3.debian.tar.xz
Files:
 6cd0ffea3884a4e79330338dcc2987d6 725946 hello_2.10.orig.tar.gz
 27bd0b4a8f1e2c9ee1e0b3c5e8b0f1d2 12688 hello_2.10-3.debian.tar.xz
- a line starting with a dash (dash-escaped by gpg)
EOF
sign hello.dsc "$alice" --clearsign "$tmp/hello.dsc.in"
add "hello.dsc::"
sed 's/^Version: 2.10-3/Version: 2.10-4/' "$tmp/hello.dsc" >"$tmp/hello-bad.dsc"
add "hello-bad.dsc::"
sign hello-sub.dsc "$alice_sub" --digest-algo SHA512 --clearsign \
	"$tmp/hello.dsc.in"
add "hello-sub.dsc::"

# Revoke the revoked key after it signed (its stored revocation
# certificate, armor line unprotected).
sed 's/^:-----BEGIN/-----BEGIN/' \
	"$GNUPGHOME/openpgp-revocs.d/$revoked.rev" >"$tmp/rev.asc"
$G --import "$tmp/rev.asc" 2>>"$tmp/gpg.log" || die "importing revocation"

# The keyrings: everything but the stranger, binary and armored.
gpg --export "$alice" "$expired" "$oldprim" "$revoked" >"$tmp/keys.gpg" ||
	die "export"
gpg --armor --export "$alice" >"$tmp/alice.asc" || die "export"

# --- compare ---
# gpgv_verdicts KEYRING SIG [DATA] -> one line per signature, in order:
# "good FPR", "bad", "expired-key", "revoked-key", "no-key", "error".
# pgpk's policy, applied to gpgv's answer (the only expected
# differences): a good signature by a non-RSA key (VALIDSIG field 7,
# RFC 9580 9.1) is "unsupported", a good SHA-1/MD5 one (field 8) is
# "weak-hash".
gpgv_verdicts() {
	local ring=$1
	shift
	gpgv --status-fd 1 --keyring "$ring" "$@" 2>/dev/null |
		awk 'function flush() {
			if (v == "") return
			if (v == "good" && pk != 1 && pk != 3) v = "unsupported"
			else if (v == "good" && (h == 1 || h == 2)) v = "weak-hash"
			else if (v == "good" && h != 8 && h != 9 && h != 10)
				v = "hash-policy"
			else if (v == "good") v = v " " fpr
			print v; v = ""
		}
		$2 == "NEWSIG" { flush() }
		$2 == "GOODSIG" { v = "good" }
		$2 == "BADSIG" { v = "bad" }
		$2 == "EXPKEYSIG" { v = "expired-key" }
		$2 == "REVKEYSIG" { v = "revoked-key" }
		$2 == "EXPSIG" { v = "expired-sig" }
		$2 == "NO_PUBKEY" { v = "no-key" }
		$2 == "ERRSIG" && v == "" { v = "error" }
		$2 == "VALIDSIG" { fpr = $3; pk = $9; h = $10 }
		END { flush() }'
}
# pgpk_verdicts ARGS -> the same from pgpk verify, then "exit N".
# pgpk prints one line per signature, in order (stdout is flushed
# after each good one, so 2>&1 keeps the order).
pgpk_verdicts() {
	local rc
	"$pgpk" verify "$@" >"$tmp/out" 2>&1
	rc=$?
	awk '/^Good signature from .* \(key [0-9A-F]+\)$/ {
		f = $NF; sub(/\)$/, "", f); print "good " f; next }
	/^pgpk verify: BAD signature from / { print "bad"; next }
	/^pgpk verify: signature [0-9]+ \(key [^)]*\): / {
		v = "error"
		if ($0 ~ /expired key/) v = "expired-key"
		else if ($0 ~ /revoked key|key revoked/) v = "revoked-key"
		else if ($0 ~ /no key/) v = "no-key"
		else if ($0 ~ /weak hash/) v = "weak-hash"
		else if ($0 ~ /: hash [A-Z0-9-]+ refused/) v = "hash-policy"
		else if ($0 ~ /unsupported algorithm/) v = "unsupported"
		else if ($0 ~ /expired signature/) v = "expired-sig"
		print v }' "$tmp/out"
	echo "exit $rc"
}

# check NAME KEYRING SIG [DATA]
check() {
	local name=$1 ring=$2 g p want_exit=0
	shift 2
	g=$(gpgv_verdicts "$ring" "$@")
	p=$(pgpk_verdicts --keyring "$ring" "$@")
	# pgpk's exit status, apt's rule on gpgv's verdicts: 1 if a signature
	# is bad, else 0 if one is good, else 2.  gpgv stops at the first bad
	# signature, pgpk checks them all: compare up to the first bad one.
	if echo "$g" | grep -q '^bad'; then
		want_exit=1
		p=$(echo "$p" | sed '/^bad/q'; echo "$p" | tail -n 1)
	elif ! echo "$g" | grep -q '^good'; then
		want_exit=2
	fi
	if [ -n "$g" ] && [ "$(printf '%s\nexit %s' "$g" "$want_exit")" = "$p" ]; then
		npass=$((npass + 1))
		echo "ok   $name: $(echo "$g" | cut -c1-60 | tr '\n' ';')"
	else
		nfail=$((nfail + 1))
		echo "FAIL $name"
		echo "  gpgv (policy applied): $(echo "$g" | tr '\n' ';') exit $want_exit"
		echo "  pgpk:                  $(echo "$p" | tr '\n' ';')"
		sed 's/^/  output: /' "$tmp/out" | head -5
	fi
}
# expect NAME VERDICTS... : a policy difference must really be one.
expect() {
	local name=$1 ring=$2 want=$3 g
	shift 3
	g=$(gpgv_verdicts "$ring" "$@" | tr '\n' ';')
	if [ "$g" = "$want;" ]; then
		npass=$((npass + 1))
		echo "ok   $name: gpgv (policy applied) says $want"
	else
		nfail=$((nfail + 1))
		echo "FAIL $name: gpgv (policy applied) says $g, wanted $want"
	fi
}

for c in $cases; do
	IFS=: read -r sig data want <<<"$c"
	if [ -n "$data" ]; then
		check "$sig $data" "$tmp/keys.gpg" "$tmp/$sig" "$tmp/$data"
	else
		check "$sig" "$tmp/keys.gpg" "$tmp/$sig"
	fi
	if [ -n "$want" ]; then
		expect "$sig verdict" "$tmp/keys.gpg" "$want" "$tmp/$sig" \
			${data:+"$tmp/$data"}
	fi
done
# The policy option that allows SHA-224 makes it good.
p=$(pgpk_verdicts --hashes=sha224,sha256 --keyring "$tmp/keys.gpg" \
	"$tmp/sha224.sig" "$tmp/data.txt")
if [ "$p" = "$(printf 'good %s\nexit 0' "$alice")" ]; then
	npass=$((npass + 1))
	echo "ok   sha224.sig with --hashes=sha224,sha256: good"
else
	nfail=$((nfail + 1))
	echo "FAIL sha224.sig with --hashes=sha224,sha256: $(echo "$p" | tr '\n' ';')"
fi
# An armored keyring (pgpk only reads it; gpgv gets the binary one).
for sig in asc.sig sub.sig; do
	g=$(gpgv_verdicts "$tmp/keys.gpg" "$tmp/$sig" "$tmp/data.txt")
	p=$(pgpk_verdicts --keyring "$tmp/alice.asc" "$tmp/$sig" "$tmp/data.txt")
	if [ "$(printf '%s\nexit 0' "$g")" = "$p" ]; then
		npass=$((npass + 1))
		echo "ok   $sig with an armored keyring: $g"
	else
		nfail=$((nfail + 1))
		echo "FAIL $sig with an armored keyring: gpgv $g, pgpk $(echo "$p" | tr '\n' ';')"
	fi
done
# Several keyrings: the key is found in the second one.
gpg --export "$stranger" >"$tmp/stranger.gpg"
p=$(pgpk_verdicts --keyring "$tmp/alice.asc" --keyring "$tmp/stranger.gpg" \
	"$tmp/stranger.sig" "$tmp/data.txt")
if [ "$p" = "$(printf 'good %s\nexit 0' "$stranger")" ]; then
	npass=$((npass + 1))
	echo "ok   stranger.sig with two keyrings: good $stranger"
else
	nfail=$((nfail + 1))
	echo "FAIL stranger.sig with two keyrings: $(echo "$p" | tr '\n' ';')"
fi

# Text mode edge cases: GnuPG's canonicalisation (textfilter.c: strip
# every CR before a line's LF, and trailing CRs of the last line) is what
# the kernel (kernel/pgpk_hash.c pgpk_digest_data()) and pgpk verify
# compute, so the verdicts must agree exactly, detached, inline and
# cleartext alike.
known_text() {
	local name=$1 g p
	printf "$2" >"$tmp/edge.txt"
	rm -f "$tmp/edge.sig"
	sign edge.sig "$alice" --textmode --detach-sign "$tmp/edge.txt"
	g=$(gpgv_verdicts "$tmp/keys.gpg" "$tmp/edge.sig" "$tmp/edge.txt")
	p=$(pgpk_verdicts --keyring "$tmp/keys.gpg" "$tmp/edge.sig" \
		"$tmp/edge.txt")
	rm -f "$tmp/edge.inline" "$tmp/edge.clear"
	sign edge.inline "$alice" --textmode --sign "$tmp/edge.txt"
	check "inline text $name" "$tmp/keys.gpg" "$tmp/edge.inline"
	sign edge.clear "$alice" --clearsign "$tmp/edge.txt"
	check "cleartext $name" "$tmp/keys.gpg" "$tmp/edge.clear"
	if [ "$(printf '%s\nexit 0' "$g")" = "$p" ]; then
		npass=$((npass + 1))
		echo "ok   text mode $name: $g"
	else
		nfail=$((nfail + 1))
		echo "FAIL text mode $name: gpgv $g, pgpk $(echo "$p" | tr '\n' ';')"
	fi
}
known_text "lone CR inside a line" 'a\rb\nc'
known_text "CR at the end of the data" 'a\nb\r'
known_text "CR CR LF" 'a\r\r\nb\n'
known_text "trailing blanks" 'a \t\nb  '

# Real InRelease files, when apt has fetched some.  Debian's stable
# release key is EdDSA: pgpk answers "unsupported algorithm" for it.
archive=/usr/share/keyrings/debian-archive-keyring.gpg
nreal=0
for f in /var/lib/apt/lists/*InRelease; do
	[ -f "$f" ] && [ -f "$archive" ] || continue
	nreal=$((nreal + 1))
	check "$(basename "$f")" "$archive" "$f"
	# Tampered: the Date line of the signed text changed.
	sed '0,/^Date: /s/^Date: ./Date: X/' "$f" >"$tmp/InRelease-bad"
	cmp -s "$f" "$tmp/InRelease-bad" ||
		check "tampered $(basename "$f")" "$archive" "$tmp/InRelease-bad"
done

echo "$npass cases agree, $nfail differ ($nreal real InRelease files)"
[ "$nfail" = 0 ] || exit 1
[ "$npass" -ge 25 ] || die "only $npass cases ran"
exit 0
