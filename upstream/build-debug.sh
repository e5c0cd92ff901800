#!/bin/bash
# Build the 7.3 debug kernel from the series (upstream/make-series.sh) for
# the VM harness: tests/vm/kernels.sh's series 7.3-pgpk-debug.
#
# usage: upstream/build-debug.sh [COMMIT]
#   COMMIT  of the cached tree (default: branch pgpk-series, the series'
#           tip as make-series.sh left it)
#
# x86_64_defconfig + kvm_guest.config + upstream/debug-kernel.config, every
# setting of which must hold in the final .config; built niced in the
# Debian 13 build root (gcc-14) in $PGPK_UPSTREAM_CACHE/debug/{src,build}
# (a worktree of the cached tree and its O= directory, kept: a new series
# rebuilds only what it changed), then installed into
#   $PGPK_KERNEL_CACHE/7.3-pgpk-debug-<key>/
#     root/boot/vmlinuz-<ver>  root/lib/modules/<ver>  version  buildroot
#     build-time  ready
# (key: the commit's tree, the fragment's settings and the built-in OpenPGP
# key, which is copied to $PGPK_UPSTREAM_CACHE/debug/anchors/).  The out-of-tree
# module is built against $PGPK_UPSTREAM_CACHE/debug/build in the build
# root, where it is /work/build (tests/vm/kernels.sh binds it there).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=upstream/lib.sh
. "$here/lib.sh"
frag=$here/debug-kernel.config
tree=$(up_base_tree)
commit=$(git -C "$tree" rev-parse "${1:-pgpk-series}")
treeid=$(git -C "$tree" rev-parse "$commit^{tree}")
# The key built into the builtin trusted keyring (CONFIG_SYSTEM_OPENPGP_KEYS
# of the fragment): the KUnit CA, which certified the KUnit user
# (vm-cases/82-builtin-keys).
anchor=$here/kunit/keys/pgpk_ca.bin
key=$({ echo "$treeid"; grep -E '^CONFIG_|^# CONFIG_.* is not set$' "$frag"
	sha256sum <"$anchor"; } | sha256sum | cut -c 1-12)
dest=$PGPK_KERNEL_CACHE/7.3-pgpk-debug-$key
if [ -f "$dest/ready" ]; then
	up_log "$(cat "$dest/version") is built: $dest"
	exit 0
fi
work=$PGPK_UPSTREAM_CACHE/debug
mkdir -p "$work" "$PGPK_KERNEL_CACHE"
exec 9>"$work/.lock"
flock 9
[ -d "$work/src" ] || git -C "$tree" worktree add -q --detach "$work/src" "$commit"
git -C "$work/src" checkout -q -f --detach "$commit"
cp "$frag" "$work/debug-kernel.config"
mkdir -p "$work/anchors"
cmp -s "$anchor" "$work/anchors/pgpk_ca.pgpk" || cp "$anchor" "$work/anchors/pgpk_ca.pgpk"
t0=$(date +%s)
up_log "building the 7.3 debug kernel at $(git -C "$tree" log -1 --format='%h %s' "$commit")" \
	"(log: $work/build.log)"
up_in_buildroot "$work" '
	set -e
	cd /work/src
	[ -f /work/build/.config ] || make O=/work/build x86_64_defconfig kvm_guest.config
	scripts/kconfig/merge_config.sh -m -O /work/build /work/build/.config \
		/work/debug-kernel.config
	make O=/work/build olddefconfig' >>"$work/build.log" 2>&1 ||
	{ tail -n 20 "$work/build.log" >&2; exit 1; }
bad=$(_pk_debug_config_check "$work/build" "$work/debug-kernel.config")
if [ -n "$bad" ]; then
	up_log "upstream/debug-kernel.config does not hold after olddefconfig:"
	echo "$bad" >&2
	exit 1
fi
before=$(grep -c -E '^  CC ' "$work/build.log" || true)
up_in_buildroot "$work" '
	set -e
	cd /work/src
	make O=/work/build -j2 LOCALVERSION= bzImage modules
	rm -rf /work/root
	make O=/work/build LOCALVERSION= INSTALL_MOD_PATH=/work/root \
		INSTALL_MOD_STRIP=1 modules_install' >>"$work/build.log" 2>&1 ||
	{ grep -a -m 10 -E 'error' "$work/build.log" >&2; tail -n 5 "$work/build.log" >&2; exit 1; }
ver=$(cat "$work/build/include/config/kernel.release")
rm -rf "$dest"
mkdir -p "$dest/root/boot" "$dest/root/lib/modules"
cp "$work/build/arch/x86/boot/bzImage" "$dest/root/boot/vmlinuz-$ver"
cp -a "$work/root/lib/modules/$ver" "$dest/root/lib/modules/"
rm -f "$dest/root/lib/modules/$ver/build" "$dest/root/lib/modules/$ver/source"
depmod -b "$dest/root" "$ver"
echo "$ver" >"$dest/version"
up_buildroot >"$dest/buildroot"
echo "$work" >"$dest/work"
echo "$commit" >"$dest/commit"
echo "$(($(date +%s) - t0))s, $(($(grep -c -E '^  CC ' "$work/build.log") - before))" \
	"compilations, niced on $(nproc) cores (load at end:" \
	"$(cut -d ' ' -f 1-3 /proc/loadavg)); bzImage" \
	"$(du -h "$dest/root/boot/vmlinuz-$ver" | cut -f 1)" >>"$dest/build-time"
touch "$dest/ready"
up_log "$ver ready in $(($(date +%s) - t0))s: $dest"
