#!/bin/sh
# Benchmark (not a test; tests/bench/vm-import.sh runs it): pgpk
# import of debian-keyring.gpg, or of its first certificates
# ($PGPK_CASE_DIR/sample.gpg) into a fresh keyring in the VM.  Every
# primary key added is an add_key of its OpenPGP certificate, one upcall
# each (nothing cached: every certificate differs); every signing subkey
# a canonical key (no upcall).  Prints "PGPK-BENCH import ..." lines;
# fails only if nothing is added.  TCG emulation: compare runs of the
# same machine, do not quote absolute times as native ones.
# pgpk-timeout: 540
. /pgpk/lib.sh
pgpk_need_module
pgpk_need_helper
[ -f "$PGPK_CASE_DIR/sample.gpg" ] || pgpk_skip "no sample.gpg"
pgpk_load
ring=$(keyctl newring importbench @s) || pgpk_fail "newring"
now() { cut -d' ' -f1 /proc/uptime; }
t0=$(now)
"$PGPK" import --keyring %keyring:importbench \
	"$PGPK_CASE_DIR/sample.gpg" >/tmp/imp.out 2>/tmp/imp.err
rc=$?
t1=$(now)
tail -n 1 /tmp/imp.err
# Why the others were not added, by kind (numbers elided).
grep '^[0-9A-F]\{16\} ' /tmp/imp.out | grep -v ': [0-9][0-9]* (' |
	cut -d' ' -f2- | sed 's/[0-9][0-9]*/N/g; s/"[^"]*"//g' | cut -c1-90 |
	sort | uniq -c | sort -rn | head -n 12 | sed 's/^/not added: /'
upcalls=$(grep -c ': [0-9][0-9]* (OpenPGP, ' /tmp/imp.out)
canon=$(grep -c ': [0-9][0-9]* (canonical, ' /tmp/imp.out)
added=$((upcalls + canon))
lines=$(grep -c '^[0-9A-F]\{16\} ' /tmp/imp.out)
inring=$(keyctl rlist "$ring" | wc -w)
certs=$(cat "$PGPK_CASE_DIR/sample.certs" 2>/dev/null || echo "?")
awk -v a="$t0" -v b="$t1" -v c="$certs" -v k="$lines" -v n="$added" \
	-v u="$upcalls" -v s="$canon" -v r="$rc" 'BEGIN {
	t = b - a
	printf "PGPK-BENCH import %s certificates, %d keys (%d added: %d primary keys through the upcall, %d subkeys canonical), exit %d: %.1f s\n", c, k, n, u, s, r, t
	if (k) printf "PGPK-BENCH import %.0f ms per key\n", t * 1000 / k
	if (n) printf "PGPK-BENCH import %.0f ms per added key\n", t * 1000 / n
}'
[ "$added" -gt 0 ] || pgpk_fail "nothing added: $(tail -n 3 /tmp/imp.err)"
[ "$inring" -eq "$added" ] ||
	pgpk_fail "$added keys added, $inring in the keyring"
exit 0
