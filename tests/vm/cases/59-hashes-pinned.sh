#!/bin/sh
# The hashes are allocated once, when the module loads (review findings
# 1 and 2): no add_key and no verification asks for a module
# (a modprobe under the keys locks, or on an I/O path), and a hash the
# kernel does not have is ENOPKG, never a crash (the old per-call
# allocation zeroed an ERR_PTR tfm: an Oops for any user's add_key).
#  - while pgpk is loaded, sha512_generic (a module on 6.1) is in use;
#  - adds and verifications with SHA-256/384/512 call no modprobe (the
#    modprobe path points at a script that logs its calls);
#  - pgpk loaded without sha512_generic: nobody's key whose certification
#    is SHA-512 is ENOPKG, a SHA-256 one still loads.
# On kernels with SHA-512 built in, the last two parts skip.
. /pgpk/lib.sh
K=$PGPK_DATA/k
F=$PGPK_DATA/f
pgpk_need_module
pgpk_need_data k/rsa3072.pgpk k/rsa2048.pgpk k/msg.sha512.pgpks f/t.pgpk \
	f/doc.sha256.pgpks
pgpk_load
chmod 0755 /

mp=/proc/sys/kernel/modprobe
saved=$(cat $mp)
printf '#!/bin/sh\necho "$*" >>/tmp/59-modprobe.log\nexit 1\n' >/tmp/59-modprobe
chmod 0755 /tmp/59-modprobe
: >/tmp/59-modprobe.log
mod=$(find /lib/modules/"$(uname -r)" -name 'sha512_generic.ko*' | head -n 1)
# restore: the modprobe path, and sha512_generic under a reloaded pgpk.
restore() {
	echo "$saved" >$mp
	if [ -n "$mod" ] && ! grep -q '^sha512_generic ' /proc/modules; then
		keyctl clear @s
		pgpk_unload
		insmod "$mod" || echo "FAIL: insmod $mod"
		pgpk_load
	fi
}
trap restore EXIT
echo /tmp/59-modprobe >$mp

# Every hash, as nobody: keys with SHA-512 and SHA-256 certifications,
# documents signed with SHA-512 and SHA-256.
su -s /bin/sh nobody -c "keyctl session - sh -c '
	keyctl padd asymmetric \"\" @s <$K/rsa3072.pgpk &&
	keyctl padd asymmetric \"\" @s <$K/rsa2048.pgpk &&
	keyctl padd asymmetric \"\" @s <$F/t.pgpk &&
	keyctl padd pgpk_test a @s <$K/msg.sha512.pgpks &&
	keyctl padd pgpk_test b @s <$F/doc.sha256.pgpks'" >/tmp/59.out 2>&1 ||
	pgpk_fail "nobody's adds failed: $(cat /tmp/59.out)"
assert_eq "" "$(cat /tmp/59-modprobe.log)" "modprobe calls"

if [ -z "$mod" ] || ! grep -q '^sha512_generic ' /proc/modules; then
	echo "note: sha512_generic is not a module here (built in)"
	exit 0
fi
rmmod sha512_generic 2>/dev/null &&
	pgpk_fail "sha512_generic removed while pgpk holds SHA-384/512"
echo "ok: sha512_generic in use while pgpk is loaded"

# Without it: SHA-512 is ENOPKG for nobody, no crash; SHA-256 works.
pgpk_unload
expect_ok rmmod sha512_generic
pgpk_load
# (the module's init asked for SHA-384/512, in vain: root's insmod may)
cat /tmp/59-modprobe.log
: >/tmp/59-modprobe.log
pgpk_run su -s /bin/sh nobody -c "keyctl session - keyctl padd asymmetric \
	'' @s <$K/rsa3072.pgpk" && pgpk_fail "a SHA-512 certification loaded"
assert_contains "$PGPK_OUT" "$(pgpk_errno_text ENOPKG)" "SHA-512 key"
expect_ok keyctl padd asymmetric "" @s <"$F/t.pgpk"
expect_ok keyctl padd pgpk_test b @s <"$F/doc.sha256.pgpks"
assert_eq "" "$(cat /tmp/59-modprobe.log)" "modprobe calls"
exit 0
