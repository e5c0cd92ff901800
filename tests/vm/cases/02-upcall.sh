#!/bin/sh
# The upcall: add_key of binary OpenPGP reaches pgpk-helper through
# /sbin/request-key and /etc/request-key.d/pgpk.conf, once per add_key
# (nothing is cached: the same key again is a new upcall); the request is
# private (a random description of its own, refused to user space: a user
# can neither make nor answer one); ASCII armor goes to the helper, which
# refuses it naming the remedy; a payload that is neither OpenPGP nor
# canonical never leaves the kernel.
#
# Abuse tried: request_key("pgpk") from user space, with a description of
# the request form, an empty select (the old description form, whose
# parser once read uninitialised stack) and garbage; add_key("pgpk") of a
# forged answer.  All EPERM, none reaches the helper.
. /pgpk/lib.sh

pgpk_need_module
pgpk_need_helper
pgpk_need_data k/rsa2048.name rsa2048.pgp rsa2048.asc rsa2048.fpr \
	rsa2048.keyid rsa3072.pgp msg.txt k/rsa2048.pgpk k/truncated.pgp
pgpk_load

keyid=$(tr 'A-F' 'a-f' <"$PGPK_DATA/rsa2048.keyid")
fpr=$(cat "$PGPK_DATA/rsa2048.fpr")
before=$(count_upcalls)
expect_ok keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa2048.pgp"
id=$PGPK_OUT
pgpk_wait_log "pgpk-helper.*key [0-9]* key:[0-9a-f]*\.\.\.: instantiated"
pgpk_wait_upcalls $((before + 1))
assert_eq asymmetric "$(pgpk_key_type "$id")" "key type"
# Seed 007's description: the user ID, the last 8 hex digits of the key ID
assert_eq "$(cat "$PGPK_DATA/k/rsa2048.name")" "$(pgpk_key_desc_of "$id")" \
	"description"
assert_contains "$(pgpk_key_desc_of "$id")" " ${keyid#????????}" \
	"description's key ID"
expect_ok keyctl search @s asymmetric "id:$fpr"
assert_eq "$id" "$PGPK_OUT" "key found by fingerprint"

# The request's description: key: and 128 random bits, never the same.
desc1=$(grep "pgpk-helper.*instantiated" "$PGPK_SYSLOG" | tail -n 1 |
	sed -n 's/.* key:\([0-9a-f]*\)\.\.\..*/\1/p')
expect_ok keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa2048.pgp"
pgpk_wait_upcalls $((before + 2)) "helper log lines (no cache)"
desc2=$(grep "pgpk-helper.*instantiated" "$PGPK_SYSLOG" | tail -n 1 |
	sed -n 's/.* key:\([0-9a-f]*\)\.\.\..*/\1/p')
[ -n "$desc1" ] || pgpk_fail "no request description in the helper's log"
assert_ne "$desc1" "$desc2" "second request's description"

# The answer lived for the add_key that asked: no pgpk key is left.
sleep 0.5
assert_eq 0 "$(grep -c ' pgpk  *[^ ]*key:' /proc/keys)" "pgpk keys left"

# A larger key, SHA-512 self-signature.
expect_ok keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa3072.pgp"

# ASCII armor: the helper refuses it and says what to do.
n=$(pgpk_log_lines)
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$PGPK_DATA/rsa2048.asc"
pgpk_wait_log "pgpk-helper.*rejected EBADMSG.*gpg --dearmor"
pgpk_log_since "$n"

# A truncated certificate: an upcall, refused by the helper.
n=$(count_upcalls)
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$PGPK_DATA/k/truncated.pgp"
pgpk_wait_upcalls $((n + 1)) "helper log lines (garbage)"

# Text: no parser's format, refused without an upcall.
expect_fail EBADMSG keyctl padd asymmetric "" @s <"$PGPK_DATA/msg.txt"
sleep 0.5
assert_eq $((n + 1)) "$(count_upcalls)" "helper log lines (text)"

# User space may neither request nor make a key of type pgpk.
n=$(count_upcalls)
for d in "key:0123456789abcdef0123456789abcdef" \
	"key:$(pgpk_sha256 "$PGPK_DATA/rsa2048.pgp"):" \
	"key:$(pgpk_sha256 "$PGPK_DATA/rsa2048.pgp")" garbage; do
	expect_fail EPERM keyctl prequest2 pgpk "$d" @s <"$PGPK_DATA/rsa2048.pgp"
	# without callout data: a search only, nothing constructed
	expect_fail ENOKEY keyctl request pgpk "$d"
done
expect_fail EPERM keyctl padd pgpk "key:0123456789abcdef0123456789abcdef" @s \
	<"$PGPK_DATA/k/rsa2048.pgpk"
sleep 0.5
assert_eq "$n" "$(count_upcalls)" "helper log lines (user requests)"
exit 0
