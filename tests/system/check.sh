#!/bin/bash
# Runs inside the Debian system that tests/system/run.sh boots, as the
# systemd service pgpk-system-check (root, its own session keyring), after
# multi-user.target, once per boot.  One line per check on the console:
#   PGPK-SYSTEM PASS <name> [(detail)]   PGPK-SYSTEM FAIL <name> (reason)
# then either PGPK-SYSTEM-REBOOT <kernel> (run.sh boots the system again,
# with that kernel) or PGPK-SYSTEM-DONE; the service's ExecStopPost powers
# the VM off.  What it runs, and what the commands print, is on the
# console too.
#
# The boots (state in /var/lib/pgpk-system-check):
#   (with run.sh --secure-boot, first: the Secure Boot boot before DKMS's
#      key is enrolled (sb-unenrolled): Secure Boot on, lockdown, pgpk
#      refused and what says so, the package's warning; mokutil --import,
#      then run.sh answers MokManager in a boot of its own; every boot
#      below goes through shim, GRUB and the signed kernel with Secure Boot
#      on, and adds the sb/* checks)
#   (0. run.sh's own: the "enforce" initramfs stops the boot; check.sh
#      never runs)
#   1. the release's kernel, with the initramfs made without the IMA key
#      (pgpksystem=nokey): ima-fail-safe/no-key; module at boot, upcall,
#      journal, selftest, policy change; anchors-at-boot (run.sh's anchor
#      loaded into ".pgpk" by systemd-modules-load's modprobe, before
#      sysinit.target; a keyring restricted to ".pgpk"; locked)
#   2. the same kernel, its real initramfs: ima-at-boot (the packaged
#      hook's setup: signed, tampered, unsigned files, _ima);
#      anchors-at-boot/initramfs-loaded (the same, loaded by
#      pgpk-anchors.service: the initramfs loaded the module)
#   3. the kernel run.sh installed with apt after pgpk (new-kernel):
#      dkms-new-kernel (DKMS's module loaded at boot, upcall), IMA on it;
#      then purge
# /root/pgpk-system/ (from run.sh): anchor.pgp (also in
# /etc/pgpk/anchors/), anchor.fpr, certified.pgp (certified by the
# anchor), other.pgp (not), new-kernel, break (what run.sh broke on
# purpose, to show a check failing); with --secure-boot: secure-boot,
# control/ (control-unsigned.ko: Debian's dummy.ko without its signature;
# control-otherkey.ko: signed by other.der, a key nobody enrolled;
# control-mok.ko: signed by DKMS's key).
set -u
export SYSTEMD_COLORS=0 # the console is a terminal: no colour codes

conf=/etc/request-key.d/pgpk.conf
key=/usr/share/keyrings/debian-archive-bookworm-automatic.gpg
key2=/usr/share/keyrings/debian-archive-bookworm-security-automatic.gpg
data=/root/pgpk-system
state=/var/lib/pgpk-system-check
mkdir -p "$state"
phase=$(cat "$state/next" 2>/dev/null || echo first)

pass() { echo "PGPK-SYSTEM PASS $1${2:+ ($2)}"; }
fail() { echo "PGPK-SYSTEM FAIL $1${2:+ ($2)}"; }
# show CMD...: run CMD with a "# CMD" line before its output.
show() {
	echo "# $*"
	"$@"
}
# mark_journal, then journal_helper: the helper's journal lines since.
mark_journal() {
	journalctl --sync
	journal_mark=$(journalctl -q -t pgpk-helper --no-pager | wc -l)
}
journal_helper() {
	journalctl --sync
	journalctl -q -o short -t pgpk-helper --no-pager |
		tail -n +$((journal_mark + 1))
}
# reboot_into KERNEL NEXT-PHASE
reboot_into() {
	echo "$2" >"$state/next"
	sync
	echo "PGPK-SYSTEM-REBOOT $1"
	exit 0
}
# upcall_check NAME: the archive key through /sbin/request-key.
upcall_ok=""
upcall_check() {
	local id desc
	upcall_ok=""
	if id=$(keyctl padd asymmetric "" @s <"$key"); then
		desc=$(keyctl describe "$id")
		echo "$desc"
		case "$desc" in
		# the kernel names it by its key ID ("PGP key b7c5d7d6350947f8"
		# since the redesign; the helper's user ID before)
		*"asymmetric: PGP key b7c5d7d6350947f8" | *"asymmetric: Debian Archive Automatic Signing Key 350947f8")
			pass "$1" "$desc"
			upcall_ok=1 ;;
		*) fail "$1" "unexpected description: $desc" ;;
		esac
	else
		fail "$1" "keyctl padd asymmetric failed"
	fi
}
# pgpk_ring: the live ".pgpk" keyring's serial (decimal), or nothing.
pgpk_ring() {
	local r
	r=$(awk '$8 == "keyring" && $9 == ".pgpk:" && $2 !~ /R/ { print $1 }' \
		/proc/keys | tail -n 1)
	[ -n "$r" ] && echo $((0x$r))
}

# --- IMA appraisal at boot (run.sh's ima-setup.sh set it up) ---
ima_dir=/srv/pgpk-ima
# refused CMD...: CMD fails with EACCES ("Permission denied")
refused() {
	local err
	if err=$("$@" 2>&1 >/dev/null); then
		echo "$* succeeded"
		return 1
	fi
	echo "$err"
	case "$err" in *"Permission denied"*) return 0 ;; esac
	return 1
}
# ima_journal: this boot's kernel lines of the initramfs' setup
ima_journal() {
	journalctl --sync
	# (journald takes "pgpk-ima:" for the syslog identifier of a line
	# user space wrote to /dev/kmsg)
	journalctl -b -k -q -o short-monotonic -t pgpk-ima --no-pager
}
# ima_checks PREFIX: what the real initramfs set up, checked.
ima_checks() {
	local p=$1 lines ring desc out aud
	lines=$(ima_journal)
	echo "$lines"
	case "$lines" in
	*"_ima is key "*"1 key(s), locked"*)
		pass "$p/setup" "$(echo "$lines" | grep -m 1 '_ima is key')" ;;
	*) fail "$p/setup" "no '_ima is key' line of pgpk-ima in the kernel log: $(echo "$lines" | tr '\n' ';')" ;;
	esac
	if out=$(cat "$ima_dir/signed.txt" 2>&1) &&
		[ "$out" = "signed by the IMA subkey" ]; then
		pass "$p/signed-read" "$ima_dir/signed.txt: $out"
	else
		fail "$p/signed-read" "$out"
	fi
	if out=$(refused cat "$ima_dir/tampered.txt"); then
		pass "$p/tampered-refused" "$out"
	else
		fail "$p/tampered-refused" "$out"
	fi
	if out=$(refused cat "$ima_dir/unsigned.txt"); then
		pass "$p/unsigned-refused" "$out"
	else
		fail "$p/unsigned-refused" "$out"
	fi
	if out=$("$ima_dir/prog" 2>&1); then
		pass "$p/signed-exec" "$ima_dir/prog ran"
	else
		fail "$p/signed-exec" "$ima_dir/prog: $out"
	fi
	if out=$(refused "$ima_dir/prog-unsigned"); then
		pass "$p/unsigned-exec-refused" "$out"
	else
		fail "$p/unsigned-exec-refused" "$out"
	fi
	if out=$(cat "$ima_dir/outside.txt" 2>&1); then
		pass "$p/outside-read" "root's changed file, outside the set: read"
	else
		fail "$p/outside-read" "$out"
	fi
	# IMA's audit records of the refusals, in the journal
	sleep 1
	journalctl --sync
	aud=$(journalctl -b -q -o cat --no-pager | grep 'op=appraise_data')
	echo "$aud"
	if echo "$aud" | grep -q 'cause=invalid-signature.*tampered.txt' &&
		echo "$aud" | grep -q 'cause=IMA-signature-required.*unsigned.txt'; then
		pass "$p/audit" "$(echo "$aud" | grep -m 1 'tampered.txt' | cut -c 1-220)"
	else
		fail "$p/audit" "no audit record of both refusals (op=appraise_data, tampered.txt, unsigned.txt)"
	fi
	# _ima: root's, nobody else may see it, locked
	ring=$(keyctl search @u keyring _ima 2>/dev/null)
	desc=$(keyctl rdescribe "${ring:-0}" 2>&1)
	echo "_ima: ${ring:-none}: $desc"
	if [ -z "$ring" ]; then
		fail "$p/_ima" "no _ima in root's user keyring"
	elif [ "$desc" != "keyring;0;0;3f3f0000;_ima" ]; then
		fail "$p/_ima" "not root's only: $desc"
	elif out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		keyctl rdescribe "$ring" 2>&1); then
		fail "$p/_ima" "nobody can see _ima: $out"
	elif case "$out" in *"Permission denied"*) false ;; *) true ;; esac; then
		fail "$p/_ima" "nobody's describe refused, but not with EACCES: $out"
	elif out=$(keyctl padd asymmetric "" "$ring" </etc/pgpk/ima/keys/ima.pgpk 2>&1); then
		fail "$p/_ima" "root added a key to _ima after boot: not locked"
	else
		case "$out" in
		*"Operation not permitted"*) pass "$p/_ima" "$desc; nobody: EACCES; root's padd: EPERM" ;;
		*) fail "$p/_ima" "refused, but not with EPERM: $out" ;;
		esac
	fi
	if [ "$(systemctl is-active multi-user.target)" = active ]; then
		pass "$p/multi-user" "multi-user.target active, $(systemctl is-system-running)"
	else
		fail "$p/multi-user" "multi-user.target $(systemctl is-active multi-user.target)"
	fi
}

# --- Secure Boot (run.sh --secure-boot) ---
# DKMS's signing certificate: mok_certificate of its framework.conf, or
# its default.
dkms_cert() {
	local c
	c=$(sed -n 's/^[[:space:]]*mok_certificate=["]\{0,1\}\([^"]*\)["]\{0,1\}[[:space:]]*$/\1/p' \
		/etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf \
		2>/dev/null | tail -n 1)
	echo "${c:-/var/lib/dkms/mok.pub}"
}
# klog PATTERN: this boot's kernel log lines matching PATTERN (ERE)
klog() {
	journalctl --sync
	journalctl -b -k -q -o short-monotonic --no-pager | grep -E "$1"
}
# sb_state PREFIX: the firmware booted with Secure Boot on, and the kernel
# locked itself down because of it.
sb_state() {
	local p=$1 st lines lock
	st=$(mokutil --sb-state 2>&1)
	lines=$(klog 'secureboot: Secure boot|Kernel is locked down|ima: secureboot mode')
	echo "# mokutil --sb-state: $st"
	echo "$lines"
	case "$st" in
	*"SecureBoot enabled"*)
		if echo "$lines" | grep -q 'Secure boot enabled'; then
			pass "$p/state" "mokutil --sb-state: $st; $(echo "$lines" | grep -m 1 'Secure boot enabled' | sed 's/^.*secureboot/secureboot/')"
		else
			fail "$p/state" "mokutil says '$st', but no 'Secure boot enabled' in the kernel log"
		fi ;;
	*) fail "$p/state" "mokutil --sb-state: $st" ;;
	esac
	lock=$(cat /sys/kernel/security/lockdown 2>&1)
	echo "# /sys/kernel/security/lockdown: $lock"
	case "$lock" in
	*"[integrity]"* | *"[confidentiality]"*)
		if echo "$lines" | grep -q 'locked down from EFI Secure Boot'; then
			pass "$p/lockdown" "$lock; $(echo "$lines" | grep -m 1 'locked down' | sed 's/^.*Kernel is/Kernel is/')"
		else
			fail "$p/lockdown" "lockdown $lock, but not from EFI Secure Boot (kernel log)"
		fi ;;
	*) fail "$p/lockdown" "not locked down: $lock" ;;
	esac
}
# insmod_refused CHECK FILE LOG-LINE: FILE refused (EKEYREJECTED) with
# LOG-LINE in the kernel log, and not loaded.
insmod_refused() {
	local err
	if err=$(insmod "$2" 2>&1); then
		fail "$1" "$2 loaded: $(modinfo -F signer "$2")"
		rmmod dummy 2>/dev/null
		return
	fi
	echo "# insmod $2: $err"
	case "$err" in
	*"Key was rejected by service"*)
		if klog "$3" >/dev/null; then
			pass "$1" "$err; kernel: $(klog "$3" | tail -n 1 | sed 's/^.*\] //')"
		else
			fail "$1" "refused ($err), but no '$3' in the kernel log"
		fi ;;
	*) fail "$1" "refused, but not with EKEYREJECTED: $err" ;;
	esac
}
# module_signed CHECK: pgpk is loaded, signed by DKMS's key (the one the
# kernel loaded from MokListRT at boot), and nothing tainted the kernel
# as unsigned (E, 8192).
module_signed() {
	local cert subject signer skid key taint loaded
	cert=$(dkms_cert)
	subject=$(openssl x509 -inform DER -in "$cert" -noout -subject 2>/dev/null |
		sed 's/^subject= *//; s/^CN *= *//')
	# (modinfo's sig_key of a module sign-file signed with a certificate is
	# that certificate's serial number)
	skid=$(openssl x509 -inform DER -in "$cert" -noout -serial 2>/dev/null |
		sed 's/^serial=//' | tr 'A-F' 'a-f')
	signer=$(modinfo -F signer pgpk 2>/dev/null)
	key=$(modinfo -F sig_key pgpk 2>/dev/null | tr -d ':' | tr 'A-F' 'a-f')
	taint=$(cat /proc/sys/kernel/tainted)
	loaded=$(klog "Loaded X.509 cert '$subject" | tail -n 1 | sed 's/^.*\] //')
	echo "# pgpk: signer '$signer', sig_key $key; $cert: '$subject', serial $skid; tainted $taint"
	echo "$loaded"
	if [ ! -d /sys/module/pgpk ]; then
		fail "$1" "pgpk is not loaded"
	elif [ -z "$signer" ] || [ "$signer" != "$subject" ] || [ "$key" != "$skid" ]; then
		fail "$1" "pgpk is signed by '$signer' ($key), not by DKMS's key '$subject' ($skid)"
	elif [ $((taint & 8192)) -ne 0 ]; then
		fail "$1" "the kernel is tainted by an unsigned module ($taint)"
	elif [ -z "$loaded" ]; then
		fail "$1" "pgpk loaded, but the kernel log has no 'Loaded X.509 cert '$subject'"
	else
		pass "$1" "$(modinfo -F filename pgpk) signed by '$signer' ($key); $loaded"
	fi
}
# ima_arch_policy CHECK: with Secure Boot on, IMA's architecture policy
# (CONFIG_IMA_ARCH_POLICY: "measure func=MODULE_CHECK", "measure
# func=KEXEC_KERNEL_CHECK", ahead of any policy loaded later) measured
# pgpk's module file as it was loaded; the policy the initramfs loaded
# (ima-at-boot) went in after it ("ima: policy update completed").
ima_arch_policy() {
	local m
	m=$(grep 'pgpk\.ko' /sys/kernel/security/ima/ascii_runtime_measurements 2>&1 |
		head -n 1)
	echo "# IMA measurements of pgpk: $m"
	show grep -c . /sys/kernel/security/ima/ascii_runtime_measurements
	case "$m" in
	*/updates/dkms/pgpk.ko*) pass "$1" "measured at load (arch policy): $(echo "$m" | cut -d ' ' -f 1,3,5)" ;;
	*) fail "$1" "no measurement of pgpk.ko in IMA's list (no arch policy: Secure Boot off?)" ;;
	esac
}
# sb_enrolled_checks: after the enrolment (run.sh answered MokManager)
sb_enrolled_checks() {
	local cert t out
	cert=$(dkms_cert)
	t=$(mokutil --test-key "$cert" 2>&1)
	echo "# mokutil --test-key $cert: $t"
	case "$t" in
	*"is already enrolled"*) pass sb/mok-enrolled "$t" ;;
	*) fail sb/mok-enrolled "$t" ;;
	esac
	show keyctl show %:.machine
	module_signed sb/module-signature
	ima_arch_policy sb/ima-arch-policy
	# The controls: the same module, Debian's dummy.ko, unsigned, signed by
	# a key nobody enrolled, signed by DKMS's key.
	insmod_refused sb/control-unsigned "$data/control/control-unsigned.ko" \
		'Loading of unsigned module is rejected'
	insmod_refused sb/control-otherkey "$data/control/control-otherkey.ko" \
		'Loading of module with unavailable key is rejected'
	if out=$(insmod "$data/control/control-mok.ko" 2>&1); then
		pass sb/control-mok "the same module signed by DKMS's key: loaded ($(modinfo -F signer "$data/control/control-mok.ko"))"
		rmmod dummy
	else
		fail sb/control-mok "the same module signed by DKMS's key was refused: $out"
	fi
}

# run.sh's boot 0 must stop in the initramfs: if it got this far, say so
# and change nothing (run.sh's ima-fail-safe/enforce fails on it)
case " $(cat /proc/cmdline) " in
*" pgpksystem=enforce "*)
	echo "PGPK-SYSTEM-ENFORCE-IGNORED the boot went past the initramfs"
	exit 0
	;;
esac

echo "PGPK-SYSTEM-START $phase $(uname -r) $(grep '^PRETTY_NAME=' /etc/os-release)"
show systemctl --failed --no-legend
show dkms status

purge_check() {
	keyctl clear @s
	# Removing pgpk-helper's initramfs hook triggers update-initramfs -u
	# (the newest kernel's): with initramfs-tools' MODULES=most that takes
	# over 10 minutes under TCG on two shared cores; MODULES=dep (right
	# here, in the booted system) makes it a small one.
	sed -i 's/^MODULES=.*/MODULES=dep/' /etc/initramfs-tools/initramfs.conf
	rmmod pgpk 2>/dev/null # keys may still hold it: the files are the point
	show env DEBIAN_FRONTEND=noninteractive apt-get purge -y pgpk-dkms pgpk-helper
	left=""
	for ko in /lib/modules/*/updates/dkms/pgpk.ko*; do
		[ -e "$ko" ] && left="$left $ko"
	done
	for f in /usr/sbin/pgpk-helper "$conf" /usr/src/pgpk-* /var/lib/dkms/pgpk \
		/usr/lib/modules-load.d/pgpk.conf /usr/sbin/pgpk-anchors \
		/etc/modprobe.d/pgpk-anchors.conf /usr/sbin/pgpk-ima-setup \
		/lib/systemd/system/pgpk-anchors.service \
		/usr/share/initramfs-tools/hooks/pgpk-ima \
		/usr/share/initramfs-tools/scripts/init-bottom/pgpk-ima; do
		[ -e "$f" ] && left="$left $f"
	done
	# (dkms 3.0.10 may complain of a broken pipe on stderr when it has
	# nothing to list: its output is what counts.)
	st=$(dkms status 2>/dev/null)
	echo "# dkms status"
	echo "$st"
	[ -n "$st" ] && left="$left (dkms status: $st)"
	dpkg -l 'pgpk*' 2>/dev/null | grep -q '^[ri]' && left="$left (dpkg still lists pgpk)"
	if [ -z "$left" ]; then
		pass purge "no module for any kernel of: $(echo /lib/modules/*)"
	else
		fail purge "left:$left"
	fi
	echo "PGPK-SYSTEM-DONE"
	exit 0
}

# padd_refused CHECK ERRNO STRERROR KEYRING FILE IF-ACCEPTED: root's
# keyctl padd of FILE into KEYRING must fail with ERRNO.
padd_refused() {
	if keyctl padd asymmetric "" "$4" <"$5" 2>/run/err; then
		fail "$1" "$6"
	else
		case "$(cat /run/err)" in
		*"$3"*) pass "$1" "$2: $(cat /run/err)" ;;
		*) fail "$1" "refused, but not with $2: $(cat /run/err)" ;;
		esac
	fi
}
# anchors_checks [SUFFIX]: the anchors were loaded into .pgpk by the
# boot, before sysinit.target, then locked; by systemd-modules-load.service
# (the modprobe install command), or by pgpk-anchors.service when the
# initramfs loaded the module (IMA's setup did).  SUFFIX: of the checks'
# names.
anchors_checks() {
	local sfx=${1:-} unit=systemd-modules-load.service
	local fpr jr nlock nsys nuser ring fpr8 found k kd r id units
	ima_journal | grep -q '_ima is key' && unit=pgpk-anchors.service
	fpr=$(cat "$data/anchor.fpr")
	journalctl --sync
	show journalctl -b -q -o short-monotonic -t pgpk-anchors --no-pager
	show journalctl -b -q -o verbose -t pgpk-anchors --no-pager \
		--output-fields=_SYSTEMD_UNIT,_COMM,MESSAGE | grep -E '^ *(_SYSTEMD_UNIT|_COMM)=' | sort | uniq -c
	# Which unit ran it: its standard error reached the journal through
	# that unit's stream (_SYSTEMD_UNIT of a stream is always known; of a
	# syslog line only while the process still lives, not under load).
	units=""
	for k in systemd-modules-load.service pgpk-anchors.service; do
		journalctl -b -q -u "$k" -o cat --no-pager |
			grep -q '\.pgpk ([0-9]*) locked' &&
			units="$units$k "
	done
	echo "pgpk-anchors ran from: ${units:-no unit}"
	# The order of the boot: the anchors' lines before sysinit.target
	# (before any login, user session or ordinary service).
	jr=$(journalctl -b -q -o short-monotonic --no-pager)
	nlock=$(echo "$jr" | grep -n 'pgpk-anchors.*locked' | head -n 1 | cut -d : -f 1)
	nsys=$(echo "$jr" | grep -n -E 'Reached target (sysinit.target|System Initialization)' | head -n 1 | cut -d : -f 1)
	nuser=$(echo "$jr" | grep -n -E 'systemd-logind|Started (user@|getty@|Session )' | head -n 1 | cut -d : -f 1)
	echo "journal lines: anchors locked #${nlock:-none}, sysinit.target #${nsys:-none}, first logind/session/getty #${nuser:-none}"
	echo "$jr" | grep -E 'pgpk-anchors|Reached target (sysinit.target|System Initialization)|Load Kernel Modules|systemd-modules-load' | head -n 20
	ring=$(pgpk_ring)
	show keyctl rdescribe "${ring:-0}"
	show keyctl rlist "${ring:-0}"
	# The anchor among .pgpk's keys, by description (key ID's last 8 hex
	# digits; root is no possessor of .pgpk's keys, so keyctl search
	# is refused: EACCES).
	fpr8=$(echo "$fpr" | tr 'A-F' 'a-f' | tail -c 9)
	found=""
	for k in $(keyctl rlist "${ring:-0}" 2>/dev/null); do
		kd=$(keyctl rdescribe "$k")
		echo "$k: $kd"
		case "$kd" in *" $fpr8") found=$kd ;; esac
	done
	if [ -z "$nlock" ]; then
		fail "anchors-at-boot$sfx" "no 'locked' line of pgpk-anchors in this boot's journal"
	elif [ "$units" != "$unit " ]; then
		fail "anchors-at-boot$sfx" "pgpk-anchors ran from ${units:-no unit}, not from $unit"
	elif [ -z "$nsys" ] || [ "$nlock" -ge "$nsys" ]; then
		fail "anchors-at-boot$sfx" "pgpk-anchors locked .pgpk at journal line $nlock, after sysinit.target (line ${nsys:-none})"
	elif [ -z "$found" ]; then
		fail "anchors-at-boot$sfx" "the anchor $fpr is not in .pgpk (${ring:-no keyring})"
	else
		pass "anchors-at-boot$sfx" "$(echo "$jr" | grep -m 1 'pgpk-anchors.*anchor.pgp' | sed 's/^.*pgpk-anchors/pgpk-anchors/' | cut -c 1-160); by $unit, locked at journal line $nlock, sysinit.target at $nsys"
	fi
	# A keyring restricted to .pgpk: the anchor's certification vouches.
	keyctl clear @s
	r=$(keyctl newring restricted @s)
	if [ -n "$ring" ] && show keyctl restrict_keyring "$r" asymmetric "key_or_keyring:$ring"; then
		if id=$(keyctl padd asymmetric "" "$r" <"$data/certified.pgp" 2>/run/err); then
			pass "anchors-certified$sfx" "$(keyctl describe "$id")"
		else
			fail "anchors-certified$sfx" "a key the anchor certified was refused: $(cat /run/err)"
		fi
		padd_refused "anchors-uncertified$sfx" ENOKEY "Required key not available" \
			"$r" "$data/other.pgp" "a key the anchor did not certify was accepted"
	else
		fail "anchors-certified$sfx" "no .pgpk, or cannot restrict a keyring to it"
		fail "anchors-uncertified$sfx" "no .pgpk, or cannot restrict a keyring to it"
	fi
	# Locked: root cannot add to .pgpk after boot (EPERM).
	if [ -z "$ring" ]; then
		fail "anchors-locked$sfx" "no .pgpk"
	else
		padd_refused "anchors-locked$sfx" EPERM "Operation not permitted" \
			"$ring" "$data/other.pgp" "root added a key to .pgpk after boot"
	fi
	keyctl clear @s
}

case "$phase" in
sb-unenrolled)
	# --- Secure Boot, DKMS's key not enrolled yet: what the user sees ---
	sb_state sb-unenrolled
	cert=$(dkms_cert)
	if [ -d /sys/module/pgpk ]; then
		fail sb-unenrolled/module-refused "pgpk was loaded at boot, its key not enrolled"
	else
		lines=$(journalctl -b -q -o cat -u systemd-modules-load.service --no-pager)
		echo "$lines"
		err=$(modprobe pgpk 2>&1)
		echo "# modprobe pgpk: $err"
		# (the first line is modprobe's own; the others, libkmod's word on
		# the modprobe.d install command that ran it)
		err=$(echo "$err" | head -n 1)
		# (systemd-modules-load loads it through the modprobe.d install
		# command of pgpk-anchors: its modprobe's error is in the journal)
		case "$lines /// $err" in
		*"pgpk"*"Key was rejected by service"*///*"Key was rejected by service"*)
			pass sb-unenrolled/module-refused "$(echo "$lines" | grep -m 1 "Key was rejected"); modprobe: $err; kernel: $(klog 'Loading of .* is rejected' | tail -n 1 | sed 's/^.*\] //')" ;;
		*) fail sb-unenrolled/module-refused "no 'Key was rejected by service' from systemd-modules-load and modprobe: $err" ;;
		esac
	fi
	# without the module nothing reads OpenPGP: the kernel's own parsers
	# refuse the bytes
	if out=$(keyctl padd asymmetric "" @s <"$key" 2>&1); then
		fail sb-unenrolled/openpgp-refused "an OpenPGP key was added without pgpk: $out"
	else
		pass sb-unenrolled/openpgp-refused "keyctl padd asymmetric (an OpenPGP key): $out"
	fi
	lines=$(ima_journal)
	echo "$lines"
	if [ -f /etc/pgpk/ima/policy ]; then
		case "$lines" in
		# (the initramfs' modprobe prints no reason there: pgpk-ima-setup
		# finds the module with modprobe -D and reads the lockdown state)
		*"modprobe pgpk failed: the kernel refused "*"pgpk.ko"*"(Secure Boot: is DKMS's key enrolled?"*"NOT set up"*)
			pass sb-unenrolled/ima "$(echo "$lines" | grep -m 1 'modprobe pgpk failed' | sed 's/^.*pgpk-ima: //') / $(echo "$lines" | grep -m 1 'NOT set up' | sed 's/^.*pgpk-ima: //')" ;;
		*) fail sb-unenrolled/ima "the initramfs' IMA setup did not say that pgpk was refused: $(echo "$lines" | tr '\n' ';')" ;;
		esac
	fi
	# the package's warning, as at installation (what its postinst runs
	# once DKMS built the module; dpkg-reconfigure would build it again)
	out=$(/usr/lib/pgpk-dkms/secure-boot-check 2>&1)
	echo "$out"
	case "$out" in
	*"pgpk-dkms: W: Secure Boot is on, and DKMS's key $cert is not enrolled"*)
		pass sb-unenrolled/package-warning "$(echo "$out" | grep 'pgpk-dkms: W:' | tr '\n' ' ' | cut -c 1-300)" ;;
	*) fail sb-unenrolled/package-warning "/usr/lib/pgpk-dkms/secure-boot-check gave no warning" ;;
	esac
	# the one-time enrolment, as README says (the password non-interactive:
	# --hash-file); control-enrolled (PGPK_SYSTEM_BREAK): the control's key
	# too
	keys=$cert
	case "$(cat "$data/break")" in
	*" control-enrolled "*) keys="$keys $data/control/other.der" ;;
	esac
	mokutil --generate-hash="$(cat "$data/mok-password")" >/run/mok.hash
	# shellcheck disable=SC2086
	show mokutil --import $keys --hash-file /run/mok.hash
	t=$(mokutil --test-key "$cert" 2>&1)
	out=$(/usr/lib/pgpk-dkms/secure-boot-check 2>&1)
	echo "$t"
	echo "$out"
	case "$t $out" in
	*"already in the enrollment request"*"waiting to be enrolled"*)
		pass sb-unenrolled/mok-import "$t; $(echo "$out" | grep -m 1 'pgpk-dkms: W:')" ;;
	*) fail sb-unenrolled/mok-import "mokutil --test-key: $t" ;;
	esac
	echo "PGPK-SYSTEM-MOKMANAGER"
	reboot_into "$(uname -r)" first
	;;
first)
	[ -f "$data/secure-boot" ] && sb_state sb && sb_enrolled_checks
	# --- the initramfs without the IMA key: no appraisal, said so ---
	case " $(cat /proc/cmdline) " in
	*" pgpksystem=nokey "*)
		lines=$(ima_journal)
		echo "$lines"
		if ! echo "$lines" | grep -q 'no key in /etc/pgpk/ima/keys' ||
			! echo "$lines" | grep -q 'IMA appraisal is NOT set up'; then
			fail ima-fail-safe/no-key "no pgpk-ima message in the kernel log: $(echo "$lines" | tr '\n' ';')"
		elif [ ! -e /sys/kernel/security/ima/policy ]; then
			fail ima-fail-safe/no-key "an IMA policy was loaded"
		elif ! cat "$ima_dir/unsigned.txt" >/dev/null; then
			fail ima-fail-safe/no-key "an unsigned file of the set is refused"
		elif keyctl search @u keyring _ima >/dev/null 2>&1; then
			fail ima-fail-safe/no-key "an _ima was left in root's user keyring"
		else
			pass ima-fail-safe/no-key "booted to $(systemctl is-active multi-user.target) multi-user.target, no policy, no _ima: $(echo "$lines" | tail -n 1)"
		fi
		;;
	esac
	# --- the module: built by DKMS, loaded at boot (modules-load.d) ---
	if [ -d /sys/module/pgpk ]; then
		pass module-loaded-at-boot "$(modinfo -F filename pgpk)"
	else
		fail module-loaded-at-boot "not in /sys/module; systemd-modules-load: $(systemctl is-active systemd-modules-load)"
		modprobe pgpk || fail modprobe "modprobe pgpk failed"
	fi
	show lsmod | grep '^pgpk'

	# --- an OpenPGP key through /sbin/request-key and the packaged conf ---
	mark_journal
	show grep -v '^#' "$conf"
	upcall_check upcall-key
	# --upgrade-from: the upgraded system after its first reboot, the
	# locally edited conf in force.
	if [ -f "$data/upgraded-from" ]; then
		if [ -n "$upcall_ok" ] && grep -q '^# local edit' "$conf"; then
			pass upgrade/upcall-after-reboot "from $(cat "$data/upgraded-from"), $(modinfo -F filename pgpk) loaded, the edited conf in force"
		else
			fail upgrade/upcall-after-reboot "upcall ${upcall_ok:-failed}; $(head -n 1 "$conf")"
		fi
	fi
	lines=$(journal_helper)
	echo "$lines"
	case "$lines" in
	*"instantiated"*) pass journal-line "journalctl -t pgpk-helper: $(echo "$lines" | grep -m 1 instantiated | sed 's/^.*pgpk-helper/pgpk-helper/')" ;;
	*) fail journal-line "no 'instantiated' line in journalctl -t pgpk-helper" ;;
	esac

	# --- the installation checks itself ---
	if show pgpk-helper --selftest; then
		pass selftest
	else
		fail selftest "pgpk-helper --selftest exited $?"
	fi

	# --- a policy change takes effect at the next upcall ---
	cp "$conf" /run/pgpk.conf.orig
	sed -i 's/--min-rsa-bits=[0-9]*/--min-rsa-bits=8192/; s/--negative-timeout=[0-9]*/--negative-timeout=1/' "$conf"
	show grep -v '^#' "$conf"
	mark_journal
	if keyctl padd asymmetric "" @s <"$key2" 2>/run/err; then
		fail policy-stricter "a 4096-bit key was accepted with --min-rsa-bits=8192"
	else
		lines=$(journal_helper)
		cat /run/err
		echo "$lines"
		case "$(cat /run/err) $lines" in
		*"rejected by service"*EKEYREJECTED*)
			pass policy-stricter "$(echo "$lines" | grep -m 1 rejected | sed 's/^.*pgpk-helper/pgpk-helper/')" ;;
		*) fail policy-stricter "refused, but not as EKEYREJECTED by the policy" ;;
		esac
	fi
	cp /run/pgpk.conf.orig "$conf"
	sleep 2 # the refusal was cached for --negative-timeout=1 s
	if id2=$(keyctl padd asymmetric "" @s <"$key2"); then
		pass policy-restored "$(keyctl describe "$id2")"
	else
		fail policy-restored "the key is still refused with the packaged policy"
	fi

	# --- the anchors (run.sh put one into /etc/pgpk/anchors/) ---
	anchors_checks
	reboot_into "$(uname -r)" anchors
	;;
anchors)
	# --- IMA from the real initramfs (update-initramfs -u -k all) ---
	[ -f /etc/pgpk/ima/policy ] && ima_checks ima-at-boot
	# --- the initramfs loaded pgpk: pgpk-anchors.service loads anchors ---
	anchors_checks /initramfs-loaded
	if [ -s "$data/new-kernel" ]; then
		reboot_into "$(cat "$data/new-kernel")" new-kernel
	fi
	purge_check
	;;
new-kernel)
	# --- a kernel installed after pgpk: DKMS's module, loaded at boot ---
	want=$(cat "$data/new-kernel")
	if [ "$(uname -r)" != "$want" ]; then
		fail dkms-new-kernel/boot "running $(uname -r), not $want"
	elif [ -d /sys/module/pgpk ]; then
		f=$(modinfo -F filename pgpk)
		case "$f" in
		*/"$want"/updates/dkms/pgpk.ko*) pass dkms-new-kernel/boot "$want: $f" ;;
		*) fail dkms-new-kernel/boot "pgpk loaded, but from $f" ;;
		esac
	else
		fail dkms-new-kernel/boot "$want: pgpk not loaded at boot"
		modprobe pgpk || fail modprobe "modprobe pgpk failed"
	fi
	upcall_check dkms-new-kernel/upcall
	if [ -f "$data/secure-boot" ]; then
		sb_state "sb/$want"
		module_signed "sb/$want/module-signature"
		ima_arch_policy "sb/$want/ima-arch-policy"
	fi
	[ -f /etc/pgpk/ima/policy ] && ima_checks "ima-at-boot/$want"
	purge_check
	;;
*)
	fail boot "unknown phase $phase"
	echo "PGPK-SYSTEM-DONE"
	;;
esac
