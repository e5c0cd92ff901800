#!/bin/sh
# Certificate flooding (security issue 9, finding 7): anyone can append
# signatures to a published key.  127 junk self-certifications made the
# sandboxed parser sort 128 candidates with glibc's qsort(), which called
# sysinfo(): SIGSYS, ECHILD, the key could no longer be added.  Now the
# flooded rsa2048 key (tests/vm/data.d/36-flood.sh: 127, 128 full-size,
# 128 of every kind, 2000 of 31 octets) is added as the same key as the
# clean one, each within the helper's 2 s watchdog, under TCG.
# pgpk-timeout: 120
. /pgpk/lib.sh

pgpk_need_module
pgpk_need_helper
pgpk_need_data rsa2048.pgp flood/self127.pgp flood/self128.pgp \
	flood/mixed128.pgp flood/tiny2000.pgp
pgpk_load

want=
for f in clean self127 self128 mixed128 tiny2000; do
	file=$PGPK_DATA/flood/$f.pgp
	[ "$f" = clean ] && file=$PGPK_DATA/rsa2048.pgp
	expect_ok keyctl newring "$f" @s
	ring=$PGPK_OUT
	mark=$(pgpk_log_lines)
	expect_ok keyctl padd asymmetric "" "$ring" <"$file"
	id=$PGPK_OUT
	assert_eq asymmetric "$(pgpk_key_type "$id")" "$f: key type"
	[ -n "$want" ] || want=$(pgpk_key_desc_of "$id")
	assert_eq "$want" "$(pgpk_key_desc_of "$id")" "$f: key description"
	# The helper logs before it instantiates; syslogd writes later.
	n=50
	while [ "$n" -gt 0 ] &&
		! pgpk_log_since "$mark" | grep -q "instantiated"; do
		sleep 0.1
		n=$((n - 1))
	done
	echo "$f: $(wc -c <"$file") octets; helper:" \
		"$(pgpk_log_since "$mark" | grep instantiated | tail -n 1 |
			sed 's/.*instantiated: //')"
done
exit 0
