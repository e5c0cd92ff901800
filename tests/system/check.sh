#!/bin/bash
# Runs inside the Debian system that tests/system/run.sh boots, as the
# systemd service pgpk-system-check (root, its own session keyring), after
# multi-user.target.  One line per check on the console:
#   PGPK-SYSTEM PASS <name> [(detail)]   PGPK-SYSTEM FAIL <name> (reason)
# then PGPK-SYSTEM-DONE; the service's ExecStopPost powers the VM off.
# What it runs, and what the commands print, is on the console too.
set -u

conf=/etc/request-key.d/pgpk.conf
key=/usr/share/keyrings/debian-archive-bookworm-automatic.gpg
key2=/usr/share/keyrings/debian-archive-bookworm-security-automatic.gpg

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

echo "PGPK-SYSTEM-START $(uname -r) $(grep '^PRETTY_NAME=' /etc/os-release)"
show systemctl --failed --no-legend
show dkms status

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
if id=$(keyctl padd asymmetric "" @s <"$key"); then
	desc=$(keyctl describe "$id")
	echo "$desc"
	case "$desc" in
	*"asymmetric: Debian Archive Automatic Signing Key 350947f8")
		pass upcall-key "$desc" ;;
	*) fail upcall-key "unexpected description: $desc" ;;
	esac
else
	fail upcall-key "keyctl padd asymmetric failed"
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

# --- apt purge leaves nothing ---
keyctl clear @s
rmmod pgpk 2>/dev/null # keys may still hold it: the files are the point
show env DEBIAN_FRONTEND=noninteractive apt-get purge -y pgpk-dkms pgpk-helper
left=""
for ko in /lib/modules/*/updates/dkms/pgpk.ko*; do
	[ -e "$ko" ] && left="$left $ko"
done
for f in /usr/sbin/pgpk-helper "$conf" /usr/src/pgpk-* /var/lib/dkms/pgpk \
	/usr/lib/modules-load.d/pgpk.conf; do
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
