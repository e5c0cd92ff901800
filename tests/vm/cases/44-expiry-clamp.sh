#!/bin/sh
# Issue 9, finding 8: a canonical key's 64-bit "expires" reached the key
# unclamped; near 2^64/HZ, 6.1's key_schedule_gc() overflowed and the
# key garbage collector re-armed in the past on every tick.  Since issue
# 26 a key's expiry is read from the self-signature the kernel verifies:
# a 4-octet time after the key's creation (RFC 9580 5.2.3.13) or after
# the signature's (5.2.3.18), at most 2^32 - 1 seconds: the latest of
# each, here, shows in /proc/keys as at most that many weeks.
. /pgpk/lib.sh
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data f/expires-max.pgpk f/expires-sig-max.pgpk f/k.created
pgpk_load

created=$(cat "$F/k.created")
now=$(date +%s)
# + 1 week: the self-signature is a day younger than the key
max_weeks=$(((created + 4294967295 - now) / 604800 + 2))
for blob in expires-max expires-sig-max; do
	expect_ok keyctl padd asymmetric "" @s <"$F/$blob.pgpk"
	id=$PGPK_OUT
	line=$(grep "^$(printf %08x "$id") " /proc/keys)
	echo "$line"
	timeout=$(echo "$line" | awk '{ print $4 }')
	case "$timeout" in
	*w) ;;
	*) pgpk_fail "$blob: timeout '$timeout', expected weeks" ;;
	esac
	[ "${timeout%w}" -le "$max_weeks" ] ||
		pgpk_fail "$blob: expires in $timeout, more than ${max_weeks}w"
	echo "ok: $blob expires in $timeout (at most ${max_weeks}w)"
	expect_ok keyctl unlink "$id" @s
done
exit 0
