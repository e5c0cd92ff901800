#!/bin/sh
# The pgpk end-to-end demo, run inside the test VM (tests/demo.sh boots
# it).  Each step says what it shows, prints every command with its
# output, and checks the result; a failed step is named in the summary.
. /pgpk/lib.sh

D=$PGPK_DATA
step_no=0
failed_steps=""

step() {
	step_no=$((step_no + 1))
	step_title=$1
	echo
	echo "================================================================"
	echo "Step $step_no: $1"
	echo "================================================================"
	shift
	for line in "$@"; do
		echo "  $line"
	done
}

step_failed() {
	echo "!!! Step $step_no FAILED ($step_title): $*"
	failed_steps="$failed_steps
  step $step_no: $step_title: $*"
}

# show CMD...: print "$ CMD", run it, print the output; the status is
# returned, the output left in $OUT.
show() {
	echo "\$ $*"
	OUT=$("$@" 2>&1)
	rc=$?
	[ -n "$OUT" ] && echo "$OUT" | sed 's/^/    /'
	[ "$rc" -eq 0 ] || echo "    (exit status $rc)"
	return $rc
}

# show_in FILE CMD...: the same with FILE on stdin.
show_in() {
	_in=$1
	shift
	echo "\$ $* < ${_in#"$D"/}"
	OUT=$("$@" <"$_in" 2>&1)
	rc=$?
	[ -n "$OUT" ] && echo "$OUT" | sed 's/^/    /'
	[ "$rc" -eq 0 ] || echo "    (exit status $rc)"
	return $rc
}

# sig FILE: FILE's signatures and signed content, converted by the helper
# (the kernel takes canonical signatures only), to /tmp/sig.pgpks.
sig() {
	echo "\$ pgpk sig ${1#"$D"/} > /tmp/sig.pgpks"
	"$PGPK" sig "$1" >/tmp/sig.pgpks
}

helper_log() {
	echo "  helper's log (syslog):"
	pgpk_log_since "$1" | grep "$PGPK_HELPER_TAG" | sed 's/^/    /'
}

cd "$D" 2>/dev/null || true
echo "pgpk demo: OpenPGP keys in the kernel keyring, parsed in a sandboxed"
echo "helper, re-derived and verified by the kernel. Kernel $(uname -r)."

step "Load the pgpk module" \
	"It registers the asymmetric key parser 'pgpk', the upcall key" \
	"type 'pgpk' and the test key type 'pgpk_test'."
pgpk_kmsg_mark
if [ ! -f "$PGPK_KO" ]; then
	step_failed "module not built: $(pgpk_status module)"
	give_up=1
elif show insmod "$PGPK_KO"; then
	show grep '^pgpk ' /proc/modules
	echo "  kernel log:"
	pgpk_kmsg_since | sed 's/^/    /'
else
	step_failed "insmod failed"
	give_up=1
fi

step "The upcall route" \
	"The kernel never parses OpenPGP: it asks /usr/sbin/pgpk-helper" \
	"through request-key(8) with this configuration line."
show cat /etc/request-key.d/pgpk.conf
if [ ! -x "$PGPK_HELPER" ]; then
	step_failed "helper not built: $(pgpk_status helper)"
	give_up=1
fi
if [ -n "${give_up:-}" ]; then
	echo
	echo "Demo FAILED: nothing to show without the module and the" \
		"helper:$failed_steps"
	exit 1
fi

step "Add Debian's archive signing key (binary OpenPGP, RSA 4096)" \
	"keyctl hands the raw .pgp bytes to the kernel; the 'pgpk' parser" \
	"sends them to the helper, whose sandboxed child converts them; the" \
	"kernel rebuilds the key packet, finds it at the offset the helper" \
	"named, and computes the fingerprint itself."
n=$(pgpk_log_lines)
if show_in "$D/debian-archive-key.pgp" keyctl padd asymmetric "" @s; then
	debian_id=$OUT
	show keyctl describe "$debian_id"
	show grep asymmetri /proc/keys
	sleep 0.2
	helper_log "$n"
	[ "$(count_upcalls)" -gt 0 ] ||
		step_failed "no helper log line: did the upcall run?"
else
	debian_id=""
	step_failed "the kernel refused the Debian archive key"
fi

step "Query the key through the kernel's public key API" \
	"The asymmetric key is an ordinary RSA public key now."
if [ -n "$debian_id" ] && show keyctl pkey_query "$debian_id" 0 enc=pkcs1 \
	hash=sha256; then
	case "$OUT" in
	*key_size=4096*) ;;
	*) step_failed "pkey_query does not report a 4096-bit key" ;;
	esac
else
	step_failed "pkey_query failed"
fi

step "Add the same key again: a request of its own" \
	"Nothing is cached or shared: each add_key asks the helper under a" \
	"random description, in a keyring of its own, and its answer serves" \
	"nobody else. User space cannot make or answer such a request."
before=$(count_upcalls)
if show_in "$D/debian-archive-key.pgp" keyctl padd asymmetric "" @s; then
	sleep 0.2
	after=$(count_upcalls)
	echo "  helper log lines before: $before, after: $after"
	[ "$after" = $((before + 1)) ] ||
		step_failed "not one new upcall ($before -> $after)"
else
	step_failed "the second add failed"
fi
if show keyctl request2 pgpk "key:0123456789abcdef0123456789abcdef" \
	callout @s; then
	step_failed "user space made a pgpk request"
else
	case "$OUT" in
	*"$(pgpk_errno_text EPERM)"*) echo "  refused: only the module asks." ;;
	*) step_failed "refused, but not with EPERM" ;;
	esac
fi

step "Add a freshly generated test key (RSA 2048); armor is refused" \
	"The kernel compares octets, it does not decode base64: armored" \
	"input goes to the helper, which refuses it and names the remedy."
n=$(pgpk_log_lines)
if show_in "$D/rsa2048.asc" keyctl padd asymmetric "" @s; then
	step_failed "the kernel accepted armor"
else
	sleep 0.2
	helper_log "$n"
fi
n=$(pgpk_log_lines)
if show_in "$D/rsa2048.pgp" keyctl padd asymmetric "" @s; then
	test_id=$OUT
	show keyctl describe "$test_id"
	echo "  gpg says the fingerprint is $(cat "$D/rsa2048.fpr")"
	show grep "$(cut -c 33-40 "$D/rsa2048.fpr" | tr 'A-F' 'a-f')" /proc/keys
	# The description is seed 007's: the user ID the kernel verified
	# the self-signature over, without its comment, and the last 8 hex
	# digits of the key ID the kernel computed from the rebuilt key
	# packet (rsa2048.name: tests/lib/pgpk_name.py, from gpg's).
	want=$(cat "$D/rsa2048.name")
	case "$(keyctl rdescribe "$test_id")" in
	*";$want") echo "  the kernel's name and key ID match gpg's: $want" ;;
	*) step_failed "the description is not '$want'" ;;
	esac
	sleep 0.2
	helper_log "$n"
else
	test_id=""
	step_failed "the kernel refused the test key"
fi

step "Verify a gpg-signed message in the kernel" \
	"The helper converts the message (signatures and content) to its" \
	"canonical form; key type pgpk_test verifies it against the trusted" \
	"keys, then the session keyring, and keeps the signed content: the" \
	"kernel hashes the content with the trailer it builds itself and" \
	"checks RSA through the crypto API. Whoever converted it, it is the" \
	"kernel's check."
show cat "$D/msg.txt"
sig "$D/msg.rsa2048.gpg"
if show_in /tmp/sig.pgpks keyctl padd pgpk_test signed-msg @s; then
	msg_id=$OUT
	show keyctl pipe "$msg_id"
	keyctl pipe "$msg_id" >/tmp/content 2>/dev/null
	if cmp -s /tmp/content "$D/msg.txt"; then
		echo "  the key's payload is exactly the signed content."
	else
		step_failed "the verified content differs from msg.txt"
	fi
else
	step_failed "the kernel did not verify a good signature"
fi

step "A cleartext-signed message (SHA-512, RSA 3072)"
show_in "$D/rsa3072.pgp" keyctl padd asymmetric "" @s ||
	step_failed "the kernel refused the RSA 3072 key"
sig "$D/msg.rsa3072.clear"
if show_in /tmp/sig.pgpks keyctl padd pgpk_test clear-msg @s; then
	echo "  (cleartext signatures sign the text with CRLF line ends and"
	echo "  without the last line end: RFC 9580 7.1)"
	show keyctl pipe "$OUT"
else
	step_failed "the kernel did not verify a good cleartext signature"
fi

step "A tampered message is rejected" \
	"One byte of the signed content changed: the digest no longer" \
	"matches and the add fails with EKEYREJECTED (or EBADMSG if the" \
	"16-bit quick check already catches it)."
tampered=$D/msg.rsa2048.tampered.gpg
if cmp -s "$tampered" "$D/msg.rsa2048.gpg"; then
	step_failed "the tampered message is the original"
elif sig "$tampered" && show_in /tmp/sig.pgpks keyctl padd pgpk_test tampered @s; then
	step_failed "the kernel ACCEPTED a tampered message"
else
	case "$OUT" in
	*"$(pgpk_errno_text EKEYREJECTED)"* | *"$(pgpk_errno_text EBADMSG)"*)
		echo "  refused, as it must be." ;;
	*) step_failed "refused, but not with EKEYREJECTED/EBADMSG" ;;
	esac
fi

step "Bad input is refused with a name" \
	"A key cut short: it looks like OpenPGP, so the kernel asks the" \
	"helper, whose sandboxed parser refuses it; the add fails with" \
	"EBADMSG and the helper's log says why."
n=$(pgpk_log_lines)
if show_in "$D/rsa2048-truncated.pgp" keyctl padd asymmetric "" @s; then
	step_failed "the kernel ACCEPTED a truncated key"
else
	sleep 0.2
	helper_log "$n"
	case "$OUT" in
	*"$(pgpk_errno_text EBADMSG)"*) ;;
	*) step_failed "refused, but not with EBADMSG" ;;
	esac
fi
echo "  Random bytes that do not even look like OpenPGP never leave the"
echo "  kernel:"
before=$(count_upcalls)
if show_in "$D/garbage.bin" keyctl padd asymmetric "" @s; then
	step_failed "the kernel ACCEPTED garbage as a key"
fi
sleep 0.2
[ "$(count_upcalls)" = "$before" ] ||
	step_failed "garbage reached the helper"

step "The keys in the session keyring"
show keyctl show @s

step "Unload the module" \
	"Everything it registered goes away."
pgpk_kmsg_mark
keyctl clear @s >/dev/null 2>&1
# Each pgpk key holds a reference on the module; the key garbage
# collector frees the cleared ones asynchronously (up to 10 s).
n=100
while [ "$(cat /sys/module/pgpk/refcnt)" != 0 ] && [ "$n" -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
if show rmmod pgpk; then
	pgpk_kmsg_since | sed 's/^/    /'
else
	step_failed "rmmod failed"
fi

echo
echo "================================================================"
if [ -z "$failed_steps" ]; then
	echo "Demo complete: all $step_no steps behaved as described."
	exit 0
fi
echo "Demo FAILED in these steps:$failed_steps"
exit 1
