#!/bin/sh
# A stand-in for pgpk-helper in the VM, for the lying-helper case (and for
# kernel work while the real helper is not built): it answers an upcall
# with a canonical blob prepared on the host, found by the upcall
# description (":" -> "_") in DIR, and rejects with EBADMSG otherwise.
# Logs like the real helper, under the same syslog tag.
#
# request-key.d line: create pgpk * * /bin/sh <this> DIR %k
dir=$1
key=$2
desc=$(keyctl rdescribe "$key" | cut -d ';' -f 5-)
name=$(echo "${desc#*:}" | tr ':' '_')
if [ -f "$dir/$name" ]; then
	logger -t pgpk-helper "fake: key $key $desc instantiated from $dir"
	keyctl pinstantiate "$key" 0 <"$dir/$name"
else
	logger -t pgpk-helper "fake: key $key $desc rejected EBADMSG"
	keyctl reject "$key" 30 74 0
fi
