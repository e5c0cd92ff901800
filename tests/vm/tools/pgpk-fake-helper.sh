#!/bin/sh
# A stand-in for pgpk-helper in the VM, for the lying-helper cases: it
# answers an upcall with a canonical blob prepared on the host, found in
# DIR by the SHA-256 of the OpenPGP bytes submitted (the callout data,
# read from the authorisation key; the module's descriptions are random),
# and rejects with EBADMSG otherwise.  Logs like the real helper, under
# the same syslog tag.
#
# request-key.d line: create pgpk * * /bin/sh <this> DIR %k
dir=$1
key=$2
sum=$(keyctl pipe @a | sha256sum | cut -c 1-64)
if [ -f "$dir/$sum" ]; then
	logger -t pgpk-helper "fake: key $key ($sum) instantiated from $dir"
	keyctl pinstantiate "$key" 0 <"$dir/$sum"
else
	logger -t pgpk-helper "fake: key $key ($sum) rejected EBADMSG"
	keyctl reject "$key" 30 74 0
fi
