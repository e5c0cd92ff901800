#!/bin/bash
# pgpk ima-sign: gpg-agent signs, and the security.ima value is
# byte for byte what evmctl ima_sign makes with the same key exported to
# PEM (RSA PKCS#1 v1.5 is deterministic), for SHA-256, SHA-384, SHA-512.
# Also: --new-key makes a subkey gpg marks for IMA and prints its
# fingerprint alone; a subkey without the mark, and the primary key, are
# refused; the value can be set as security.ima where xattrs work.
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
host_build
command -v evmctl >/dev/null || skip "evmctl (ima-evm-utils) not installed"

host_tmp
host_gnupg
# no passphrase, no pinentry: gpg answers the agent itself (--new-key runs
# gpg with the user's configuration, this one)
printf 'pinentry-mode loopback\npassphrase \n' > "$GNUPGHOME/gpg.conf"
fail() { die "$*"; } # every check here is fatal
q="--batch --pinentry-mode loopback --passphrase="

gpg $q --quick-gen-key 'IMA Test <ima@example.org>' rsa2048 cert never >/dev/null 2>&1 ||
	fail "gpg --quick-gen-key"
fpr=$(gpg --with-colons --list-keys | awk -F: '/^fpr/ { print $10; exit }')
gpg $q --quick-add-key "$fpr" rsa2048 sign never 2>/dev/null || fail "sign subkey"
signing=$(gpg --with-colons --list-keys | awk -F: '/^fpr/ { f = $10 } END { print f }')

# --new-key: the subkey fingerprint alone on stdout
out=$("$pgpk" ima-sign --new-key "$fpr" --algo rsa2048 2>"$tmp/err") ||
	{ cat "$tmp/err"; fail "ima-sign --new-key"; }
echo "new IMA subkey: $out"
[[ $out =~ ^[0-9A-F]{40}$ ]] || fail "--new-key printed '$out', not one fingerprint"
ima=$out
gpg --export "$fpr" | gpg --list-packets 2>/dev/null |
	grep -q 'notation: ima@pgpk=file-signatures' || fail "no notation in the binding"
flags=$(gpg --with-colons --list-keys "$fpr" | awk -F: -v f="$ima" '
	/^sub/ { c = $12 } /^fpr/ && $10 == f { print c }')
[ "$flags" = a ] || fail "IMA subkey capabilities '$flags', want 'a' (auth only, never sign)"

# the same key as PEM, for evmctl
gpg $q --export-secret-subkeys "$ima!" > "$tmp/sec.gpg" 2>/dev/null || fail "export secret"
python3 tests/lib/pgpk_seckey.py "${ima: -8}" < "$tmp/sec.gpg" > "$tmp/key.pem" ||
	fail "PEM conversion"

head -c 100000 /dev/urandom > "$tmp/file"
for hash in sha256 sha384 sha512; do
	start=$(date +%s%N)
	ours=$("$pgpk" ima-sign --key "$ima" --hash "$hash" --print "$tmp/file") ||
		fail "ima-sign --hash $hash"
	end=$(date +%s%N)
	ours=${ours%% *}
	cp "$tmp/file" "$tmp/file-$hash"
	evmctl ima_sign --key "$tmp/key.pem" --keyid "${ima: -8}" -a "$hash" \
		--sigfile "$tmp/file-$hash" >/dev/null 2>&1 || fail "evmctl $hash"
	theirs=$(xxd -p "$tmp/file-$hash.sig" | tr -d '\n')
	echo "$hash: ${ours:0:24}... ($(( (end - start) / 1000000 )) ms)"
	[ "$ours" = "$theirs" ] || fail "$hash: ima-sign $ours, evmctl $theirs"
done

# by the certificate (the one marked subkey is found) and with no --key
by_cert=$("$pgpk" ima-sign --key "$fpr" --print "$tmp/file") || fail "--key PRIMARY"
by_none=$("$pgpk" ima-sign --print "$tmp/file") || fail "no --key"
[ "${by_cert%% *}" = "${by_none%% *}" ] || fail "--key PRIMARY and no --key differ"

# refused: the ordinary signing subkey, a wrong hash, no such key
if "$pgpk" ima-sign --key "$signing" --print "$tmp/file" 2>"$tmp/err"; then
	fail "the unmarked signing subkey signed"
fi
grep -q 'does not dedicate it to IMA' "$tmp/err" || { cat "$tmp/err"; fail "refusal reason"; }
"$pgpk" ima-sign --hash sha1 --print "$tmp/file" 2>/dev/null && fail "--hash sha1 accepted"
"$pgpk" ima-sign --key 0123456789ABCDEF --print "$tmp/file" 2>/dev/null &&
	fail "an unknown key signed"

# --new-key on a certificate whose primary key is not RSA: refused before
# gpg adds anything (the kernel could not verify the binding)
gpg $q --quick-gen-key 'Ed <ed@example.org>' ed25519 cert never >/dev/null 2>&1 ||
	fail "ed25519 key"
ed=$(gpg --with-colons --list-keys ed@example.org | awk -F: '/^fpr/ { print $10; exit }')
"$pgpk" ima-sign --new-key "$ed" >/dev/null 2>"$tmp/err" && fail "--new-key on ed25519"
grep -q 'primary key is not RSA' "$tmp/err" || { cat "$tmp/err"; fail "ed25519 reason"; }
[ "$(gpg --with-colons --list-keys "$ed" | grep -c '^sub')" = 0 ] ||
	fail "--new-key added a subkey to the ed25519 certificate"

# security.ima itself, where this file system takes it (root)
if setfattr -n security.ima -v 0x00 "$tmp/file" 2>/dev/null; then
	"$pgpk" ima-sign --key "$ima" "$tmp/file" || fail "setting security.ima"
	val=$(getfattr -e hex -n security.ima "$tmp/file" | sed -n 's/^security.ima=0x//p')
	[ "$val" = "${by_cert%% *}" ] || fail "security.ima is $val"
	echo "security.ima set"
fi
echo "PASS: ima-sign through gpg-agent equals evmctl (sha256, sha384, sha512); unmarked keys refused"
