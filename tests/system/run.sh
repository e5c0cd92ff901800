#!/bin/bash
# The Debian packages, proven on a real Debian system: build pgpk-dkms and
# pgpk-helper from a clean export of HEAD (dpkg-buildpackage, offline: no
# network namespace), install them with apt into a Debian root file system
# made by mmdebstrap (systemd, keyutils, kmod, dkms, Debian's kernel and
# its headers: DKMS builds the module there), install a newer kernel from
# <release>-backports with apt (DKMS's hook builds pgpk for it), boot
# that system in qemu (TCG) with its own kernels, initramfs and systemd
# as init, up to three times, and run tests/system/check.sh in it as a
# systemd service each time: the module loaded at boot, an OpenPGP key
# through the real /sbin/request-key and the packaged
# /etc/request-key.d/pgpk.conf, the helper's line in the journal,
# pgpk-helper --selftest, a policy change taking effect at the next
# upcall; trust anchors loaded into ".pgpk" at boot and locked
# (anchors-at-boot); the new kernel booted with DKMS's module
# (dkms-new-kernel); and apt purge leaving nothing (module for every
# kernel, helper, conffiles, DKMS tree).  tests/system/README.md lists
# the checks.
#
# usage: tests/system/run.sh [--release bookworm|trixie] [--debs DIR]
#                            [--upgrade-from COMMIT] [--build-in-system]
#                            [--secure-boot]
#   --release  the Debian release of the system (default bookworm)
#   --debs DIR use DIR's pgpk-dkms_*.deb and pgpk-helper_*.deb instead of
#              building them
#   --build-in-system  build the packages inside the release's own base
#              system (a chroot from the cached tarball, Build-Depends
#              installed there by apt), not on the host
#   --upgrade-from COMMIT  first install the packages built from COMMIT
#              (as version 0.0+git<commit>), edit the conffile, then
#              upgrade to the current ones (upgrade/* checks)
#   --secure-boot  boot with UEFI Secure Boot (OVMF's Secure Boot firmware,
#              Microsoft's keys; Debian's signed shim, GRUB and kernel):
#              first before DKMS's key is enrolled (sb-unenrolled/*), then
#              mokutil --import and MokManager answered on the serial
#              console (mokmanager.py), then every boot with the key
#              enrolled (sb/* checks besides the others).  Needs ovmf,
#              mtools, dosfstools, fdisk.
#
# Prints "PASS: system-<release>/<check>" / "FAIL: ..." per check, then
# "N passed, N failed".  Exit status 0 iff nothing failed.
#
# The base system (before pgpk) is cached as a tarball in
# ${XDG_CACHE_HOME:-~/.cache}/pgpk/system/<release>.tar
# (PGPK_SYSTEM_REFRESH=1 makes it again), the new kernel's packages in
# .../system/archives-<release>/.  Everything else lands in
# tests/system/out/ (console-N.log per boot, console.log, build and
# install logs, the disk image).
# Needs root (chroot, loop-free mkfs.ext4 -d), mmdebstrap, qemu-system-x86,
# e2fsprogs, gnupg and the package build dependencies (apt-get build-dep ./).
#
# environment: PGPK_SYSTEM_TIMEOUT  limit for each boot, seconds (900)
#              PGPK_SYSTEM_BREAK    break something on purpose (step 4)
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${PGPK_SYSTEM_OUT:-$here/out}
release=bookworm
debs=""
upgrade_from=""
build_in_system=""
sb=""
while [ $# -gt 0 ]; do
	case "$1" in
	--release | --debs | --upgrade-from)
		[ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
		case "$1" in
		--release) release=$2 ;;
		--debs) debs=$2 ;;
		*) upgrade_from=$2 ;;
		esac
		shift
		;;
	--build-in-system) build_in_system=1 ;;
	--secure-boot) sb=1 ;;
	*)
		echo "usage: tests/system/run.sh [--release bookworm|trixie] [--debs DIR] [--upgrade-from COMMIT] [--build-in-system] [--secure-boot]" >&2
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
prefix=system-$release${sb:+-sb}
npass=0 nfail=0
t0=$(date +%s)
brk=" ${PGPK_SYSTEM_BREAK:-} "

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
ovmf=/usr/share/OVMF
if [ -n "$sb" ]; then
	for tool in mkfs.vfat mcopy sfdisk python3; do
		command -v "$tool" >/dev/null ||
			die setup "--secure-boot: $tool not found (apt-get install ovmf mtools dosfstools fdisk python3)"
	done
	for f in OVMF_CODE_4M.secboot.fd OVMF_VARS_4M.ms.fd OVMF_VARS_4M.fd; do
		[ -f "$ovmf/$f" ] ||
			die setup "--secure-boot: no $ovmf/$f (apt-get install ovmf)"
	done
fi
rm -rf "$out"
mkdir -p "$out" "$cache" || die setup "cannot create $out and $cache"

# --- 1. the packages, from a clean export, without network ---
# On the host, or (--build-in-system) in a copy of the release's base
# system: the cached tarball of step 2 unpacked in $out/build-root, the
# export in its /build/src, debian/control's Build-Depends installed there
# by apt (apt-get build-dep, with network; their packages kept in
# $cache/build-archives-$release for the next run), then
# dpkg-buildpackage in a network namespace of its own (unshare -n), as on
# the host.  PGPK_SYSTEM_BREAK=build-dep removes libssl-dev from the build
# root after that (dpkg --force-depends): deb-build must fail.
# chroot_in ROOT [-n] CMD...: CMD in ROOT, /proc, /sys and /dev mounted
# (DKMS's build needs them), in a private mount namespace; -n: no
# network either.
# shellcheck disable=SC2016
chroot_in() {
	local r=$1 net=()
	shift
	[ "$1" = -n ] && net=(-n) && shift
	unshare -m "${net[@]}" --propagation private bash -c '
		set -e
		r=$1
		shift
		mount -t proc proc "$r/proc"
		mount -t sysfs sys "$r/sys"
		mount --rbind /dev "$r/dev"
		exec chroot "$r" "$@"' _ "$r" "$@"
}
# in_build_root [-n] CMD...: in $out/build-root
in_build_root() { chroot_in "$out/build-root" "$@"; }
if [ -z "$debs" ]; then
	src=$out/src
	where=""
	blog=$out/dpkg-buildpackage.log
	if [ -n "$build_in_system" ]; then
		br=$out/build-root
		src=$br/build/src
		barch=$cache/build-archives-$release
		[ -f "$cache/$release.tar" ] ||
			die deb-build "no base system $cache/$release.tar yet (run once without --build-in-system)"
		mkdir -p "$br" "$barch"
		tar -x -p --xattrs --numeric-owner -f "$cache/$release.tar" \
			-C "$br" || die deb-build "cannot unpack $cache/$release.tar"
	fi
	mkdir -p "$src"
	git -C "$root" archive --format=tar HEAD | tar -x -C "$src" ||
		die deb-build "git archive HEAD failed"
	if [ -n "$build_in_system" ]; then
		log "apt-get build-dep in the $release build root ($br)"
		tb=$(date +%s)
		cp -n "$barch"/*.deb "$br/var/cache/apt/archives/" 2>/dev/null
		if in_build_root apt-get update >"$out/build-dep.log" 2>&1 &&
			in_build_root env DEBIAN_FRONTEND=noninteractive \
				apt-get build-dep -y --no-install-recommends /build/src \
				>>"$out/build-dep.log" 2>&1; then
			cp -n "$br"/var/cache/apt/archives/*.deb "$barch/" 2>/dev/null
			rm -f "$br"/var/cache/apt/archives/*.deb
		else
			die deb-build "apt-get build-dep in the $release system failed: see $out/build-dep.log" \
				"$out/build-dep.log"
		fi
		case " ${PGPK_SYSTEM_BREAK:-} " in
		*" build-dep "*)
			in_build_root dpkg --remove --force-depends libssl-dev \
				>>"$out/build-dep.log" 2>&1 ;;
		esac
		where="in the $release system (build-dep $(($(date +%s) - tb))s), "
		log "dpkg-buildpackage -us -uc -b in the $release system (clean export of HEAD, no network)"
		tb=$(date +%s)
		in_build_root -n sh -c 'cd /build/src && dpkg-buildpackage -us -uc -b' \
			>"$blog" 2>&1
		brc=$?
	else
		log "dpkg-buildpackage -us -uc -b (clean export of HEAD, no network)"
		tb=$(date +%s)
		(cd "$src" && unshare -n dpkg-buildpackage -us -uc -b) >"$blog" 2>&1
		brc=$?
	fi
	if [ "$brc" -eq 0 ]; then
		result PASS deb-build "${where}offline, $(($(date +%s) - tb))s"
	else
		die deb-build "${where}see $blog" "$blog"
	fi
	if [ -n "$build_in_system" ]; then
		cp "$br"/build/*.deb "$br"/build/*.buildinfo "$br"/build/*.changes \
			"$out/" || die deb-build "no packages in $br/build"
		rm -rf "$br"
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

# --- 1b. (--upgrade-from) the earlier packages, from COMMIT ---
# Versioned 0.0+git<commit> (debian/changelog and kernel/dkms.conf of the
# export rewritten), so that the current 0.1 is an upgrade; built with
# nocheck (that commit's tests ran when it was made).
if [ -n "$upgrade_from" ]; then
	old=$(git -C "$root" rev-parse --short "$upgrade_from^{commit}") ||
		die upgrade "no commit $upgrade_from"
	oldver=0.0+git$old
	log "dpkg-buildpackage of $old ($oldver, nocheck, no network)"
	mkdir -p "$out/old/src"
	git -C "$root" archive --format=tar "$old" | tar -x -C "$out/old/src" ||
		die upgrade "git archive $old failed"
	sed -i "1s/([^)]*)/($oldver)/" "$out/old/src/debian/changelog"
	sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$oldver\"/" \
		"$out/old/src/kernel/dkms.conf"
	tb=$(date +%s)
	if (cd "$out/old/src" && DEB_BUILD_OPTIONS=nocheck unshare -n \
		dpkg-buildpackage -us -uc -b) >"$out/old/dpkg-buildpackage.log" 2>&1
	then
		log "built $oldver in $(($(date +%s) - tb))s"
	else
		die upgrade "building $old failed: see $out/old/dpkg-buildpackage.log" \
			"$out/old/dpkg-buildpackage.log"
	fi
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
# $release-backports too: the kernel installed after pgpk (dkms-new-kernel)
# comes from there (bookworm: 6.12, trixie: 7.3, tests/vm/kernels.sh).
extra=("deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $release-backports main")
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

# in_root CMD...: CMD in the system
in_root() { chroot_in "$sysroot" "$@"; }

# --- 3. install the packages with apt (DKMS builds the module) ---
mkdir -p "$sysroot/root/debs"
cp "$dkms_deb" "$helper_deb" "$sysroot/root/debs/" || die install "cp"
log "apt-get update; apt-get install ./pgpk-dkms ./pgpk-helper in the $release system"
# The base system has no package lists (mmdebstrap removes them): the
# helper's libraries come from the archive, as on any system.
in_root apt-get update >"$out/install.log" 2>&1 ||
	die apt-install "apt-get update failed" "$out/install.log"
# --secure-boot: what a Debian system installed on UEFI with Secure Boot
# has before pgpk: shim-signed (and mokutil), grub-efi-amd64-signed; and
# openssl, which DKMS needs to make its signing key (Debian 12's dkms does
# not depend on it: without it DKMS builds the module unsigned, and the
# kernel refuses it).  Their packages are kept in
# $cache/sb-archives-$release.  Nothing runs grub-install or update-grub
# here (no EFI in the chroot: shim-signed's postinst stops there); run.sh
# writes the EFI system partition and GRUB's configuration itself (step 6).
if [ -n "$sb" ]; then
	sbarch=$cache/sb-archives-$release
	mkdir -p "$sbarch"
	cp -n "$sbarch"/*.deb "$sysroot/var/cache/apt/archives/" 2>/dev/null
	ssl=openssl
	case "$brk" in *" sb-no-openssl "*) ssl="" ;; esac
	if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends $ssl mokutil shim-signed \
		grub-efi-amd64-signed >"$out/sb-install.log" 2>&1; then
		cp -n "$sysroot"/var/cache/apt/archives/*.deb "$sbarch/" 2>/dev/null
		result PASS sb/install "$(in_root dpkg-query -W -f='${Package} ${Version}; ' \
			shim-signed grub-efi-amd64-signed mokutil $ssl)"
	else
		die sb/install "apt-get install shim-signed ... failed" "$out/sb-install.log"
	fi
fi
# --upgrade-from: the earlier packages first, a local edit of the
# conffile, then the current ones as an upgrade.  The packaged
# /etc/request-key.d/pgpk.conf changed since, so dpkg would ask (Debian
# policy 10.7.3); with no terminal, apt/dpkg is told what an
# administrator answering "keep your version" gets: --force-confdef
# --force-confold, the edit kept and the new packaged file beside it as
# pgpk.conf.dpkg-dist.
confopts=()
if [ -n "$upgrade_from" ]; then
	mkdir -p "$sysroot/root/old"
	cp "$out/old"/pgpk-dkms_*.deb "$out/old"/pgpk-helper_*.deb \
		"$sysroot/root/old/" || die upgrade "no packages of $old"
	if in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends /root/old/pgpk-dkms_*.deb \
		/root/old/pgpk-helper_*.deb' >"$out/old-install.log" 2>&1; then
		result PASS "upgrade/old-install" "$oldver, from $old: $(
			cd "$sysroot/var/lib/dkms/pgpk" && echo ./*)"
	else
		die upgrade/old-install "see $out/old-install.log" "$out/old-install.log"
	fi
	c=$sysroot/etc/request-key.d/pgpk.conf
	sed -i 's/--min-rsa-bits=2048/--min-rsa-bits=3072/' "$c"
	sed -i '1i # local edit (tests/system --upgrade-from): RSA 3072 at least' "$c"
	confopts=(-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
	case " ${PGPK_SYSTEM_BREAK:-} " in
	*" confnew "*) confopts=(-o Dpkg::Options::=--force-confnew) ;;
	esac
fi
if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	"${confopts[@]}" \
	--no-install-recommends "/root/debs/${dkms_deb##*/}" \
	"/root/debs/${helper_deb##*/}" >>"$out/install.log" 2>&1; then
	result PASS apt-install
else
	die apt-install "see $out/install.log" "$out/install.log"
fi
if [ -n "$upgrade_from" ]; then
	c=$sysroot/etc/request-key.d/pgpk.conf
	if grep -q '^# local edit' "$c" && grep -q -- '--min-rsa-bits=3072' "$c" &&
		[ -f "$c.dpkg-dist" ]; then
		result PASS upgrade/conffile "edit kept; the new packaged file is pgpk.conf.dpkg-dist"
	else
		result FAIL upgrade/conffile "the local edit is gone, or no pgpk.conf.dpkg-dist: $(
			cd "${c%/*}" && echo ./*)"
	fi
	st=$(in_root dkms status -m pgpk 2>/dev/null)
	echo "    dkms status: $st" >&2
	case "$st" in
	*"$oldver"*) result FAIL upgrade/dkms "$oldver still in dkms status: $st" ;;
	*"pgpk/0.1"*installed*) result PASS upgrade/dkms "$(echo "$st" | tr '\n' ';')" ;;
	*) result FAIL upgrade/dkms "no pgpk/0.1 installed: $st" ;;
	esac
fi
kvers=$(ls "$sysroot/lib/modules")
# sb_signed CHECK MODULE: MODULE (a path in the system) carries a
# signature by DKMS's certificate (/var/lib/dkms/mok.pub).
sb_signed() {
	local signer subject
	signer=$(in_root modinfo -F signer "$2" 2>/dev/null)
	subject=$(in_root openssl x509 -inform DER -in /var/lib/dkms/mok.pub \
		-noout -subject 2>/dev/null | sed 's/^subject= *//; s/^CN *= *//')
	if [ -n "$signer" ] && [ "$signer" = "$subject" ]; then
		result PASS "$1" "$2: signer '$signer' (/var/lib/dkms/mok.pub)"
	else
		result FAIL "$1" "$2: signer '${signer:-none}', DKMS's certificate '${subject:-none}'"
	fi
}
# pgpk.ko, or pgpk.ko.xz where DKMS compresses modules (Debian 13).
for k in $kvers; do
	ko=$(find "$sysroot/lib/modules/$k/updates/dkms" -name 'pgpk.ko*' \
		2>/dev/null | head -n 1)
	if [ -n "$ko" ]; then
		result PASS "dkms-built/$k" "${ko#"$sysroot"}"
	else
		result FAIL "dkms-built/$k" "no /lib/modules/$k/updates/dkms/pgpk.ko*"
	fi
	# --secure-boot: DKMS made its key (openssl) and signed the module
	[ -n "$sb" ] && [ -n "$ko" ] && sb_signed "sb/dkms-signed/$k" "${ko#"$sysroot"}"
done

# --- 4. a kernel installed after pgpk: DKMS's kernel hook builds pgpk ---
# apt-get install -t $release-backports linux-image-amd64
# linux-headers-amd64, as an administrator would; the packages are kept
# in $cache/archives-$release for the next run.  PGPK_SYSTEM_BREAK
# (space-separated) breaks something on purpose, to show a check fail:
#   dkms-hook     DKMS's kernel hooks removed before the kernel comes
#   anchors-hook  /etc/modprobe.d/pgpk-anchors.conf and
#                 pgpk-anchors.service's link removed (step 5)
#   anchors-file  the anchor certificate left out (step 5)
#   ima-hook, ima-enforce-off, ima-tamper-outside  (ima-setup.sh)
#   other-certified  the anchor certifies "other" too
#   confnew       the upgrade with --force-confnew, not --force-confold
#   (--secure-boot:)
#   sb-unenrolled   MokManager is not answered: DKMS's key stays pending,
#                   never enrolled
#   sb-off          the firmware's variables without Secure Boot (OVMF's
#                   plain store, no keys): the same boots, Secure Boot off
#   control-enrolled  the control's key (other.der) is enrolled too
#   sb-no-openssl   openssl is not installed before pgpk: DKMS cannot make
#                   its key and builds the module unsigned
new_kernel=""
case "$brk" in
*" dkms-hook "*)
	rm -f "$sysroot"/etc/kernel/postinst.d/dkms \
		"$sysroot"/etc/kernel/header_postinst.d/dkms ;;
esac
arch=$cache/archives-$release
mkdir -p "$arch"
cp -n "$arch"/*.deb "$sysroot/var/cache/apt/archives/" 2>/dev/null
log "apt-get install -t $release-backports linux-image-amd64 linux-headers-amd64"
if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--no-install-recommends -t "$release-backports" linux-image-amd64 \
	linux-headers-amd64 >"$out/new-kernel.log" 2>&1; then
	cp -n "$sysroot"/var/cache/apt/archives/*.deb "$arch/" 2>/dev/null
	for k in "$sysroot"/lib/modules/*; do
		k=${k##*/}
		case " $kvers " in *" $k "*) continue ;; esac
		new_kernel=$k
	done
	if [ -z "$new_kernel" ]; then
		result FAIL dkms-new-kernel/built "apt installed no new kernel (see $out/new-kernel.log)"
	else
		ko=$(find "$sysroot/lib/modules/$new_kernel/updates/dkms" \
			-name 'pgpk.ko*' 2>/dev/null | head -n 1)
		if [ -n "$ko" ]; then
			result PASS dkms-new-kernel/built "$new_kernel: ${ko#"$sysroot"}"
			[ -n "$sb" ] && sb_signed "sb/dkms-signed/$new_kernel" "${ko#"$sysroot"}"
		else
			tail -n 15 "$out/new-kernel.log" | sed 's/^/    /'
			result FAIL dkms-new-kernel/built "$new_kernel: no updates/dkms/pgpk.ko* (see $out/new-kernel.log)"
		fi
	fi
else
	tail -n 15 "$out/new-kernel.log" | sed 's/^/    /'
	result FAIL dkms-new-kernel/built "apt-get install failed (see $out/new-kernel.log)"
fi

# --- 5. the anchor certificate and two keys (host's gpg, RSA 3072) ---
d=$sysroot/root/pgpk-system
mkdir -p "$d" "$out/gnupg"
chmod 700 "$out/gnupg"
g=(gpg --homedir "$out/gnupg" --batch --quiet --no-tty --pinentry-mode loopback
	--passphrase '')
au="pgpk system anchor <anchor@pgpk.test>"
cu="pgpk system certified <certified@pgpk.test>"
ou="pgpk system other <other@pgpk.test>"
fpr_of() {
	"${g[@]}" --with-colons --list-keys "$1" |
		awk -F: '$1 == "fpr" { print $10; exit }'
}
if "${g[@]}" --quick-generate-key "$au" rsa3072 sign never &&
	"${g[@]}" --quick-generate-key "$cu" rsa3072 sign never &&
	"${g[@]}" --quick-generate-key "$ou" rsa3072 sign never &&
	"${g[@]}" --local-user "$(fpr_of "$au")!" --quick-sign-key \
		"$(fpr_of "$cu")" "$cu" >/dev/null &&
	case "$brk" in
	*" other-certified "*)
		"${g[@]}" --local-user "$(fpr_of "$au")!" --quick-sign-key \
			"$(fpr_of "$ou")" "$ou" >/dev/null ;;
	esac &&
	"${g[@]}" --export "$au" >"$d/anchor.pgp" &&
	"${g[@]}" --export "$cu" >"$d/certified.pgp" &&
	"${g[@]}" --export "$ou" >"$d/other.pgp"; then
	fpr_of "$au" >"$d/anchor.fpr"
else
	result FAIL anchors-at-boot "gpg could not make the anchor and keys"
	rm -f "$d/anchor.pgp"
fi
gpgconf --homedir "$out/gnupg" --kill all 2>/dev/null
# The administrator's anchor, loaded at every boot from now on
# (anchors-at-boot in boots 1 and 2).  PGPK_SYSTEM_BREAK: anchors-hook
# takes away both ways the package loads anchors at boot (the modprobe
# install command and pgpk-anchors.service), anchors-file the anchor.
[ -f "$d/anchor.pgp" ] && cp "$d/anchor.pgp" "$sysroot/etc/pgpk/anchors/"
case "$brk" in
*" anchors-hook "*)
	rm -f "$sysroot/etc/modprobe.d/pgpk-anchors.conf" \
		"$sysroot"/etc/systemd/system/*.wants/pgpk-anchors.service ;;
esac
case "$brk" in
*" anchors-file "*) rm -f "$sysroot/etc/pgpk/anchors/anchor.pgp" ;;
esac
echo "$new_kernel" >"$d/new-kernel"
echo "$brk" >"$d/break"
# Under TCG beside other VMs the anchor's upcall at boot took longer than
# the module's upcall_timeout (5 s) in both modes on 2026-12-05:
# "refused: ... Connection timed out (ETIMEDOUT)" from pgpk-anchors, boot 1
# of Debian 12, load 10 to 20 on two cores (the same helper answers in
# 0.1 s later in that boot).  The test machine's speed, not the
# packages': 30 s here (the initramfs gets it too).
echo "options pgpk upcall_timeout=30" \
	>"$sysroot/etc/modprobe.d/pgpk-system-test.conf"

# --- 5a. (--secure-boot) the controls: a module nobody's key signed ---
# Debian's own dummy.ko (a network driver nothing here loads) of the
# release's kernel: without its signature (strip drops what follows the
# ELF sections), signed by a key made now and never enrolled (other.der),
# and signed by DKMS's key.  check.sh: the first two refused, the third
# loaded.  Then the first boot's state: sb-unenrolled (check.sh).
if [ -n "$sb" ]; then
	touch "$d/secure-boot"
	echo "pgpk-system-$$" >"$d/mok-password"
	mkdir -p "$d/control"
	bk=$(echo "$kvers" | tr ' ' '\n' | sort -V | tail -n 1)
	# shellcheck disable=SC2016
	if in_root sh -ec '
		k=$1
		c=/root/pgpk-system/control
		m=$(modinfo -k "$k" -n dummy)
		case "$m" in
		*.xz) xz -dc "$m" ;;
		*.zst) zstd -dc "$m" ;;
		*) cat "$m" ;;
		esac >/tmp/dummy.ko
		strip --strip-debug -o "$c/control-unsigned.ko" /tmp/dummy.ko
		openssl req -new -x509 -nodes -days 36500 \
			-subj "/CN=pgpk system control key (not enrolled)" \
			-newkey rsa:2048 -keyout "$c/other.key" -outform DER \
			-out "$c/other.der" 2>/dev/null
		s=/lib/modules/$k/build/scripts/sign-file
		cp "$c/control-unsigned.ko" "$c/control-otherkey.ko"
		"$s" sha256 "$c/other.key" "$c/other.der" "$c/control-otherkey.ko"
		cp "$c/control-unsigned.ko" "$c/control-mok.ko"
		"$s" sha256 /var/lib/dkms/mok.key /var/lib/dkms/mok.pub "$c/control-mok.ko"
		for f in "$c"/control-*.ko; do
			echo "$f: signer $(modinfo -F signer "$f")"
		done' _ "$bk" >"$out/control.log" 2>&1; then
		result PASS sb/control-modules "$(tr '\n' ';' <"$out/control.log")"
	else
		tail -n 20 "$out/control.log" | sed 's/^/    /'
		result FAIL sb/control-modules "see $out/control.log"
	fi
	mkdir -p "$sysroot/var/lib/pgpk-system-check"
	echo sb-unenrolled >"$sysroot/var/lib/pgpk-system-check/next"
fi
[ -n "$upgrade_from" ] && echo "$oldver" >"$d/upgraded-from"

# --- 5b. IMA appraisal at boot, set up as README says (ima-setup.sh) ---
# In the system (chroot): gpg and attr from the archive, an IMA subkey
# made by pgpk-helper ima-sign --new-key, files signed by ima-sign, the
# canonical key and a policy in /etc/pgpk/ima/, two fail-safe images
# (mkinitramfs), then update-initramfs -u -k all for real.  The release's
# own kernel boots first with the "enforce" image (ima-fail-safe/enforce:
# the boot must stop), then with the "nokey" one (boot 1:
# ima-fail-safe/no-key), then with the real initramfs (ima-at-boot).
base_kernel=$(echo "$kvers" | tr ' ' '\n' | sort -V | tail -n 1)
ima_ok=""
install -m 755 "$here/ima-setup.sh" "$d/ima-setup.sh"
log "IMA setup in the system (ima-setup.sh; update-initramfs -u -k all)"
# shellcheck disable=SC2086
if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--no-install-recommends gpg gpg-agent attr >"$out/ima-setup.log" 2>&1 &&
	in_root /root/pgpk-system/ima-setup.sh "$base_kernel" $brk \
		>>"$out/ima-setup.log" 2>&1; then
	ima_ok=1
	result PASS ima-setup "$(grep -m 1 '^IMA subkey' "$out/ima-setup.log"); update-initramfs -u -k all"
else
	result FAIL ima-setup "see $out/ima-setup.log" "$out/ima-setup.log"
	tail -n 25 "$out/ima-setup.log" | sed 's/^/    /'
fi

# --- 6. the system boots to check.sh (a systemd service), 1 to 3 times ---
install -m 755 "$here/check.sh" "$sysroot/usr/local/sbin/pgpk-system-check"
cat >"$sysroot/etc/systemd/system/pgpk-system-check.service" <<'UNIT'
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
UNIT
ln -sf /etc/systemd/system/pgpk-system-check.service \
	"$sysroot/etc/systemd/system/multi-user.target.wants/pgpk-system-check.service"
# The console is the check's: no login prompt there.
ln -sf /dev/null "$sysroot/etc/systemd/system/serial-getty@ttyS0.service"
echo "pgpk-$release" >"$sysroot/etc/hostname"
# --secure-boot: a GPT disk, the EFI system partition first (vda1), the
# root file system second (vda2); otherwise the file system is the disk.
rootdev=/dev/vda
[ -n "$sb" ] && rootdev=/dev/vda2
echo "$rootdev / ext4 rw,errors=remount-ro 0 1" >"$sysroot/etc/fstab"

# The release's own kernel first (the newest of those before pgpk), then
# whichever check.sh asks for; each kernel and initrd copied out now (a
# link is followed inside the system), and the fail-safe images.  With
# --secure-boot, GRUB loads them from the root file system: inroot maps
# each copy to its path there (the fail-safe images go to
# /boot/pgpk-system/).
mkdir -p "$out/boot"
declare -A inroot
# from_root PATH: PATH inside the system, its links followed there.
from_root() {
	local p=$1 t n=0
	while [ -L "$sysroot$p" ] && [ $n -lt 8 ]; do
		t=$(readlink "$sysroot$p")
		case "$t" in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
		n=$((n + 1))
	done
	echo "$sysroot$p"
}
for k in $base_kernel $new_kernel; do
	kf=$(from_root "/boot/vmlinuz-$k")
	inf=$(from_root "/boot/initrd.img-$k")
	if ! cp "$kf" "$out/boot/vmlinuz-$k" ||
		! cp "$inf" "$out/boot/initrd.img-$k"; then
		die boot "no /boot/vmlinuz-$k with its initrd.img in the system"
	fi
	inroot[$out/boot/vmlinuz-$k]=${kf#"$sysroot"}
	inroot[$out/boot/initrd.img-$k]=${inf#"$sysroot"}
done
for v in enforce nokey; do
	[ -z "$ima_ok" ] || mv "$d/initrd-$v" "$out/boot/initrd-$v" ||
		die boot "no $d/initrd-$v from ima-setup.sh"
	if [ -n "$ima_ok" ] && [ -n "$sb" ]; then
		mkdir -p "$sysroot/boot/pgpk-system"
		cp "$out/boot/initrd-$v" "$sysroot/boot/pgpk-system/"
		inroot[$out/boot/initrd-$v]=/boot/pgpk-system/initrd-$v
	fi
done
if [ -n "$sb" ]; then
	# The EFI system partition as the firmware's removable-media path has
	# it (no boot entries in the variable store): shim as
	# \EFI\BOOT\BOOTX64.EFI, beside it GRUB (grubx64.efi, which shim
	# verifies with Debian's key) and MokManager (mmx64.efi); no fbx64.efi,
	# so shim starts GRUB itself.  Debian's signed GRUB finds no
	# /EFI/debian there and reads grub.cfg beside itself: run.sh writes it
	# before each boot (the kernel, initrd and parameters of that boot;
	# GRUB verifies the kernel through shim).  All from the system's own
	# packages (step 3).
	mkdir -p "$out/esp"
	for f in /usr/lib/shim/shimx64.efi.signed:BOOTX64.EFI \
		/usr/lib/shim/mmx64.efi.signed:mmx64.efi \
		/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed:grubx64.efi; do
		cp "$sysroot${f%%:*}" "$out/esp/${f##*:}" ||
			die boot "no ${f%%:*} in the system (shim-signed, grub-efi-amd64-signed)"
	done
fi
log "disk image (mkfs.ext4 -d${sb:+; GPT with an EFI system partition})"
rm -f "$out/disk.img"
if [ -n "$sb" ]; then
	# sectors: the EFI system partition at 1 MiB (64 MiB, FAT16: mkfs.vfat
	# would take FAT32 from the size of the whole file, too big for 64 MiB),
	# the root file
	# system (4 GiB) after it, the backup GPT at the end
	esp_at=2048 esp_n=131072 root_at=133120 root_n=8388608
	truncate -s $(((root_at + root_n + 2048) * 512)) "$out/disk.img"
	esp=$out/disk.img@@$((esp_at * 512))
	{
		echo "label: gpt"
		echo "start=$esp_at, size=$esp_n, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name=\"EFI System\""
		echo "start=$root_at, size=$root_n, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=\"pgpk-root\""
	} | sfdisk -q "$out/disk.img" >"$out/mkfs.log" 2>&1 &&
		mkfs.vfat -F 16 --offset "$esp_at" -n PGPK-ESP "$out/disk.img" \
			$((esp_n / 2)) >>"$out/mkfs.log" 2>&1 &&
		mmd -i "$esp" ::/EFI ::/EFI/BOOT >>"$out/mkfs.log" 2>&1 &&
		mcopy -i "$esp" "$out"/esp/* ::/EFI/BOOT/ >>"$out/mkfs.log" 2>&1 &&
		mkfs.ext4 -q -F -L pgpk-root -E offset=$((root_at * 512)) \
			-d "$sysroot" "$out/disk.img" $((root_n / 2))k \
			>>"$out/mkfs.log" 2>&1 ||
		die boot "the disk (sfdisk, mkfs.vfat, mcopy, mkfs.ext4) failed" "$out/mkfs.log"
	# The firmware's variable store: Microsoft's keys enrolled, so Secure
	# Boot is on (sb-off: the plain store, no keys, Secure Boot off); MOK
	# variables written into it by shim and MokManager stay for the next
	# boots.
	vars=$ovmf/OVMF_VARS_4M.ms.fd
	case "$brk" in *" sb-off "*) vars=$ovmf/OVMF_VARS_4M.fd ;; esac
	cp "$vars" "$out/efivars.fd"
else
	mkfs.ext4 -q -F -L pgpk-root -d "$sysroot" "$out/disk.img" 4G \
		>"$out/mkfs.log" 2>&1 || die boot "mkfs.ext4 failed" "$out/mkfs.log"
fi
# (the password MokManager will ask for, kept: the system is gone next)
[ -n "$sb" ] && cp "$d/mok-password" "$out/mok-password"
rm -rf "$sysroot"

timeout_s=${PGPK_SYSTEM_TIMEOUT:-900}
nboot=0
: >"$out/console.log"
# The Secure Boot machine: q35 with SMM (the variable store is writable
# only from SMM: nothing but the firmware can change the keys), OVMF's
# Secure Boot build and the variable store as flash.  Under TCG.
# shellcheck disable=SC2054
qemu_sb=(qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m 1024 -nographic
	-no-reboot -machine q35,smm=on
	-global driver=cfi.pflash01,property=secure,value=on
	-global ICH9-LPC.disable_s3=1
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$ovmf/OVMF_CODE_4M.secboot.fd"
	-drive "if=pflash,format=raw,unit=1,file=$out/efivars.fd"
	-drive "file=$out/disk.img,format=raw,if=virtio")
# grub_cfg KERNEL INITRD [PARAMETER]: GRUB's configuration for the next
# boot, on the EFI system partition.  no_timer_check: on q35 under TCG on
# a loaded host the kernel's check of the IO-APIC timer failed once
# ("Kernel panic - not syncing: IO-APIC + timer doesn't work!", 6.1,
# boot 0 of a Debian 12 run beside three other VMs).
grub_cfg() {
	{
		echo "set timeout=0"
		echo "search --no-floppy --label pgpk-root --set=root"
		echo "echo 'pgpk-system: GRUB: ${inroot[$out/boot/vmlinuz-$1]} ${inroot[$2]}'"
		echo "linux ${inroot[$out/boot/vmlinuz-$1]} root=$rootdev rw console=ttyS0 panic=-1 no_timer_check${3:+ $3}"
		echo "initrd ${inroot[$2]}"
		echo "boot"
	} >"$out/grub.cfg"
	mcopy -o -i "$esp" "$out/grub.cfg" ::/EFI/BOOT/grub.cfg
}
# boot KERNEL INITRD [PARAMETER]: one boot, its console in $con
boot() {
	con=$out/console-$nboot.log
	log "boot $nboot: $release ($1, ${2##*/}${3:+, $3}${sb:+, Secure Boot: shim, GRUB}) under qemu TCG (limit ${timeout_s}s)"
	tb=$(date +%s)
	if [ -n "$sb" ]; then
		grub_cfg "$@"
		timeout -k 5 "$timeout_s" "${qemu_sb[@]}" </dev/null >"$con" 2>&1
	else
		timeout -k 5 "$timeout_s" qemu-system-x86_64 -accel tcg -cpu max -smp 1 \
			-m 1024 -nographic -no-reboot \
			-kernel "$out/boot/vmlinuz-$1" -initrd "$2" \
			-append "root=$rootdev rw console=ttyS0 panic=-1${3:+ $3}" \
			-drive "file=$out/disk.img,format=raw,if=virtio" \
			</dev/null >"$con" 2>&1
	fi
	qrc=$?
	tr -d '\r' <"$con" >"$con.txt" && mv "$con.txt" "$con"
	cat "$con" >>"$out/console.log"
	log "VM ran $(($(date +%s) - tb))s (qemu exit $qrc); console: $con"
}
# collect: check.sh's results on this boot's console
collect() {
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
	done < <(grep -a '^PGPK-SYSTEM ' "$con")
}

# --secure-boot: the first boot, before DKMS's key is enrolled
# (check.sh's sb-unenrolled: pgpk refused, the warning, mokutil --import),
# then the boot in which shim finds the enrolment request and starts
# MokManager, which mokmanager.py answers (sb-unenrolled: nobody does).
if [ -n "$sb" ]; then
	nboot="sb-unenrolled"
	boot "$base_kernel" "$out/boot/initrd.img-$base_kernel"
	collect
	if ! grep -a -q '^PGPK-SYSTEM-MOKMANAGER' "$con"; then
		tail -n 30 "$con" | sed 's/^/    /'
		result FAIL sb/mokmanager "check.sh did not ask for the enrolment ($n results; qemu exit $qrc)"
	elif case "$brk" in *" sb-unenrolled "*) true ;; *) false ;; esac; then
		log "MokManager not answered (PGPK_SYSTEM_BREAK=sb-unenrolled)"
	else
		con=$out/console-mokmanager.log
		log "boot mokmanager: shim starts MokManager; answering it on the serial console (mokmanager.py)"
		tb=$(date +%s)
		python3 "$here/mokmanager.py" "$con" "$(cat "$out/mok-password")" 300 \
			-- "${qemu_sb[@]}" 2>"$out/mokmanager.log"
		qrc=$?
		tr -d '\r' <"$con" | sed 's/\x1b\[[0-9;?]*[A-Za-z]/ /g' >"$con.txt"
		cat "$con.txt" >>"$out/console.log"
		log "VM ran $(($(date +%s) - tb))s; console: $con (text: $con.txt)"
		if [ "$qrc" -eq 0 ]; then
			result PASS sb/mokmanager "$(grep -c 'typing' "$out/mokmanager.log") screens answered: $(grep -o 'screen /[^/]*/' "$out/mokmanager.log" | sed 's/screen //' | tr '\n' ' ')"
		else
			result FAIL sb/mokmanager "$(tail -n 1 "$out/mokmanager.log")"
		fi
	fi
	nboot=0
fi

# boot 0: /etc/pgpk/ima/enforce, and the setup fails (pgpk is not in
# that initramfs): the boot stops in the initramfs, saying why
# (initramfs-tools' panic, a reboot with panic=-1: qemu -no-reboot ends).
if [ -n "$ima_ok" ]; then
	boot "$base_kernel" "$out/boot/initrd-enforce" pgpksystem=enforce
	why=$(grep -a -m 1 'pgpk-ima: .*the boot stops' "$con")
	setup=$(grep -a -m 1 'pgpk-ima: modprobe pgpk failed: no pgpk module for' "$con")
	if grep -a -q '^PGPK-SYSTEM-ENFORCE-IGNORED\|Reached target' "$con"; then
		result FAIL ima-fail-safe/enforce "the system booted past the initramfs (${setup:-no pgpk-ima line})"
	elif [ -z "$why" ] || [ -z "$setup" ]; then
		tail -n 20 "$con" | sed 's/^/    /'
		result FAIL ima-fail-safe/enforce "no 'pgpk-ima: modprobe pgpk failed: no pgpk module for' or no 'the boot stops' on the console"
	else
		result PASS ima-fail-safe/enforce "stopped in the initramfs: ${setup#*pgpk-ima: } / ${why#*pgpk-ima: }"
	fi
fi

kver=$base_kernel
while :; do
	nboot=$((nboot + 1))
	[ -f "$out/boot/vmlinuz-$kver" ] ||
		die boot "check.sh asked for kernel $kver, not one of: $(ls "$out/boot")"
	# boot 1 with the image without the key (ima-fail-safe/no-key)
	if [ "$nboot" = 1 ] && [ -n "$ima_ok" ]; then
		boot "$kver" "$out/boot/initrd-nokey" pgpksystem=nokey
	else
		boot "$kver" "$out/boot/initrd.img-$kver"
	fi
	collect
	grep -a -q '^PGPK-SYSTEM-DONE' "$con" && break
	next=$(grep -a '^PGPK-SYSTEM-REBOOT ' "$con" | tail -n 1 | cut -d ' ' -f 2)
	if [ -z "$next" ] || [ "$nboot" -ge 4 ]; then
		tail -n 30 "$con" | sed 's/^/    /'
		result FAIL boot "check.sh did not finish boot $nboot ($n results; qemu exit $qrc)"
		break
	fi
	kver=$next
done
finish
