#!/bin/bash
# The Debian packages, proven on a real Debian system: build pgpk-dkms and
# pgpk-helper from a clean export of HEAD (dpkg-buildpackage, offline: no
# network namespace), install them with apt into a Debian root file system
# made by mmdebstrap (systemd, keyutils, kmod, dkms, Debian's kernel and
# its headers: DKMS builds the module there), boot that system in qemu
# (TCG) with its own kernel, initramfs and systemd as init, and run
# tests/system/check.sh in it as a systemd service: the module loaded at
# boot, an OpenPGP key through the real /sbin/request-key and the packaged
# /etc/request-key.d/pgpk.conf, the helper's line in the journal,
# pgpk-helper --selftest, a policy change taking effect at the next
# upcall, and apt purge leaving nothing (module for every kernel, helper,
# conffile, DKMS tree).
#
# usage: tests/system/run.sh [--release bookworm|trixie] [--debs DIR]
#   --release  the Debian release of the system (default bookworm);
#              trixie boots trixie's kernel
#   --debs DIR use DIR's pgpk-dkms_*.deb and pgpk-helper_*.deb instead of
#              building them
#
# Prints "PASS: system-<release>/<check>" / "FAIL: ..." per check, then
# "N passed, N failed".  Exit status 0 iff nothing failed.
#
# The base system (before pgpk) is cached as a tarball in
# ${XDG_CACHE_HOME:-~/.cache}/pgpk/system/<release>.tar
# (PGPK_SYSTEM_REFRESH=1 makes it again).  Everything else lands in
# tests/system/out/ (console.log, build and install logs, the disk image).
# Needs root (chroot, loop-free mkfs.ext4 -d), mmdebstrap, qemu-system-x86,
# e2fsprogs and the package build dependencies (apt-get build-dep ./).
#
# environment: PGPK_SYSTEM_TIMEOUT  limit for the VM run, seconds (900)
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${PGPK_SYSTEM_OUT:-$here/out}
release=bookworm
debs=""
while [ $# -gt 0 ]; do
	case "$1" in
	--release | --debs)
		[ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
		if [ "$1" = --release ]; then release=$2; else debs=$2; fi
		shift
		;;
	*)
		echo "usage: tests/system/run.sh [--release bookworm|trixie] [--debs DIR]" >&2
		exit 2
		;;
	esac
	shift
done
case "$release" in
bookworm | trixie) ;;
*) echo "run.sh: unknown release $release (bookworm, trixie)" >&2; exit 2 ;;
esac
cache=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/pgpk/system
prefix=system-$release
npass=0 nfail=0
t0=$(date +%s)

log() { echo "system: $* (+$(($(date +%s) - t0))s)" >&2; }
result() {
	case "$1" in
	PASS) npass=$((npass + 1)) ;;
	FAIL) nfail=$((nfail + 1)) ;;
	esac
	echo "$1: $prefix/$2${3:+ ($3)}"
}
finish() {
	log "done in $(($(date +%s) - t0))s"
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
}
# die CHECK REASON [LOG]: a step everything after depends on failed.
die() {
	[ -n "${3:-}" ] && tail -n 25 "$3" | sed 's/^/    /'
	result FAIL "$1" "$2"
	finish
}

[ "$(id -u)" -eq 0 ] || die setup "needs root (chroot, mkfs.ext4 -d)"
for tool in mmdebstrap qemu-system-x86_64 mkfs.ext4 dpkg-buildpackage; do
	command -v "$tool" >/dev/null ||
		die setup "$tool not found (apt-get install mmdebstrap qemu-system-x86 e2fsprogs dpkg-dev)"
done
rm -rf "$out"
mkdir -p "$out" "$cache" || die setup "cannot create $out and $cache"

# --- 1. the packages, from a clean export, without network ---
if [ -z "$debs" ]; then
	log "dpkg-buildpackage -us -uc -b (clean export of HEAD, no network)"
	mkdir -p "$out/src"
	git -C "$root" archive --format=tar HEAD | tar -x -C "$out/src" ||
		die deb-build "git archive HEAD failed"
	tb=$(date +%s)
	if (cd "$out/src" && unshare -n dpkg-buildpackage -us -uc -b) \
		>"$out/dpkg-buildpackage.log" 2>&1; then
		result PASS deb-build "offline, $(($(date +%s) - tb))s"
	else
		die deb-build "see $out/dpkg-buildpackage.log" \
			"$out/dpkg-buildpackage.log"
	fi
	debs=$out
fi
dkms_deb=$(find "$debs" -maxdepth 1 -name 'pgpk-dkms_*_all.deb' | sort -V |
	tail -n 1)
helper_deb=$(find "$debs" -maxdepth 1 -name 'pgpk-helper_*_amd64.deb' |
	sort -V | tail -n 1)
if [ -z "$dkms_deb" ] || [ -z "$helper_deb" ]; then
	die deb-build "no pgpk-dkms_*_all.deb and pgpk-helper_*_amd64.deb in $debs"
fi

# --- 2. the base system (cached) ---
mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/* *$/\1/p' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}
security=$(sed -n 's/^URIs: *\(http[^ ]*\/debian-security\)\/* *$/\1/p' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
security=${security:-http://deb.debian.org/debian-security}
# systemd as init, journald, the real request-key (keyutils), kmod, DKMS
# and Debian's kernel with its headers; initramfs-tools for the boot.
pkgs="systemd,systemd-sysv,udev,keyutils,kmod,dkms,linux-image-amd64"
pkgs="$pkgs,linux-headers-amd64,initramfs-tools,debian-archive-keyring"
extra=()
if [ "$release" = trixie ]; then
	# A second kernel, from trixie-backports (the newest supported
	# series, tests/vm/kernels.sh): DKMS must build for both, and purge
	# remove both.
	# shellcheck source=tests/vm/kernels.sh
	. "$root/tests/vm/kernels.sh"
	k2=$(pgpk_kernel_resolve 7.3) || die base-system "no 7.3 kernel in trixie-backports"
	pkgs="$pkgs,linux-image-$k2,linux-headers-$k2,linux-base/trixie-backports"
	extra=("deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie-backports main")
fi
base=$cache/$release.tar
if [ -n "${PGPK_SYSTEM_REFRESH:-}" ] || [ ! -f "$base" ]; then
	log "mmdebstrap $release (once; cached in $base)"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	if ! mmdebstrap --variant=minbase --include="$pkgs" \
		"$release" "$base.new.tar" \
		"deb [signed-by=$key] $mirror $release main" \
		"deb [signed-by=$key] $mirror $release-updates main" \
		"deb [signed-by=$key] $security $release-security main" \
		"${extra[@]}" \
		>"$out/mmdebstrap.log" 2>&1; then
		rm -f "$base.new.tar"
		die base-system "mmdebstrap failed" "$out/mmdebstrap.log"
	fi
	mv "$base.new.tar" "$base"
fi
sysroot=$out/root
mkdir -p "$sysroot"
tar -x -p --xattrs --numeric-owner -f "$base" -C "$sysroot" ||
	die base-system "cannot unpack $base"

# in_root CMD...: run CMD in the system, /proc, /sys and /dev mounted
# (DKMS's build needs them), in a private mount namespace.
# shellcheck disable=SC2016
in_root() {
	unshare -m --propagation private bash -c '
		set -e
		r=$1
		shift
		mount -t proc proc "$r/proc"
		mount -t sysfs sys "$r/sys"
		mount --rbind /dev "$r/dev"
		exec chroot "$r" "$@"' _ "$sysroot" "$@"
}

# --- 3. install the packages with apt (DKMS builds the module) ---
mkdir -p "$sysroot/root/debs"
cp "$dkms_deb" "$helper_deb" "$sysroot/root/debs/" || die install "cp"
log "apt-get update; apt-get install ./pgpk-dkms ./pgpk-helper in the $release system"
# The base system has no package lists (mmdebstrap removes them): the
# helper's libraries come from the archive, as on any system.
in_root apt-get update >"$out/install.log" 2>&1 ||
	die apt-install "apt-get update failed" "$out/install.log"
if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--no-install-recommends "/root/debs/${dkms_deb##*/}" \
	"/root/debs/${helper_deb##*/}" >>"$out/install.log" 2>&1; then
	result PASS apt-install
else
	die apt-install "see $out/install.log" "$out/install.log"
fi
kvers=$(ls "$sysroot/lib/modules")
# pgpk.ko, or pgpk.ko.xz where DKMS compresses modules (Debian 13).
for k in $kvers; do
	ko=$(find "$sysroot/lib/modules/$k/updates/dkms" -name 'pgpk.ko*' \
		2>/dev/null | head -n 1)
	if [ -n "$ko" ]; then
		result PASS "dkms-built/$k" "${ko#"$sysroot"}"
	else
		result FAIL "dkms-built/$k" "no /lib/modules/$k/updates/dkms/pgpk.ko*"
	fi
done

# --- 4. the system boots to check.sh (a systemd service) ---
install -m 755 "$here/check.sh" "$sysroot/usr/local/sbin/pgpk-system-check"
cat >"$sysroot/etc/systemd/system/pgpk-system-check.service" <<'EOF'
[Unit]
Description=pgpk system check (tests/system/check.sh)
After=multi-user.target systemd-journald.service
Wants=multi-user.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/pgpk-system-check
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
ExecStopPost=/bin/systemctl --no-block poweroff
EOF
ln -sf /etc/systemd/system/pgpk-system-check.service \
	"$sysroot/etc/systemd/system/multi-user.target.wants/pgpk-system-check.service"
# The console is the check's: no login prompt there.
ln -sf /dev/null "$sysroot/etc/systemd/system/serial-getty@ttyS0.service"
echo "pgpk-$release" >"$sysroot/etc/hostname"
echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" >"$sysroot/etc/fstab"

kver=$(find "$sysroot/boot" -maxdepth 1 -name 'vmlinuz-*' |
	sed 's|.*/vmlinuz-||' | sort -V | tail -n 1)
if [ -z "$kver" ] || [ ! -f "$sysroot/boot/initrd.img-$kver" ]; then
	die boot "no /boot/vmlinuz-<ver> with its initrd.img in the system"
fi
cp "$sysroot/boot/vmlinuz-$kver" "$sysroot/boot/initrd.img-$kver" "$out/"
log "disk image (mkfs.ext4 -d)"
rm -f "$out/disk.img"
mkfs.ext4 -q -F -L pgpk-root -d "$sysroot" "$out/disk.img" 4G \
	>"$out/mkfs.log" 2>&1 || die boot "mkfs.ext4 failed" "$out/mkfs.log"
rm -rf "$sysroot"

timeout_s=${PGPK_SYSTEM_TIMEOUT:-900}
log "booting $release ($kver) under qemu TCG (limit ${timeout_s}s)"
tb=$(date +%s)
timeout -k 5 "$timeout_s" qemu-system-x86_64 -accel tcg -cpu max -smp 1 \
	-m 1024 -nographic -no-reboot \
	-kernel "$out/vmlinuz-$kver" -initrd "$out/initrd.img-$kver" \
	-append "root=/dev/vda rw console=ttyS0 panic=-1" \
	-drive "file=$out/disk.img,format=raw,if=virtio" \
	</dev/null >"$out/console.log" 2>&1
qrc=$?
tr -d '\r' <"$out/console.log" >"$out/console.txt" &&
	mv "$out/console.txt" "$out/console.log"
log "VM ran $(($(date +%s) - tb))s (qemu exit $qrc); console: $out/console.log"
n=0
while IFS= read -r line; do
	case "$line" in
	"PGPK-SYSTEM PASS "* | "PGPK-SYSTEM FAIL "*)
		n=$((n + 1))
		v=${line#PGPK-SYSTEM }
		rest=${v#* }
		name=${rest%% (*}
		detail=""
		[ "$name" != "$rest" ] && detail=${rest#* (} && detail=${detail%)}
		result "${v%% *}" "$name" "$detail"
		;;
	esac
done < <(grep -a '^PGPK-SYSTEM ' "$out/console.log")
if ! grep -a -q '^PGPK-SYSTEM-DONE' "$out/console.log"; then
	tail -n 30 "$out/console.log" | sed 's/^/    /'
	result FAIL boot "check.sh did not finish ($n results; qemu exit $qrc)"
fi
finish
