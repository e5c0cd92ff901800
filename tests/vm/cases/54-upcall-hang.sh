#!/bin/sh
# Issue 19, finding 2: add_key() runs the parser, and so the upcall,
# holding key_types_sem and the asymmetric parsers' rwsem for reading; a
# registration queued behind them (a writer) would block every keyring
# operation on the system for as long as user space takes.  Here the
# request-key program never answers (it sleeps): root's add_key of an
# OpenPGP key must fail with ETIMEDOUT after upcall_timeout, and meanwhile
# a key type registration (insmod dns_resolver), an asymmetric key parser
# registration (insmod pkcs8_key_parser) and another user's add_key, all
# of which queue behind the upcall, must complete within upcall_timeout
# plus a margin.  A fatal signal ends the wait too (killable).  With the
# old module they waited as long as the program did: forever.
# pgpk-timeout: 120
. /pgpk/lib.sh

pgpk_need_module
pgpk_need_data rsa2048.pgp
T=3		# upcall_timeout, seconds
MARGIN=4	# exec, scheduling under TCG (and KASAN on the debug kernel)
pgpk_unload
chmod 0755 /
pgpk_load upcall_timeout=$T

now() { awk '{ print int($1 * 1000) }' /proc/uptime; }	# ms
conf=/etc/request-key.d/pgpk.conf
cp "$conf" /tmp/54.conf
# kill_sleepers: the request-key programs that never answer.
kill_sleepers() {
	for p in /proc/[0-9]*; do
		grep -q "^sleep.4242" "$p/cmdline" 2>/dev/null &&
			kill -9 "${p#/proc/}" 2>/dev/null
	done
	return 0
}
trap 'kill_sleepers; cp /tmp/54.conf '"$conf"'; for m in dns_resolver pkcs8_key_parser; do rmmod $m 2>/dev/null; done' EXIT
echo "create pgpk * * /bin/sleep 4242" >"$conf"

# The key type registration needs dns_resolver as a module: Debian's
# kernels have it, the debug kernel's small configuration does not (its
# leg is then left out, said so); the parser registration is required.
legs="root parser user"
for m in dns_resolver pkcs8_key_parser; do
	if ! grep -q "^$m " /etc/pgpk/case-modules; then
		[ "$m" = dns_resolver ] ||
			pgpk_fail "module $m not in the initramfs (build-initramfs.sh)"
		echo "note: no module $m in this kernel: no key type registration"
		continue
	fi
	[ "$m" = dns_resolver ] && legs="$legs keytype"
	! grep -q "^$m " /proc/modules || pgpk_fail "$m already loaded"
done

# 1. root's add_key waits in the upcall.
t0=$(now)
( keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa2048.pgp" >/tmp/54.out 2>&1
  echo "$? $(now)" >/tmp/54.root ) &
sleep 1
# 2. while it waits: a key type registration, a parser registration (both
# writers of the semaphores the upcall holds for reading), and an
# unprivileged user's add_key (a reader queued behind them).
case "$legs" in
*keytype*)
	( insmod "$(awk '$1 == "dns_resolver" { print $2 }' /etc/pgpk/case-modules)"
	  echo "$? $(now)" >/tmp/54.keytype ) & ;;
esac
( insmod "$(awk '$1 == "pkcs8_key_parser" { print $2 }' /etc/pgpk/case-modules)"
  echo "$? $(now)" >/tmp/54.parser ) &
sleep 0.5
( su -s /bin/sh nobody -c "keyctl session - sh -c 'keyctl add user 54 hello @s'" \
	>/tmp/54.user.out 2>&1
  echo "$? $(now)" >/tmp/54.user ) &
wait

for f in $legs; do
	[ -s /tmp/54.$f ] || pgpk_fail "$f: no result"
	set -- $(cat /tmp/54.$f)
	echo "$f: exit $1 after $(($2 - t0)) ms"
	[ $(($2 - t0)) -le $(((T + MARGIN) * 1000)) ] ||
		pgpk_fail "$f finished $(($2 - t0)) ms after the upcall began: more than upcall_timeout $T s + $MARGIN s"
	[ "$f" = root ] || [ "$1" = 0 ] || pgpk_fail "$f failed: $(cat /tmp/54.$f.out 2>/dev/null)"
done
set -- $(cat /tmp/54.root)
[ "$1" != 0 ] || pgpk_fail "root's add_key succeeded with no helper"
assert_contains "$(cat /tmp/54.out)" "timed out" "root's add_key error"
[ $(($2 - t0)) -ge $((T * 1000 - 200)) ] ||
	pgpk_fail "root's add_key ended after $(($2 - t0)) ms, before upcall_timeout"
pgpk_kmsg_mark
dmesg | grep -q "no answer from pgpk-helper in $T s" ||
	pgpk_fail "no kernel log line naming the timeout"

# 3. killable: SIGKILL ends the wait at once.
t0=$(now)
keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa2048.pgp" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -9 "$pid"
wait "$pid" 2>/dev/null
t1=$(now)
echo "killed add_key ended after $((t1 - t0)) ms"
[ $((t1 - t0)) -lt $((T * 1000)) ] ||
	pgpk_fail "a killed add_key waited out the timeout ($((t1 - t0)) ms)"

# The sleeping programs are user space's: the module holds nothing of
# theirs (no module reference: rmmod works while they sleep).
pgpk_unload
kill_sleepers
exit 0
