#!/bin/bash
# pgpk-ima-setup's messages when modprobe pgpk fails, run with only the
# commands a Debian initramfs without busybox has (minbase: klibc's
# utilities, kmod's modprobe, and what policy/ima's hook copies), in a
# private mount namespace whose /sys/kernel/security is a tmpfs with
# IMA's policy file and the lockdown state of each case.  keyctl,
# setfattr and modprobe are stubs: modprobe pgpk fails as a refused
# signature does (in the initramfs it prints nothing, tests/system/
# README.md); modprobe -D names the module file, or nothing for a kernel
# DKMS did not build pgpk for.
#
#   locked down (integrity)  -> "the kernel refused FILE (Secure Boot: ...)"
#   not locked down          -> "the kernel refused FILE (its log says why)"
#   no module                -> "no pgpk module for KERNEL (is pgpk-dkms built for it?)"
#
# Each: exit status 1, that one line on stderr and nothing else (no
# "find: not found"), and _ima unlinked again.  tests/system's
# sb-unenrolled/ima is the same on a real Secure Boot boot.
# PGPK_IMA_SETUP=FILE tests another version of the script.
. "$(dirname "$0")/lib.sh"
setup=${PGPK_IMA_SETUP:-$root/policy/ima/pgpk-ima-setup}
us=$(command -v unshare)
if [ "$(id -u)" -ne 0 ] || [ -z "$us" ] ||
	[ ! -d /sys/kernel/security ]; then
	skip "needs root, unshare and /sys/kernel/security (a private tmpfs goes over it)"
fi
host_tmp

# the initramfs' commands that are harmless here (klibc-utils' hook:
# cat ls mkdir mount umount uname sleep true false ...; the pgpk-ima
# hook: mktemp chown rmdir); keyctl, setfattr, modprobe as stubs
bin=$tmp/bin
mkdir -p "$bin" "$tmp/keys"
for c in cat ls mkdir mount umount uname sleep true false mktemp chown rmdir; do
	p=$(command -v "$c") || die "no $c on this host"
	ln -s "$p" "$bin/$c"
done
cat >"$bin/keyctl" <<EOF
#!/bin/sh
echo "keyctl \$*" >>"$tmp/keyctl.log"
case "\$1" in newring) echo 123 ;; esac
EOF
: >"$bin/setfattr"
# As kmod's modprobe with pgpk-anchors' modprobe.d "install" line
# (policy/anchors/modprobe.conf, which the initramfs copies): -D shows
# that line, module or none; with --ignore-install, the module's insmod,
# or nothing (exit 0) where only the install line names pgpk.
cat >"$bin/modprobe" <<'EOF'
#!/bin/sh
[ "$1" = -D ] || exit 1
if [ "$2" != --ignore-install ]; then
	echo 'install /sbin/modprobe --ignore-install pgpk $CMDLINE_OPTS && { [ ! -x /usr/sbin/pgpk-anchors ] || /usr/sbin/pgpk-anchors; } '
	exit 0
fi
[ -n "$STUB_MODULE" ] || exit 0
echo "insmod $STUB_MODULE upcall_timeout=30 "
EOF
chmod +x "$bin"/keyctl "$bin"/setfattr "$bin"/modprobe
: >"$tmp/keys/ima.pgpk"
kver=$(uname -r)
mod=/lib/modules/$kver/updates/dkms/pgpk.ko.xz

# run NAME LOCKDOWN MODULE WANT
# shellcheck disable=SC2016
run() {
	: >"$tmp/keyctl.log"
	STUB_MODULE=$3 PATH=$bin "$us" -m --propagation private /bin/sh -c '
		mount -t tmpfs none /sys/kernel/security || exit 99
		mkdir /sys/kernel/security/ima
		: >/sys/kernel/security/ima/policy
		echo "$1" >/sys/kernel/security/lockdown
		exec /bin/sh "$2" --keys "$3"' _ "$2" "$setup" "$tmp/keys" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	err=$(cat "$tmp/err")
	want="pgpk-ima-setup: modprobe pgpk failed: $4; the IMA policy was not loaded: nothing is appraised this boot"
	if [ "$rc" -eq 1 ] && [ "$err" = "$want" ] &&
		grep -q '^keyctl unlink 123 @u$' "$tmp/keyctl.log"; then
		ok "$1: $err"
	else
		fail "$1: exit $rc, stderr: $(tr '\n' ';' <"$tmp/err"), _ima unlinked: $(grep -c unlink "$tmp/keyctl.log"); want: $want"
	fi
}

run locked-down "none [integrity] confidentiality" "$mod" \
	"the kernel refused $mod (Secure Boot: is DKMS's key enrolled? mokutil --test-key /var/lib/dkms/mok.pub)"
run confidentiality "none integrity [confidentiality]" "$mod" \
	"the kernel refused $mod (Secure Boot: is DKMS's key enrolled? mokutil --test-key /var/lib/dkms/mok.pub)"
run not-locked-down "[none] integrity confidentiality" "$mod" \
	"the kernel refused $mod (its log says why)"
run no-module "none [integrity] confidentiality" "" \
	"no pgpk module for $kver (is pgpk-dkms built for it?)"

host_end
