#!/bin/bash
# What upstream/make-series.sh and upstream/build.sh share: Debian's
# linux-source-7.3 and a Debian 13 build root to build it in, both
# fetched with apt through tests/vm/kernels.sh's private configuration
# (the system's sources are untouched) and cached:
#
#   $PGPK_UPSTREAM_CACHE/linux-source-<pkgver>/linux-source-7.3.tar.xz
#   $PGPK_UPSTREAM_CACHE/buildroot-<key>/   Debian 13 (trixie): gcc-14,
#       make, bc, bison, flex, libelf, libssl, python3 (kunit.py),
#       perl (checkpatch, kernel-doc), rsync (headers_install), git
#   each with a "ready" file written last.
#
# PGPK_UPSTREAM_CACHE defaults to ~/.cache/pgpk/upstream.  Sourced (bash).
# shellcheck disable=SC2016

up_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
up_root=$(cd "$up_here/.." && pwd)
# shellcheck source=tests/vm/kernels.sh
. "$up_root/tests/vm/kernels.sh"

PGPK_UPSTREAM_CACHE=${PGPK_UPSTREAM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/pgpk/upstream}
# The series' base: Debian's newest kernel source (trixie-backports).
PGPK_UPSTREAM_SOURCE=${PGPK_UPSTREAM_SOURCE:-linux-source-7.3}
UP_BUILDROOT_PKGS="gcc gcc-14 make bc bison flex libc6-dev libelf-dev libssl-dev
python3 perl rsync git cpio kmod pahole xz-utils patch file"

up_log() { echo "upstream: $*" >&2; }
up_die() {
	echo "upstream: $*" >&2
	exit 1
}

# up_source_tarball: print the path of the cached source tarball,
# fetching it first (apt-get download, dpkg-deb -x) under the cache lock.
up_source_tarball() {
	local v d
	v=$(cat "$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE.version" 2>/dev/null)
	if [ -z "$v" ] || [ ! -f "$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE-$v/ready" ]; then
		mkdir -p "$PGPK_UPSTREAM_CACHE" "$PGPK_KERNEL_CACHE" || return 1
		flock -o "$PGPK_UPSTREAM_CACHE/.lock" bash -c '
			. "$1"; _up_fetch_source' _ "${BASH_SOURCE[0]}" || return 1
		v=$(cat "$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE.version")
	fi
	d=$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE-$v
	ls "$d"/usr/src/linux-source-*.tar.xz
}

# up_source_version: the Debian package version of the cached source.
up_source_version() {
	cat "$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE.version"
}

_up_fetch_source() {
	local v d
	# The kernels' private lists (bookworm-backports, trixie,
	# trixie-backports), under their own lock.
	flock -o "$PGPK_KERNEL_CACHE/.lock" bash -c '. "$1"; _pk_apt_update' \
		_ "$up_root/tests/vm/kernels.sh" || return 1
	# shellcheck disable=SC2046
	v=$(apt-cache $(_pk_apt_opts) show "$PGPK_UPSTREAM_SOURCE" 2>/dev/null |
		sed -n 's/^Version: //p' | sort -V | tail -n 1)
	[ -n "$v" ] || {
		up_log "no $PGPK_UPSTREAM_SOURCE in the private lists" \
			"(PGPK_KERNEL_REFRESH=1 to update them)"
		return 1
	}
	d=$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE-$v
	[ -f "$d/ready" ] && { echo "$v" >"$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE.version"; return 0; }
	rm -rf "$d"
	mkdir -p "$d/deb" || return 1
	up_log "fetching $PGPK_UPSTREAM_SOURCE $v (about 170 MB)"
	# shellcheck disable=SC2046
	(cd "$d/deb" && apt-get $(_pk_apt_opts) -q download \
		"$PGPK_UPSTREAM_SOURCE=$v") >"$d/fetch.log" 2>&1 ||
		{ cat "$d/fetch.log" >&2; return 1; }
	dpkg-deb -x "$d"/deb/*.deb "$d" && rm -rf "$d/deb" || return 1
	ls "$d"/usr/src/linux-source-*.tar.xz >/dev/null || return 1
	echo "$v" >"$PGPK_UPSTREAM_CACHE/$PGPK_UPSTREAM_SOURCE.version"
	touch "$d/ready"
}

# up_buildroot: print the path of the Debian 13 build root, making it
# first (mmdebstrap, about 2 min) under the cache lock.
up_buildroot() {
	local key br
	key=$(echo "$UP_BUILDROOT_PKGS" | sha256sum | cut -c 1-12)
	br=$PGPK_UPSTREAM_CACHE/buildroot-$key
	if [ ! -f "$br/ready" ]; then
		mkdir -p "$PGPK_UPSTREAM_CACHE" || return 1
		flock -o "$PGPK_UPSTREAM_CACHE/.lock-buildroot" bash -c '
			. "$1"; [ -f "$2/ready" ] || _up_make_buildroot "$2"' _ \
			"${BASH_SOURCE[0]}" "$br" || return 1
	fi
	echo "$br"
}

_up_make_buildroot() {
	local br=$1 m k=/usr/share/keyrings/debian-archive-keyring.gpg t0
	t0=$(date +%s)
	m=$(_pk_mirror)
	rm -rf "$br"
	up_log "making a Debian 13 build root in $br (mmdebstrap)"
	mmdebstrap --variant=minbase --include="$(echo $UP_BUILDROOT_PKGS | tr ' ' ,)" \
		trixie "$br" "deb [signed-by=$k] $m trixie main" \
		>"$br.log" 2>&1 || { tail -n 20 "$br.log" >&2; return 1; }
	mkdir -p "$br/work" && touch "$br/ready"
	up_log "build root ready in $(($(date +%s) - t0))s ($(du -sh "$br" | cut -f 1))"
}

# up_in_buildroot DIR CMD...: run CMD (a bash -c script and its
# arguments) in the build root with DIR bind-mounted at /work, /proc
# mounted (objtool), in a private mount namespace, niced.
up_in_buildroot() {
	local br dir=$1
	shift
	br=$(up_buildroot) || return 1
	nice -n 10 unshare -m --propagation private bash -c '
		set -e
		br=$1 dir=$2
		shift 2
		mount --bind "$dir" "$br/work"
		mount -t proc proc "$br/proc"
		exec chroot "$br" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 bash -c "cd /work && $*"' _ \
		"$br" "$dir" "$@"
}

# up_base_tree: print the path of a git tree of the cached source, one
# commit tagged "base" (fixed author and date: the same hash on every
# machine), made once under the cache lock (tar and git: 2 to 4 min).
up_base_tree() {
	local tarball v t
	tarball=$(up_source_tarball) || return 1
	v=$(up_source_version)
	t=$PGPK_UPSTREAM_CACHE/tree-$v
	if [ ! -f "$t/ready" ]; then
		flock -o "$PGPK_UPSTREAM_CACHE/.lock-tree" bash -c '
			. "$1"; [ -f "$2/ready" ] || _up_make_tree "$2" "$3" "$4"' _ \
			"${BASH_SOURCE[0]}" "$t" "$tarball" "$v" || return 1
	fi
	echo "$t/linux"
}

_up_make_tree() {
	local t=$1 tarball=$2 v=$3 t0
	t0=$(date +%s)
	rm -rf "$t"
	mkdir -p "$t/linux" || return 1
	up_log "unpacking $tarball into a git tree ($t/linux)"
	tar -xJf "$tarball" -C "$t/linux" --strip-components=1 || return 1
	(
		set -e
		cd "$t/linux"
		export GIT_AUTHOR_NAME="Debian kernel team" \
			GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org" \
			GIT_AUTHOR_DATE="2000-01-01T00:00:00Z"
		export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME \
			GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL \
			GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
		git init -q -b debian
		git config gc.auto 0
		# The source package's own .gitignore files stay in force.
		git add -A -f .
		git commit -q -m "Debian $PGPK_UPSTREAM_SOURCE $v"
		git tag base
	) >"$t/git.log" 2>&1 || { tail -n 20 "$t/git.log" >&2; return 1; }
	touch "$t/ready"
	up_log "base tree ready in $(($(date +%s) - t0))s"
}
