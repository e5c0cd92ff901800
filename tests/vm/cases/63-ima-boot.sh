#!/bin/sh
# The boot-time setup (policy/ima/pgpk-ima-setup, run by the VM's init
# before any case, as a real system's initramfs runs it) holds: a user who
# creates his own _ima afterwards, with his own key in it, does not get his
# signed files appraised as good, and the administrator's signed files
# still read.  (Without the setup, the first _ima IMA finds wins, whoever
# made it: SECURITY.md.)  Control: the user's file and key are sound,
# root's _ima with his key in it accepts the file.
. /pgpk/lib.sh
. /pgpk/tools/pgpk-ima.sh
pgpk_need_module
pgpk_need_data ima/a-i.pgpk ima/b-j.pgpk ima/other-key.ima ima/good-sha256.ima
pgpk_load
ima_ring
assert_contains "$(keyctl rdescribe "$IMA_RING")" "keyring;0;0;" "_ima is root's"

expect_ok keyctl padd asymmetric "" "$IMA_RING" <"$I/a-i.pgpk"
ima_file good-sha256
good=$IMA_FILE
ima_file other-key
his=$IMA_FILE
chmod 755 "$IMA_DIR"

# The initramfs root comes from mktemp -d (mode 0700): let nobody in.
chmod 0755 /
# as_nobody CMD: CMD in a new session of nobody's
as_nobody() {
	pgpk_run su -s /bin/sh nobody -c "keyctl session - sh -c '$1'"
}
pgpk_kmsg_mark
if as_nobody "r=\$(keyctl newring _ima @s) &&
	keyctl padd asymmetric \"\" \$r <$I/b-j.pgpk &&
	keyctl search @s keyring _ima && cat $his"; then
	pgpk_fail "nobody's own _ima appraised his file"
fi
assert_contains "$PGPK_OUT" "Permission denied" "nobody's read of his file"
assert_not_contains "$PGPK_OUT" "$(cat "$I/other-key")" "nobody's read"
sleep 0.5	# kauditd
pgpk_kmsg_since | grep " uid=65534 .*op=appraise_data cause=invalid-signature" ||
	pgpk_fail "no audit record of nobody's refused read"
as_nobody "keyctl newring _ima @s >/dev/null && cat $good" ||
	pgpk_fail "nobody cannot read the administrator's signed file"
assert_contains "$PGPK_OUT" "$(cat "$I/good-sha256")" "nobody's read of the good file"

# control: the same file is good under J, in root's _ima
expect_ok keyctl padd asymmetric "" "$IMA_RING" <"$I/b-j.pgpk"
ima_reads other-key-control other-key

# the setup is once per boot: run again, it refuses before touching
# anything (IMA takes one policy; no second _ima is made)
if pgpk_run pgpk-ima-setup --policy /etc/pgpk/ima/policy; then
	pgpk_fail "pgpk-ima-setup ran twice"
fi
assert_contains "$PGPK_OUT" "a policy was loaded already this boot" "second run"
assert_eq "$IMA_RING" "$(keyctl search @u keyring _ima)" "root's _ima"
