#!/bin/sh
# A helper that lies is refused by the binding check, with a log line
# saying which check failed: another key's canonical blob (key packet
# differs), the right key with a changed user ID, an answer without
# offsets (offset 0, where no packet body can be), a subkey although none
# was selected; for a signature, another
# message's valid signature.  The fake helper serves
# answers prepared on the host (k/liar/) through its own request-key
# configuration, restored afterwards.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/fake-helper.sh k/deb1.pgp k/certified.pgp rsa3072.pgp \
	rsa2048.asc k/rsa2048.pgpk msg.rsa3072.gpg
pgpk_load

pgpk_fake_helper "$K/liar"

lie() {
	echo "=== $1: $3"
	pgpk_kmsg_mark
	expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$1"
	log=$(pgpk_kmsg_since)
	echo "$log"
	assert_contains "$log" "$2" "kernel log"
	expect_fail ENOKEY keyctl search @s asymmetric "id:$(cat "$4")"
}
lie "$K/deb1.pgp" "binding: key packet at offset" "another key" \
	"$K/deb1.fpr"
lie "$PGPK_DATA/rsa3072.pgp" "binding: user ID packet at offset" \
	"changed user ID" "$PGPK_DATA/rsa3072.fpr"
lie "$K/certified.pgp" "binding: key packet at offset 0" "no offsets" \
	"$PGPK_DATA/rsa2048.fpr"
lie "$PGPK_DATA/rsa2048.asc" "binding: answer is a subkey" \
	"unselected subkey" "$PGPK_DATA/rsa2048-sub.fpr"

# A signature request answered with another valid signature by a key the
# caller trusts: without the binding it would verify.
expect_ok keyctl padd asymmetric "" @s <"$K/rsa2048.pgpk"
pgpk_kmsg_mark
expect_fail EKEYREJECTED keyctl padd pgpk_test other @s \
	<"$PGPK_DATA/msg.rsa3072.gpg"
assert_contains "$(pgpk_kmsg_since)" \
	"binding: signature value not in the submitted bytes" "kernel log"

# The helper's (lying) answer stays cached: the kernel refuses it again
# without a second upcall.
up=$(count_upcalls)
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$K/deb1.pgp"
sleep 0.5
assert_eq "$up" "$(count_upcalls)" "upcalls for a cached lie"
keyctl clear "$PGPK_CACHE"
exit 0
