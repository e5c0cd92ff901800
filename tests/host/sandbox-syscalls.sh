#!/bin/bash
# The system calls the parser child really makes under the real seccomp
# filter, traced with strace -f through `pgpk-helper debug` (fork,
# sandbox, parse, answer), and through each of pgpk's parsing commands
# (list, key, sig, convert, dump, verify, import): every key and
# signature of the test data, the
# flood and adversarial inputs of tests/lib/pgpk_flood.py, garbage; the
# trust anchors parsed in the child (every armored input, which the
# upcall refuses, is an anchor of a certified key there, and Carol
# certifies Alice).
# FAIL if a child is killed by SIGSYS or makes a call outside
# policy/seccomp-allowlist.txt, or makes a futex call at all: the child
# has one thread, so a futex call is glibc's pthread_once waking its
# waiters, i.e. OpenSSL initialising something behind the filter, which
# the warm-up must have done before (sandbox/pgpk_preload.c).  pgpk's
# children start their validation threads before the filter and warm
# nothing up (lazy_crypto): futex is theirs, and every thread's calls
# after the filter count.  Each pgpk command must have parsed there: its
# child loaded the filter, then wrote its answer frames.  Keys of
# every algorithm the parser verifies are made with gpg for it (ECDSA on
# P-384, P-521, brainpool and secp256k1 takes OpenSSL's generic EC code,
# which draws random numbers even to verify; DSA).  Prints how often each
# call was made and which allowed calls were never made, the evidence
# behind the audit table of sandbox/README.md.  SKIP without strace or
# ptrace.
. "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
flood="python3 tests/lib/pgpk_flood.py"
command -v strace >/dev/null || skip "strace not installed"
command -v python3 >/dev/null || skip "no python3"
strace -qq -o /dev/null true 2>/dev/null || skip "ptrace not permitted here"
host_build
host_tmp

allowed=$(awk '!/^#/ && NF { print $1 }' policy/seccomp-allowlist.txt)
key=tests/openpgp/data/alice.gpg
msg=tests/openpgp/data/msg.txt.inline
$flood "$key" "$tmp/mixed.pgp" 3000
$flood "$key" "$tmp/self.pgp" 300 self
$flood "$key" "$tmp/thirdmin.pgp" 30000 thirdmin
for s in many-uids max-uid-flood keyring; do
	$flood --shape $s "$key" "$tmp/$s.pgp"
done
for s in v6-flood v6-uid-flood v6-uid256k-flood v6-uid512k-flood; do
	$flood --shape $s tests/verify/testdata/v6.pgp "$tmp/$s.pgp"
done
for s in nested4 nested5 msg-flood msg-many-comp msg-bomb msg-bomb-over; do
	$flood --shape $s "$msg" "$tmp/$s.gpg"
done
head -c 4096 /dev/urandom >"$tmp/garbage"
# Keys of the other algorithms (gpg makes them in a second each).
if command -v gpg >/dev/null; then
	mkdir -m 700 "$tmp/gnupg"
	for a in nistp384 nistp521 brainpoolP256r1 secp256k1 dsa2048; do
		GNUPGHOME=$tmp/gnupg gpg --batch --pinentry-mode loopback \
			--passphrase '' --quick-gen-key "algo $a <$a@pgpk.test>" \
			"$a" default never >/dev/null 2>&1 &&
			GNUPGHOME=$tmp/gnupg gpg --batch --export "$a@pgpk.test" \
				>"$tmp/algo-$a.pgp"
	done
fi
inputs=$(ls tests/openpgp/data/*.gpg tests/openpgp/data/*.asc \
	tests/openpgp/data/*.pgp tests/openpgp/data/msg.txt.* \
	tests/openpgp/data/selftest-msg* tests/verify/testdata/*.pgp \
	tests/verify/testdata/*.sig tests/verify/testdata/msg.clear \
	tests/verify/testdata/msg.inline tests/verify/testdata/msg.sub.asc \
	"$tmp"/*.pgp "$tmp"/*.gpg "$tmp/garbage" 2>/dev/null)

certified=tests/openpgp/data/alice-certified.gpg
mkdir "$tmp/carol" "$tmp/anchor"
cp tests/openpgp/data/carol.gpg "$tmp/carol/"
fail=0 runs=0
: >"$tmp/calls"
# filter_child: the pid in $tmp/trace that loaded the seccomp filter
filter_child() {
	awk '/seccomp\(SECCOMP_SET_MODE_FILTER, [A-Z_0-9]*, \{len/ {
		print $1; exit }' "$tmp/trace"
}
for f in $inputs carol; do
	for kind in key sig; do
		set -- debug --max-input=8388608 "$kind" "$f"
		if [ "$f" = carol ]; then
			[ "$kind" = key ] || continue
			set -- debug --anchors "$tmp/carol" key "$certified"
		elif [ "$kind" = key ] &&
			[ "$(head -c 1 "$f" | od -An -tu1 | tr -d ' ')" -lt 128 ]; then
			# Not binary: the upcall refuses it before any child;
			# parsed as an anchor in the child instead.
			rm -f "$tmp/anchor/"*
			cp "$f" "$tmp/anchor/a.asc"
			set -- debug --anchors "$tmp/anchor" key "$certified"
		fi
		strace -f -qq -o "$tmp/trace" "$helper" "$@" \
			>/dev/null 2>"$tmp/err"
		runs=$((runs + 1))
		# The child: the process that loaded the filter; its calls
		# after that (strace writes "<... x resumed>" for the second
		# half of an interrupted call: counted once).
		child=$(filter_child)
		if [ -z "$child" ]; then
			echo "FAIL: $kind $f: no child loaded the filter"
			fail=1
			continue
		fi
		awk -v c="$child" '$1 == c && p && $2 !~ /^(<|\+\+\+|---)/ {
			sub(/\(.*/, "", $2); print $2 }
			$1 == c && /SECCOMP_SET_MODE_FILTER, [A-Z_0-9]*, \{len/ { p = 1 }' \
			"$tmp/trace" >>"$tmp/calls"
		if grep -q "^$child +++ killed by SIGSYS" "$tmp/trace" ||
			grep -q "ECHILD" "$tmp/err"; then
			echo "FAIL: $kind $f: $(tail -1 "$tmp/err")"
			fail=1
		fi
		if awk -v c="$child" '$1 == c && p && $2 ~ /^futex\(/ { n++ }
			$1 == c && /SECCOMP_SET_MODE_FILTER, [A-Z_0-9]*, \{len/ { p = 1 }
			END { exit !n }' "$tmp/trace"; then
			echo "FAIL: $kind $f: futex in the child (a pthread_once behind the filter)"
			fail=1
		fi
	done
done
# pgpk_traced LABEL CMD...: pgpk's command under strace -f; its child
# (the process that loaded the filter, and the threads it started before)
# keeps to the allowlist, and wrote its answer after the filter.
pgpk_traced() {
	local label=$1 child tasks
	shift
	strace -f -qq -o "$tmp/trace" "$pgpk" "$@" >/dev/null 2>"$tmp/err"
	runs=$((runs + 1))
	child=$(filter_child)
	if [ -z "$child" ]; then
		echo "FAIL: pgpk $label: no child loaded the filter"
		fail=1
		return
	fi
	tasks=" $child $(awk -v c="$child" '$1 == c && /^[0-9]+ +clone3?\(/ {
		print $NF }' "$tmp/trace" | tr '\n' ' ')"
	awk -v t="$tasks" 'index(t, " " $1 " ") && p &&
		$2 !~ /^(<|\+\+\+|---)/ { sub(/\(.*/, "", $2); print $2 }
		/SECCOMP_SET_MODE_FILTER, [A-Z_0-9]*, \{len/ { p = 1 }' \
		"$tmp/trace" >"$tmp/pcalls"
	cat "$tmp/pcalls" >>"$tmp/calls"
	if grep -q "^[0-9]* +++ killed by SIGSYS" "$tmp/trace" ||
		grep -q "sandboxed parser" "$tmp/err"; then
		echo "FAIL: pgpk $label: $(tail -1 "$tmp/err")"
		fail=1
	elif ! awk -v c="$child" '$1 == c && p && /^[0-9]+ +write\(1, / { n++ }
		/SECCOMP_SET_MODE_FILTER, [A-Z_0-9]*, \{len/ { p = 1 }
		END { exit !n }' "$tmp/trace"; then
		echo "FAIL: pgpk $label: its child answered nothing after the filter"
		fail=1
	else
		echo "ok   pgpk $label: parsed under the filter by $child" \
			"($(echo $tasks | wc -w) tasks, $(wc -l <"$tmp/pcalls") calls)"
	fi
}
d=tests/verify/testdata
"$pgpk" key "$d/good.pgp" >"$tmp/key.blob"
"$pgpk" sig --data "$d/msg.txt" "$d/msg.sig" >"$tmp/sig.blob"
pgpk_traced "list (debian-archive-keyring)" list \
	/usr/share/keyrings/debian-archive-keyring.gpg
pgpk_traced "list --json" list --json tests/openpgp/data/alice.gpg
pgpk_traced key key "$d/good.pgp"
pgpk_traced "key --anchors" key --anchors "$tmp/carol" "$certified"
pgpk_traced sig sig --data "$d/msg.txt" "$d/msg.sig"
pgpk_traced convert convert "$d/msg.inline"
pgpk_traced "dump (key)" dump "$tmp/key.blob"
pgpk_traced "dump (sig)" dump --json "$tmp/sig.blob"
pgpk_traced verify verify --keyring "$d/good.pgp" "$d/msg.sig" "$d/msg.txt"
pgpk_traced "verify (canonical)" verify --keyring "$d/good.pgp" \
	"$tmp/sig.blob"
pgpk_traced "verify (InRelease)" verify \
	--keyring /usr/share/keyrings/debian-archive-keyring.gpg \
	tests/host/data/InRelease
for f in $tmp/*.pgp; do
	pgpk_traced "list $(basename "$f")" list "$f"
done
if command -v keyctl >/dev/null && keyctl show @s >/dev/null 2>&1; then
	pgpk_traced "import (the split)" import --keyring @t \
		tests/openpgp/data/alice.asc
fi

echo "$runs sandboxed runs; system calls after the filter, all runs:"
sort "$tmp/calls" | uniq -c | sort -rn
for c in $(sort -u "$tmp/calls"); do
	if ! grep -qx "$c" <<<"$allowed"; then
		echo "FAIL: $c is not in policy/seccomp-allowlist.txt"
		fail=1
	fi
done
echo "allowed but never made: $(for a in $allowed; do
	grep -qx "$a" "$tmp/calls" || printf '%s ' "$a"; done)"
if [ "$fail" != 0 ]; then
	echo "FAIL: the parser child needs a call its filter forbids, or initialises something behind it"
	exit 1
fi
echo "PASS: every sandboxed run kept to the allowlist"
