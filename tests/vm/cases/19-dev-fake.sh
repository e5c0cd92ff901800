#!/bin/sh
# DEV ONLY (not committed): stand the fake helper in for pgpk-helper.
. /pgpk/lib.sh
K=$PGPK_DATA/k
if [ ! -x /usr/sbin/pgpk-helper ]; then
	printf '#!/bin/sh\nexec /bin/sh %s %s "$2"\n' "$K/fake-helper.sh" "$K/truth" >/usr/sbin/pgpk-helper
	chmod 755 /usr/sbin/pgpk-helper
	echo "create pgpk * * /usr/sbin/pgpk-helper upcall %k" >/etc/request-key.d/pgpk.conf
fi
pgpk_load
exit 0
