#!/bin/bash
# --hashes accepts exactly the hashes every check supports (issue 11): a
# name is accepted by the policy option iff the kernel (the table of
# pgpk_sig_digest() in kernel/pgpk_sig.c) and `pgpk verify` (pgpk_verify_md()
# in helper/parser/verify.c) both check signatures made with it, and it is not a
# broken hash (MD5, SHA-1, RIPEMD-160: the kernel's floor).  SHA-3
# (Debian's kernels build it as a module) is not checked by pgpk, so
# sha3-256 and sha3-512 are refused, with the same message by every
# command that takes the policy (pgpk verify, pgpk-helper debug, after
# each one's "pgpk COMMAND: "; upcall parses the same options,
# tests/broker/request_test.c).
. "$(dirname "$0")/lib.sh"
[ -x "$pgpk" ] && [ -x "$helper" ] ||
	die "not built (bazel build //helper:pgpk //helper:pgpk-helper)"
host_tmp

# The hash IDs (RFC 9580 9.5) a switch statement of FILE's FUNCTION maps.
case_ids() {
	sed -n "/^$2/,/^}/p" "$root/$1" | sed -n 's/^\tcase \([0-9]*\):.*/\1/p' |
		sort -n | tr '\n' ' '
}
# The hash IDs (RFC 9580 9.5) the kernel's table in FILE's FUNCTION maps
# ("[8] = HASH_ALGO_SHA256, ...").
table_ids() {
	sed -n "/^$2/,/^}/p" "$root/$1" |
		grep -o '\[[0-9]*\] = HASH_ALGO_' | tr -dc '0-9\n' |
		sort -n | tr '\n' ' '
}
kernel=$(table_ids kernel/pgpk_sig.c 'struct pgpk_sig_info \*pgpk_sig_digest(')
verify=$(case_ids helper/parser/verify.c 'static bool pgpk_verify_md(')
[ -n "$kernel" ] && [ -n "$verify" ] ||
	{ echo "FAIL: cannot read the hash tables"; exit 1; }
echo "kernel checks: $kernel; verify checks: $verify"

echo hello >"$tmp/data"
for pair in md5:1 sha1:2 ripemd160:3 sha256:8 sha384:9 sha512:10 \
	sha224:11 sha3-256:12 sha3-512:14; do
	name=${pair%:*}
	id=${pair#*:}
	want=refused
	case " $kernel " in *" $id "*)
		case " $verify " in *" $id "*)
			[ "$id" -gt 3 ] && want=accepted ;;
		esac ;;
	esac
	"$pgpk" verify --hashes="$name" --keyring "$tmp/none" \
		"$tmp/data" >"$tmp/verify" 2>&1
	"$helper" debug --hashes="$name" sig "$tmp/data" >"$tmp/debug" 2>&1
	v=accepted d=accepted
	grep -q -- "--hashes: " "$tmp/verify" && v=refused
	grep -q -- "--hashes: " "$tmp/debug" && d=refused
	if [ "$v" = "$want" ] && [ "$d" = "$want" ]; then
		ok "--hashes=$name ($id): $want by verify and debug"
	else
		fail "--hashes=$name ($id): want $want, verify $v, debug $d"
		sed 's/^/  /' "$tmp/verify" "$tmp/debug" | head -6
	fi
	if [ "$want" = refused ] &&
		! cmp -s <(grep -- "--hashes: " "$tmp/verify" | sed 's/^[^:]*: //') \
			<(grep -- "--hashes: " "$tmp/debug" | sed 's/^[^:]*: //'); then
		fail "--hashes=$name: verify and debug say different things"
	fi
done
grep -h -- "--hashes: " "$tmp/verify" "$tmp/debug" | sort -u | sed 's/^/  /'
echo "$npass agree, $nfail differ"
[ "$nfail" = 0 ]
