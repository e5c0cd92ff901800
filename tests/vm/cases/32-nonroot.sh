#!/bin/sh
# An unprivileged user (nobody) adds an OpenPGP key through the upcall
# and a canonical key; root adding the same blob makes an upcall of its
# own (nothing nobody did is served to root).  Nobody, root included, can
# plant an answer with add_key("pgpk") (EPERM: only the helper answers,
# through the module's own request), and nobody but root writes .pgpk
# (EACCES).
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb2.pgp k/deb2.fpr k/deb3.pgpk k/deb3.fpr \
	k/rsa2048.pgpk
pgpk_load

# The initramfs root comes from mktemp -d (mode 0700): let nobody in.
chmod 0755 /
# as_nobody CMD: run CMD (a shell command line) as nobody, new session.
as_nobody() {
	pgpk_run su -s /bin/sh nobody -c "keyctl session - sh -c '$1'"
}

sleep 0.5
up=$(count_upcalls)
as_nobody "keyctl padd asymmetric \"\" @s <$K/deb2.pgp &&
	keyctl search @s asymmetric id:$(cat "$K/deb2.fpr")" ||
	pgpk_fail "nobody could not add an OpenPGP key"
pgpk_wait_upcalls $((up + 1)) "upcalls after nobody's add"
expect_ok keyctl padd asymmetric "" @s <"$K/deb2.pgp"
pgpk_wait_upcalls $((up + 2)) "upcalls after root's add"

as_nobody "keyctl padd asymmetric \"\" @s <$K/deb3.pgpk &&
	keyctl search @s asymmetric id:$(cat "$K/deb3.fpr")" ||
	pgpk_fail "nobody could not add a canonical key"

desc="key:$(printf '%032d' 0)"
expect_fail EPERM keyctl padd pgpk "$desc" @s <"$K/rsa2048.pgpk"
if as_nobody "keyctl padd pgpk $desc @s <$K/rsa2048.pgpk"; then
	pgpk_fail "nobody planted an upcall answer"
fi
assert_contains "$PGPK_OUT" "$(pgpk_errno_text EPERM)" "nobody's add_key pgpk"

for name in .pgpk; do
	ring=$(awk -v n="$name:" '$9 == n && $2 !~ /R/ { print $1 }' \
		/proc/keys | tail -n 1)
	[ -n "$ring" ] || pgpk_fail "no $name keyring in /proc/keys"
	if as_nobody "keyctl padd asymmetric \"\" $((0x$ring)) <$K/deb3.pgpk"
	then
		pgpk_fail "nobody wrote to $name"
	fi
	assert_contains "$PGPK_OUT" "$(pgpk_errno_text EACCES)" \
		"nobody's add to $name"
done
exit 0
