#!/bin/sh
# Pick the Debian kernel the VM tests boot and the module is built for:
# the newest /boot/vmlinuz-<ver> whose /usr/src/linux-headers-<ver> is
# installed too.  linux-image-amd64 and linux-headers-amd64 move together,
# so the module always matches the kernel it is loaded into.  Never a
# hard-coded version.  Sourced; prints nothing itself.

# pgpk_pick_kver: print <ver> on stdout, or fail with a reason on stderr.
pgpk_pick_kver() {
	_pgpk_kver=""
	for _pgpk_img in $(ls /boot/vmlinuz-* 2>/dev/null | sort -V); do
		_pgpk_ver=${_pgpk_img#/boot/vmlinuz-}
		[ -f "/usr/src/linux-headers-$_pgpk_ver/Makefile" ] &&
			_pgpk_kver=$_pgpk_ver
	done
	if [ -z "$_pgpk_kver" ]; then
		echo "pgpk: no /boot/vmlinuz-<ver> with matching" \
			"/usr/src/linux-headers-<ver> (install" \
			"linux-image-amd64 linux-headers-amd64)" >&2
		return 1
	fi
	echo "$_pgpk_kver"
}
