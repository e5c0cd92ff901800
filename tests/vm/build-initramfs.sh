#!/bin/sh
# Build the pgpk test VM's initramfs (a gzip'ed newc cpio).
#
# usage: build-initramfs.sh OUT.cpio.gz
# environment (run.sh sets all of them):
#   PGPK_KVER        kernel version
#   PGPK_KMODS       its modules, with modules.dep (default /lib/modules/<ver>)
#   PGPK_KO          the built pgpk.ko, or empty if it did not build
#   PGPK_HELPER_BIN  the built pgpk-helper, or empty if it did not build
#   PGPK_BIN         the built pgpk, or empty if it did not build
#   PGPK_VM_DATA     test data directory (becomes /pgpk/data)
#   PGPK_VM_STATUS   directory of "why is X missing" notes (/pgpk/status)
#   PGPK_CASES       case scripts to include (default: all)
#   PGPK_CASE_FILES  the cases' directory: its other files go along
#                    (/pgpk/cases, $PGPK_CASE_DIR in the VM)
#
# Contents: busybox-static with its applet links, keyctl and
# /sbin/request-key with their shared libraries and loader, the
# request-key configuration (Debian's plus policy/request-key.d/pgpk.conf),
# /usr/sbin/pgpk-helper and its libraries, the module, the crypto modules
# a real system would autoload, /etc/passwd+group with nobody, /init,
# /pgpk/{lib.sh,cases,data,demo,status,tools}.
set -eu

out=${1:?usage: build-initramfs.sh OUT.cpio.gz}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${PGPK_KVER:?PGPK_KVER not set}"
PGPK_KO=${PGPK_KO:-}
PGPK_HELPER_BIN=${PGPK_HELPER_BIN:-}
PGPK_BIN=${PGPK_BIN:-}
PGPK_VM_DATA=${PGPK_VM_DATA:-}
PGPK_VM_STATUS=${PGPK_VM_STATUS:-}
PGPK_CASES=${PGPK_CASES:-$(ls "$here"/cases/*.sh 2>/dev/null || true)}
# Extra kernel modules by name, with their dependencies from modules.dep;
# a name the kernel does not have as a module is built in or absent.
# SHA-384/512 and SHA-3 (a real system autoloads them): 6.1 has
# sha512_generic and sha3_generic as modules, 6.12 both built in, 7.3 a
# module sha3 (and SHA-512 built in).
PGPK_EXTRA_MODULES=${PGPK_EXTRA_MODULES:-"sha512_generic sha3_generic sha3"}
PGPK_KMODS=${PGPK_KMODS:-/lib/modules/$PGPK_KVER}
PGPK_CASE_FILES=${PGPK_CASE_FILES:-}

stage=$(mktemp -d "${TMPDIR:-/tmp}/pgpk-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/bin "$stage"/sbin "$stage"/usr/bin "$stage"/usr/sbin \
	"$stage"/lib "$stage"/lib64 "$stage"/etc/request-key.d \
	"$stage"/etc/pgpk "$stage"/dev "$stage"/proc "$stage"/sys \
	"$stage"/tmp "$stage"/run "$stage"/var/log "$stage"/root \
	"$stage"/pgpk/cases "$stage"/pgpk/data "$stage"/pgpk/demo \
	"$stage"/pgpk/status

# copy_bin SRC DEST: install a binary and every shared library ldd names
# (plus the loader) at their own paths.
copy_bin() {
	install -D -m 0755 "$1" "$stage$2"
	ldd "$1" 2>/dev/null | awk '
		/=> \// { print $3 }
		/^[ \t]*\/[^ ]+ \(/ { print $1 }' |
		while read -r lib; do
			[ -e "$stage$lib" ] && continue
			mkdir -p "$stage$(dirname "$lib")"
			cp -L "$lib" "$stage$lib"
		done
}

# busybox-static and a link for every applet (never over a real binary).
busybox=$(command -v busybox)
install -m 0755 "$busybox" "$stage/bin/busybox"
"$busybox" --list-full | while read -r applet; do
	[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
done

# keyutils.
copy_bin "$(command -v keyctl)" /usr/bin/keyctl
ln -sf /usr/bin/keyctl "$stage/bin/keyctl"
rk=/sbin/request-key
[ -x "$rk" ] || rk=$(command -v request-key)
copy_bin "$rk" /sbin/request-key
if [ -f /usr/share/keyutils/request-key-debug.sh ]; then
	install -D -m 0755 /usr/share/keyutils/request-key-debug.sh \
		"$stage/usr/share/keyutils/request-key-debug.sh"
fi
if [ -f /etc/request-key.conf ]; then
	cp /etc/request-key.conf "$stage/etc/request-key.conf"
else
	cat >"$stage/etc/request-key.conf" <<'EOF'
create	user	debug:*		*		/usr/share/keyutils/request-key-debug.sh %k %d %c %S
negate	*	*		*		/bin/keyctl negate %k 30 %S
EOF
fi
if [ -f "$root/policy/request-key.d/pgpk.conf" ]; then
	cp "$root/policy/request-key.d/pgpk.conf" \
		"$stage/etc/request-key.d/pgpk.conf"
else
	echo "create pgpk * * /usr/sbin/pgpk-helper upcall %k" \
		>"$stage/etc/request-key.d/pgpk.conf"
fi
# Further policy files the helper reads (everything in policy/ except
# the request-key configuration) go to /etc/pgpk/.
for f in "$root"/policy/*; do
	[ -f "$f" ] || continue
	case "${f##*/}" in BUILD | BUILD.bazel | *.bzl) continue ;; esac
	cp "$f" "$stage/etc/pgpk/"
done

# Trust anchors: the loader (policy/anchors/); the VM has no modprobe, so
# cases run it themselves (26-anchors).
install -D -m 0755 "$root/policy/anchors/pgpk-anchors" \
	"$stage/usr/sbin/pgpk-anchors"

# IMA: the boot-time setup (policy/ima/), its tools and the VM's policy.
for b in setfattr getfattr; do
	command -v "$b" >/dev/null && copy_bin "$(command -v "$b")" "/usr/bin/$b"
done
install -D -m 0755 "$root/policy/ima/pgpk-ima-setup" \
	"$stage/usr/sbin/pgpk-ima-setup"
install -D -m 0644 "$here/ima.policy" "$stage/etc/pgpk/ima/policy"

# The project's parts, or a note saying why they are missing.
if [ -n "$PGPK_HELPER_BIN" ] && [ -x "$PGPK_HELPER_BIN" ]; then
	copy_bin "$PGPK_HELPER_BIN" /usr/sbin/pgpk-helper
fi
if [ -n "$PGPK_BIN" ] && [ -x "$PGPK_BIN" ]; then
	copy_bin "$PGPK_BIN" /usr/bin/pgpk
fi
if [ -n "$PGPK_KO" ] && [ -f "$PGPK_KO" ]; then
	cp "$PGPK_KO" "$stage/pgpk/pgpk.ko"
fi
if [ -n "$PGPK_VM_STATUS" ] && [ -d "$PGPK_VM_STATUS" ]; then
	cp -R "$PGPK_VM_STATUS/." "$stage/pgpk/status/"
fi

# Crypto modules with their dependencies (dependencies first), at
# /lib/modules/<ver>/ in the VM.
kmods=$PGPK_KMODS
vmods=/lib/modules/$PGPK_KVER
moddeps() {
	# print MOD's dependencies (recursively, deepest first), then MOD
	deps=$(awk -v m="$1" -F': *' '$1 == m { print $2 }' \
		"$kmods/modules.dep")
	for d in $deps; do
		moddeps "$d"
	done
	echo "$1"
}
: >"$stage/etc/pgpk/modules"
for name in $PGPK_EXTRA_MODULES; do
	m=$(sed -n "s,^\([^:]*/$name\.ko[.a-z]*\):.*,\1,p" "$kmods/modules.dep" |
		head -n 1)
	if [ -z "$m" ]; then
		echo "build-initramfs: $name: not a module of $PGPK_KVER" >&2
		continue
	fi
	for dep in $(moddeps "$m"); do
		mkdir -p "$stage$vmods/$(dirname "$dep")"
		case "$dep" in
		*.ko.xz) xz -dc "$kmods/$dep" >"$stage$vmods/${dep%.xz}"
			dep=${dep%.xz} ;;
		*.ko.zst) zstd -qdc "$kmods/$dep" >"$stage$vmods/${dep%.zst}"
			dep=${dep%.zst} ;;
		*) cp "$kmods/$dep" "$stage$vmods/$dep" ;;
		esac
		grep -qx "$dep" "$stage/etc/pgpk/modules" ||
			echo "$dep" >>"$stage/etc/pgpk/modules"
	done
done

# Modules a case loads itself (never at boot): a key type (dns_resolver)
# and an asymmetric key parser (pkcs8_key_parser) registered while an
# upcall waits (54-upcall-hang).  Listed in /etc/pgpk/case-modules.
: >"$stage/etc/pgpk/case-modules"
for name in ${PGPK_CASE_MODULES:-dns_resolver pkcs8_key_parser}; do
	m=$(sed -n "s,^\([^:]*/$name\.ko[.a-z]*\):.*,\1,p" "$kmods/modules.dep" |
		head -n 1)
	[ -n "$m" ] || continue
	for dep in $(moddeps "$m"); do
		mkdir -p "$stage$vmods/$(dirname "$dep")"
		case "$dep" in
		*.ko.xz) xz -dc "$kmods/$dep" >"$stage$vmods/${dep%.xz}"
			dep=${dep%.xz} ;;
		*.ko.zst) zstd -qdc "$kmods/$dep" >"$stage$vmods/${dep%.zst}"
			dep=${dep%.zst} ;;
		*) cp "$kmods/$dep" "$stage$vmods/$dep" ;;
		esac
	done
	m=${m%.xz}
	echo "$name $vmods/${m%.zst}" >>"$stage/etc/pgpk/case-modules"
done

# Users: root and nobody (for the unprivileged cases; the sandboxed parser
# runs under a uid of its own, 2130706432 + the broker's pid, no entry).
cat >"$stage/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >"$stage/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
echo "pgpk-vm" >"$stage/etc/hostname"

# The test harness itself.
install -m 0755 "$here/init.sh" "$stage/init"
install -m 0644 "$here/lib.sh" "$stage/pgpk/lib.sh"
grep -v -e '^#' -e '^$' "$here/kernel-reports.txt" \
	>"$stage/pgpk/kernel-reports.ere"
for c in $PGPK_CASES; do
	install -m 0755 "$c" "$stage/pgpk/cases/"
done
# The cases' other files (tests/vm/run.sh --cases DIR): $PGPK_CASE_DIR.
if [ -n "$PGPK_CASE_FILES" ] && [ -d "$PGPK_CASE_FILES" ]; then
	(cd "$PGPK_CASE_FILES" && find . ! -name '*.sh' ! -name . -prune \
		-exec cp -R {} "$stage/pgpk/cases/" \;)
fi
if [ -d "$here/tools" ]; then
	mkdir -p "$stage/pgpk/tools"
	cp -R "$here/tools/." "$stage/pgpk/tools/"
fi
if [ -d "$here/demo" ]; then
	cp -R "$here/demo/." "$stage/pgpk/demo/"
fi
if [ -n "$PGPK_VM_DATA" ] && [ -d "$PGPK_VM_DATA" ]; then
	cp -R "$PGPK_VM_DATA/." "$stage/pgpk/data/"
fi

# /dev/console for the kernel's initial console (root only; init reopens
# the console after mounting devtmpfs anyway).
mknod -m 0600 "$stage/dev/console" c 5 1 2>/dev/null || true

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
