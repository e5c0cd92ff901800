#!/bin/sh
# A helper that lies is refused by the binding, with a log line saying
# which check failed: another key's canonical blob (the key packet is not
# there), the right key with a changed user ID, an answer without offsets
# (offset 0, where no packet body can be), a subkey (an answer is the
# certificate's primary key: refused before its packet is looked for),
# and a key whose packet the submitter
# embedded in a user ID: its octets are in the submitted bytes, but not
# as a packet (the kernel walks the packet framing; the old module's
# header check accepted it).  Each is asked anew: nothing is cached.  The
# fake helper serves answers prepared on the host (k/liar/, named by the
# SHA-256 of the submitted bytes) through its own request-key
# configuration, restored afterwards.  Signatures never reach a helper:
# pgpk_test takes canonical blobs only.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_data k/fake-helper.sh k/deb1.pgp k/certified.pgp rsa3072.pgp \
	rsa2048.pgp k/embedded.pgp msg.rsa3072.gpg
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
lie "$K/deb1.pgp" "binding: key packet not where the helper said" \
	"another key" "$K/deb1.fpr"
lie "$PGPK_DATA/rsa3072.pgp" "binding: user ID packet not where" \
	"changed user ID" "$PGPK_DATA/rsa3072.fpr"
lie "$K/certified.pgp" "binding: key packet not where" "no offsets" \
	"$PGPK_DATA/rsa2048.fpr"
lie "$PGPK_DATA/rsa2048.pgp" "binding: primary key (a subkey was answered)" \
	"a subkey (an answer is the certificate's primary key)" \
	"$PGPK_DATA/rsa2048-sub.fpr"
lie "$K/embedded.pgp" "binding: key packet not where" \
	"a key packet inside a user ID" "$PGPK_DATA/rsa3072.fpr"

# Nothing is cached: the same lie is asked for, and refused, again.
up=$(count_upcalls)
expect_fail EKEYREJECTED keyctl padd asymmetric "" @s <"$K/deb1.pgp"
sleep 0.5
assert_eq $((up + 1)) "$(count_upcalls)" "upcalls for a repeated lie"

# OpenPGP signatures never reach a helper: the kernel takes canonical
# signatures only.
pgpk_kmsg_mark
expect_fail EBADMSG keyctl padd pgpk_test other @s \
	<"$PGPK_DATA/msg.rsa3072.gpg"
exit 0
