#!/bin/sh
# The Debian 12 packages pgpk needs to build and test, installed
# idempotently.  Sourced by the two README commands; each component adds
# what it needs to its own line.
PGPK_APT_BUILD="bazel-bootstrap gcc clang make libc6-dev pkg-config
	libseccomp-dev libkeyutils-dev libprotobuf-c-dev protobuf-c-compiler
	libssl-dev libclang-rt-14-dev zlib1g-dev"
# flex, bison, bc, libelf-dev (and libssl-dev above): building the debug
# kernel from linux-source-6.1 (tests/vm/kernels.sh, --kernel 6.1-debug).
PGPK_APT_KERNEL="linux-image-amd64 linux-headers-amd64 sparse
	linux-source-6.1 xz-utils flex bison bc libelf-dev"
# mmdebstrap: the Debian 13 build root for 7.3's modules; dwarves
# (pahole): BTF of modules built for 6.12; kmod: depmod of fetched kernels;
# attr: setfattr for the IMA cases; ima-evm-utils: evmctl (ima-sign test).
PGPK_APT_VM="qemu-system-x86 busybox-static keyutils cpio mmdebstrap dwarves attr
	kmod"
# sqv, sq: the Sequoia peers of tests/bench/verify-speed.sh (and sqv's
# verdicts beside pgpk's in tests/host/time-revocation.sh).
PGPK_APT_TEST="gnupg gpgv debian-keyring debian-archive-keyring
	clang-format perl python3 python3-cryptography openssl xxd strace
	ima-evm-utils sqv sq"
# The Debian packages: building them (debian/control's Build-Depends,
# above and these), checking them (hardening-check: devscripts; lintian),
# proving them (tests/system/run.sh: mmdebstrap, qemu above; mkfs.ext4).
PGPK_APT_PKG="debhelper dh-dkms dpkg-dev devscripts lintian e2fsprogs"
# tests/system/run.sh --secure-boot: OVMF's Secure Boot firmware, the EFI
# system partition (mkfs.vfat, mcopy) and its GPT (sfdisk).
PGPK_APT_PKG="$PGPK_APT_PKG ovmf mtools dosfstools fdisk"
# upstream/check.sh: checkpatch.pl's SPDX check (scripts/spdxcheck.py)
# imports ply and git.
PGPK_APT_UPSTREAM="python3-ply python3-git"

pgpk_install_deps() {
	# shellcheck disable=SC2086
	set -- $PGPK_APT_BUILD $PGPK_APT_KERNEL $PGPK_APT_VM $PGPK_APT_TEST \
		$PGPK_APT_PKG $PGPK_APT_UPSTREAM
	missing=""
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $pkg"
	done
	[ -z "$missing" ] && return 0
	echo "pgpk: installing:$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq &&
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
			--no-install-recommends $missing >&2
}
