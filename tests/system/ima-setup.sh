#!/bin/bash
# Runs inside the system tests/system/run.sh builds (chroot), as its
# administrator following README's "IMA appraisal with your OpenPGP key":
# a certificate with an IMA subkey (pgpk ima-sign --new-key),
# files signed with it (ima-sign), the canonical key and a policy in
# /etc/pgpk/ima/, then update-initramfs -u -k all for real (the packaged
# hook puts the setup into every kernel's initramfs).
#
# The appraised set is what the policy names: files owned by uid 4242
# (read: FILE_CHECK, run: BPRM_CHECK), in /srv/pgpk-ima/:
#   signed.txt      signed                    must read
#   tampered.txt    signed, then changed      must be refused
#   unsigned.txt    no signature              must be refused
#   prog            /usr/bin/true, signed     must run
#   prog-unsigned   /usr/bin/true, unsigned   must not run
#   outside.txt     signed, changed, root's   must read (not in the set)
# Two more initramfs images for the fail-safe boots, made with
# mkinitramfs before the real update-initramfs, into /root/pgpk-system/:
#   initrd-nokey    the key missing from /etc/pgpk/ima/keys
#   initrd-enforce  /etc/pgpk/ima/enforce, and pgpk not in the initramfs
#                   (as for a kernel DKMS did not build it for)
#
# usage: ima-setup.sh BASE-KERNEL [BREAK...]
#   BREAK: ima-hook (the hook removed before any initramfs is made),
#          ima-enforce-off (the enforce image without enforce),
#          ima-tamper-outside (tampered.txt is root's: outside the set)
set -eu
kver=$1
shift
brk=" $* "
data=/root/pgpk-system
conf=/etc/pgpk/ima
set_dir=/srv/pgpk-ima
export GNUPGHOME=/root/.gnupg-ima
g=(gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase '')

mkdir -p "$GNUPGHOME"
chmod 700 "$GNUPGHOME"
# unattended: keys without a passphrase, gpg answers its agent itself
# (ima-sign --new-key runs gpg --batch; in a terminal pinentry would ask)
printf 'pinentry-mode loopback\npassphrase \n' >"$GNUPGHOME/gpg.conf"
"${g[@]}" --quick-generate-key "pgpk system IMA <ima@pgpk.test>" rsa3072 sign never
fpr=$("${g[@]}" --with-colons --list-keys ima@pgpk.test |
	awk -F: '$1 == "fpr" { print $10; exit }')
echo "# pgpk ima-sign --new-key $fpr"
sub=$(pgpk ima-sign --new-key "$fpr")
echo "IMA subkey: $sub"
"${g[@]}" --export "$fpr" >"$data/ima-cert.pgp"
mkdir -p "$conf/keys"
pgpk key --select "$sub" -o "$conf/keys/ima.pgpk" "$data/ima-cert.pgp"

# the appraised set, and a file outside it
mkdir -p "$set_dir"
echo "signed by the IMA subkey" >"$set_dir/signed.txt"
echo "signed by the IMA subkey, then changed" >"$set_dir/tampered.txt"
echo "never signed" >"$set_dir/unsigned.txt"
echo "root's, signed, then changed: not in the appraised set" >"$set_dir/outside.txt"
cp /usr/bin/true "$set_dir/prog"
cp /usr/bin/true "$set_dir/prog-unsigned"
echo "# pgpk ima-sign --key $sub ..."
pgpk ima-sign --key "$sub" "$set_dir/signed.txt" \
	"$set_dir/tampered.txt" "$set_dir/outside.txt" "$set_dir/prog"
echo "changed after signing" >>"$set_dir/tampered.txt"
echo "changed after signing" >>"$set_dir/outside.txt"
chown 4242:4242 "$set_dir"/signed.txt "$set_dir"/tampered.txt \
	"$set_dir"/unsigned.txt "$set_dir"/prog "$set_dir"/prog-unsigned
case "$brk" in
*" ima-tamper-outside "*) chown 0:0 "$set_dir/tampered.txt" ;;
esac
getfattr -d -m security.ima -e hex "$set_dir"/* 2>/dev/null || true

# the policy: the example's exclusions, then the rules of this system
grep '^dont_appraise' /usr/share/doc/pgpk-helper/examples/ima-policy \
	>"$conf/policy"
cat >>"$conf/policy" <<'POLICY'
appraise func=FILE_CHECK mask=MAY_READ fowner=4242 appraise_type=imasig
appraise func=BPRM_CHECK fowner=4242 appraise_type=imasig
POLICY
touch "$conf/lock"

# the fail-safe images first (mkinitramfs, as update-initramfs runs it)
case "$brk" in
*" ima-hook "*) rm -f /usr/share/initramfs-tools/hooks/pgpk-ima ;;
esac
mv "$conf/keys/ima.pgpk" /root/ima.pgpk.aside
echo "# mkinitramfs -o $data/initrd-nokey $kver  (no key)"
mkinitramfs -o "$data/initrd-nokey" "$kver"
mv /root/ima.pgpk.aside "$conf/keys/ima.pgpk"
case "$brk" in
*" ima-enforce-off "*) ;;
*) touch "$conf/enforce" ;;
esac
ko=$(find "/lib/modules/$kver/updates" -name 'pgpk.ko*' | head -n 1)
mv "$ko" /root/pgpk.ko.aside
depmod "$kver"
echo "# mkinitramfs -o $data/initrd-enforce $kver  (enforce, no pgpk.ko)"
mkinitramfs -o "$data/initrd-enforce" "$kver"
mv /root/pgpk.ko.aside "$ko"
depmod "$kver"
rm -f "$conf/enforce"

echo "# update-initramfs -u -k all"
update-initramfs -u -k all
gpgconf --kill all
