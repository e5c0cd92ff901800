#!/bin/bash
# Certificate flooding and other adversarial inputs through the REAL
# sandboxed parser (security issue 9): `pgpk-helper debug` forks the child,
# which enters the sandbox (rlimits, no_new_privs, the real seccomp
# allowlist), parses, answers; the broker re-validates and applies the
# default policy, watchdog 2 s included.
#
# A valid RSA key with 127, 128, 1000, 5000, 20000 junk signatures of every
# kind (tests/lib/pgpk_flood.py), many and huge user IDs, large keyrings,
# signed messages nested, flooded, bombed: each must give its verdict (the
# genuine key's material, user ID, flags and self-certification; or the
# named refusal), never SIGSYS/ECHILD or the watchdog.  Armored floods,
# which the kernel never sends, go through the two paths that parse them
# in the sandbox: a flooded trust anchor (--anchors), and import's parser
# of one certificate.  Before the fix, 127
# junk self-signatures killed the parser with SIGSYS (glibc's qsort()
# calling sysinfo()).  Prints the time of each; PGPK_FLOOD_KEEP=DIR keeps
# the inputs.
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
flood="python3 tests/lib/pgpk_flood.py"
data=tests/openpgp/data
key=$data/alice.gpg
sub=AD9473038E5EEBFB
msg=$data/msg.txt.inline
command -v python3 >/dev/null || skip "no python3"
host_build
if [ -n "${PGPK_FLOOD_KEEP:-}" ]; then
	tmp=$PGPK_FLOOD_KEEP
	mkdir -p "$tmp"
else
	host_tmp
fi
fail=0

# What must not change, whatever the junk: the key line, the user ID
# (its offset may), expiry and flags, the self-certification.
summary() {
	sed -n -e 's/ at octet [0-9]*$//' \
		-e '/^\(sub\)\{0,1\}key: /p' -e '/^  user ID /p' \
		-e '/^  expires /p' -e '/^  primary: /p' \
		-e "${1:-/^  certification: /p}" -e "${1:-/^  issuer /p}"
}

# run NAME EXPECT KIND FILE [debug options...]; EXPECT is OK (same
# summary as the unflooded input, certification too unless the junk
# holds third-party ones: OK-3RD) or an errno name.
run() {
	local name=$1 expect=$2 kind=$3 file=$4 out rc us base_out
	shift 4
	out=$("$helper" debug "$@" "$kind" "$file" 2>&1)
	rc=$?
	us=$(sed -n 's/.*(\([0-9]*\) us)$/\1/p' <<<"$out" | tail -1)
	printf '%-28s %8s octets %8s us  ' "$name" "$(stat -c %s "$file")" \
		"${us:-?}"
	case "$expect" in
	OK | OK-3RD)
		if [ "$rc" != 0 ]; then
			echo "FAIL: $(tail -1 <<<"$out")"
			fail=1
			return
		fi
		if [ "$kind" = key ]; then
			base_out=$("$helper" debug "$@" key "$key" 2>&1)
			local drop=""
			[ "$expect" = OK-3RD ] && drop='/^$/p'
			if [ "$(summary "$drop" <<<"$out")" != \
				"$(summary "$drop" <<<"$base_out")" ]; then
				echo "FAIL: not the genuine key's answer"
				diff <(summary "$drop" <<<"$base_out") \
					<(summary "$drop" <<<"$out")
				fail=1
				return
			fi
		fi
		echo "ok: $(tail -1 <<<"$out" | sed 's/ ([0-9]* us)$//')"
		;;
	*)
		if ! grep -q "REJECTED $expect: parser: " <<<"$out"; then
			echo "FAIL: want $expect from the parser: $(tail -1 <<<"$out")"
			fail=1
			return
		fi
		echo "ok: $(tail -1 <<<"$out" | cut -c1-70)"
		;;
	esac
}

big=--max-input=8388608 # 8 MiB for the largest floods
for n in 127 128 1000 5000; do
	$flood "$key" "$tmp/self$n.pgp" $n self
	run "self-sigs $n" OK key "$tmp/self$n.pgp" $big
	$flood "$key" "$tmp/mixed$n.pgp" $n
	run "mixed junk $n" OK-3RD key "$tmp/mixed$n.pgp" $big
	run "mixed junk $n, subkey" OK key "$tmp/mixed$n.pgp" --select $sub $big
done
for kind in selfqc short uidrev keyrev direct binding garbage v3; do
	$flood "$key" "$tmp/$kind.pgp" 1000 $kind
	run "$kind 1000" OK key "$tmp/$kind.pgp" $big
done
$flood "$key" "$tmp/binding.pgp" 1000 binding
run "binding 1000, subkey" OK key "$tmp/binding.pgp" --select $sub
$flood "$key" "$tmp/third.pgp" 20000 third
run "third-party 20000" OK-3RD key "$tmp/third.pgp" $big
# Quadratic before the fix, beyond the watchdog: 100000 certifications
# looked up among each other, a 4 MiB user ID hashed 10000 times.
$flood "$key" "$tmp/thirdmin.pgp" 100000 thirdmin
run "third-party 100000" OK-3RD key "$tmp/thirdmin.pgp" --max-input=67108864
$flood --shape huge-uid-flood "$key" "$tmp/huge-uid-flood.pgp"
run "huge-uid-flood" OK key "$tmp/huge-uid-flood.pgp" --max-input=67108864
$flood "$key" "$tmp/short.pgp" 20000 short
run "short values 20000" OK key "$tmp/short.pgp" $big
# A 4096-bit key: 5000 junk self-signatures, each an RSA verification.
$flood tests/bench/rsa4096.pgp "$tmp/rsa4096.pgp" 5000 self
key=tests/bench/rsa4096.pgp run "rsa4096 self-sigs 5000" OK key \
	"$tmp/rsa4096.pgp" $big
# v6: every signature hashes its own salt first, so nothing is shared;
# by an RSA key its value is checked first, without hashing, and junk
# fails there: 3000 on a small user ID, 300 on a 1 MiB one (refused
# EBADMSG for the salted-digest budget before) are each one RSA operation.
v6=tests/verify/testdata/v6.pgp
$flood --shape v6-flood $v6 "$tmp/v6-flood.pgp"
key=$v6 run "v6 salted 3000" OK key "$tmp/v6-flood.pgp" $big
$flood --shape v6-uid-flood $v6 "$tmp/v6-uid-flood.pgp"
key=$v6 run "v6 salted 300, 1 MiB user ID" OK key "$tmp/v6-uid-flood.pgp" $big
# Under the default --max-input: anyone who can append to a published v6
# key must not get it refused (EBADMSG, cached and shared for 60 s) by
# junk that costs a digest of a large user ID each.
$flood --shape v6-uid256k-flood $v6 "$tmp/v6-uid256k-flood.pgp"
key=$v6 run "v6 salted 400, 256 KiB uid" OK key "$tmp/v6-uid256k-flood.pgp"
$flood --shape v6-uid512k-flood $v6 "$tmp/v6-uid512k-flood.pgp"
key=$v6 run "v6 salted 200, 512 KiB uid" OK key "$tmp/v6-uid512k-flood.pgp"
key=$data/alice.gpg
for shape in many-uids max-uid max-uid-flood keyring; do
	$flood --shape $shape "$key" "$tmp/$shape.pgp"
	run "$shape" OK key "$tmp/$shape.pgp" $big
done
# Armor: a flooded trust anchor, parsed and validated in the child: Carol
# still vouches for Alice.
carol=$(python3 -c 'import sys; sys.path.insert(0, "tests/lib")
from pgpk_openpgp import packets
import hashlib, struct
b = [b for t, _, b in packets(open(sys.argv[1], "rb").read()) if t == 6][0]
print(hashlib.sha1(b"\x99" + struct.pack(">H", len(b)) + b).hexdigest().upper())
' $data/carol.gpg)
mkdir -p "$tmp/anchors"
$flood --shape armored-flood $data/carol.gpg "$tmp/anchors/carol.asc"
out=$("$helper" debug --anchors "$tmp/anchors" key $data/alice-certified.gpg 2>&1)
us=$(sed -n 's/.*(\([0-9]*\) us)$/\1/p' <<<"$out" | tail -1)
printf '%-28s %8s octets %8s us  ' "armored anchor, 2000 junk" \
	"$(stat -c %s "$tmp/anchors/carol.asc")" "${us:-?}"
if grep -q "^OK: " <<<"$out" &&
	grep -q "^  issuer fingerprint: $carol" <<<"$out"; then
	echo "ok: $(tail -1 <<<"$out" | sed 's/ ([0-9]* us)$//')"
else
	echo "FAIL: Carol's certification not chosen: $(tail -1 <<<"$out")"
	fail=1
fi
# Armor: import removes it, then one parser per certificate, as binary.
$flood --shape armored-flood "$key" "$tmp/armored.asc"
start=$(date +%s%N)
out=$("$pgpk" import --keyring @t "$tmp/armored.asc" 2>&1)
printf '%-28s %8s octets %8s us  ' "armored, 2000 junk, import" \
	"$(stat -c %s "$tmp/armored.asc")" \
	"$((($(date +%s%N) - start) / 1000))"
if grep -q "^EE06CCB46F6509DA key RSA: [^E]" <<<"$out" &&
	grep -q "^AD9473038E5EEBFB subkey RSA: [^E]" <<<"$out"; then
	echo "ok: the key and its signing subkey given to add_key"
else
	echo "FAIL: $(head -3 <<<"$out")"
	fail=1
fi
for shape in nested4 msg-flood msg-many-comp msg-bomb; do
	$flood --shape $shape "$msg" "$tmp/$shape.gpg"
	run "$shape" OK sig "$tmp/$shape.gpg" $big
done
for shape in nested5 msg-bomb-over; do
	$flood --shape $shape "$msg" "$tmp/$shape.gpg"
	run "$shape" EBADMSG sig "$tmp/$shape.gpg" $big
done

if [ "$fail" != 0 ]; then
	echo "FAIL: the sandboxed parser did not give every verdict"
	exit 1
fi
echo "PASS: every flooded or adversarial input got its verdict in the sandbox"
