#!/bin/bash
# The kernels the VM tests run on, fetched through apt and cached.
# Sourced by tests/vm/run.sh (bash).
#
#   series  where from                          module built
#   6.1     Debian 12 (linux-image-amd64 +      on the host
#           linux-headers-amd64, tests/deps.sh)
#   6.12    bookworm-backports (+deb12)         on the host: its kbuild runs on Debian 12
#   7.3     trixie-backports (+deb13)           in a Debian 13 build root (mmdebstrap):
#                                               its kbuild needs libc >= 2.38 and gcc-14
#   6.1-debug  built here from Debian's         on the host, against the
#           linux-source-6.1 with               build tree (KCOV_INSTRUMENT=y)
#           tests/vm/debug-kernel.config
#           (KASAN, kmemleak, lockdep, UBSAN...)
#   7.3-pgpk-debug  linux-source-7.3 with the   in upstream/'s Debian 13
#           upstream series applied             build root, against its
#           (upstream/build-debug.sh builds it; build tree
#           upstream/debug-kernel.config)
#
# Backports kernels come from a private apt configuration (sources list,
# lists and package cache under the cache directory, suites
# bookworm-backports, trixie and trixie-backports from the mirror of
# /etc/apt/sources.list.d/debian.sources, signed by the archive keyring);
# the system's sources are never touched.  Each version is unpacked once
# with dpkg-deb into
#   $PGPK_KERNEL_CACHE/<ver>/root        image, modules (depmod'ed), headers
#   $PGPK_KERNEL_CACHE/<ver>/buildroot   (7.3) Debian 13 with its headers
#   $PGPK_KERNEL_CACHE/<ver>/ready       written last: the version is usable
# The debug kernel is built once per (source package version, config
# fragment) into
#   $PGPK_KERNEL_CACHE/6.1-debug-<key>/{src,build,root,version,ready}
# (9 to 16 min on two busy cores; build.log, build-time).  It is not
# in PGPK_KERNEL_SERIES: tests/run-all.sh, sparse and the system tests
# do not build it; tests/vm/run.sh --kernel 6.1-debug does.
# PGPK_KERNEL_CACHE defaults to ${XDG_CACHE_HOME:-~/.cache}/pgpk/kernels.
# Newer point releases of a series are picked up when the cache is empty
# or PGPK_KERNEL_REFRESH=1.  Images since 7.x are split: vmlinuz is in
# linux-binary-<ver> under /usr/lib/modules/<ver>/.

# K_* are for the caller; the bash -c scripts take their arguments.
# shellcheck disable=SC2034,SC2016

PGPK_KERNEL_SERIES="6.1 6.12 7.3"
PGPK_KERNEL_DEBUG_SERIES="6.1-debug 7.3-pgpk-debug"
PGPK_KERNEL_CACHE=${PGPK_KERNEL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/pgpk/kernels}

# Per kernel, set by pgpk_kernel_use:
#   K_VER K_IMG K_MODS (directory with modules.dep) K_KDIR (the
#   headers tree; inside K_BUILDROOT if that is set) K_BUILDROOT
#   K_DEBUG (1 for the debug kernel, else empty) K_MAKE_ARGS (extra
#   make arguments for the module) K_BIND (a directory mounted at /work
#   in K_BUILDROOT for the module build, else empty)

_pk_log() { echo "kernels: $*" >&2; }

# _pk_mirror: the Debian mirror the system uses.
_pk_mirror() {
	local m
	m=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/* *$/\1/p' \
		/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
	[ -n "$m" ] || m=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\(http[^ ]*\/debian\)\/* .*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | head -n 1)
	echo "${m:-http://deb.debian.org/debian}"
}

_pk_apt_opts() {
	local a=$PGPK_KERNEL_CACHE/apt
	echo "-o Dir::Etc::sourcelist=$a/sources.list" \
		"-o Dir::Etc::sourceparts=/nonexistent" \
		"-o Dir::State::Lists=$a/lists -o Dir::Cache=$a/cache" \
		"-o Dir::Cache::archives=$a/archives -o APT::Sandbox::User=root"
}

# _pk_apt_update: the private package lists (once, or when refreshing).
_pk_apt_update() {
	local a=$PGPK_KERNEL_CACHE/apt mirror key s
	[ -z "${PGPK_KERNEL_REFRESH:-}" ] && [ -f "$a/updated" ] && return 0
	mirror=$(_pk_mirror)
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	mkdir -p "$a/lists/partial" "$a/cache" "$a/archives/partial" || return 1
	{
		for s in bookworm-backports trixie trixie-backports; do
			echo "deb [signed-by=$key] $mirror $s main"
		done
	} >"$a/sources.list"
	_pk_log "apt-get update (private lists: bookworm-backports, trixie, trixie-backports)"
	# shellcheck disable=SC2046
	apt-get $(_pk_apt_opts) -q update >"$a/update.log" 2>&1 || {
		cat "$a/update.log" >&2
		return 1
	}
	touch "$a/updated"
}

# _pk_newest PATTERN: the newest package name matching the regex.
_pk_newest() {
	# shellcheck disable=SC2046
	apt-cache $(_pk_apt_opts) pkgnames linux- 2>/dev/null |
		grep -E -x "$1" | sort -V | tail -n 1
}

# _pk_system_ver: Debian 12's kernel, as before (tests/vm/kver.sh).
_pk_system_ver() {
	# shellcheck source=tests/vm/kver.sh
	. "$(dirname "${BASH_SOURCE[0]}")/kver.sh"
	pgpk_pick_kver
}

# pgpk_kernel_resolve SERIES: print the version of SERIES to use (the
# cached one if any, else the newest in the archive).
pgpk_kernel_resolve() {
	local s=$1 v re
	if [ "$s" = 6.1 ]; then
		_pk_system_ver
		return
	fi
	if [ -z "${PGPK_KERNEL_REFRESH:-}" ] &&
		v=$(cat "$PGPK_KERNEL_CACHE/series-$s" 2>/dev/null) &&
		[ -f "$PGPK_KERNEL_CACHE/$v/ready" ]; then
		echo "$v"
		return
	fi
	# Not cached: fresh lists (the archive drops superseded versions).
	PGPK_KERNEL_REFRESH=1 _pk_apt_update || return 1
	case "$s" in
	6.12) re='linux-image-(6\.12\.[0-9]+\+deb12-amd64)' ;;
	7.3) re='linux-binary-(7\.3\.[0-9]+\+deb13-amd64)' ;;
	*) _pk_log "unknown series $s"; return 1 ;;
	esac
	v=$(_pk_newest "$re" | sed -E "s/^${re%%(*}//")
	[ -n "$v" ] || { _pk_log "no $re in the archive"; return 1; }
	echo "$v"
}

# _pk_fetch SERIES VER: download, unpack, prepare; then mark ready.
_pk_fetch() {
	local s=$1 v=$2 c=$PGPK_KERNEL_CACHE/$2 abi=${2%-amd64} pkgs d
	local t0
	t0=$(date +%s)
	rm -rf "$c"
	mkdir -p "$c/debs" "$c/root" || return 1
	case "$s" in
	6.12) pkgs="linux-image-$v linux-headers-$v linux-headers-$abi-common"
		pkgs="$pkgs linux-kbuild-$abi" ;;
	7.3) pkgs="linux-binary-$v linux-modules-$v linux-base-$v" ;;
	esac
	_pk_apt_update || return 1
	_pk_log "fetching $v: $pkgs"
	# shellcheck disable=SC2046,SC2086
	(cd "$c/debs" && apt-get $(_pk_apt_opts) -q download $pkgs) \
		>"$c/fetch.log" 2>&1 || { cat "$c/fetch.log" >&2; return 1; }
	for d in "$c"/debs/*.deb; do
		dpkg-deb -x "$d" "$c/root" || return 1
	done
	rm -rf "$c/debs"
	if [ "$s" = 6.12 ]; then
		# The headers' Makefile includes the -common tree by its
		# absolute path: point it at the unpacked one.
		sed -i "s|^include /usr/src/|include $c/root/usr/src/|" \
			"$c/root/usr/src/linux-headers-$v/Makefile" || return 1
	fi
	if [ "$s" = 7.3 ]; then
		_pk_log "building a Debian 13 build root for $v (mmdebstrap)"
		mmdebstrap --variant=minbase \
			--include="gcc-14,make,libc6-dev,libelf-dev,libssl-dev,pahole,sparse,linux-headers-$v" \
			trixie "$c/buildroot" \
			"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(_pk_mirror) trixie main" \
			"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(_pk_mirror) trixie-backports main" \
			>"$c/mmdebstrap.log" 2>&1 ||
			{ tail -n 20 "$c/mmdebstrap.log" >&2; return 1; }
	fi
	_pk_kmods_dir "$v" "$c/root" >/dev/null || return 1
	depmod -b "$(_pk_kmods_base "$v" "$c/root")" "$v" || return 1
	echo "$v" >"$PGPK_KERNEL_CACHE/series-$s"
	touch "$c/ready"
	_pk_log "$v ready in $(($(date +%s) - t0))s ($(du -sh "$c" | cut -f 1))"
}

# _pk_kmods_base VER ROOT: the depmod base (ROOT or ROOT/usr).
_pk_kmods_base() {
	if [ -d "$2/usr/lib/modules/$1" ]; then echo "$2/usr"; else echo "$2"; fi
}

_pk_kmods_dir() {
	local d
	d="$(_pk_kmods_base "$1" "$2")/lib/modules/$1"
	[ -d "$d" ] || { _pk_log "no modules directory for $1"; return 1; }
	echo "$d"
}

# pgpk_kernel_use SERIES: make SERIES usable (fetch or build it if
# needed), set K_*.
pgpk_kernel_use() {
	local s=$1 v c
	K_BUILDROOT="" K_VER="" K_DEBUG="" K_MAKE_ARGS="" K_BIND=""
	if [ "$s" = 6.1-debug ]; then
		_pk_debug_use
		return
	fi
	if [ "$s" = 7.3-pgpk-debug ]; then
		_pk_debug73_use
		return
	fi
	v=$(pgpk_kernel_resolve "$s") || return 1
	K_VER=$v
	if [ "$s" = 6.1 ]; then
		K_IMG=/boot/vmlinuz-$v
		K_KDIR=/usr/src/linux-headers-$v
		K_MODS=/lib/modules/$v
		return 0
	fi
	c=$PGPK_KERNEL_CACHE/$v
	if [ ! -f "$c/ready" ]; then
		mkdir -p "$PGPK_KERNEL_CACHE" || return 1
		# One fetch at a time (work trees share the cache); flock's
		# descriptor is not inherited by anything it starts (-o).
		flock -o "$PGPK_KERNEL_CACHE/.lock" bash -c '
			. "$1"; [ -f "$2/ready" ] || _pk_fetch "$3" "$4"' _ \
			"${BASH_SOURCE[0]}" "$c" "$s" "$v" || return 1
	fi
	K_MODS=$(_pk_kmods_dir "$v" "$c/root") || return 1
	if [ -f "$K_MODS/vmlinuz" ]; then
		K_IMG=$K_MODS/vmlinuz
	else
		K_IMG=$c/root/boot/vmlinuz-$v
	fi
	if [ -d "$c/buildroot" ]; then
		K_BUILDROOT=$c/buildroot
		K_KDIR=/usr/src/linux-headers-$v
	else
		K_KDIR=$c/root/usr/src/linux-headers-$v
	fi
}

# pgpk_kernel_series_of VERSION: the supported series VERSION names: a
# series (6.12), a full version, or a prefix of one ending at a
# component boundary (6.12.95, 7.3.4+deb13).
pgpk_kernel_series_of() {
	local want=$1 s
	# First: "6.1-debug" would otherwise be a version of 6.1.
	case "$want" in
	6.1-debug | 6.1.*-pgpk-debug)
		echo 6.1-debug
		return 0
		;;
	7.3-pgpk-debug | 7.3.*-pgpk-debug)
		echo 7.3-pgpk-debug
		return 0
		;;
	esac
	for s in $PGPK_KERNEL_SERIES; do
		case "$want" in
		"$s" | "$s".* | "$s"-* | "$s"+*)
			echo "$s"
			return 0
			;;
		esac
	done
	return 1
}

# pgpk_kernel_make KBDIR ARGS...: run make in KBDIR (a copy of kernel/)
# for the kernel set by pgpk_kernel_use: on the host, or in the build
# root (KBDIR bind-mounted, /proc mounted: objtool needs it).
pgpk_kernel_make() {
	local kb=$1
	shift
	if [ -z "$K_BUILDROOT" ]; then
		# shellcheck disable=SC2086
		make -C "$kb" KDIR="$K_KDIR" $K_MAKE_ARGS "$@"
		return
	fi
	K_BIND=$K_BIND unshare -m --propagation private bash -c '
		set -e
		br=$1 kb=$2 kdir=$3
		shift 3
		mkdir -p "$br/pgpk-build"
		mount --bind "$kb" "$br/pgpk-build"
		[ -z "$K_BIND" ] || mount --bind "$K_BIND" "$br/work"
		mount -t proc proc "$br/proc"
		exec chroot "$br" make -C /pgpk-build KDIR="$kdir" "$@"' _ \
		"$K_BUILDROOT" "$kb" "$K_KDIR" "$@"
}

# --- The 7.3 debug kernel with the upstream series (7.3-pgpk-debug) ---

# _pk_debug73_dir: the newest built one (upstream/build-debug.sh), if any.
_pk_debug73_dir() {
	local d
	d=$(ls -td "$PGPK_KERNEL_CACHE"/7.3-pgpk-debug-*/ready 2>/dev/null |
		head -n 1)
	[ -n "$d" ] && dirname "$d"
}

# _pk_debug73_use: set K_* for it; it is never built here (it needs the
# series: upstream/make-series.sh, then upstream/build-debug.sh).
_pk_debug73_use() {
	local c
	c=$(_pk_debug73_dir) || {
		_pk_log "7.3-pgpk-debug is not built: upstream/make-series.sh," \
			"then upstream/build-debug.sh"
		return 1
	}
	K_VER=$(cat "$c/version")
	K_IMG=$c/root/boot/vmlinuz-$K_VER
	K_MODS=$c/root/lib/modules/$K_VER
	K_BUILDROOT=$(cat "$c/buildroot")
	K_BIND=$(cat "$c/work")
	K_KDIR=/work/build
	K_DEBUG=1
	K_MAKE_ARGS="KCOV_INSTRUMENT=y"
}

# pgpk_kernel_debug73_built: the 7.3 debug kernel is there.
pgpk_kernel_debug73_built() {
	_pk_debug73_dir >/dev/null
}

# --- The debug kernel (6.1-debug) ---

# _pk_debug_dir: the cache directory of the debug kernel this tree asks
# for: keyed by the source package's version and the config fragment's
# settings.
_pk_debug_dir() {
	local here pv key
	here=$(dirname "${BASH_SOURCE[0]}")
	pv=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
	[ -n "$pv" ] || {
		_pk_log "linux-source-6.1 is not installed (tests/deps.sh)"
		return 1
	}
	# The settings only: a comment edit does not cost an hour's build.
	key=$({ echo "$pv"; grep -E '^CONFIG_|^# CONFIG_.* is not set$' \
		"$here/debug-kernel.config"; } | sha256sum | cut -c 1-12)
	echo "$PGPK_KERNEL_CACHE/6.1-debug-$key"
}

# _pk_debug_use: set K_* for the debug kernel, building it first if this
# tree's configuration is not cached yet.
_pk_debug_use() {
	local c
	c=$(_pk_debug_dir) || return 1
	if [ ! -f "$c/ready" ]; then
		mkdir -p "$PGPK_KERNEL_CACHE" || return 1
		# One build at a time across work trees, on a lock of its
		# own: an hour-long build must not hold up a 6.12 fetch.
		flock -o "$PGPK_KERNEL_CACHE/.lock-debug" bash -c '
			. "$1"; [ -f "$2/ready" ] || _pk_debug_build "$2"' _ \
			"${BASH_SOURCE[0]}" "$c" || return 1
	fi
	K_VER=$(cat "$c/version")
	K_IMG=$c/root/boot/vmlinuz-$K_VER
	K_MODS=$c/root/lib/modules/$K_VER
	K_KDIR=$c/build
	K_DEBUG=1
	K_MAKE_ARGS="KCOV_INSTRUMENT=y"
}

# pgpk_kernel_debug_built: the debug kernel is cached (no build needed).
pgpk_kernel_debug_built() {
	local c
	c=$(_pk_debug_dir 2>/dev/null) && [ -f "$c/ready" ]
}

# _pk_debug_config_check BUILD FRAGMENT: every setting of FRAGMENT holds in
# BUILD/.config; prints the ones that do not.
_pk_debug_config_check() {
	awk '
		FNR == NR {
			if (/^CONFIG_[A-Z0-9_]+=/) {
				k = $0; sub(/=.*/, "", k); want[k] = $0
			} else if (/^# CONFIG_[A-Z0-9_]+ is not set$/) {
				want[$2] = "# " $2 " is not set"
			}
			next
		}
		/^CONFIG_[A-Z0-9_]+=/ { k = $0; sub(/=.*/, "", k); have[k] = $0 }
		END {
			for (k in want) {
				h = (k in have) ? have[k] : "# " k " is not set"
				if (h != want[k])
					printf "  wanted %s, got %s\n", want[k], h
			}
		}' "$2" "$1/.config"
}

# _pk_debug_build DIR: unpack linux-source-6.1, configure, build the
# image and modules, install the modules (depmod), prune the objects an
# external module build does not need; then mark ready.
_pk_debug_build() {
	local c=$1 here frag tarball ver t0 jobs bad
	here=$(dirname "${BASH_SOURCE[0]}")
	frag=$here/debug-kernel.config
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f "$tarball" ] || {
		_pk_log "no $tarball (apt-get install linux-source-6.1: tests/deps.sh)"
		return 1
	}
	t0=$(date +%s)
	jobs=$(nproc)
	rm -rf "$c"
	mkdir -p "$c/src" "$c/build" "$c/root/boot" || return 1
	cp "$frag" "$c/debug-kernel.config"
	_pk_log "building the debug kernel in $c (10 to 20 min on 2 cores;" \
		"log: $c/build.log)"
	(
		set -e
		tar -xJf "$tarball" -C "$c/src" --strip-components=1
		cd "$c/src"
		make O="$c/build" x86_64_defconfig kvm_guest.config
		scripts/kconfig/merge_config.sh -m -O "$c/build" \
			"$c/build/.config" "$c/debug-kernel.config"
		make O="$c/build" olddefconfig
	) >"$c/build.log" 2>&1 || {
		tail -n 20 "$c/build.log" >&2
		return 1
	}
	bad=$(_pk_debug_config_check "$c/build" "$c/debug-kernel.config")
	if [ -n "$bad" ]; then
		_pk_log "tests/vm/debug-kernel.config does not hold after" \
			"olddefconfig (a dependency missing?):"
		echo "$bad" >&2
		return 1
	fi
	_pk_log "configured in $(($(date +%s) - t0))s; compiling (make -j$jobs)"
	{
		make -C "$c/src" O="$c/build" -j"$jobs" bzImage modules &&
			make -C "$c/src" O="$c/build" INSTALL_MOD_PATH="$c/root" \
				INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
				modules_install
	} >>"$c/build.log" 2>&1 || {
		grep -a -m 10 -E 'error|Error' "$c/build.log" >&2
		tail -n 10 "$c/build.log" >&2
		return 1
	}
	# The release the build wrote (6.1.<n>-pgpk-debug): uname -r.
	ver=$(cat "$c/build/include/config/kernel.release") &&
		[ -d "$c/root/lib/modules/$ver" ] &&
		cp "$c/build/arch/x86/boot/bzImage" "$c/root/boot/vmlinuz-$ver" ||
		return 1
	echo "built: $(du -sh "$c/build" | cut -f 1) build tree," \
		"vmlinux $(du -h "$c/build/vmlinux" | cut -f 1)," \
		"bzImage $(du -h "$c/root/boot/vmlinuz-$ver" | cut -f 1)" \
		>>"$c/build-time"
	# An external module build needs the configuration, the generated
	# headers, Module.symvers, scripts/ and objtool, not the kernel's
	# own objects; vmlinux stays (debug info: symbolising reports).
	find "$c/build" \( -path "$c/build/scripts" -o \
		-path "$c/build/tools" \) -prune -o \
		\( -name '*.o' -o -name '*.a' -o -name '*.ko' \) -type f \
		-print0 | xargs -0 rm -f
	rm -rf "$c/build/.tmp_vmlinux"* "$c/build/vmlinux.o" \
		"$c/build/vmlinux.a"
	echo "$ver" >"$c/version"
	echo "$(($(date +%s) - t0))s on $jobs cores (load at end:" \
		"$(cut -d ' ' -f 1-3 /proc/loadavg)); $(du -sh "$c" | cut -f 1)" \
		"after pruning" >>"$c/build-time"
	touch "$c/ready"
	_pk_log "$ver ready in $(($(date +%s) - t0))s ($(du -sh "$c" | cut -f 1))"
}
