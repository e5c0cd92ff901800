#!/bin/sh
# A request_key upcall for key type "pgpk" reaches the helper through
# /sbin/request-key and /etc/request-key.d/pgpk.conf: valid OpenPGP
# callout data is answered with a canonical blob (instantiated key, one
# log line); a repeated request is served from the keyring without a new
# upcall; garbage, and data that does not match the SHA-256 in the
# description, are refused with EBADMSG by the helper.
# (request_key(2) passes the callout as a string, so from user space it
# carries the armored key; the module passes binary keys itself.)
. /pgpk/lib.sh

pgpk_need_module
pgpk_need_helper
pgpk_need_data rsa2048.asc rsa2048-sub.keyid rsa3072.asc garbage.asc \
	msg.txt
pgpk_load

key=$PGPK_DATA/rsa2048.asc
desc=$(pgpk_key_desc "$key")
before=$(count_upcalls)
expect_ok keyctl prequest2 pgpk "$desc" @s <"$key"
id=$PGPK_OUT
pgpk_wait_log "pgpk-helper.*key $id .*instantiated"
assert_eq $((before + 1)) "$(count_upcalls)" "helper log lines"
assert_eq pgpk "$(pgpk_key_type "$id")" "key type"
assert_eq "$desc" "$(pgpk_key_desc_of "$id")" "key description"
expect_ok keyctl show @s

# The payload is the helper's answer: a canonical blob, magic \x7fPGK\x01.
if magic=$(keyctl pipe "$id" 2>&1 | head -c 5 | xxd -p); then
	assert_eq 7f50474b01 "$magic" "payload magic"
else
	echo "note: key type pgpk does not export its payload ($magic)"
fi

# The same request again: found in the session keyring, no new upcall.
expect_ok keyctl prequest2 pgpk "$desc" @s <"$key"
assert_eq "$id" "$PGPK_OUT" "key of the repeated request"
sleep 0.5
assert_eq $((before + 1)) "$(count_upcalls)" "helper log lines"

# Selecting the signing subkey by key ID (uppercase hex) is a different
# request, answered separately.
sel=$(cat "$PGPK_DATA/rsa2048-sub.keyid")
expect_ok keyctl prequest2 pgpk "$(pgpk_key_desc "$key" "$sel")" @s <"$key"
assert_ne "$id" "$PGPK_OUT" "key for the selected subkey"
pgpk_wait_log "pgpk-helper.*key $PGPK_OUT .*instantiated"

# A larger key, SHA-512 self-signature.
key3=$PGPK_DATA/rsa3072.asc
expect_ok keyctl prequest2 pgpk "$(pgpk_key_desc "$key3")" @s <"$key3"
pgpk_wait_log "pgpk-helper.*key $PGPK_OUT .*instantiated"

# Garbage: the helper refuses it, the error reaches the requester.
bad=$PGPK_DATA/garbage.asc
n=$(pgpk_log_lines)
expect_fail EBADMSG keyctl prequest2 pgpk "$(pgpk_key_desc "$bad")" @s <"$bad"
pgpk_wait_log "pgpk-helper.*rejected EBADMSG"
pgpk_log_since "$n"

# Callout data that does not match the SHA-256 in the description (a
# hash never requested before, so nothing cached can answer).
n=$(pgpk_log_lines)
expect_fail EBADMSG keyctl prequest2 pgpk \
	"$(pgpk_key_desc "$PGPK_DATA/msg.txt")" @s <"$key"
pgpk_wait_log "pgpk-helper.*does not match the SHA-256"
pgpk_log_since "$n"
exit 0
